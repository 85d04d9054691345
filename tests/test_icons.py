"""A designer's own SVG icons ([icons] in the data): drawn as vectors wherever a built-in
symbol can be (a symbol element, `:name:` in a text), `currentColor` taking the card's
colour; a face's digest follows the icon's file; and a hostile SVG (entities, links out,
a <use> bomb, a pipe, a huge file, a path outside the folder) is one line naming it."""

import json
import os
import time

import pytest

from companion.draw import icons
from tests.test_layout_engine import drawn, px

POTION = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <rect x="0" y="0" width="100" height="50" fill="currentColor"/>
  <rect x="0" y="50" width="100" height="50" fill="#00FF00"/>
</svg>"""


@pytest.fixture
def potion(tmp_path):
    (tmp_path / "icons").mkdir()
    path = tmp_path / "icons" / "potion.svg"
    path.write_text(POTION, encoding="utf-8")
    return path


def _loaded(path):
    from companion.files.data import Fields

    return icons.load(Fields({"icons": {"potion": str(path.relative_to(path.parent.parent))}},
                             str(path.parent.parent / "data.toml")))


def test_an_icon_is_drawn_as_vectors_its_current_colour_the_symbols(potion):
    """A symbol element naming the icon: its top half in the element's colour (red), its
    bottom half its own green, fitted in the symbol's circle; paths, no picture."""
    ops, im = drawn({"k": {"elements": [{"type": "symbol", "name": "potion", "x": 0.5,
                                          "y": 0.5, "r": 0.25, "colour": "red"}]}}, "k", {},
                    icons=_loaded(potion))
    assert "/FormXob.Icon" in ops and " re" not in ops  # placed: drawn once (a form)
    assert px(im, 100, 130) == (255, 0, 0) and px(im, 100, 170) == (0, 255, 0)
    assert px(im, 100, 90) == (255, 255, 255)  # r = 50 pt: nothing above 100 pt


def test_an_icon_in_a_text_is_drawn_at_the_texts_size(potion):
    ops, im = drawn({"k": {"elements": [{"type": "text", "text": "A :potion: B", "x": 0.5,
                                          "y": 0.5, "size": 0.2, "colour": "blue"}]}}, "k", {},
                    icons=_loaded(potion))
    assert "(A)" in ops and "(B)" in ops and ":potion:" not in ops
    colours = {px(im, x, y) for x in range(80, 120) for y in range(125, 150)}
    assert (0, 0, 255) in colours and (0, 255, 0) in colours  # its blue half, its green


def test_without_the_icon_the_name_is_plain_text():
    ops, _ = drawn({"k": {"elements": [{"type": "text", "text": "A :potion: B", "x": 0.5,
                                         "y": 0.5, "size": 0.1}]}}, "k", {})
    assert "(A :potion: B)" in ops


@pytest.fixture
def copy(tmp_path, cli):
    """A Vengeance copy whose potions print the designer's icon."""
    assert cli("init", "vengeance", str(tmp_path / "v")).code == 0
    data = tmp_path / "v" / "vengeance.toml"
    (tmp_path / "v" / "icons").mkdir()
    (tmp_path / "v" / "icons" / "potion.svg").write_text(POTION, encoding="utf-8")
    text = data.read_text(encoding="utf-8").replace('symbol = "flask"', 'symbol = "potion"', 1)
    data.write_text(text + '\n[icons]\npotion = "icons/potion.svg"\n', encoding="utf-8")
    return data


def _digests(out):
    return {c["id"]: c["front"] for c in json.loads((out / "manifest.json").read_text())["cards"]}


def test_a_changed_icon_changes_only_the_cards_that_print_it(copy, cli, tmp_path):
    r = cli("build", "vengeance", "--data", str(copy), "--out", str(tmp_path / "a"))
    assert r.code == 0, r.err
    icon = copy.parent / "icons" / "potion.svg"
    icon.write_text(POTION.replace("#00FF00", "#0000FF"), encoding="utf-8")
    r = cli("build", "vengeance", "--data", str(copy), "--out", str(tmp_path / "b"))
    assert r.code == 0, r.err
    a, b = _digests(tmp_path / "a"), _digests(tmp_path / "b")
    changed = {k for k in a if a[k] != b[k]}
    # the potions, and the demons that show each type's symbol; no herb, no aid, no witch
    assert "objects/potion" in changed and "demons/01" in changed
    assert all("potion" in k or k.startswith("demons/") for k in changed), sorted(changed)


BOMB = "".join(f'<g id="l{i}">' + f'<use href="#l{i - 1}"/>' * 10 + "</g>" for i in range(1, 8))
HOSTILE = {
    "entities": ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">'
                 '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
                 '<svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>',
                 "declares a DOCTYPE"),
    "image": ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
              '<image xlink:href="file:///etc/passwd"/></svg>', "holds an <image>"),
    "link-out": ('<svg xmlns="http://www.w3.org/2000/svg"><use href="other.svg#x"/></svg>',
                 "links to 'other.svg#x'"),
    "style-url": ('<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:url(http://x/y)"/>'
                  '</svg>', "refers to"),
    "use-bomb": ('<svg xmlns="http://www.w3.org/2000/svg"><defs><g id="l0"><rect width="1" '
                 f'height="1"/></g>{BOMB}</defs><use href="#l7"/></svg>', "over 20,000 shapes"),
    "use-cycle": ('<svg xmlns="http://www.w3.org/2000/svg"><g id="a"><use href="#b"/></g>'
                  '<g id="b"><use href="#a"/></g></svg>', "refers to itself"),
    "not-svg": ("<html><body/></html>", "is not an SVG file"),
    "broken": ("<svg", "is not an SVG file"),
    "huge": ('<svg xmlns="http://www.w3.org/2000/svg">' + " " * 1_100_000 + "</svg>",
             "over the 1.0 MB"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_icon_is_one_line_naming_it_and_leaves_the_kit(copy, cli, tmp_path, name):
    body, words = HOSTILE[name]
    out = tmp_path / "kit"
    assert cli("build", "vengeance", "--data", str(copy), "--out", str(out),
               "--only", "solo").code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    (copy.parent / "icons" / "potion.svg").write_text(body, encoding="utf-8")
    started = time.process_time()
    r = cli("build", "vengeance", "--data", str(copy), "--out", str(out))
    assert r.code == 2 and "potion.svg" in r.err and words in r.err, r.err
    assert len(r.err.strip().splitlines()) == 1
    assert time.process_time() - started < 30  # CPU time: refused, not expanded
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_an_icon_that_is_a_pipe_or_outside_the_folder_is_refused(copy, cli, tmp_path):
    icon = copy.parent / "icons" / "potion.svg"
    icon.unlink()
    os.mkfifo(icon)
    r = cli("build", "vengeance", "--data", str(copy), "--out", str(tmp_path / "k"))
    assert r.code == 2 and "is a pipe (FIFO)" in r.err, r.err
    text = copy.read_text(encoding="utf-8").replace('potion = "icons/potion.svg"',
                                                    'potion = "../elsewhere.svg"')
    copy.write_text(text, encoding="utf-8")
    r = cli("build", "vengeance", "--data", str(copy), "--out", str(tmp_path / "k"))
    assert r.code == 2 and "icons.potion: ../elsewhere.svg is outside" in r.err, r.err
