"""Fuzz every command that reads a file (issue 11).

Valid files (the README's examples, the bundled layouts) are mutated: fields dropped,
retyped, renamed, nested, added; huge numbers, odd unicode, control characters; then, as
text or bytes, cut short, nested thousands deep, grown past 1 MB, made not UTF-8. Each
command runs in this process and must end with exit 0 or 2; on 2, one line on standard
error starting "companion: " and no file in its folder changed (a new lock sidecar, and a
round kept aside by `coverta round`, are the only files a failure may add).

`check(command, body, lines)` returns the problems found, so that the same cases can be run
against another version of the code to count failures by cause (see the issue's note).
"""

import copy
import datetime
import functools
import hashlib
import io
import shutil
import sys
import tempfile
import time
import tomllib
import traceback
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from companion.files import paths
from companion.cli import main

DATA = Path(__file__).parent / "data"
GAMES = ("covenia", "lugvanion", "vengeance", "coverta")
SMALL_PART = {"covenia": "tokens", "lugvanion": "tokens", "vengeance": "tokens",
              "coverta": "memo"}

LEDGER = {"players": ["Ana", "Bo", "Cy"],
          "rounds": [{"hands": {"Ana": 0, "Bo": 3, "Cy": 5}, "first_steal": "Bo"},
                     {"hands": {"Ana": 2, "Bo": 1, "Cy": 1}}]}
ROW = {"start": "C12",
       "plays": [{"card": "C07", "row": "Ana"}, {"card": "C15", "row": "Bo"},
                 {"card": "C33", "row": "Ana"}],
       "rules": {"Ana": ["keep:parity", "alternate:shape"]}, "marked": ["C15"]}
ROW_TEXT = ('start = "C12"\nplays = [{ card = "C07", row = "Ana" }, { card = "C15", row = "Bo" },'
            ' { card = "C33", row = "Ana" }]\nrules = { Ana = ["keep:parity", "alternate:shape"] }'
            '\nmarked = ["C15"]\n')


def seed(command: str) -> dict:
    """The valid file a command's cases start from (a fresh copy)."""
    return copy.deepcopy(_seed(command))


@functools.cache  # read once: a file edited during the run must not change the cases
def _seed(command: str) -> dict:
    if command.startswith("score covenia"):
        return tomllib.loads((DATA / "covenia-rulebook.toml").read_text(encoding="utf-8"))
    if command in ("score coverta", "coverta round"):
        return LEDGER
    if command == "coverta check":
        return ROW
    game = "coverta" if command == "coverta check --data" else command.split()[1]
    return tomllib.loads((paths.LAYOUTS / f"{game}.toml").read_text(encoding="utf-8"))


# ---- mutations -----------------------------------------------------------------------

ODD_CHARS = ["²", "٣", "é", "🎲", "\x00", "\x1b", "\x07", "\t", "\n", "\u2028", "\u202e",
             "\ufeff", "\x7f", "\x85", "A", "1", ",", "=", '"', "\\", " ", "[", "{", ":"]
ODD_TEXT = st.text(st.one_of(st.sampled_from(ODD_CHARS), st.characters(exclude_categories=("Cs",))),
                   max_size=12)
HUGE = st.sampled_from([10**12, 2**63 - 1, -2**63, 10**30, -1, 0, 1, 5, 8, 9, 10, 11, 13, 14,
                        39, 40, 99, 100, 1e308, float("inf"), float("-inf"), float("nan"), 0.5])
ODD_VALUES = st.one_of(
    HUGE, st.integers(), st.floats(), st.booleans(), ODD_TEXT,
    st.sampled_from([datetime.time(7, 32), datetime.date(1979, 5, 27),
                     datetime.datetime(1979, 5, 27, 7, 32), "", "C01", "red", "keep:ink",
                     "Ana", [], {}]),
    st.lists(st.one_of(HUGE, ODD_TEXT), max_size=3),
    st.dictionaries(ODD_TEXT, st.one_of(HUGE, ODD_TEXT), max_size=2))


def _nodes(tree, out=None) -> list[tuple]:
    """(container, key) of every value in a parsed TOML tree."""
    out = [] if out is None else out
    items = tree.items() if isinstance(tree, dict) else enumerate(tree)
    for k, v in list(items):
        out.append((tree, k))
        if isinstance(v, (dict, list)):
            _nodes(v, out)
    return out


def _typo(key: str, draw) -> str:
    k = draw(st.integers(0, max(0, len(key) - 1)))
    return draw(st.sampled_from([key[:k] + key[k + 1:k + 2] + key[k:k + 1] + key[k + 2:],
                                 key + "s", key.upper(), key[:k], key + draw(ODD_TEXT),
                                 draw(ODD_TEXT)])) or "x"


