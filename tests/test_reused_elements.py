"""An element drawn again on the same PDF with the same inputs is put back, not drawn
again (issue 36, companion.engine.reused): the PDF's operators are those drawing it
again gives, byte for byte, and the checks learn what they learn drawing it: each text
measured for the card now drawn, over what lies under it on that card, its symbols and
the names nothing defines."""

import tempfile
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings, strategies as st
from reportlab.lib.colors import HexColor

from companion.engine import elements, kinds, reused, undefined
from companion.engine.face import Engine
from companion.press.pdf import open_canvas
from companion.text import fit
from companion.press import presets

W, H = 180.0, 250.0
PALETTE = {"ink": HexColor("#111111"), "paper": HexColor("#FFFFFF"),
           "night": HexColor("#1B2631"), "gold": HexColor("#F4D03F")}

KIND = {"k": {"elements": [
    {"type": "background", "fill": "paper"},
    {"type": "rect", "x": 0.05, "y": 0.05, "w": 0.9, "h": 0.3, "fill": "{band}"},
    {"type": "symbol", "name": "{icon}", "x": 0.85, "y": 0.2, "r": 0.06, "colour": "gold"},
    # the title drawn from the symbol's state on any band: put back over each band
    {"type": "text", "text": "{title}", "x": 0.1, "y": 0.2, "size": 0.08, "colour": "ink",
     "align": "left"},
    {"type": "textblock", "text": "{text}", "x": 0.1, "y": 0.45, "w": 0.8, "h": 0.3,
     "size": 0.07, "colour": "ink"},
    {"type": "badge", "text": "{points}", "x": 0.15, "y": 0.88, "r": 0.07, "fill": "night",
     "colour": "paper", "size": 0.08},
    {"type": "text", "text": "{note}", "x": 0.5, "y": 0.95, "size": 0.05, "colour": "ink",
     "when": "note"},
    {"type": "text", "text": "{title}", "x": 0.5, "y": 0.8, "size": 0.05,
     "colour": "ink", "when": "odd_card"},
]}}


