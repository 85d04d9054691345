"""`companion export GAME tts`: face sheets within Tabletop Simulator's limits and one
Saved Object whose decks name their cards by sheet and slot, copies repeating an id, and
whose every picture is a written file."""

import json
import time
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image

from companion import export
from companion.export import face_pages, raster, tts
from companion.draw.print_sheets import Face


@pytest.fixture(scope="module")
def covenia_tts(tmp_path_factory):
    out = tmp_path_factory.mktemp("tts") / "covenia-tts"
    started = time.perf_counter()
    manifest = export.export("covenia", "tts", export.Options(out=out))
    return out, manifest, time.perf_counter() - started


def saved(out: Path, manifest: dict) -> dict:
    return json.loads((out / manifest["save"]).read_text(encoding="utf-8"))


def local(url: str) -> Path:
    assert url.startswith("file:///")
    return Path(unquote(urlparse(url).path))


def decks(save: dict) -> list[dict]:
    return [o for o in save["ObjectStates"] if o["Name"] == "DeckCustom"]


def test_the_saved_object_has_a_deck_per_component(covenia_tts):
    out, manifest, _ = covenia_tts
    save = saved(out, manifest)
    assert save["SaveName"] == "Covenia"
    names = [o["Nickname"] for o in save["ObjectStates"]]
    # a component of one card (the set-up card) is that card alone, named as a card is
    assert len(names) == len(manifest["components"])
    for name, c in zip(names, manifest["components"]):
        assert name == c["title"] if c["cards"] > 1 else name.startswith(c["title"] + " ")
    for deck, comp in zip(save["ObjectStates"], manifest["components"]):
        if comp["cards"] == 1:
            assert deck["Name"] == "Card" and deck["CardID"] == comp["sheets"][0]["ids"][0]
            continue
        assert deck["Name"] == "DeckCustom"
        assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"]) == comp["cards"]
        for key, sheet in deck["CustomDeck"].items():
            assert key.isdigit()
            assert set(sheet) >= {"FaceURL", "BackURL", "NumWidth", "NumHeight",
                                  "BackIsHidden", "UniqueBack"}
            assert isinstance(sheet["NumWidth"], int) and isinstance(sheet["NumHeight"], int)
            assert isinstance(sheet["UniqueBack"], bool)
            # the sheet's last slot is a real card, not the hidden-card picture
            assert sheet["BackIsHidden"] is True
            # round tokens as Tabletop Simulator's circle (Type 4), cards rounded rectangles
            assert sheet["Type"] == (4 if comp["id"] == "tokens" else 0)


def test_every_id_is_a_slot_of_its_decks_own_sheet(covenia_tts):
    out, manifest, _ = covenia_tts
    save = saved(out, manifest)
    keys_seen = set()
    for deck, comp in zip(decks(save), [c for c in manifest["components"] if c["cards"] > 1]):
        sheets = {str(s["deck_key"]): s for s in comp["sheets"]}
        assert set(deck["CustomDeck"]) == set(sheets)
        assert not keys_seen & set(sheets)  # a key is one sheet in the whole save
        keys_seen |= set(sheets)
        for card_id, card in zip(deck["DeckIDs"], deck["ContainedObjects"]):
            key, slot = divmod(card_id, 100)
            sheet = deck["CustomDeck"][str(key)]
            assert 0 <= slot < sheets[str(key)]["cards"] <= sheet["NumWidth"] * sheet["NumHeight"]
            assert card["Name"] == "Card" and card["CardID"] == card_id
            assert card["CustomDeck"] == {str(key): sheet}
            assert card["Nickname"].startswith(comp["title"])


def test_copies_repeat_an_id_and_take_no_slot(covenia_tts):
    out, manifest, _ = covenia_tts
    by_name = {d["Nickname"]: d for d in decks(saved(out, manifest))}
    aids = by_name["Game aids"]
    (key,) = aids["CustomDeck"]
    assert aids["DeckIDs"] == [int(key) * 100] * 4
    sheet = aids["CustomDeck"][key]
    assert (sheet["NumWidth"], sheet["NumHeight"]) == (1, 1)
    clans = by_name["Clan cards"]
    assert len(set(clans["DeckIDs"])) == len(clans["DeckIDs"]) == 100


