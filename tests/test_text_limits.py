"""Text that always fits and is never too small (issue 12): every text on a card is
measured as it is drawn (companion/text/fit.py). The default build (poker) of every game
reports nothing in either language; on a card too small each overflow is reported with its game,
card and field, and --strict refuses to write the kit. Over every card: no word under the
floor, every text inside the safe zone, every text/ground pair at the WCAG contrast; and,
independently of the recorder, every text run the PDF holds inside a card's trim box is at
least the floor."""

import re
import tomllib
from contextlib import contextmanager
from dataclasses import dataclass
from math import sqrt
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
import tomlkit

from companion import kit
from companion.files import paths
from companion.press import presets
from companion.text import fit
from companion.press.imposition import plan_grid
from tests.conftest import GAMES

LANGS = ("en", "fr")
LIMITS = presets.text_limits()
MM = 72 / 25.4

# Labels drawn from numbers the code counts out, not from a data key: the eight spaces of
# a guild (space), a bounty's 3 gold (reward), a gold coin's 1 (coin), the numbers of
# artifacts, incantations and gates (number), the arrow between Coverta's examples.
COMPUTED = {"space", "reward", "coin", "number", "arrow"}


@dataclass
class Build:
    warnings: list[str]
    recorder: fit.Recorder
    folder: Path
    manifest: dict


def build(game: str, out: Path, **options) -> Build:
    """kit.build with a spy on fit.recording: the build's warnings and its measures."""
    warnings, recorders = [], []
    real = fit.recording

    @contextmanager
    def spy(limits):
        with real(limits) as rec:
            recorders.append(rec)
            yield rec

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(fit, "recording", spy)
        manifest = kit.build(game, kit.Options(out=out, **options), warn=warnings.append)
    # the build's own first; under poker size, the coverage check's (a layout at poker) after
    assert 1 <= len(recorders) <= 2
    return Build(warnings, recorders[0], out, manifest)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """built(game, lang, card_size="poker") -> Build, each built once for this module."""
    cache: dict = {}

    def get(game: str, lang: str, card_size: str = "poker") -> Build:
        key = (game, lang, card_size)
        if key not in cache:
            out = tmp_path_factory.mktemp(f"limits-{game}-{lang}-{card_size}") / "kit"
            cache[key] = build(game, out, lang=lang, card_size=card_size)
        return cache[key]
    return get


def data(game: str) -> dict:
    return tomllib.loads((paths.LAYOUTS / f"{game}.toml").read_text(encoding="utf-8"))


def is_data_field(game: str, field: str) -> bool:
    """Whether a reported field is a key of the game's data: a path from the file's top
    ("texts.tithe", "aid.front[3]", "rule_texts.fill.keep"; a list of tables stands for any
    of its items, "characters.summary"), or a key of the items of a top-level list of
    tables ("reminder" of [[clans]])."""
    parts = re.findall(r"\[\d+\]|[^.\[\]]+", field)

    def walk(node, ps) -> bool:
        if not ps:
            return True
        p, rest = ps[0], ps[1:]
        if isinstance(node, list):
            if p.startswith("["):
                i = int(p[1:-1])
                return i < len(node) and walk(node[i], rest)
            return any(walk(item, ps) for item in node)
        return isinstance(node, dict) and p in node and walk(node[p], rest)

    d = data(game)
    roots = [d] + [v for v in d.values() if isinstance(v, list) and v and isinstance(v[0], dict)]
    return any(walk(root, parts) for root in roots)


def wcag(a, b) -> float:
    """WCAG 2 contrast ratio, computed here rather than by the code under test."""
    def lum(rgb):
        lin = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def hexrgb(s: str) -> tuple[float, float, float]:
    s = s.lstrip("#")
    return tuple(int(s[i:i + 2], 16) / 255 for i in (0, 2, 4))


# ---- (a) the default build reports nothing -------------------------------------------

@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_the_default_build_reports_nothing(built, game, lang):
    b = built(game, lang)
    assert b.warnings == []
    assert b.recorder.measures and not b.recorder.problems()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_the_default_letter_build_warns_nothing_at_the_terminal(cli, tmp_path, game, lang):
    r = cli("build", game, "--paper", "letter", "--lang", lang, "--out", tmp_path / "kit")
    assert r.code == 0 and "warning" not in r.err, r.err


# ---- (c) a card too small: every overflow reported, --strict refuses ------------------
# Every size the kits offer passes --strict (test_strict_matrix.py); a card smaller than the
# mini sizes, which no layout says less for, still breaks the limits.
TINY = "34x52mm"

LINE = re.compile(r"^(?P<game>\w+) · (?P<card>[^·]+) · (?P<field>\S+) · (?P<lang>en|fr): "
                  r"(?P<what>[^(]+) \(“.*”\)$", re.S)


