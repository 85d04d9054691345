"""A partial read of a data file (companion.files.data, `only=`: `companion score covenia`
reads covenia.toml's [game] and [[scoring]] alone) finds the same tables as reading every
string, comment and bracket of the file in turn, on every bundled file and on any text
made of TOML's lines (hypothesis): headers, strings and comments holding brackets, arrays
over several lines, multi-line strings, lines that are not TOML."""

import re
import tomllib
from pathlib import Path

from hypothesis import given, settings, strategies as st

from companion.files import data

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "companion" / "layouts").rglob("*.toml")) + sorted(
    (ROOT / "tests").rglob("*.toml"))
# How a header's first name was read before issue 33's faster partial read.
TABLE = re.compile(r"""\[\[?[ \t]*(?:"([^"\n]*)"|'([^'\n]*)'|([A-Za-z0-9_-]+))""")


def name_by_pattern(text: str, start: int):
    m = TABLE.match(text, start)
    return None if m is None else next(g for g in m.groups() if g is not None)


def test_every_bundled_file_reads_the_same_tables_either_way():
    assert len(FILES) > 10
    for path in FILES:
        text = path.read_text(encoding="utf-8", errors="replace")
        starts = data._headers(text)
        assert starts == data._scanned_headers(text), path
        assert [data._table_name(text, s) for s in starts] == [
            name_by_pattern(text, s) for s in starts], path


def test_covenias_score_read_is_its_game_and_scoring_tables():
    text = (ROOT / "companion" / "layouts" / "covenia.toml").read_text(encoding="utf-8")
    part = tomllib.loads(data._tables_only(text, frozenset({"game", "scoring"})))
    whole = tomllib.loads(text)
    assert part == {"game": whole["game"], "scoring": whole["scoring"]}


NAMES = st.sampled_from(["game", "scoring", "clans", "a-b", "x_1", "", "é"])
WORDS = st.text(alphabet='ab []{}#"\'\\=,.\t', max_size=12)


@st.composite
def lines(draw):
    kind = draw(st.integers(0, 11))
    name = draw(NAMES)
    space = draw(st.sampled_from(["", " ", "\t", "  "]))
    if kind == 0:
        return f"{space}[{name}]"
    if kind == 1:
        return f"{space}[[{space}{name}{space}]]"
    if kind == 2:
        quote = draw(st.sampled_from(['"', "'"]))
        return f"[{space}{quote}{name}{quote}.x]"
    if kind == 3:
        return f'key = "{draw(WORDS)}"'
    if kind == 4:
        return f"key = '{draw(WORDS)}'  # {draw(WORDS)}"
    if kind == 5:
        return f"# {draw(WORDS)}"
    if kind == 6:
        return "list = ["
    if kind == 7:
        return f'{space}[1, "{draw(WORDS)}"],'
    if kind == 8:
        return f"{space}]"
    if kind == 9:
        return f'inline = {{ a = "{draw(WORDS)}", b = [1, [2]] }}'
    if kind == 10:
        return draw(st.sampled_from(['text = """', '"""', "'''", "]]", "{", "}", "[[", ""]))
    return draw(WORDS)


@settings(max_examples=400, deadline=None)
@given(st.lists(lines(), max_size=30), st.sampled_from(["\n", "\r\n"]))
def test_any_text_splits_into_the_same_tables_either_way(rows, newline):
    text = newline.join(rows)
    starts = data._headers(text)
    assert starts == data._scanned_headers(text)
    assert [data._table_name(text, s) for s in starts] == [
        name_by_pattern(text, s) for s in starts]