@st.composite
def mutated_tree(draw, tree: dict) -> dict:
    for _ in range(draw(st.integers(1, 3))):
        nodes = _nodes(tree)
        if not nodes:
            break
        parent, key = draw(st.sampled_from(nodes))
        op = draw(st.sampled_from(["drop", "retype", "retype", "rename", "nest", "add", "dup"]))
        if op == "drop":
            del parent[key]
        elif op == "retype":
            parent[key] = draw(ODD_VALUES)
        elif op == "rename" and isinstance(parent, dict):
            parent[_typo(str(key), draw)] = parent.pop(key)
        elif op == "nest":
            parent[key] = draw(st.sampled_from([[parent[key]], {"x": parent[key]}]))
        elif op == "add" and isinstance(parent, dict):
            parent[draw(ODD_TEXT) or "x"] = draw(ODD_VALUES)
        elif op == "dup" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        else:
            parent[key] = draw(HUGE)
    return tree


def _toml(tree: dict) -> str | None:
    import tomlkit

    try:
        return tomlkit.dumps(tree)
    except Exception:  # a tree TOML cannot hold (tomlkit's own limits): use another case
        return None


def _key(key: str) -> str:
    import tomlkit

    return tomlkit.key(key).as_string()


@st.composite
def file_body(draw, command: str) -> bytes:
    # Some valid files too: `coverta round` then reads the fuzzed answers at the prompts.
    valid = 5 if command == "coverta round" else 2  # in 10
    kind = draw(st.sampled_from(["as is"] * 6 + ["cut", "deep", "deep table", "not utf-8",
                                                 "bom", "over 1 MB", "long array", "raw control",
                                                 "bytes"]))
    text = None
    while text is None:
        tree = seed(command) if draw(st.integers(0, 9)) < valid else \
            draw(mutated_tree(seed(command)))
        deep = ""
        if kind in ("deep", "deep table"):  # one top-level field nested very deep
            key = draw(st.sampled_from(sorted(tree) or ["zz"]))
            tree.pop(key, None)
            depth = draw(st.sampled_from([30, 300, 3000, 100_000 if kind == "deep" else 5000]))
            deep = (f"{_key(key)} = {'[' * depth}1{']' * depth}\n" if kind == "deep" else
                    f"{_key(key)}{'.a' * depth} = 1\n")
        text = _toml(tree)
    raw = (deep + (text or "")).encode("utf-8")
    if kind == "cut":
        raw = raw[:draw(st.integers(0, len(raw)))]
    elif kind == "not utf-8":
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe9"])) + raw[at:]
    elif kind == "bom":
        raw = b"\xef\xbb\xbf" + raw
    elif kind == "over 1 MB":
        raw += b"# " + b"x" * 1_100_000 + b"\n"
    elif kind == "long array":
        raw += b"\nzz = [" + b"1, " * 50_000 + b"1]\n"
    elif kind == "raw control":
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + draw(st.sampled_from([b"\x1b[2J", b"\x00", b"\x07", b"\r"])) + raw[at:]
    elif kind == "bytes":
        raw = draw(st.binary(max_size=200))
    return raw


TYPED = st.lists(st.one_of(st.sampled_from(["", "0", "1", "39", "40", "²", "٣", "-1", "9" * 50,
                                            "Ana", "bo", "Ana, Bo", "\x1b[2J", "\udce9", "é",
                                            "Zoé🎲, Bo", "\ud83c"]),
                           st.text(max_size=8)), max_size=6)
# Enough good answers after the fuzzed ones that every prompt is satisfied.
FILLER = ["Ana, Bo"] + ["1"] * 12 + [""]


def _stdin(lines: list[str]) -> bytes:
    out = []
    for line in [*lines, *FILLER]:
        try:
            out.append(line.encode("utf-8", "surrogateescape"))
        except UnicodeEncodeError:
            out.append(line.encode("utf-8", "surrogatepass"))
    return b"\n".join(out) + b"\n"


# ---- running a case ------------------------------------------------------------------

def argv(command: str, f: Path, folder: Path) -> list[str]:
    if command.startswith("build "):
        game = command.split()[1]
        return ["build", game, "--data", str(f), "--only", SMALL_PART[game],
                "--out", str(folder / "kit")]
    return {"score covenia": ["score", "covenia", str(f)],
            "score covenia --save": ["score", "covenia", str(f), "--save",
                                     str(folder / "saved.toml")],
            "score coverta": ["score", "coverta", str(f)],
            "coverta round": ["coverta", "round", str(f)],
            "coverta check": ["coverta", "check", str(f)],
            "coverta check --data": ["coverta", "check", str(folder / "row.toml"), "--data",
                                     str(f)]}[command]


