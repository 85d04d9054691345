"""The bundled fonts and their licence, shipped as `companion.fontfiles` (see
companion/files/paths.py)."""
