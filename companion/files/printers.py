"""Printer profiles (`companion calibrate`), kept as JSON files in the user's
configuration folder, one a printer: written whole or not at all."""

import json
from pathlib import Path

from companion.errors import CompanionError, shown
from companion.files import paths
from companion.files.atomic import write_text

FOLDER = "printers"
_LARGEST = 1 << 20  # a profile is a few hundred bytes


def _path(name: str) -> Path:
    return paths.config(FOLDER) / f"{name}.json"


def save(name: str, profile: dict) -> Path:
    path = _path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, json.dumps(profile, indent=2) + "\n")
    return path


def load(name: str) -> dict:
    path = _path(name)
    try:
        if path.stat().st_size > _LARGEST:
            raise CompanionError("is too large for a printer profile", source=str(path))
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        known = names()
        raise CompanionError(f"no printer profile {shown(name)} ("
                             + (f"have: {', '.join(known)}" if known else
                                "none yet: make one with companion calibrate duplex")
                             + ")", field="--printer") from None
    except (OSError, ValueError) as e:
        raise CompanionError(f"cannot be read as a printer profile ({e})",
                             source=str(path)) from None


def names() -> list[str]:
    folder = paths.config(FOLDER)
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []


def remove(name: str) -> Path:
    path = _path(name)
    try:
        path.unlink()
    except FileNotFoundError:
        raise CompanionError(f"no printer profile {shown(name)}", field="NAME") from None
    return path
