"""Issue 35's `{copy}` and `{copies}`: each printed copy's number and how many its card
prints. A kind printing `{copy}` (or with a condition on it) draws each copy a face of its
own, with its own digest; a kind that does not keeps one face a card, as before. And what
the issue must show: the starter's creature kind with a QR code, a turned text, a faded
rect and "copy {copy}/{copies}", built in English and French."""

import json
import subprocess

import pytest

from tests import needs
from tests.test_layout_qr import read_codes, starter_with

# What the designer added to the starter's creature kind.
ADDED = '''
[[kinds.creature.elements]]
type = "rect"
x = 0.08
y = 0.47
w = 0.84
h = 0.12
fill = "accent"
opacity = 0.5

[[kinds.creature.elements]]
type = "text"
text = "{icon}"
x = 0.15
y = 0.38
size = 0.045
rotate = 90

[[kinds.creature.elements]]
type = "qr"
data = "vocab:{title}"
x = 0.68
y = 0.79
w = "15mm"
h = "15mm"

[[kinds.creature.elements]]
type = "text"
text = "copy {copy}/{copies}"
x = 0.1
y = 0.955
size = 0.035
align = "left"
'''


def _build(cli, game, out, *args):
    r = cli("build", str(game), "--out", str(out), *args)
    assert r.code == 0, r.err
    return r, json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def _pdf_text(pdf) -> str:
    return subprocess.run([needs.tool("pdftotext"), str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout


# ---- what the issue must show: the starter's creatures --------------------------------------

@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_starters_creatures_print_a_qr_code_read_back_and_each_copys_number(
        cli, tmp_path, lang):
    game = starter_with(cli, tmp_path, ADDED)
    r, manifest = _build(cli, game, tmp_path / "kit", "--lang", lang)
    pdf = tmp_path / "kit" / "cards.pdf"
    text = _pdf_text(pdf)
    for said in ("copy 1/2", "copy 2/2", "copy 1/3", "copy 2/3", "copy 3/3", "copy 1/1"):
        assert said in text, (said, text)
    assert "{copy" not in text and "{copies" not in text
    assert "shell" in text and "wave" in text  # the turned text: each creature's icon
    assert b"/ca .5" in pdf.read_bytes()  # the faded band: a fill opacity of 0.5
    codes = read_codes(pdf)  # the first sheet: Hermit Crab x2, Sea Star, ..., Periwinkle
    assert "QR-Code:vocab:Hermit Crab" in codes, codes
    assert codes.count("QR-Code:vocab:Limpet") == 3, codes
    assert len(codes) == 9, codes
    # each copy its own face: its own digest; the other components keep theirs shared
    fronts = {c["id"]: c["front"] for c in manifest["cards"]}
    assert fronts["cards/limpet"] != fronts["cards/limpet-2"] != fronts["cards/limpet-3"]
    assert len({fronts[f"aids/aid{s}"] for s in ("", "-2", "-3", "-4")}) == 1
    assert "does not fit" not in r.err and "from the trim" not in r.err, r.err


def test_a_kit_that_prints_no_copy_number_keeps_one_face_a_card(cli, tmp_path):
    game = starter_with(cli, tmp_path, added="")
    _, manifest = _build(cli, game, tmp_path / "kit")
    fronts = {c["id"]: c["front"] for c in manifest["cards"]}
    assert fronts["cards/limpet"] == fronts["cards/limpet-2"] == fronts["cards/limpet-3"]
    copies = '''
[[kinds.creature.elements]]
type = "text"
text = "of {copies}"
x = 0.1
y = 0.955
size = 0.035
align = "left"
'''
    game = starter_with(cli, tmp_path / "b", added=copies)  # {copies} alone: one face still
    _, manifest = _build(cli, game, tmp_path / "kit-b")
    fronts = {c["id"]: c["front"] for c in manifest["cards"]}
    assert fronts["cards/limpet"] == fronts["cards/limpet-2"] == fronts["cards/limpet-3"]
    assert "of 3" in _pdf_text(tmp_path / "kit-b" / "cards.pdf")


def test_a_condition_on_the_copy_number_draws_on_that_copy_only(cli, tmp_path):
    first = '''
[[kinds.creature.elements]]
type = "text"
text = "FIRST"
when = "copy == 1"
x = 0.5
y = 0.955
size = 0.035
'''
    game = starter_with(cli, tmp_path, added=first)
    _build(cli, game, tmp_path / "kit")
    text = _pdf_text(tmp_path / "kit" / "cards.pdf")
    assert text.count("FIRST") == 6  # one a creature (six titles), whatever its copies