def test_a_deck_of_more_than_70_cards_takes_a_second_sheet(covenia_tts):
    out, manifest, _ = covenia_tts
    clans = next(c for c in manifest["components"] if c["id"] == "clan-cards")
    assert [(s["grid"], s["cards"]) for s in clans["sheets"]] == [([10, 7], 70), ([10, 3], 30)]


def test_every_url_names_a_written_picture_within_the_limits(covenia_tts):
    out, manifest, _ = covenia_tts
    for deck in decks(saved(out, manifest)):
        for sheet in deck["CustomDeck"].values():
            for side in ("FaceURL", "BackURL"):
                path = local(sheet[side])
                assert path.is_file() and path.is_relative_to(out), sheet[side]
                assert path.stat().st_size < 4_000_000
                image = Image.open(path)
                assert image.format == "JPEG" and image.mode == "RGB"
                assert max(image.size) <= 4096
            assert sheet["NumWidth"] <= 10 and sheet["NumHeight"] <= 7
            face = Image.open(local(sheet["FaceURL"]))
            cw, rest_w = divmod(face.width, sheet["NumWidth"])
            ch, rest_h = divmod(face.height, sheet["NumHeight"])
            assert rest_w == rest_h == 0  # the sheet is exactly its grid of cards
            back = Image.open(local(sheet["BackURL"]))
            assert back.size == (face.size if sheet["UniqueBack"] else (cw, ch))
    listed = set(manifest["files"])
    assert {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()} == listed


def test_backs_that_differ_make_a_back_sheet_like_the_faces(covenia_tts):
    out, manifest, _ = covenia_tts
    tokens = next(d for d in decks(saved(out, manifest)) if d["Nickname"] == "Tokens")
    (sheet,) = tokens["CustomDeck"].values()
    assert sheet["UniqueBack"] is True
    assert Image.open(local(sheet["BackURL"])).size == Image.open(local(sheet["FaceURL"])).size
    clans = next(d for d in decks(saved(out, manifest)) if d["Nickname"] == "Clan cards")
    backs = {s["BackURL"] for s in clans["CustomDeck"].values()}
    assert len(backs) == 1 and not any(s["UniqueBack"] for s in clans["CustomDeck"].values())


def test_identical_cards_across_objects_share_a_slot(tmp_path):
    manifest = export.export("vengeance", "tts", export.Options(out=tmp_path / "v",
                                                                 only=["objects"]))
    save = saved(tmp_path / "v", manifest)
    (deck,) = save["ObjectStates"]
    assert len(deck["DeckIDs"]) == 66 and len(set(deck["DeckIDs"])) == 3


def test_the_guide_says_where_to_copy_the_saved_object(covenia_tts):
    out, manifest, _ = covenia_tts
    guide = (out / "guide.txt").read_text()
    assert "Documents/My Games/Tabletop Simulator/Saves/Saved Objects" in guide
    assert manifest["save"] in guide


def test_covenia_tts_takes_under_ten_seconds(covenia_tts):
    assert covenia_tts[2] < 10


def test_sheet_layout_stays_within_10_by_7_and_4096_pixels():
    for n in range(1, 300):
        layout = tts.sheets(n)
        assert sum(m for _, _, m in layout) == n
        for cols, rows, m in layout:
            assert cols <= 10 and rows <= 7 and cols * rows >= m
            for size in [(180, 252), (108, 108), (198, 340), (252, 180), (51, 500)]:
                cw, ch = tts.card_px(size, cols, rows)
                assert cols * cw <= 4096 and rows * ch <= 4096
                assert abs(ch / cw - size[1] / size[0]) < 0.05 or min(cw, ch) < 30


def test_a_jpeg_that_stays_too_large_lowers_its_quality_until_it_fits(tmp_path):
    def noise(c, w, h, bleed):  # the worst case for JPEG: fine random detail
        import random
        rnd = random.Random(1)
        for i in range(4000):
            c.setFillColorRGB(rnd.random(), rnd.random(), rnd.random())
            c.rect(rnd.random() * w, rnd.random() * h, 3, 3, stroke=0, fill=1)
    pdf = tmp_path / "n.pdf"
    face_pages.write_pdf(pdf, [face_pages.Page(Face(noise), (600, 600), (0, 0))], "t", "a")
    job = raster.Job(("n.jpg",), (2000, 2000), (raster.Tile(0, 0, 0, 2000, 2000),), "jpeg",
                     max_bytes=400_000)
    (size,) = raster.run(pdf, tmp_path, [job])
    assert size < 400_000 and (tmp_path / "n.jpg").stat().st_size == size
