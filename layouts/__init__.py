"""Data, not code: shipped inside the wheel as `companion.layouts` and read through
importlib.resources (see companion/paths.py). `companion init GAME` copies a game's file
for editing."""
