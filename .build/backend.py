"""The build backend: setuptools', behind a check of the Python that builds. pip (23 and
older at least) resolves an editable install's dependencies before it compares the
project's requires-python, so on Python 3.10 it failed naming a dependency (starlette);
this says what is wrong instead."""

import sys

if sys.version_info < (3, 11):
    sys.exit("table-companion needs Python 3.11 or newer; this is Python %d.%d: install it "
             "with a newer Python (python3.11 -m venv .venv)" % sys.version_info[:2])

from setuptools.build_meta import *  # noqa: E402,F401,F403
