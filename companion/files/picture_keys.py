"""The keys any entry that makes cards may take to give its cards a picture. Here, below
both, so that the data loader and spreadsheets know them without knowing art.py."""

KEYS = ("art", "art_fit", "art_anchor")
