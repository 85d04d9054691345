"""Installed from its wheel into a fresh virtual environment and run from an empty folder
elsewhere, the companion works and reads nothing from this checkout: an audit hook in the
installed Python records every file opened under the checkout, and there must be none."""

import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[1]

# Loaded by every Python started with PYTHONPATH=<its folder>: logs opens under ROOT.
GUARD = """
import os, sys
_root, _log = os.environ["GUARD_ROOT"], os.environ["GUARD_LOG"]
def _hook(event, args):
    if event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
        path = os.path.abspath(os.fsdecode(args[0]))
        if path.startswith(_root + os.sep) and path != _log:
            with open(_log, "a") as f:
                f.write(path + "\\n")
sys.addaudithook(_hook)
"""

GAME = (Path(__file__).parent / "data" / "covenia-rulebook.toml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(bin folder, environment, an empty folder far from the checkout, the wheel)."""
    base = tmp_path_factory.mktemp("install")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                    str(base / "dist"), str(ROOT)], check=True, cwd=base)
    wheel = next((base / "dist").glob("table_companion-*.whl"))
    subprocess.run([sys.executable, "-m", "venv", str(base / "venv")], check=True)
    bin_ = base / "venv" / ("Scripts" if os.name == "nt" else "bin")
    subprocess.run([str(bin_ / "python"), "-m", "pip", "install", "-q", str(wheel)],
                   check=True, cwd=base)
    guard = base / "guard"
    guard.mkdir()
    (guard / "sitecustomize.py").write_text(GUARD)
    log = base / "opened-in-checkout.txt"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PATH=f"{bin_}{os.pathsep}{env['PATH']}", PYTHONPATH=str(guard),
               GUARD_ROOT=str(ROOT), GUARD_LOG=str(log))
    empty = base / "somewhere-else"
    empty.mkdir()
    return bin_, env, empty, wheel, log


def companion(installed, *args, **kw):
    bin_, env, empty, _, _ = installed
    return subprocess.run([str(bin_ / "companion"), *args], cwd=empty, env=env,
                          capture_output=True, text=True, timeout=120, **kw)


def nothing_read_from_the_checkout(installed):
    log = installed[4]
    opened = log.read_text().splitlines() if log.exists() else []
    assert opened == [], f"read from the checkout: {opened[:5]}"


def test_the_guard_sees_a_file_read_from_the_checkout(installed, tmp_path):
    bin_, env, empty, _, _ = installed
    log = tmp_path / "log"
    subprocess.run([str(bin_ / "python"), "-c", f"open({str(ROOT / 'README.md')!r}).read()"],
                   env={**env, "GUARD_LOG": str(log)}, cwd=empty, check=True)
    assert log.read_text().strip() == str(ROOT / "README.md")


def test_the_wheel_holds_the_data_the_fonts_and_the_licences(installed):
    names = zipfile.ZipFile(installed[3]).namelist()
    assert "companion/layouts/presets.toml" in names
    assert {f"companion/layouts/{g}.toml" for g in
            ("covenia", "coverta", "lugvanion", "vengeance", "strings", "phone")} <= set(names)
    assert "companion/fontfiles/DejaVuSans.ttf" in names
    assert "companion/fontfiles/LICENSE-DejaVu.txt" in names
    assert {"companion/layouts/profiles/cgats-tr003.icc",
            "companion/layouts/profiles/LICENSE-cgats-tr003.txt"} <= set(names)  # pdfx
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert not any(n.startswith("tests/") for n in names)
    for module in ROOT.glob("companion/**/*.py"):
        assert str(module.relative_to(ROOT)) in names, module  # every module ships
    meta = zipfile.ZipFile(installed[3]).read(
        next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: MIT" in meta and "Requires-Python: >=3.11" in meta


def test_the_installed_command_builds_a_kit_into_output_under_the_current_folder(installed):
    r = companion(installed, "build", "covenia")
    assert r.returncode == 0, r.stderr
    manifest = json.loads((installed[2] / "output" / "covenia" / "manifest.json").read_text())
    assert {f["path"] for f in manifest["files"]} >= {"cards.pdf", "tokens.pdf"}
    nothing_read_from_the_checkout(installed)


def test_the_installed_command_exports_cards_for_a_print_shop(installed):
    r = companion(installed, "export", "coverta", "cards-pdf", "--only", "rules")
    assert r.returncode == 0, r.stderr
    assert list((installed[2] / "output" / "coverta" / "cards-pdf").glob("*.pdf"))
    nothing_read_from_the_checkout(installed)


def test_the_installed_command_exports_pdfx_with_the_shipped_profile(installed):
    r = companion(installed, "export", "covenia", "pdfx", "--only", "aids")
    assert r.returncode == 0, r.stderr
    pdfs = sorted((installed[2] / "output" / "covenia" / "pdfx-drivethrucards").glob("*.pdf"))
    assert "aids.pdf" in [p.name for p in pdfs], pdfs
    for pdf in pdfs:
        r = companion(installed, "preflight", str(pdf))
        assert r.returncode == 0 and "passes" in r.stdout, r.stdout + r.stderr
    nothing_read_from_the_checkout(installed)


def test_the_installed_command_scores_a_game(installed):
    (installed[2] / "game.toml").write_text(GAME)
    r = companion(installed, "score", "covenia", "game.toml", "--json")
    assert r.returncode == 0, r.stderr
    emma = json.loads(r.stdout)["players"][0]
    assert emma["name"] == "Emma" and emma["total"] == 62  # the rulebook's example
    nothing_read_from_the_checkout(installed)


def test_the_installed_version_is_the_one_written_in_pyproject(installed):
    import tomllib

    want = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    r = companion(installed, "--version")
    assert r.returncode == 0 and want in r.stdout


def test_the_installed_server_serves_the_phone_page(installed):
    bin_, env, empty, _, _ = installed
    p = subprocess.Popen([str(bin_ / "companion"), "serve", "--host", "127.0.0.1"], cwd=empty,
                         env={**env, "PYTHONUNBUFFERED": "1"}, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    try:
        link, deadline = None, time.monotonic() + 30
        for line in p.stdout:
            if line.startswith("Table link: "):
                link = line.split(" ", 2)[2].strip()
                break
            assert time.monotonic() < deadline
        assert link, "no link printed"
        for _ in range(100):
            try:
                page = httpx.get(link, timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        assert page.status_code == 200 and "<html" in page.text.lower()
        state = httpx.get(f"{link}/api/state", timeout=5).json()
        assert set(state["guilds"]) == {"forge", "jewellery", "herbalism", "academy"}
    finally:
        p.send_signal(signal.SIGINT)
        p.wait(15)
    assert (empty / "output" / "lugvanion-table.sqlite3").is_file()
    nothing_read_from_the_checkout(installed)
