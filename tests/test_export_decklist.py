"""`companion export GAME decklist`: one CSV a spreadsheet opens, a row per distinct card
(component, id, count, its fields), whose counts add up to the kit's manifest, and in
which no cell a designer's data gives runs as a formula."""

import csv
import io
from collections import Counter

import pytest

from companion.export import decklist


def read(folder):
    raw = (folder / "decklist.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # the BOM: a spreadsheet reads UTF-8 accents right
    assert b"\r\n" in raw
    return list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline="")))


def per_component(rows) -> Counter:
    counts = Counter()
    for row in rows:
        counts[row["component"]] += int(row["count"])
    return counts


def kit_counts(manifest) -> Counter:
    """Each card component's count as the kit's manifest gives it (pages are no cards)."""
    return Counter({c["id"]: c["count"] for f in manifest["files"] if f["card_size"]
                    for c in f["components"]})


@pytest.mark.parametrize("game", ["covenia", "lugvanion"])
def test_the_counts_add_up_to_the_kits_manifest(tmp_path, cli, kits, game):
    _, manifest = kits(game, "a4", "en")
    r = cli("export", game, "decklist", "--out", tmp_path / "d")
    assert r.code == 0, r.err
    rows = read(tmp_path / "d")
    assert per_component(rows) == kit_counts(manifest)
    assert sum(per_component(rows).values()) == len(manifest["cards"])
    ids = [(row["component"], row["id"]) for row in rows]
    assert len(ids) == len(set(ids))  # a distinct card once


def test_a_designers_game_lists_each_card_with_its_fields(tmp_path, cli, starter):
    r = cli("export", starter, "decklist", "--out", tmp_path / "d")
    assert r.code == 0, r.err
    rows = read(tmp_path / "d")
    crab = next(row for row in rows if row["id"] == "hermit-crab")
    assert (crab["component"], crab["count"], crab["title"], crab["points"],
            crab["icon"]) == ("cards", "2", "Hermit Crab", "2", "shell")
    r = cli("build", starter, "--out", tmp_path / "kit")
    import json
    manifest = json.loads((tmp_path / "kit" / "manifest.json").read_text())
    assert per_component(rows) == kit_counts(manifest)


def test_a_cell_that_would_be_a_formula_is_written_as_text(tmp_path, cli, starter):
    cards = starter.parent / "cards.csv"
    cards.write_text(
        "kind,title,text,qty,points,icon,art\n"
        'creature,"=HYPERLINK(""http://x"",""y"")",@SUM(A1),2,-3,shell,\n'
        "creature,+cmd,-2+3,1,4,wave,\n", encoding="utf-8")
    r = cli("export", starter, "decklist", "--out", tmp_path / "d")
    assert r.code == 0, r.err
    rows = read(tmp_path / "d")
    assert [row["title"] for row in rows if row["component"] == "cards"] == [
        "'=HYPERLINK(\"http://x\",\"y\")", "'+cmd"]
    assert [row["text"] for row in rows if row["component"] == "cards"] == [
        "'@SUM(A1)", "'-2+3"]
    assert rows[0]["points"] == "-3"  # a number stays a number


@pytest.mark.parametrize("value,shown", [
    ("=1+2", "'=1+2"), ("-1", "-1"), ("+4.5", "+4.5"), ("-2+3", "'-2+3"), ("@A", "'@A"),
    ("\tx", "'\tx"), ("\r=1", "'\r=1"), (True, "true"), (["a", "=b"], "a; =b"),
    ({"id": "red", "name": "Red"}, "Red"), (None, "")])
def test_cells(value, shown):
    assert decklist.cell(value) == shown
