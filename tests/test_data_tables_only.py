"""Reading a few top-level tables of a big data file (`load_toml(..., only=...)`): what a
command that words its output from covenia.toml reads, without parsing its card layouts."""

import tomllib

from hypothesis import given, settings, strategies as st

from companion.files import paths
from companion.files.data import load_toml, parse_toml
from companion.score import covenia as sc

NAMES = ["game", "score", "clans", "kinds", "a-b", "x_1"]

# Values that hold what looks like a table header on a line of its own: inside a multi-line
# string, and as the last item of an array that spans lines.
TRAPS = [
    '"""\n[kinds]\nnot = "a table"\n"""',
    "'''\n[[score]]\n'''",
    "[\n  [1],\n  [2]\n]",
    '[\n  "a",\n  # [kinds]\n  "b"\n]',
    '{ a = [1, 2], b = "[score]" }',
    "3",
    '"# [game]"',
]


@st.composite
def documents(draw):
    """A TOML text whose top-level tables are written in the three ways TOML allows: a
    [table] with keys, an array of [[tables]], or a key of the root table."""
    names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=5, unique=True))
    root, rest = [], []
    for name in names:
        values = draw(st.lists(st.sampled_from(TRAPS), min_size=1, max_size=3))
        form = draw(st.sampled_from(["table", "array", "root", "sub"]))
        body = "".join(f"k{j} = {v}\n" for j, v in enumerate(values))
        if form == "root":
            root.append(f"{name}.k = {values[0]}\n")
        elif form == "array":
            rest.append("".join(f"[[{name}]]\n{body}\n" for _ in range(2)))
        elif form == "sub":
            rest.append(f"[{name}]\nk = 1\n[{name}.inner]\n{body}\n")
        else:
            rest.append(f"# the {name} table\n[ {name} ]\n{body}\n")
    return "# a data file\n" + "".join(root) + "\n" + "".join(rest)


@settings(max_examples=300, deadline=None)
@given(documents(), st.sets(st.sampled_from(NAMES)))
def test_only_the_named_tables_are_read_as_the_whole_file_reads_them(text, wanted):
    whole = tomllib.loads(text)
    assert parse_toml(text, "t.toml", frozenset(wanted)) == {
        k: v for k, v in whole.items() if k in wanted}


def test_a_quoted_table_name_is_read_by_its_name():
    text = '["score"]\na = 1\n[kinds]\nb = 2\n[\'game\'.x]\nc = 3\n'
    assert parse_toml(text, "t.toml", frozenset({"score", "game"})) == {
        "score": {"a": 1}, "game": {"x": {"c": 3}}}


def test_the_score_words_are_the_bundled_files_tables_without_its_layouts():
    path = paths.LAYOUTS / "covenia.toml"
    whole = load_toml(path)
    words = sc.words()
    assert words.table == {k: whole[k] for k in sc.WORDS}
    assert "kinds" in whole and "kinds" not in words.table
    # The filled score-book page needs the layouts too.
    assert sc.words(layouts=True).table == whole