def _files(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in folder.rglob("*") if p.is_file()}


def _where(e: BaseException) -> str:
    """The innermost frame of the project's own code in a traceback."""
    frames = [f for f in traceback.extract_tb(e.__traceback__)
              if "/companion/" in f.filename]
    f = frames[-1] if frames else traceback.extract_tb(e.__traceback__)[-1]
    return f"{Path(f.filename).parent.name}/{Path(f.filename).name}:{f.name}"


def invoke(args: list[str], stdin: bytes) -> tuple[int | None, str, str]:
    """Run `companion ARGS` here; (exit code, stdout, stderr), code None for a traceback
    (described in stderr's last line)."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    code = None
    try:
        with redirect_stdout(out), redirect_stderr(err):
            main(args)
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
    except BaseException as e:  # noqa: BLE001  what the fuzz looks for
        if isinstance(e, KeyboardInterrupt):
            raise
        err.write(f"\nTraceback: {type(e).__name__} at {_where(e)}")
    finally:
        sys.stdin = old
    return code, out.getvalue(), err.getvalue()


def check(command: str, body: bytes, lines: list[str] = ()) -> list[str]:
    """Run one case; the problems found (empty if it behaved)."""
    return run_case(command, body, lines)[1]


def run_case(command: str, body: bytes, lines: list[str] = ()) -> tuple[int | None, list[str]]:
    """Run one case: its exit code (None: a traceback) and the problems found."""
    folder = Path(tempfile.mkdtemp(prefix="fuzz-"))
    try:
        f = folder / "input.toml"
        f.write_bytes(body)
        (folder / "row.toml").write_text(ROW_TEXT, encoding="utf-8")
        # (no saved.toml: --save never overwrites; on a failure it must not appear)
        before = _files(folder)
        start = time.monotonic()
        code, _, err = invoke(argv(command, f, folder), _stdin(list(lines)))
        took = time.monotonic() - start
        problems = []
        if took > 10:
            problems.append(f"slow ({took:.0f} s)")
        if code is None:
            return code, problems + [err.strip().splitlines()[-1]]
        if code not in (0, 2):
            problems.append(f"exit {code}")
        if code == 2:
            last = err[err.rfind("companion: "):] if "companion: " in err else err
            if command == "coverta round":  # prompts come first, without newlines
                err = last
            if not (err.startswith("companion: ") and err.count("\n") == 1
                    and err.endswith("\n")):
                problems.append("stderr is not one line starting 'companion: '")
            after = _files(folder)
            changed = [n for n, h in before.items() if after.get(n) != h]
            added = [n for n in after if n not in before and not n.endswith(".lock")
                     and ".round-" not in n]
            if changed or added:
                problems.append("output changed on failure")
        if code == 0 and command == "coverta round":
            tomllib.loads(f.read_text(encoding="utf-8"))  # what was written reads back
        if code == 0 and command == "score covenia --save":
            tomllib.loads((folder / "saved.toml").read_text(encoding="utf-8"))
        return code, problems
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# ---- the tests -----------------------------------------------------------------------

FILE_COMMANDS = ("score covenia", "score covenia --save", "score coverta", "coverta round",
                 "coverta check", "coverta check --data")
# No shrinking: the seeds are large, and a problem names its cause and the file's start.
FUZZ = settings(max_examples=120, deadline=None, database=None,
                phases=[Phase.explicit, Phase.reuse, Phase.generate],
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.large_base_example])


def _assert_behaves(command: str, body: bytes, lines: list[str]) -> None:
    problems = check(command, body, lines)
    assert not problems, (f"{command}: {problems}; typed {lines}; file begins "
                          f"{body[:300].decode('utf-8', 'replace')}")


@pytest.mark.parametrize("command", FILE_COMMANDS)
def test_a_mutated_file_exits_0_or_2_in_one_line_changing_nothing(command):
    @FUZZ
    @given(st.data())
    def run(data):
        body = data.draw(file_body(command), label="file")
        lines = data.draw(TYPED, label="typed") if command == "coverta round" else []
        _assert_behaves(command, body, lines)
    run()


@pytest.mark.parametrize("game", GAMES)
def test_a_mutated_game_data_file_builds_or_exits_2_changing_nothing(game):
    @settings(FUZZ, max_examples=40)
    @given(st.data())
    def run(data):
        _assert_behaves(f"build {game}", data.draw(file_body(f"build {game}"), label="file"), [])
    run()


def test_the_valid_seeds_run_cleanly():
    """The fuzz starts from files that work: exit 0 for each command."""
    for command in (*FILE_COMMANDS, *(f"build {g}" for g in GAMES)):
        assert run_case(command, _toml(seed(command)).encode(), []) == (0, []), command
