"""The bundled fonts and their licence, shipped as `companion.fontfiles` (see companion/paths.py)."""
