"""Manifests are written one line per top-level key and per item of a top-level list,
by the C encoder (files/json_text.py): the text parses back to what was written."""
import json

from hypothesis import given, strategies as st

from companion.files import json_text

_json = st.recursive(st.none() | st.booleans() | st.integers() | st.text()
                     | st.floats(allow_nan=False, allow_infinity=False),
                     lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.text(), inner, max_size=4), max_leaves=20)


@given(st.dictionaries(st.text(), _json, max_size=6) | _json)
def test_readable_json_reads_back_as_what_was_written(value):
    text = json_text.readable(value)
    assert text.endswith("\n")
    assert json.loads(text) == value


def test_a_manifest_lists_each_card_on_a_line_of_its_own():
    manifest = {"game": "Lanternes", "cards": [{"id": "a", "qty": 2}, {"id": "é", "qty": 1}],
                "files": []}
    lines = json_text.readable(manifest).splitlines()
    assert lines == ['{', '  "game": "Lanternes",', '  "cards": [',
                     '    {"id": "a", "qty": 2},', '    {"id": "é", "qty": 1}', '  ],',
                     '  "files": []', '}']
