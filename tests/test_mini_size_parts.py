"""What a layout may say for some card sizes only (issue 23: a mini card says less, never
less legibly): a component's `when` on the build's card size, and a bullets element that
shows part of its list (`first`, `count`), its paragraphs keeping their numbers."""

import json
import tempfile
from pathlib import Path

import pypdfium2 as pdfium

from companion.press import presets
from companion.text import fit
from companion.kit import Options, build
from companion.engine import kinds
from companion.engine.face import Engine
from companion.press.pdf import open_canvas
from reportlab.lib.colors import HexColor

W, H = 200.0, 300.0
PALETTE = {"ink": HexColor("#000000"), "paper": HexColor("#FFFFFF"), "gold": HexColor("#C9A227")}
LINES = ["Alpha first", "Bravo second", "Charlie third", "Delta fourth"]


def _bullets(**keys) -> dict:
    return {"k": {"elements": [dict(type="bullets", lines="{lines}", x=0.1, y=0.1, w=0.8,
                                    h=0.8, size=0.06, field="aid.front", **keys)]}}


def _printed(table: dict, fields: dict) -> str:
    face = Engine(kinds.load(table, "test.toml"), PALETTE, {}, "test.toml",
                  icons={}).face("k", fields, None)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "face.pdf"
        c = open_canvas(path, (W, H), "test", "")
        face.draw(c, W, H, 0.0)
        c.showPage()
        c.save()
        page = pdfium.PdfDocument(path.read_bytes())[0]
        return page.get_textpage().get_text_range()


def test_bullets_show_the_part_of_their_list_first_and_count_give():
    text = _printed(_bullets(first=1, count=2), {"lines": LINES})
    assert "Bravo" in text and "Charlie" in text
    assert "Alpha" not in text and "Delta" not in text


def test_bullets_take_first_and_count_from_the_card_and_a_missing_field_means_all():
    table = _bullets(first="{first}", count="{shown}")
    assert "Alpha" not in _printed(table, {"lines": LINES, "first": 2, "shown": 1})
    assert "Charlie" in _printed(table, {"lines": LINES, "first": 2, "shown": 1})
    whole = _printed(table, {"lines": LINES})
    assert all(word.split()[0] in whole for word in LINES)


def test_a_part_of_a_list_reports_its_paragraphs_by_their_number_in_the_list():
    table = _bullets(first=2)
    with fit.recording(presets.text_limits()) as rec:
        face = Engine(kinds.load(table, "test.toml"), PALETTE, {}, "test.toml",
                      icons={}).face("k", {"lines": LINES}, None)
        with tempfile.TemporaryDirectory() as folder:
            c = open_canvas(Path(folder) / "f.pdf", (W, H), "test", "")
            rec.wrap(face.draw, "k")(c, W, H, 0.0)
    assert [m.field for m in rec.measures] == ["aid.front[2]", "aid.front[3]"]


def _components(tmp_path, size: str) -> list[str]:
    build("covenia", Options(card_size=size, out=tmp_path / size))
    manifest = json.loads((tmp_path / size / "manifest.json").read_text())
    return [c["id"] for f in manifest["files"] for c in f["components"]]


def test_a_component_is_built_only_at_the_card_sizes_its_when_names(tmp_path):
    # Covenia's aid is one two-sided card; on a mini card, two (the round, the scoring).
    assert "aids" in _components(tmp_path, "poker")
    assert {"aids-turn", "aids-score"}.isdisjoint(_components(tmp_path, "poker"))
    mini = _components(tmp_path, "mini-usa")
    assert "aids" not in mini and {"aids-turn", "aids-score"} <= set(mini)


def test_a_wrong_when_on_a_component_names_the_file_and_the_key(starter, cli):
    text = starter.read_text().replace('[components.aids]\n',
                                       '[components.aids]\nwhen = "card.w <"\n')
    starter.write_text(text)
    r = cli("build", starter, "--out", starter.parent / "kit")
    assert r.code == 2
    assert "components.aids.when" in r.err and "moth-lanterns.toml" in r.err, r.err
    assert "Traceback" not in r.err


def test_strict_holds_the_score_book_pages_to_the_text_limits_too(tmp_path, cli):
    # The total row's note, pale on its shaded ground, was 3.75:1: a page is checked as a
    # card is, so a pale note there fails --strict naming the page and the field.
    from companion.files import paths

    text = (paths.LAYOUTS / "covenia.toml").read_text(encoding="utf-8")
    pale = text.replace('colour = "mix(ink, #FFFFFF, 0.2)", field = "formula"',
                        'colour = "mix(ink, #FFFFFF, 0.5)", field = "formula"')
    assert pale != text
    mine = tmp_path / "covenia.toml"
    mine.write_text(pale, encoding="utf-8")
    r = cli("build", "covenia", "--data", mine, "--strict", "--out", tmp_path / "kit")
    assert r.code == 2
    assert "scorebook page 1" in r.err and "formula" in r.err and "contrast" in r.err, r.err
    assert cli("build", "covenia", "--strict", "--out", tmp_path / "ok").code == 0


def test_an_id_names_an_element_at_every_size_remove_drops_all_replace_puts_one():
    both = {"base": {"elements": [
        {"id": "note", "type": "rect", "fill": "ink", "when": "card.w >= 140"},
        {"id": "note", "type": "rect", "fill": "ink", "x": 0.5, "when": "card.w < 140"}]}}
    gone = kinds.load({**both, "k": {"extends": "base", "remove": ["note"]}}, "test.toml")
    assert gone["k"].elements == []
    swapped = kinds.load({**both, "k": {"extends": "base", "replace": {
        "note": {"id": "note", "type": "circle", "fill": "ink"}}}}, "test.toml")
    assert [type(e).__name__ for e in swapped["k"].elements] == ["Circle"]
