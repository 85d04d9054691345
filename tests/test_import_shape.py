"""The code's shape (issues 21 and 32): no import circle among our modules, counting the
imports made inside functions; every module in a layer (LAYERS), importing none from a
layer above its own; at most a dozen modules at companion/'s top; the rules pure; the
layout engine and the drawing code below every game; the data loader knowing nothing of
art, fonts or drawing; `companion score` starting without the kit's modules (what it
imports is read from Python's -X importtime, not timed)."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _modules() -> dict[str, Path]:
    out = {}
    for folder in ("companion",):
        for path in sorted((ROOT / folder).rglob("*.py")):
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
    below = [m for m in MODULES if m.split(".")[:2] in (["companion", "engine"],
                                                         ["companion", "draw"])]
    assert below
    for name in below:
        games = {m for m in _reaches(name) if m.startswith("companion.games")}
        assert not games, f"{name} reaches {sorted(games)}"


def test_the_data_loader_knows_nothing_of_art_fonts_or_drawing():
    for name in ("companion.files.data", "companion.files.spreadsheet"):
        reached = _reaches(name)
        assert not {m for m in reached if m in ("companion.draw.art", "companion.press.fonts",
                                                  "companion.press.presets",
                                                  "companion.files.images")
                    or m.split(".")[:2] in (["companion", "draw"], ["companion", "engine"])}, name


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
    assert "companion.rules.covenia" in imported
    heavy = {m for m in imported if m.split(".")[0] in ("reportlab", "PIL", "svglib", "lxml",
                                                          "msgspec", "python_calamine")
             or m in ("companion.files.spreadsheet", "companion.kit", "companion.files.atomic",
                      "companion.draw.art", "companion.press.fonts")
             or m.split(".")[:2] in (["companion", "engine"], ["companion", "draw"],
                                     ["companion", "games"])}
    assert heavy == set()


# The layers, lowest first: a module may import its own layer's modules and those below,
# never one above. A name stands for the module and everything under it.
LAYERS = [
    ["companion.rules"],                                   # pure game rules
    ["companion", "companion.errors", "companion.layouts", "companion.fontfiles"],  # base, data
    ["companion.text"],                                    # words and lengths, no files
    ["companion.files"],                                   # a designer's files, the cache
    ["companion.press"],                                   # paper, card sizes, fonts, PDF canvas
    ["companion.draw"],                                    # drawing: text, symbols, art, sheets
    ["companion.playtest"],                                # the playtest report's words and pages
    ["companion.engine"],                                  # the layout engine, a kit's parts
    ["companion.score"],                                   # scoring's input, ledger and words
    ["companion.games"],                                   # a game is its file
    ["companion.kit"],                                     # building a kit
    ["companion.export"],                                  # export formats
    ["companion.web"],                                     # the phone table
    ["companion.commands"],                                # one module per command family
    ["companion.cli", "companion.__main__"],               # the command line
]


def layer(module: str) -> int:
    best = None
    for i, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and (
                    best is None or len(name) > len(best[1])):
                best = (i, name)
    assert best is not None, f"{module} is in no layer: add it to LAYERS"
    return best[0]


def test_every_module_has_a_layer_and_imports_none_above_it():
    upward = sorted(f"{name} -> {other}" for name in MODULES for other in GRAPH[name]
                    if layer(other) > layer(name))
    assert upward == []


def test_companion_top_holds_at_most_a_dozen_modules():
    top = sorted(p.name for p in (ROOT / "companion").glob("*.py"))
    assert len(top) <= 12, top
    assert not (ROOT / "scorers").exists()  # one top-level package: the rules are companion.rules


RULES_MAY_IMPORT = {"bisect", "collections", "dataclasses", "datetime", "enum", "fractions",
                    "functools", "hashlib", "hmac", "itertools", "math", "re", "secrets",
                    "statistics", "typing",
                    "unicodedata", "companion"}


def test_the_rules_import_nothing_of_files_pdfs_or_http():
    """companion.rules reads no file, draws nothing, serves nothing: only the standard
    library's pure modules and the rules' own, checked in the source and at run time."""
    rules = [m for m in MODULES if m == "companion.rules" or m.startswith("companion.rules.")]
    assert len(rules) > 5
    for name in rules:
        tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                assert not node.level, name
                names = [node.module]
            else:
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "open":
                    raise AssertionError(f"{name} opens a file")
                continue
            for imported in names:
                assert imported.split(".")[0] in RULES_MAY_IMPORT, f"{name} imports {imported}"
                if imported.startswith("companion"):
                    assert imported == "companion.rules" or imported.startswith(
                        "companion.rules."), f"{name} imports {imported}"
    code = ("import sys\n"
            "before = set(sys.modules)\n"
            f"import {', '.join(rules)}\n"
            "print('\\n'.join(sorted(set(sys.modules) - before)))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    loaded = set(r.stdout.split())
    forbidden = {m for m in loaded if m.split(".")[0] in (
        "reportlab", "PIL", "starlette", "uvicorn", "sse_starlette", "httpx", "h11", "click",
        "pypdfium2", "svglib", "lxml", "msgspec", "qrcode", "tomlkit", "python_calamine",
        "sqlite3", "socket", "http", "urllib", "asyncio", "subprocess", "shutil", "tempfile",
        "pathlib", "io", "tomllib", "json")}
    forbidden |= {m for m in loaded if m.startswith("companion.")
                  and not m.startswith("companion.rules")}
    assert forbidden == set()