def draw_cards(cards: list[dict], reuse: bool, monkeypatch) -> tuple:
    """Every card drawn on one canvas, each face at its own place on the sheet: (the
    canvas's code, the measures, the symbols, the notes' lines, texts drawn anew)."""
    drawn_texts = []
    real = elements.DRAW[kinds.schema.TextBlock]

    def counting(d, el, scope):
        drawn_texts.append(scope.get("text"))
        return real(d, el, scope)
    with monkeypatch.context() as m:
        m.setitem(elements.DRAW, kinds.schema.TextBlock, counting)
        if not reuse:
            m.setattr(reused, "draw", lambda c, key, work, notes, card=None: work())
        engine = Engine(kinds.load(KIND, "test.toml"), PALETTE, {}, "test.toml")
        with tempfile.TemporaryDirectory() as folder, \
                fit.recording(presets.text_limits()) as rec, undefined.noting() as notes:
            c = open_canvas(Path(folder) / "f.pdf", (600, 800), "test", "")
            for i, fields in enumerate(cards):
                face = engine.face("k", fields, label=f"cards/{i}")
                c.saveState()
                c.translate(20 + (i % 3) * 190, 20 + (i // 3 % 3) * 260)
                rec.wrap(face.draw, f"cards/{i}")(c, W, H, 0.0)
                c.restoreState()
                if i % 9 == 8:
                    c.showPage()
            code = "\n".join(c._code)
    return (code, [msgspec.structs.astuple(m) for m in rec.measures], rec.symbols,
            notes.lines(), drawn_texts)


def card(i: int, text: str = "Gain :coin: and **two** more.", band: str = "paper",
         **more) -> dict:
    return {"title": f"Card {i}", "icon": ("coin", "star")[i % 2], "text": text,
            "points": i % 3, "band": band, **more}


def test_a_repeated_text_is_drawn_once_and_the_pdf_is_what_drawing_each_gives(monkeypatch):
    cards = [card(i) for i in range(20)]
    code, measures, symbols, notes, drawn = draw_cards(cards, True, monkeypatch)
    every = draw_cards(cards, False, monkeypatch)
    assert code == every[0]  # the same operators, byte for byte
    assert (measures, symbols, notes) == every[1:4]
    # one text: drawn when first met, kept when met again, put back at every other card
    assert len(drawn) == 2 and len(every[4]) == 20


def test_a_text_put_back_is_measured_for_its_own_card_over_its_own_ground(monkeypatch):
    """The same words on a white band and on a night band: the text's measure on each card
    names that card and holds the ground under it there (the night band: a contrast
    problem for that card alone)."""
    cards = [card(0, band="paper"), card(0, band="night"), card(0, band="paper")]
    _, measures, *_ = draw_cards(cards, True, monkeypatch)
    every = draw_cards(cards, False, monkeypatch)
    assert measures == every[1]
    texts = [m for m in measures if m[2].startswith("Card")]
    assert [m[0] for m in texts] == ["cards/0", "cards/1", "cards/2"]
    titles = {m[0]: m[8] for m in measures if m[2].startswith("Card")}
    assert titles["cards/1"] != titles["cards/0"] == titles["cards/2"]


def test_a_name_nothing_defines_is_noted_as_drawing_each_card_notes_it(monkeypatch):
    """An icon no game has, in a text put back (:nosuch:), and a condition naming a field
    some cards lack: the notes drawing every element takes."""
    cards = [card(i, text="Gain :nosuch: now.", **({"odd_card": True} if i % 3 else {}))
             for i in range(6)]
    *_, notes, _ = draw_cards(cards, True, monkeypatch)
    assert notes == draw_cards(cards, False, monkeypatch)[3]
    assert any(":nosuch: is no icon" in line for line in notes), notes


def test_values_equal_in_python_but_printed_apart_are_not_put_back_for_each_other(
        monkeypatch):
    """1, 1.0 and True are equal in Python and print "1", "1.0" and "True"; 0.0 and -0.0
    too: each card's badge prints its own."""
    cards = [card(0, points=v) for v in (1, 1.0, True, 0.0, -0.0, 0, False, "1")]
    code, *_ = draw_cards(cards, True, monkeypatch)
    assert code == draw_cards(cards, False, monkeypatch)[0]


TEXTS = ["Gain :coin:.", "Gain :nosuch:.", "**Strong:** gains :star: twice.", "Plain words only.",
         "A longer rule text that has to wrap over several lines of its box, and more."]


@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from(TEXTS),
                          st.sampled_from(["paper", "night", "gold"]),
                          st.sampled_from(["", "Note", "Other note"]), st.booleans()),
                min_size=1, max_size=14))
@settings(max_examples=25, deadline=None)
def test_any_run_of_cards_draws_and_checks_as_drawing_every_element_does(rows):
    """Whatever cards follow one another (texts, grounds, titles, conditions met or not,
    across pages), reuse gives the operators, measures, symbols and notes that drawing
    every element gives."""
    cards = [card(k, text=t, band=b, note=n, odd_card=o) for k, t, b, n, o in rows]
    with pytest.MonkeyPatch.context() as m:
        assert draw_cards(cards, True, m)[:4] == draw_cards(cards, False, m)[:4]


def test_a_designers_game_builds_byte_for_byte_as_drawing_every_element(
        tmp_path, monkeypatch):
    """The starter grown (its SVG icons as forms, pictures, a text too long, pictures too
    small): the same cards.pdf and the same warnings, with elements put back or not."""
    from companion import kit
    from companion.files import kept
    from tests.test_incremental import designer_game

    data = designer_game(tmp_path / "big", 30)
    monkeypatch.setattr(kept, "in_process", None, raising=False)
    out = {}
    for reuse in (True, False):
        with monkeypatch.context() as m:
            m.setenv("TABLE_COMPANION_CACHE", str(tmp_path / f"cache-{reuse}"))
            if not reuse:
                m.setattr(reused, "draw", lambda c, key, work, notes, card=None: work())
            warnings: list[str] = []
            kit.build(str(data), kit.Options(only=["cards"], out=tmp_path / str(reuse)),
                      warn=warnings.append)
            out[reuse] = (tmp_path / str(reuse) / "cards.pdf").read_bytes(), warnings
    assert out[True] == out[False]
    assert any("does not fit its box" in w for w in out[True][1])