@pytest.mark.parametrize("game", GAMES)
def test_a_card_too_small_reports_each_overflow_in_french_with_its_card_and_field(built, game):
    b = built(game, "fr", TINY)
    assert b.warnings, "34 x 52 mm cards are too small for some texts: they must be reported"
    components = {c["id"] for f in b.manifest["files"] for c in f["components"]}
    reported = set()
    for line in b.warnings:
        m = LINE.match(line)
        assert m, line
        assert m["game"] == game and m["lang"] == "fr"
        card = m["card"]
        assert card.split(" ")[0] in components, line
        assert re.fullmatch(r"[\w-]+ (\d+ (front|back)|[\w-]+)", card), line
        field = m["field"]
        assert field != "text", line  # every text names its data key
        assert is_data_field(game, re.sub(r"\[\d+\]$", "", field)) or field in COMPUTED, line
        reported.add((card, field, m["what"]))
    overflows = {(m.face, m.field) for m in b.recorder.measures if not m.fits and not m.exempt}
    assert overflows, "a text that does not fit at 34 x 52 mm"
    for face, field in overflows:
        assert (face, field, "does not fit its box") in reported, (face, field)


@pytest.mark.parametrize("game", GAMES)
def test_strict_refuses_a_build_that_breaks_the_limits_in_one_line_and_writes_nothing(
        cli, tmp_path, game):
    out = tmp_path / "kit"
    r = cli("build", game, "--card-size", TINY, "--lang", "fr", "--strict", "--out", out)
    assert r.code == 2
    lines = [ln for ln in r.err.splitlines() if ln.strip()]
    assert len(lines) == 1, r.err
    assert "--strict" in lines[0] and f"{game} · " in lines[0] and "Traceback" not in r.err
    assert not out.exists()


# ---- (d) every card, both languages: floor, safe zone, contrast -----------------------

@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_every_text_on_every_card_keeps_the_floor_the_safe_zone_and_the_contrast(
        built, game, lang):
    rec = built(game, lang).recorder
    # every face drawn, text or not, and every page (a score book, a score sheet)
    components = {face.split(" ")[0] for face in rec.sizes}
    expected = {c["id"] for f in built(game, lang).manifest["files"] for c in f["components"]}
    assert components == expected and len(rec.measures) > 100
    bad = []
    for m in rec.measures:
        if m.exempt:
            # Only Coverta's example cards, drawn small on its rule cards, are exempt.
            assert game == "coverta" and m.face.startswith("rules "), m
            continue
        w, h = rec.sizes[m.face]
        x0, y0, x1, y1 = m.box
        where = f"{m.face} · {m.field}: {m.text!r}"
        if m.size < LIMITS.floor - 0.01:
            bad.append(f"{where} is {m.size:.2f} pt")
        if not m.fits:
            bad.append(f"{where} does not fit")
        near = min(x0, y0, w - x1, h - y1)
        if near < LIMITS.safe - 0.01:
            bad.append(f"{where} is {near / MM:.2f} mm from the trim")
        assert m.ground is not None, where  # every card text lies on a ground drawn for it
        need = LIMITS.contrast_large if m.bold and m.size >= LIMITS.large_size \
            else LIMITS.contrast
        ratio = wcag(m.ink, m.ground)
        if ratio < need - 0.005:
            bad.append(f"{where}: contrast {ratio:.2f}, under {need}")
    assert not bad, "\n".join(bad[:20])


def test_the_limits_are_the_issue_s_numbers():
    assert LIMITS.floor == 6 and abs(LIMITS.safe - 3 * MM) < 1e-6
    assert LIMITS.contrast == 4.5 and LIMITS.contrast_large == 3 and LIMITS.large_size == 14


def test_text_colours_in_the_data_read_on_their_grounds():
    """From the layouts alone: each colour a text is printed in, against the colour it is
    printed on."""
    low = []

    def check(what, ink, ground, need=4.5):
        if wcag(hexrgb(ink), hexrgb(ground)) < need:
            low.append(f"{what}: {ink} on {ground}")

    cov = data("covenia")
    paper = cov["game"]["paper"]
    for clan in cov["clans"]:
        tint = "#" + "".join(f"{round((p + (c - p) * 0.16) * 255):02X}" for p, c in
                             zip(hexrgb(paper), hexrgb(clan["colour"])))  # the Moon deck
        check(f"covenia {clan['id']} numbers", clan["text_colour"], paper)
        check(f"covenia {clan['id']} numbers (Moon)", clan["text_colour"], tint)
        check(f"covenia {clan['id']} Temple band", clan["band_ink"], clan["colour"])
    lug = data("lugvanion")
    for key in ("teams", "guilds", "circles"):
        for item in lug[key]:
            check(f"lugvanion {item['id']}", item.get("ink_on_colour", lug["game"]["paper"]),
                  item["colour"])
    check("lugvanion objective backs", lug["game"]["objective_back_ink"],
          lug["game"]["objective_back"])
    ven = data("vengeance")
    check("vengeance gold words", ven["game"]["gold_text"], ven["game"]["paper"])
    assert not low, low


# ---- (e) read back from the PDF: every run on a card is at least the floor -----------

