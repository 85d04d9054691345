"""A game file's keys before "sheet" meant one thing (issue 56) still read, as their new
names, through the one data loader (companion/files/data.py current_keys): a card list's
`{ sheet = FILE }` is `{ spreadsheet = FILE }`, a component's `sheet = NAME` its
`label_sheet`, a game's own `[sheets.NAME]` its `[label_sheets.NAME]`. Both names of one
key in one table is refused, naming it. (rename.sh leaves this file's old keys alone.)"""

import json
import re

import pytest

from companion.errors import CompanionError
from companion.files.data import load_toml

DOTS = """
[{table}.dots]
name = "Dots"
paper = "100x100mm"
label = "30x30mm"
shape = "circle"
places = [{ x = "5mm", y = "5mm" }, { x = "60mm", y = "60mm" }]
"""


def _written(starter, list_key: str, label_key: str, table: str, text: str = "") -> str:
    """The starter (as `text`, else as on disk) with its card list named by `list_key`,
    its aids on the label sheet "dots" by `label_key`, and "dots" defined under `table`."""
    text = text or starter.read_text(encoding="utf-8")
    before = text
    text = re.sub(r"cards = \{[^}\n]*\}", f'cards = {{ {list_key} = "cards.csv" }}', text,
                  count=1)
    text = text.replace('id_else = "aid"\n', f'id_else = "aid"\n{label_key} = "dots"\n', 1)
    starter.write_text(text + DOTS.replace("{table}", table), encoding="utf-8")
    return before


def test_the_old_keys_load_as_the_new(starter):
    text = _written(starter, "spreadsheet", "label_sheet", "label_sheets")
    new = load_toml(starter)
    _written(starter, "sheet", "sheet", "sheets", text)
    old = load_toml(starter)
    assert old == new
    assert old["cards"] and all(isinstance(row, dict) for row in old["cards"])
    assert old["components"]["aids"]["label_sheet"] == "dots"
    assert "sheet" not in old["components"]["aids"] and "sheets" not in old
    assert old["label_sheets"]["dots"]["name"] == "Dots"


@pytest.mark.parametrize("keys", [("sheet", "sheet", "sheets"),
                                  ("spreadsheet", "label_sheet", "label_sheets")])
def test_a_game_file_with_either_keys_builds_its_labels(tmp_path, cli, starter, keys):
    _written(starter, *keys)
    r = cli("build", starter, "--out", tmp_path / "kit")
    assert r.code == 0, r.err
    manifest = json.loads((tmp_path / "kit" / "manifest.json").read_text())
    (entry,) = [f for f in manifest["files"] if f.get("sheet") == "dots"]
    assert entry["path"] == "labels-dots.pdf" and entry["places"]


@pytest.mark.parametrize("table, field", [
    ({"cards": {"sheet": "a.csv", "spreadsheet": "a.csv"}}, "cards.sheet"),
    ({"components": {"aids": {"sheet": "dots", "label_sheet": "dots"}}},
     "components.aids.sheet"),
    ({"sheets": {}, "label_sheets": {}}, "sheets"),
])
def test_both_names_of_one_key_are_refused_naming_it(tmp_path, table, field):
    import tomlkit

    path = tmp_path / "game.toml"
    path.write_text(tomlkit.dumps(table), encoding="utf-8")
    with pytest.raises(CompanionError) as e:
        load_toml(path)
    assert e.value.field == field and "old name" in e.value.message
