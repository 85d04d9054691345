"""What some tests need beyond the package: system tools (poppler, qpdf, zbarimg,
chromium) and the rulebooks beside the repository (../shared/rules). Where one is missing
the test skips and says why, so a fresh clone's `python -m pytest` passes; in CI
(CI=true) nothing may skip, so a missing one fails the run instead."""

import os
import shutil
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"


def _missing(what: str, how: str):
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} is missing, and CI must run every test: {how}")
    pytest.skip(f"{what} is not here ({how})")


def tool(name: str) -> str:
    """The path of a system tool, e.g. tool("qpdf")."""
    found = shutil.which(name)
    if not found:
        _missing(name, ".ci/run installs it with apt")
    return found


def rules() -> Path:
    """The folder of the games' rulebooks."""
    folder = SHARED / "rules"
    if not folder.is_dir():
        _missing(str(folder), "the rulebooks live in the steering repo's shared/, beside this one")
    return folder


def axe() -> str:
    """axe-core's axe.min.js: AXE_CORE names it (.ci/run installs the pinned version from
    the npm registry: `npm install --prefix DIR axe-core@VERSION`)."""
    path = os.environ.get("AXE_CORE", "")
    if not path or not Path(path).is_file():
        _missing("axe-core (AXE_CORE=path/to/axe.min.js)",
                 ".ci/run installs it with npm and sets AXE_CORE")
    return path
