"""The `companion score GAME` commands: input, words, JSON and PDFs around companion/rules/."""
