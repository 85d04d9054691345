"""`companion check GAME`: faces that differ only by colour and look alike as designed,
with deuteranopia, protanopia or tritanopia (Machado 2009), or printed in greyscale, are
found, a line each; legibility.pdf shows them. The colour arithmetic and the comparison
of faces are checked alone first."""

import json
import subprocess

import numpy as np
import pytest

from companion.draw import vision
from companion.kit import legibility
from tests import needs

# --- the arithmetic ---------------------------------------------------------------------

# Sharma, Wu and Dalal (2005), table 1: pairs of CIELab colours and their CIEDE2000.
SHARMA = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((50.0, 2.5, 0.0), (50.0, 3.2592, 0.3350), 1.0),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
]


@pytest.mark.parametrize("a, b, expected", SHARMA)
def test_ciede2000_gives_sharmas_published_differences(a, b, expected):
    assert float(vision.ciede2000(a, b)) == pytest.approx(expected, abs=1e-4)
    assert float(vision.ciede2000(b, a)) == pytest.approx(expected, abs=1e-4)


def test_greyscale_keeps_lightness_and_drops_hue():
    red = vision.hex_rgb("#D62728")
    grey = vision.seen(red, "greyscale")
    assert grey[0] == grey[1] == grey[2]
    assert vision.lab(grey)[0] == pytest.approx(vision.lab(red)[0], abs=0.5)


LIMITS = legibility.Limits(hue_chroma=12.0, contrast=3.0, least_area=0.0005, dpi=50,
                           sheet_dpi=72)


def face(ground: str, mark: str = "#FFFFFF", shape: str = "square") -> np.ndarray:
    """A 40 x 60 face: a ground, a mark in the middle (a square or a bar)."""
    rgb = np.zeros((60, 40, 3), dtype=np.uint8)
    rgb[:, :] = vision.hex_rgb(ground) * 255
    if shape == "square":
        rgb[20:40, 10:30] = vision.hex_rgb(mark) * 255
    else:
        rgb[25:35, 5:35] = vision.hex_rgb(mark) * 255
    return rgb


def test_faces_alike_but_for_colour_share_a_structure_others_do_not():
    key_red, *_ = legibility.structure(face("#D62728"))
    key_green, *_ = legibility.structure(face("#2CA02C"))
    key_bar, *_ = legibility.structure(face("#2CA02C", shape="bar"))
    assert key_red == key_green != key_bar


def views_alike(a: str, b: str) -> set[str]:
    _, pa, areas = legibility.structure(face(a))
    _, pb, _ = legibility.structure(face(b))
    return {v for v in vision.VIEWS if legibility.alike(pa, pb, areas, v, LIMITS)}


def test_the_shipped_limits_are_the_ones_these_tests_hold():
    assert legibility.limits() == LIMITS


def test_tableau_10_as_designed_keeps_every_two_colours_apart():
    tab10 = ["#1F77B4", "#FF7F0E", "#2CA02C", "#D62728", "#9467BD", "#8C564B", "#E377C2",
             "#7F7F7F", "#BCBD22", "#17BECF"]
    assert not [(a, b) for i, a in enumerate(tab10) for b in tab10[i + 1:]
                if "designed" in views_alike(a, b)]


def test_red_and_green_are_alike_with_deuteranopia_and_protanopia():
    seen = views_alike("#D62728", "#2CA02C")
    assert {"deuteranopia", "protanopia"} <= seen
    assert "designed" not in seen and "tritanopia" not in seen


def test_blue_and_orange_stay_apart_with_each_deficiency():
    assert not views_alike("#1F77B4", "#FF7F0E") & {"designed", "deuteranopia",
                                                     "protanopia", "tritanopia"}


def test_a_grey_and_a_red_of_one_lightness_are_alike_in_greyscale_only_there():
    seen = views_alike("#777777", "#DA3333")
    assert "greyscale" in seen and "designed" not in seen


# --- the command --------------------------------------------------------------------------

