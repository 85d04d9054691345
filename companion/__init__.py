"""table-companion: print-and-play kits, table scorers and the phone bag draw."""

__version__ = "0.1.0"
