"""A designer's files and what a run keeps: the one way a file is read, the bounded worker
every decoder runs in, data, spreadsheets, sheet URLs, pictures, the cache, atomic writes,
locks, paths."""
