"""Words and lengths, no files: French typography, units, "{field}" templates, every text
measured."""
