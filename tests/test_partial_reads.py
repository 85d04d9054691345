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


TRICKY = st.text(alphabet="ab []{}#=,.\t", max_size=12)  # no quote or backslash


@st.composite
def toml_texts(draw):
    """A TOML file as designers write them, made to trick a reader that looks for "[" at
    the start of a line: brackets, braces and "#" inside strings and comments, arrays over
    several lines with arrays first on their lines, "[...]" lines inside multi-line
    strings, headers with spaces, quotes and tabs."""
    rows, n = [], 0
    tables = iter(range(1000))
    for _ in range(draw(st.integers(0, 14))):
        kind = draw(st.integers(0, 9))
        n += 1
        space = draw(st.sampled_from(["", " ", "\t"]))
        word = draw(TRICKY)
        if kind == 0:
            rows.append(f"{space}[[{space}{draw(st.sampled_from(['game', 'scoring', 'x-1']))}]]")
        elif kind == 1:
            quote = draw(st.sampled_from(['"', "'", ""]))
            rows.append(f"{space}[{quote}t{next(tables)}{quote}]{space}# [{word}]")
        elif kind == 2:
            rows.append(f'k{n} = "{word}\'"  # {word}"\'')
        elif kind == 3:
            rows.append(f"k{n} = '{word}'")
        elif kind == 4:
            rows.append(f'k{n} = {{ a = "{word}", b = [1, [2]], c = {{ d = "]" }} }}')
        elif kind == 5:  # an array over several lines, arrays first on their lines
            rows += [f"k{n} = [  # [{word}]", f'{space}[1, "{word}"],', "# [not a header]",
                     f"{space}[[2], ['{word}']],", "]"]
        elif kind == 6:  # a multi-line string holding lines that look like headers
            quotes = draw(st.sampled_from(['"""', "'''"]))
            rows += [f"k{n} = {quotes}", "[scoring]", f"{space}[[game]] {word}", f"x{quotes}"]
        elif kind == 7:
            rows.append(f"# [game] {word}")
        elif kind == 8:
            rows.append(f'"k{n}" = [{{ a = 1 }}, "{word}"]')
        else:
            rows.append("")
    return draw(st.sampled_from(["\n", "\r\n"])).join(rows)


@settings(max_examples=500, deadline=None)
@given(toml_texts())
def test_any_toml_text_splits_into_the_same_tables_either_way(text):
    tomllib.loads(text)  # the maker writes TOML
    starts = data._headers(text)
    assert starts == data._scanned_headers(text)
    assert [data._table_name(text, s) for s in starts] == [
        name_by_pattern(text, s) for s in starts]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab []{}#\"'=\n\\", max_size=80))
def test_a_text_that_is_not_toml_is_still_split_at_line_starts(text):
    """Not TOML (an inline table left open, a stray bracket): where the two reads may
    differ, the quick one still cuts only at the start of a line, in order."""
    starts = data._headers(text)
    assert starts == sorted(set(starts))
    assert all(s == 0 or text[:s].rstrip(" \t\f\v").endswith(("\n", "\r")) or
               text[text.rfind("\n", 0, s) + 1:s].strip() == "" for s in starts)


def test_a_byte_order_mark_is_dropped_and_a_bad_byte_named_where_it_is(tmp_path):
    """A file a Windows editor saved with a byte-order mark reads as without it; a byte
    that is not UTF-8 is named by its place in the file, the mark counted."""
    import pytest

    from companion.errors import CompanionError

    text = '[game]\nname = "Été"\n'
    plain, marked = tmp_path / "plain.toml", tmp_path / "marked.toml"
    plain.write_bytes(text.encode("utf-8"))
    marked.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert data.read_text(marked)[0] == data.read_text(plain)[0] == text
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xef\xbb\xbf" + b"[game]\nname = \"\xff\"\n")
    with pytest.raises(CompanionError, match=r"not UTF-8 text \(byte 18\)"):
        data.read_text(bad)
