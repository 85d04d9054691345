"""The distributions (issue 32). `python -m build` makes the sdist and the wheel without a
warning; the wheel installs one top-level name, `companion`; the sdist holds what its tests
need (tests/ with conftest.py, its helpers and data, docs/, CI's floors script), and a
smoke selection of those tests passes run from the unpacked sdist against the sdist's own
code. (Not the whole suite: it takes some 12 minutes on two cores, too long to run twice
in CI; the selection covers the rules, a kit's arithmetic, the code's shape and the
`companion score` command started as a process.)"""

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SMOKE = ["tests/test_import_shape.py", "tests/test_covenia_scorer.py", "tests/test_units.py",
         "tests/test_imposition.py", "tests/test_typography.py"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(the build's output, the sdist, the wheel)."""
    out = tmp_path_factory.mktemp("dist")
    # PYTHONDONTWRITEBYTECODE makes setuptools say "byte-compiling is disabled": the
    # environment's words, not the project's
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    r = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
                       capture_output=True, text=True, env=env, cwd=out, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    return (r.stdout + r.stderr, next(out.glob("table_companion-*.tar.gz")),
            next(out.glob("table_companion-*.whl")))


def test_the_build_says_no_warning(built):
    said = built[0]
    assert "Successfully built" in said
    assert [line for line in said.splitlines() if "warn" in line.lower()] == []


def test_the_wheel_installs_one_top_level_name(built):
    names = zipfile.ZipFile(built[2]).namelist()
    # .data/: files installed outside the import path (the reference, below)
    tops = {n.split("/")[0] for n in names if ".dist-info/" not in n and ".data/" not in n}
    assert tops == {"companion"}
    info = next(n for n in names if n.endswith(".dist-info/top_level.txt"))
    assert zipfile.ZipFile(built[2]).read(info).decode().split() == ["companion"]


def test_the_wheel_carries_the_reference(built):
    """README.md and every docs/ page, under the environment's share/doc/table-companion/
    once installed, where `companion docs` finds them (companion.files.paths.docs)."""
    names = zipfile.ZipFile(built[2]).namelist()
    data = {n.split(".data/data/", 1)[1] for n in names if ".data/data/" in n}
    pages = {f"share/doc/table-companion/docs/{p.name}" for p in (ROOT / "docs").iterdir()
             if p.suffix in (".md", ".png")}
    assert pages and pages | {"share/doc/table-companion/README.md"} <= data


def test_the_sdist_holds_the_tests_their_helpers_and_data(built):
    with tarfile.open(built[1]) as sdist:
        names = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    assert {"tests/conftest.py", "tests/needs.py", "tests/pdfs.py", "tests/web.py",
            "tests/data/covenia-rulebook.toml", "docs/layout-reference.md",
            ".ci/floors.py", "CHANGELOG.md", "companion/layouts/presets.toml",
            "companion/fontfiles/DejaVuSans.ttf"} <= names
    for path in (ROOT / "tests").rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            assert str(path.relative_to(ROOT)) in names, path
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


def test_a_smoke_selection_of_the_tests_passes_from_the_unpacked_sdist(built, tmp_path):
    with tarfile.open(built[1]) as sdist:
        sdist.extractall(tmp_path, filter="data")
    unpacked = next(tmp_path.glob("table_companion-*"))
    env = {**os.environ, "PYTHONPATH": str(unpacked)}
    r = subprocess.run([sys.executable, "-c", "import companion; print(companion.__file__)"],
                       capture_output=True, text=True, env=env, cwd=unpacked)
    assert r.stdout.strip() == str(unpacked / "companion" / "__init__.py"), r.stderr
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *SMOKE],
                       capture_output=True, text=True, env=env, cwd=unpacked, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert " passed" in r.stdout and "skipped" not in r.stdout, r.stdout[-500:]
