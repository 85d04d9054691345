"""The code's shape (issue 21): no import circle among our modules, counting the imports
made inside functions; the layout engine and the drawing code below every game; the data
loader knowing nothing of art, fonts or drawing; `companion score` starting without the
kit's modules (what it imports is read from Python's -X importtime, not timed)."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _modules() -> dict[str, Path]:
    out = {}
    for folder in ("companion", "scorers"):
        for path in (ROOT / folder).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = _modules()


def _imports(name: str) -> set[str]:
    """Our modules `name` imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(MODULES[name].read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.add(full if full in MODULES else node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    # a package that imports its own submodules (a registry of routes) makes no circle
    return {m for m in found if m in MODULES and m != name and not m.startswith(name + ".")}


GRAPH = {name: _imports(name) for name in MODULES}


def _reaches(start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for nxt in GRAPH[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_no_module_imports_itself_back_through_others():
    circles = sorted(name for name in MODULES if name in _reaches(name))
    assert circles == []


def test_the_engine_and_the_drawing_code_know_no_game():
    below = [m for m in MODULES if m.startswith(("companion.layout", "companion.draw"))]
    assert below
    for name in below:
        games = {m for m in _reaches(name) if m.startswith("companion.games")}
        assert not games, f"{name} reaches {sorted(games)}"


def test_the_data_loader_knows_nothing_of_art_fonts_or_drawing():
    for name in ("companion.data", "companion.spreadsheet"):
        reached = _reaches(name)
        assert not {m for m in reached if m in ("companion.art", "companion.fonts",
                                                  "companion.presets", "companion.images")
                    or m.startswith(("companion.draw", "companion.layout"))}, name


def test_score_starts_without_the_kits_modules():
    """`companion score covenia FILE --json` imports no PDF, picture, spreadsheet or kit
    module: only what scoring needs."""
    game = ROOT / "tests" / "data" / "covenia-rulebook.toml"
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "companion", "score",
                        "covenia", str(game), "--json"], capture_output=True, text=True,
                       cwd=ROOT)
    assert r.returncode == 0, r.stderr
    imported = {line.split("|")[-1].strip() for line in r.stderr.splitlines()
                if line.startswith("import time:")}
    assert "scorers.covenia" in imported
    heavy = {m for m in imported if m.split(".")[0] in ("reportlab", "PIL", "svglib", "lxml",
                                                          "msgspec", "python_calamine")
             or m in ("companion.spreadsheet", "companion.kit", "companion.atomic",
                      "companion.art", "companion.fonts")
             or m.split(".")[:2] in (["companion", "layout"], ["companion", "draw"],
                                     ["companion", "games"])}
    assert heavy == set()
