import io
import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.cli import main

SHARED = Path(__file__).resolve().parents[2] / "shared"


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


def build_kit(out: Path, *args: str) -> dict:
    code = 0
    try:
        main(["build", "covenia", "--out", str(out), *args])
    except SystemExit as e:
        code = e.code
    assert code == 0
    return json.loads((out / "manifest.json").read_text())


@pytest.fixture(scope="session")
def kit_a4_en(tmp_path_factory):
    out = tmp_path_factory.mktemp("a4en")
    return out, build_kit(out)


@pytest.fixture(scope="session")
def kit_letter_fr(tmp_path_factory):
    out = tmp_path_factory.mktemp("letterfr")
    return out, build_kit(out, "--paper", "letter", "--lang", "fr")