def effective_sizes(path: Path):
    """(page index, char, size in pt as printed, centre x, centre y) of every printed
    character, from pdfium: the font size times the scale of the character's matrix
    (which holds the card's placement and any form it is drawn in)."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        for n in range(len(pdf)):
            page = pdf[n]
            tp = page.get_textpage()
            for i in range(tp.count_chars()):
                ch = tp.get_text_range(i, 1)
                if not ch or ch.isspace():
                    continue
                m = pdfium_c.FS_MATRIX()
                pdfium_c.FPDFText_GetMatrix(tp, i, m)
                size = pdfium_c.FPDFText_GetFontSize(tp, i) * sqrt(abs(m.a * m.d - m.b * m.c))
                left, bottom, right, top = tp.get_charbox(i)
                yield n, ch, size, (left + right) / 2, (bottom + top) / 2
            tp.close()
            page.close()
    finally:
        pdf.close()


def test_sizes_read_from_a_pdf_include_scaling_and_forms(tmp_path):
    """The reader itself: 20 pt text scaled by 0.3 prints at 6 pt, 12 pt in a form drawn
    at half size at 6 pt, and 8 pt turned a quarter stays 8 pt."""
    from reportlab.pdfgen import canvas

    path = tmp_path / "t.pdf"
    c = canvas.Canvas(str(path), pagesize=(300, 300))
    c.saveState()
    c.translate(100, 100)
    c.scale(0.3, 0.3)
    c.setFont("Helvetica", 20)
    c.drawString(0, 0, "S")
    c.restoreState()
    c.beginForm("f")
    c.setFont("Helvetica", 12)
    c.drawString(0, 0, "F")
    c.endForm()
    c.saveState()
    c.translate(50, 200)
    c.scale(0.5, 0.5)
    c.doForm("f")
    c.restoreState()
    c.saveState()
    c.translate(200, 50)
    c.rotate(90)
    c.setFont("Helvetica", 8)
    c.drawString(0, 0, "R")
    c.restoreState()
    c.save()
    sizes = {ch: round(size, 3) for _, ch, size, _, _ in effective_sizes(path)}
    assert sizes == {"S": 6.0, "F": 6.0, "R": 8.0}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_every_text_run_inside_a_card_in_the_pdf_is_at_least_the_floor(built, game, lang):
    b = built(game, lang)
    entry = next(f for f in b.manifest["files"] if f["path"] == "cards.pdf")
    grid = plan_grid(*presets.paper_size("a4"), *presets.card_size("poker"),
                     presets.sheet_settings(), 0.0)
    flip = entry["duplex"]

    def card_at(page: int, x: float, y: float):
        for slot in range(grid.per_sheet):
            placed = grid.front(slot) if flip == "none" or page % 2 == 0 \
                else grid.back(slot, flip)
            r = placed.box
            if r.x <= x <= r.right and r.y <= y <= r.top:
                return slot
        return None

    on_cards, small = 0, []
    for page, ch, size, x, y in effective_sizes(b.folder / "cards.pdf"):
        slot = card_at(page, x, y)
        if slot is None:
            continue  # the sheet's bar, caption and label, outside the cards
        on_cards += 1
        if size < LIMITS.floor - 0.01:
            # Coverta's rule cards show two number cards drawn small as an example: their
            # numbers, suit marks and codes are pictures, not text to read.
            if game == "coverta" and ch in "0123456789♦♠C":
                continue
            small.append((page + 1, slot, ch, round(size, 2)))
    assert on_cards > 100  # the PDF's text was read
    assert not small, small[:20]


def test_coverta_s_example_cards_really_print_small(built):
    """The exemption above is needed: the PDF holds those small example numbers."""
    b = built("coverta", "en")
    sizes = [size for _, ch, size, _, _ in effective_sizes(b.folder / "cards.pdf") if ch == "♠"]
    assert min(sizes) < LIMITS.floor


# ---- (f) an edited data file that makes a text too long ------------------------------

LONG = " ".join(["overlong"] * 120)


@pytest.mark.parametrize("game,path,card,field", [
    ("covenia", ("clans", 3, "reminder"), "clan-cards", "reminder"),
    ("lugvanion", ("characters", 0, "power"), "characters", "characters.power"),
    ("vengeance", ("texts", "artifact_text"), "artifacts", "texts.artifact_text"),
    ("coverta", ("rule_texts", "parity", "keep"), "rules", "rule_texts.parity.keep"),
])
def test_a_text_made_too_long_in_a_data_copy_is_reported_by_card_and_field(
        tmp_path, game, path, card, field):
    doc = tomlkit.parse((paths.LAYOUTS / f"{game}.toml").read_text(encoding="utf-8"))
    node = doc
    for key in path:
        node = node[key]
    node["en"] = LONG
    copy = tmp_path / f"{game}.toml"
    copy.write_text(tomlkit.dumps(doc), encoding="utf-8")
    b = build(game, tmp_path / "kit", data=copy)
    assert b.warnings
    for line in b.warnings:
        m = LINE.match(line)
        assert m and m["game"] == game and m["field"] == field, line
        assert m["card"].startswith(f"{card} ") and m["lang"] == "en", line
    assert any(LINE.match(ln)["what"] == "does not fit its box" for ln in b.warnings)
