"""table-companion: print-and-play kits, table scorers and the phone bag draw."""

import sys

# Checked before anything else is imported: on an older Python the first failure would
# otherwise be an obscure ImportError (tomllib is 3.11+). Kept to syntax any Python 3 reads.
if sys.version_info < (3, 11):
    sys.exit("table-companion needs Python 3.11 or newer; this is Python %d.%d."
             % sys.version_info[:2])

# The command line (`companion`, `python -m companion`) takes Ctrl+C over here, the first
# of our code to run, so that even during start-up it is one line (companion.interrupt).
if sys.argv and (sys.argv[0] == "-m" or sys.argv[0].rsplit("/", 1)[-1] == "companion"):
    from companion import interrupt as _interrupt

    _interrupt.install()
