"""The prototype stamp: a game's version and the build date on every card and sheet."""

import re

import pytest

from companion.files import paths
from tests.conftest import GAMES
from tests.pdfs import page_texts

NOON_2026_11_22 = "1795348800"


def with_version(tmp_path, game="lugvanion", extra=""):
    text = paths.layout(f"{game}.toml").read_text(encoding="utf-8")
    text = text.replace("[game]\n", f'[game]\nversion = "0.3"\n{extra}', 1)
    (tmp_path / f"{game}.toml").write_text(text, encoding="utf-8")
    return tmp_path / f"{game}.toml"


def test_every_card_front_and_sheet_label_carries_the_version_and_date(tmp_path, cli,
                                                                      monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", NOON_2026_11_22)
    r = cli("build", "lugvanion", "--only", "guilds,circles", "--data", with_version(tmp_path),
            "--out", tmp_path / "o")
    assert r.code == 0, r.err
    pages = page_texts(tmp_path / "o" / "cards.pdf")
    fronts, backs = pages[0::2], pages[1::2]
    stamp = "v0.3 · 2026-11-22"
    assert sum(p.count(stamp) for p in fronts) == 4 + 3 + len(fronts)  # cards + sheet labels
    assert all(re.search(r"Lugvanion v0\.3 · 2026-11-22 · ", p) for p in fronts + backs)
    assert "warning" not in r.err  # inside the safe zone, big enough, readable on any ground


def test_without_a_version_nothing_is_stamped(tmp_path, cli):
    r = cli("build", "lugvanion", "--only", "guilds", "--out", tmp_path / "o")
    assert r.code == 0 and "v0." not in " ".join(page_texts(tmp_path / "o" / "cards.pdf"))


def test_source_date_epoch_makes_the_build_reproducible(tmp_path, cli, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", NOON_2026_11_22)
    data = with_version(tmp_path)
    for out in ("a", "b"):
        assert cli("build", "lugvanion", "--only", "guilds", "--data", data,
                   "--out", tmp_path / out).code == 0
    assert (tmp_path / "a" / "cards.pdf").read_bytes() == (tmp_path / "b" / "cards.pdf").read_bytes()


def test_a_bad_corner_or_epoch_is_one_line(tmp_path, cli, monkeypatch):
    data = with_version(tmp_path, "vengeance", extra='stamp_corner = "middle"\n')
    r = cli("build", "vengeance", "--only", "aids", "--data", data, "--out", tmp_path / "o")
    assert r.code == 2 and "stamp_corner" in r.err
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    r = cli("build", "lugvanion", "--only", "guilds", "--data", with_version(tmp_path),
            "--out", tmp_path / "o")
    assert r.code == 2 and "SOURCE_DATE_EPOCH" in r.err and not (tmp_path / "o").exists()


@pytest.mark.parametrize("game", GAMES)
def test_a_versioned_kit_keeps_every_stamp_inside_the_safe_zone_and_off_the_tokens(
        tmp_path, cli, monkeypatch, game):
    # Round tokens of 18-38 mm have no corner inside their safe zone: the sheet label alone
    # carries the version there. Every card of the whole kit is measured (no warning).
    monkeypatch.setenv("SOURCE_DATE_EPOCH", NOON_2026_11_22)
    r = cli("build", game, "--data", with_version(tmp_path, game), "--out", tmp_path / "o")
    assert r.code == 0, r.err
    assert "warning" not in r.err
    tokens = tmp_path / "o" / "tokens.pdf"
    if tokens.exists():
        for page in page_texts(tokens):
            assert page.count("v0.3 · 2026-11-22") == 1  # the label, no token


@pytest.mark.parametrize("fmt", ["cards-pdf", "png", "tts", "preview"])
def test_every_export_carries_the_stamp_too(tmp_path, cli, monkeypatch, fmt):
    """The stamp is laid on each card when the kit is laid out, so a card sent to a shop,
    to Tabletop Simulator or onto a preview is the playtest printing it says it is."""
    from PIL import Image, ImageChops

    monkeypatch.setenv("SOURCE_DATE_EPOCH", NOON_2026_11_22)
    data = with_version(tmp_path, "covenia")
    outs = {}
    for name, args in (("plain", []), ("stamped", ["--data", str(data)])):
        r = cli("export", "covenia", fmt, "--only", "aids", "--out", tmp_path / name, *args)
        assert r.code == 0, r.err
        outs[name] = tmp_path / name
    if fmt == "cards-pdf":
        assert "v0.3 · 2026-11-22" in " ".join(page_texts(outs["stamped"] / "aids.pdf"))
        assert "v0.3" not in " ".join(page_texts(outs["plain"] / "aids.pdf"))
        return
    pictures = sorted(p.relative_to(outs["plain"]) for p in outs["plain"].rglob("*.png"))
    assert pictures
    front = next(p for p in pictures if "front" in p.name or fmt != "png")
    a, b = (Image.open(outs[k] / front).convert("RGB") for k in ("plain", "stamped"))
    assert ImageChops.difference(a, b).getbbox() is not None  # the stamp, and only on one
