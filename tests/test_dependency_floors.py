"""The dependencies pyproject.toml declares are the ones the code needs, at versions that
work: every third-party module the package (and its tests) imports is declared, and the
commands a designer runs first work with each dependency at its declared floor.

The smoke tests at the end are what .ci/run's second job runs, in a fresh environment
holding the lowest declared versions (pinned by .ci/floors.py); by hand:

    python3 .ci/floors.py > floors.txt
    pip install --only-binary=:all: -c floors.txt -e ".[test]"
    python -m pytest tests/test_dependency_floors.py
"""

import ast
import importlib.metadata
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import httpx
import pytest

from tests.web import Server

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
OWN = {"companion", "tests"}


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared(*extras: str) -> set[str]:
    """The distributions named in the package's dependencies (and the given extras)."""
    project = PYPROJECT["project"]
    found = list(project["dependencies"])
    for extra in extras:
        found += project["optional-dependencies"][extra]
    return {normal(re.match(r"[A-Za-z0-9._-]+", r)[0]) for r in found}


def imported(*folders: str) -> dict[str, str]:
    """{top-level module: a file importing it} for the absolute imports in the folders'
    Python files, the standard library's and our own left out."""
    found: dict[str, str] = {}
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    top = name.split(".")[0]
                    if top not in sys.stdlib_module_names and top not in OWN:
                        found.setdefault(top, str(path.relative_to(ROOT)))
    return found


def undeclared(modules: dict[str, str], allowed: set[str]) -> list[str]:
    providers = importlib.metadata.packages_distributions()
    wrong = []
    for module, where in sorted(modules.items()):
        dists = {normal(d) for d in providers.get(module, [])}
        if not dists:
            wrong.append(f"{where} imports {module}, which no installed distribution provides")
        elif not dists & allowed:
            wrong.append(f"{where} imports {module} ({', '.join(sorted(dists))}), "
                         "not declared in pyproject.toml")
    return wrong


def test_every_third_party_module_the_package_imports_is_a_declared_dependency():
    modules = imported("companion")
    assert {"h11", "lxml", "reportlab", "uvicorn"} <= set(modules)  # the scan sees them
    assert undeclared(modules, declared()) == []


def test_every_third_party_module_the_tests_import_is_declared_with_the_test_extra():
    assert undeclared(imported("tests"), declared("test")) == []


def test_an_import_of_an_undeclared_distribution_is_named():
    wrong = undeclared({"yaml_or_none": "companion/x.py", "pytest": "companion/y.py"},
                       declared())
    assert wrong == ["companion/y.py imports pytest (pytest), not declared in pyproject.toml",
                     "companion/x.py imports yaml_or_none, which no installed distribution "
                     "provides"]


# ---- the floors CI installs ---------------------------------------------------------

def floors(pyproject: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / ".ci" / "floors.py"), str(pyproject)],
                          capture_output=True, text=True, timeout=30)


def test_the_floors_ci_installs_are_every_declared_lower_bound():
    r = floors(ROOT / "pyproject.toml")
    assert r.returncode == 0, r.stderr
    pins = dict(line.split("==") for line in r.stdout.split())
    assert set(pins) == declared("test")
    assert pins["reportlab"] == "4.4.3"  # extras dropped: a constraint cannot hold them


def test_a_dependency_without_a_lower_bound_is_refused(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "x"\ndependencies = ["click<9"]\n')
    r = floors(pyproject)
    assert r.returncode == 2 and r.stdout == ""
    assert "'click<9': give it exactly one '>=' lower bound" in r.stderr


def test_the_installed_versions_meet_the_declared_floors():
    """In CI's floors job each is exactly its floor; anywhere, none is below it."""
    r = floors(ROOT / "pyproject.toml")
    low = []
    for line in r.stdout.split():
        name, floor = line.split("==")
        have = importlib.metadata.version(name)
        if _key(have) < _key(floor):
            low.append(f"{name} {have} < {floor}")
    assert low == []


def _key(version: str) -> tuple[int, ...]:
    parts = [int(p) for p in re.findall(r"\d+", version.split("+")[0])[:3]]
    return tuple(parts + [0] * (3 - len(parts)))  # "3" is "3.0.0"


# ---- the smoke set: the first commands a designer runs --------------------------------

@pytest.fixture
def companion(tmp_path):
    """companion(ARGS...) runs the installed command in tmp_path, with a cache of its own;
    returns its output, having checked it succeeded."""
    env = {**os.environ, "TABLE_COMPANION_CACHE": str(tmp_path / "cache")}
    command = Path(sys.executable).with_name("companion")

    def run(*args: str) -> str:
        r = subprocess.run([str(command), *args], cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=300)
        assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-3000:]
        return r.stdout
    return run


def test_build_makes_the_covenia_kit(companion, tmp_path):
    companion("build", "covenia")
    kit = tmp_path / "output" / "covenia"
    assert {"cards.pdf", "manifest.json"} <= {p.name for p in kit.iterdir()}
    assert (kit / "cards.pdf").read_bytes().startswith(b"%PDF-")


def test_export_png_renders_faces_with_pypdfium2(companion, tmp_path):
    companion("export", "covenia", "png", "--only", "tokens", "--dpi", "72")
    faces = sorted((tmp_path / "output" / "covenia" / "png").rglob("*.png"))
    assert faces and all(f.read_bytes().startswith(b"\x89PNG") for f in faces)
    from PIL import Image

    with Image.open(faces[0]) as face:
        colours = face.convert("RGB").getcolors(1 << 16)
    assert colours is None or len(colours) > 2  # drawn, not a blank page


def test_init_with_an_xlsx_sheet_writes_a_copy_its_build_takes(companion, tmp_path):
    companion("init", "covenia", "--spreadsheets", "xlsx")
    assert (tmp_path / "covenia" / "covenia.xlsx").is_file()
    companion("build", "covenia", "--data", "covenia/covenia.toml", "--only", "cards")
    assert (tmp_path / "output" / "covenia" / "cards.pdf").is_file()


def test_serve_answers_a_draw_and_stops(tmp_path):
    server = Server(tmp_path / "table.sqlite3").start()
    try:
        assert server.draw(bag={"red": 8}).status_code == 200
        assert len(server.state()["draws"]) == 1
        assert httpx.get(server.link, timeout=10).status_code == 200  # the phone page
    finally:
        code = server.stop()
    assert code == 0, "".join(server.out)[-3000:]


def test_check_sees_the_starter_game_with_colorspacious(companion, tmp_path):
    """colorspacious and numpy at their floors: the legibility check runs, and red and
    green still look alike with deuteranopia (Machado 2009)."""
    companion("new", "tidepool")
    out = companion("check", "tidepool/tidepool.toml")
    assert "tidepool: " in out and "smallest text" in out
    assert (tmp_path / "output" / "tidepool-check" / "legibility.pdf").is_file()
    from companion.draw import vision

    red, green = vision.hex_rgb("#D62728"), vision.hex_rgb("#2CA02C")
    assert float(vision.distance(red, green, "deuteranopia")) < 5
