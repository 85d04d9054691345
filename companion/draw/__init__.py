"""Small drawing elements shared by every game: text that fits, symbols, colours."""
