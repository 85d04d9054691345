#!/usr/bin/env python3
"""Print a pip constraints file that pins every dependency pyproject.toml declares (the
package's own and its extras') to its lower bound, `name==floor`, so that CI can install
the oldest set the project claims to work with. Read from pyproject.toml each time, the
floors tested are always the floors declared.

Usage: python3 .ci/floors.py [pyproject.toml] > floors.txt
       pip install --only-binary=:all: -c floors.txt -e ".[test]"

A requirement with no `>=` bound is an error: a floor nobody tests is a guess."""

import re
import sys
import tomllib
from pathlib import Path

# name, [extras], then the version specifiers (a marker after ';' is not used here)
REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*([^;]*)")


def floor(requirement: str) -> tuple[str, str]:
    """('reportlab', '4.4.3') for 'reportlab[accel]>=4.4.3,<6'."""
    match = REQUIREMENT.match(requirement)
    if not match:
        raise ValueError(f"cannot read the requirement {requirement!r}")
    name, specifiers = match.groups()
    specifiers = [s.strip() for s in specifiers.split(",")]
    bounds = [s[2:].strip() for s in specifiers if s.startswith(">=")]
    if len(bounds) != 1:
        raise ValueError(f"{requirement!r}: give it exactly one '>=' lower bound")
    return re.sub(r"[-_.]+", "-", name).lower(), bounds[0]


def requirements(pyproject: dict) -> list[str]:
    """Every requirement the package declares: its dependencies and all its extras."""
    project = pyproject["project"]
    found = list(project.get("dependencies", []))
    for extra in project.get("optional-dependencies", {}).values():
        found += extra
    return found


def constraints(pyproject: dict) -> list[str]:
    pins = {}
    for requirement in requirements(pyproject):
        name, version = floor(requirement)
        if pins.setdefault(name, version) != version:
            raise ValueError(f"{name} has two floors: {pins[name]} and {version}")
    return [f"{name}=={version}" for name, version in sorted(pins.items())]


def main(argv: list[str]) -> int:
    path = Path(argv[1] if len(argv) > 1 else Path(__file__).parent.parent / "pyproject.toml")
    try:
        lines = constraints(tomllib.loads(path.read_text(encoding="utf-8")))
    except (OSError, KeyError, ValueError, tomllib.TOMLDecodeError) as exc:
        print(f"{path}: {exc}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
