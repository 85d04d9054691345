"""Data, not code: shipped inside the wheel as `companion.layouts` and read through
importlib.resources (see companion/files/paths.py). `companion init GAME` copies a game's file
for editing."""
