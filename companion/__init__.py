"""table-companion: print-and-play kits, table scorers and the phone bag draw."""

import sys

# Checked before anything else is imported: on an older Python the first failure would
# otherwise be an obscure ImportError (tomllib is 3.11+). Kept to syntax any Python 3 reads.
if sys.version_info < (3, 11):
    sys.exit("table-companion needs Python 3.11 or newer; this is Python %d.%d."
             % sys.version_info[:2])
