"""Issue 56: the phone page's scripts define each helper once. app.js loads first and
hands its DOM helpers (el, button, clear) and its words (t) to games.js through
window.tableApi; a second copy of a function in another script is refused here."""

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).parent.parent / "companion" / "web" / "page" / "static"
SCRIPTS = sorted(STATIC.glob("*.js"))
# A function of a script's top level (inside its one IIFE: two spaces in), to its end.
FUNCTION = re.compile(r"^  function (\w+)\((.*?)^  \}$", re.M | re.S)


def functions(path: Path) -> dict[str, str]:
    """Each top-level function of a script by name: its parameters and body, spaces
    made one."""
    return {m.group(1): " ".join(m.group(2).split())
            for m in FUNCTION.finditer(path.read_text(encoding="utf-8"))}


def test_the_page_has_scripts_to_check():
    assert {p.name for p in SCRIPTS} >= {"app.js", "games.js"}
    assert {"el", "button", "render"} <= set(functions(STATIC / "app.js"))


@pytest.mark.parametrize("helper", ["el", "button", "clear", "t"])
def test_each_shared_helper_is_defined_in_one_script_only(helper):
    defined = [p.name for p in SCRIPTS if helper in functions(p)]
    assert defined == ["app.js"], helper


def test_no_function_of_one_script_is_a_copy_of_another_scripts():
    seen: dict[str, str] = {}
    copies = []
    for path in SCRIPTS:
        for name, body in functions(path).items():
            if body in seen:
                copies.append((seen[body], f"{path.name}: {name}"))
            seen.setdefault(body, f"{path.name}: {name}")
    assert not copies
