"""One module per game: which components its kit has and how each face is laid out."""
