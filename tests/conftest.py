import io
import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# No example is timed: on a loaded two-core machine an example that takes 200 ms once is
# no failure (hypothesis' deadline and its too-slow health check would call it one).
# Speeds are tests/bench's.
settings.register_profile("suite", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")

# As the `companion` command does (companion/__main__.py): numpy imported by a test (cut
# files, legibility) must start no OpenBLAS thread, or every later test's bounded worker
# would come from the fork server, which sees neither a test's environment nor its
# monkeypatches.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from companion.cli import main  # noqa: E402


@dataclass
class Run:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(capsys, monkeypatch):
    """Runs `companion ARGS...` in this process; returns its exit code and output."""
    def run(*args: str, stdin: str | None = None) -> Run:
        if stdin is not None:
            monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        code = 0
        try:
            main([str(a) for a in args])
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)
    return run


@pytest.fixture
def starter(tmp_path, cli, monkeypatch):
    """A designer's game as `companion new` writes it, in the test's folder: its file."""
    monkeypatch.chdir(tmp_path)
    r = cli("new", "Moth Lanterns")
    assert r.code == 0, r.err
    return tmp_path / "moth-lanterns" / "moth-lanterns.toml"


GAMES = ("covenia", "lugvanion", "vengeance", "coverta")


def build_kit(game: str, out: Path, *args: str) -> dict:
    code = 0
    try:
        main(["build", game, "--out", str(out), *args])
    except SystemExit as e:
        code = e.code
    assert code == 0
    return json.loads((out / "manifest.json").read_text())


@pytest.fixture(scope="session")
def kits(tmp_path_factory):
    """kits(game, paper, lang) -> (folder, manifest), each built once per test session."""
    cache: dict = {}

    def get(game: str, paper: str = "a4", lang: str = "en"):
        key = (game, paper, lang)
        if key not in cache:
            out = tmp_path_factory.mktemp(f"{game}-{paper}-{lang}")
            cache[key] = out, build_kit(game, out, "--paper", paper, "--lang", lang)
        return cache[key]
    return get


@pytest.fixture
def kit_a4_en(kits):
    return kits("covenia", "a4", "en")


@pytest.fixture
def kit_letter_fr(kits):
    return kits("covenia", "letter", "fr")


def pytest_sessionfinish(session, exitstatus):
    """In CI every test must run: a skip there (a tool or file missing) fails the run."""
    import os

    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter else 0
    if os.environ.get("CI") == "true" and skipped and exitstatus == 0:
        reporter.write_line(f"CI: {skipped} tests skipped; every test must run in CI", red=True)
        session.exitstatus = 1


@pytest.fixture
def counted(monkeypatch):
    """The labels of the card faces the layout engine draws, in order."""
    from companion.engine import face as face_mod

    drawn = []
    real = face_mod._draw

    def draw(engine, kind, scope, pic, label, origins, c, w, h, bleed):
        drawn.append(label)
        return real(engine, kind, scope, pic, label, origins, c, w, h, bleed)
    monkeypatch.setattr(face_mod, "_draw", draw)
    return drawn


def pytest_collection_modifyitems(config, items):
    """The slow suites behind their markers, by what they are rather than by a line in
    each file: a module that drives Chromium is `browser`, a hostile-file suite
    (test_hostile_*, test_fuzz_*) is `hostile`. The default run leaves both out
    (pyproject's addopts); .ci/run runs them after it."""
    for item in items:
        module = item.module
        if any(getattr(v, "__module__", "").startswith("playwright")
               for v in vars(module).values()):
            item.add_marker(pytest.mark.browser)
        if module.__name__.rsplit(".", 1)[-1].startswith(("test_hostile_", "test_fuzz_")):
            item.add_marker(pytest.mark.hostile)