def game(folder, factions: dict[str, str], backs: dict[str, str] | None = None):
    """A game file: a card per faction (its colour the ground, the same flame, the same
    number), and, with `backs`, a component per back (its colour the ground)."""
    backs = backs or {"plain": "#1B2631"}
    lines = ['[game]', 'id = "hues"', 'name = "Hues"', 'ink = "#FFFFFF"', ""]
    for n, back in enumerate(backs):
        for name, colour in factions.items():
            lines += [f"[[cards{n}]]", f'id = "{name}"', f'colour = "{colour}"', ""]
        lines += [f"[components.deck{n}]", 'kind = "card"', f'cards = "cards{n}"',
                  f'back = "{back}"', ""]
    for back, colour in backs.items():
        lines += [f"[backs.{back}]", 'kind = "back"', f'fields = {{ ground = "{colour}" }}', ""]
    lines += ['[kinds.card]', '[[kinds.card.elements]]', 'type = "background"',
              'fill = "{colour}"', '[[kinds.card.elements]]', 'type = "symbol"',
              'name = "flame"', 'x = 0.5', 'y = 0.45', 'r = 0.2', 'colour = "ink"',
              '[[kinds.card.elements]]', 'type = "text"', 'text = "7"', 'y = 0.85',
              'size = 0.12', 'font = "bold"', 'colour = "ink"', "",
              '[kinds.back]', '[[kinds.back.elements]]', 'type = "background"',
              'fill = "{ground}"', '[[kinds.back.elements]]', 'type = "text"',
              'text = "{game.name}"', 'y = 0.5', 'size = 0.1', 'colour = "ink"']
    path = folder / "hues.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def checked(cli, path, out, *more):
    r = cli("check", path, "--out", out, *more)
    return r, json.loads((out / "manifest.json").read_text(encoding="utf-8")) \
        if (out / "manifest.json").exists() else None


def test_two_factions_in_red_and_green_with_one_icon_are_found(cli, tmp_path):
    path = game(tmp_path, {"red": "#D62728", "green": "#2CA02C"})
    r, m = checked(cli, path, tmp_path / "out")
    assert r.code == 0, r.err
    views = {f["view"] for f in m["findings"]}
    assert {"deuteranopia", "protanopia"} <= views and "designed" not in views
    lines = [line for line in r.out.splitlines() if line.startswith("hues: deuteranopia")]
    assert len(lines) == 1 and "deck0/red and deck0/green" in lines[0]
    assert "#D62728 and #2CA02C" in lines[0]
    # the summary: each component's smallest text and lowest contrast
    assert "deck0: smallest text" in r.out and "lowest contrast" in r.out
    r = cli("check", path, "--out", tmp_path / "out", "--strict")
    assert r.code == 2 and "--strict" in r.err


def test_blue_and_orange_factions_are_not_found(cli, tmp_path):
    path = game(tmp_path, {"blue": "#1F77B4", "orange": "#FF7F0E"})
    r, m = checked(cli, path, tmp_path / "out")
    assert r.code == 0, r.err
    assert not {f["view"] for f in m["findings"]} & {"designed", "deuteranopia",
                                                      "protanopia", "tritanopia"}


def test_two_backs_in_grey_and_red_of_one_lightness_are_found_in_greyscale(cli, tmp_path):
    path = game(tmp_path, {"blue": "#1F77B4"}, backs={"grey": "#777777", "red": "#DA3333"})
    r, m = checked(cli, path, tmp_path / "out")
    assert r.code == 0, r.err
    (found,) = [f for f in m["findings"] if f["view"] == "greyscale"
                and "back" in f["a"]]
    assert {found["a"], found["b"]} == {"deck0 (back grey)", "deck1 (back red)"}
    assert not any(f["view"] == "designed" for f in m["findings"])


def test_legibility_pdf_lists_the_findings_and_shows_every_view(cli, tmp_path):
    pdftotext = needs.tool("pdftotext")
    path = game(tmp_path, {"red": "#D62728", "green": "#2CA02C"})
    r, m = checked(cli, path, tmp_path / "out")
    text = subprocess.run([pdftotext, str(tmp_path / "out" / "legibility.pdf"), "-"],
                          capture_output=True, text=True, check=True).stdout
    assert "deuteranopia: deck0/red and deck0/green differ only by colour" in " ".join(
        text.split())
    for view in vision.VIEWS:
        assert view in text


def test_the_four_games_are_checked_by_name_with_a_summary_each(cli, tmp_path):
    r = cli("check", "all", "--out", tmp_path / "out")
    assert r.code == 0, r.err
    for game in ("covenia", "coverta", "lugvanion", "vengeance"):
        m = json.loads((tmp_path / "out" / game / "manifest.json").read_text(encoding="utf-8"))
        assert m["faces"] > 50 and m["summary"]
        assert (tmp_path / "out" / game / "legibility.pdf").is_file()
        # every face differs from the others by more than its colour (a clan's symbol,
        # a team's emblem, a number, a name): no finding (docs/next-version.md)
        assert m["findings"] == [], m["findings"]
        assert f"{game}: " in r.out and "smallest text" in r.out
