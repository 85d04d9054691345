"""Laying out a big card list (issue 36): what is the same for a thousand cards is worked
out once, not once a card (counted, not timed: the figures are in
tests/bench/bench_scale.py), and a build reads only what it needs (what it imports is
read from the process's modules, not timed). A face's digest, now written from parts
made once a kind, is the same value as the one JSON text of its facts it always was."""

import csv
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import msgspec
from hypothesis import given, settings, strategies as st

from companion import kit
from companion.draw import art, card as grounds
from companion.draw.card import Pic
from companion.files import designer_files
from companion.files.data import load_fields
from companion.engine import bind, face as face_mod
from companion.engine.face import Engine

ROOT = Path(__file__).resolve().parent.parent


def _grown(game: Path, rows: int, pictures: int = 12) -> Path:
    """The starter's cards.csv grown to `rows` creature rows of qty 2, `pictures` picture
    paths among them (the files need not exist: laying out reads none)."""
    with open(game.parent / "cards.csv", encoding="utf-8") as f:
        fields = list(csv.DictReader(f).fieldnames)
    with open(game.parent / "cards.csv", "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for i in range(rows):
            w.writerow({k: v for k, v in {
                "kind": "creature", "title": f"Creature {i}", "text": f"gains :shell: {i}",
                "qty": "2", "points": str(i % 5), "icon": "shell",
                "art": f"art/p{i % pictures}.jpg"}.items() if k in fields})
    return game


def _prepared(game: Path) -> kit.Kit:
    return kit.prepare(str(game), kit.Options(only=["cards"]))


def test_a_thousand_cards_showing_a_dozen_pictures_resolve_a_dozen_paths(starter,
                                                                        monkeypatch):
    """Whether a picture's path leads out of the game's folder is worked out once for each
    path (a path's links are read folder by folder): 600 rows, 1,200 cards, 12 pictures:
    12 resolutions (it was one a card). Each card's picture still names its own card."""
    resolved = []
    inside = designer_files.inside
    monkeypatch.setattr(designer_files, "inside",
                        lambda path, folder: resolved.append(Path(path).name) or
                        inside(path, folder))
    k = _prepared(_grown(starter, 600))
    assert sorted(n for n in resolved if n.endswith(".jpg")) == sorted(
        f"p{i}.jpg" for i in range(12))
    (comp,) = [c for _, c in k.card_components() if c.id == "cards"]
    creatures = [c for c in comp.cards if c.id.startswith("creature")]
    assert len(creatures) == 1200
    for c in creatures[::97]:  # the picture in each face's layout names that card
        spec = _pic_of(c.front).spec
        assert spec.card == f"cards/{c.id}"
        assert spec.path.name == f"p{int(c.id.split('-')[1]) % 12}.jpg"


def test_a_build_reads_each_picture_once_a_log_not_once_a_card(starter, monkeypatch,
                                                               tmp_path):
    """60 rows, 120 cards, 3 pictures (made here): each picture is looked up once by the
    faces' digests and once by the drawing (each its own log of pictures), not once a
    card; every low-resolution picture still reported."""
    from PIL import Image

    from companion.files import images

    game = _grown(starter, 60, pictures=3)
    for i in range(3):
        Image.new("RGB", (60 + i, 40), (40 * i, 90, 160)).save(
            game.parent / "art" / f"p{i}.jpg")
    read = []
    real = images.picture
    monkeypatch.setattr(images, "picture", lambda path, *jpeg: read.append(Path(path).name)
                        or real(path, *jpeg))
    warnings: list[str] = []
    kit.build(str(game), kit.Options(only=["cards"], out=tmp_path / "out"),
              warn=warnings.append)
    assert sorted(read) == sorted(f"p{i}.jpg" for i in range(3) for _ in range(2))
    assert sum("dpi" in w for w in warnings) == 3


def _pic_of(face) -> Pic:
    """The picture a face of the engine draws (its draw function's arguments)."""
    draw = face.draw
    while not hasattr(draw, "args"):  # a stamp's wrapper holds the engine's draw
        draw = draw.__closure__[0].cell_contents
    return next(a for a in draw.args if isinstance(a, Pic))


def test_reading_a_csv_card_list_imports_no_workbook_reader_nor_network_code(starter):
    """A CSV list is read with the csv module alone: zipfile, expat and array (a
    workbook's readers) and urllib, http.client and ssl (a sheet on the web's: 11 ms of a
    build's start) are imported only for what needs them."""
    code = ("import sys\n"
            "from pathlib import Path\n"
            "from companion.files import spreadsheet\n"
            "rows = spreadsheet.read({'spreadsheet': 'cards.csv'}, Path(sys.argv[1]), 'g.toml', "
            "'cards')\n"
            "print(len(rows))\n"
            "print(' '.join(m for m in ('zipfile', 'pyexpat', 'array', 'urllib.request', "
            "'http.client', 'ssl') if m in sys.modules))\n")
    r = subprocess.run([sys.executable, "-c", code, str(starter.parent)], capture_output=True,
                       text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    count, imported = (r.stdout.splitlines() + [""])[:2]
    assert int(count) > 0
    assert imported == ""


def test_a_build_of_a_game_whose_card_lists_are_files_imports_no_network_code(starter,
                                                                                tmp_path):
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "companion", "build",
                        str(starter), "--only", "cards", "--draft", "--out",
                        str(tmp_path / "out")], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    imported = {line.split("|")[-1].strip() for line in r.stderr.splitlines()
                if line.startswith("import time:")}
    assert "companion.files.spreadsheet" in imported
    assert not imported & {"urllib.request", "http.client", "ssl"}
    # svglib's version (its icons' drawings are kept by it) read without importlib.metadata
    assert "companion.draw.icons" in imported and "importlib.metadata" not in imported


def test_svglibs_version_is_read_as_its_metadata_gives_it():
    from importlib.metadata import version

    from companion.draw import icons

    assert icons._svglib_version() == version("svglib")


# ---- a face's digest: the one JSON text of its facts, written in parts ------------------

def _digest_as_one_text(engine: Engine, kind: str, scope: dict, pic, w: float, h: float,
                        bleed: float) -> str:
    """The digest as defined (issue 49: the whole resolved input): json.dumps of every
    fact, sorted."""
    kinds_json, names, words = face_mod._kind_facts(engine, kind)
    what = {
        "kinds": kinds_json,
        "fields": {key: face_mod._pruned(v, names[1])
                   for key, v in face_mod._plain(scope, names[0]).items()},
        "lang": engine.lang,
        "size": [round(w, 4), round(h, 4), round(bleed, 4)],
        "ink_saver": grounds.saving(),
        "picture": None if pic is None else [face_mod._picture_digest(pic),
                                             msgspec.to_builtins(
            {"box": [pic.box.x, pic.box.y, pic.box.w, pic.box.h], "fit": pic.spec.fit,
             "anchor": pic.spec.anchor})],
    }
    said = json.dumps(what["fields"], sort_keys=True, ensure_ascii=False, default=str)
    what["palette"] = {n: c.hexval() for n, c in sorted(engine.palette.items())
                       if n in words or face_mod._names_colour(said, n)}
    if engine.icons:
        what["icons"] = {n: i.digest for n, i in sorted(engine.icons.items())
                         if n in words or f'"{n}"' in said or f":{n}:" in said}
    if engine.fonts:
        what["fonts"] = {r: f.digest for r, f in sorted(engine.fonts.items())}
    blob = "{" + ", ".join(f"{json.dumps(k)}: {v if k == 'kinds' else face_mod._json(v)}"
                           for k, v in sorted(what.items())) + "}"
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()[:16]


# texts made of pieces that matter to a digest: icons' names (with and without colons or
# quotes), quotes and backslashes JSON escapes, non-ASCII, a lone surrogate
TEXT = st.lists(st.sampled_from(list('ab :"\\{}é«»\u00a0\ud800') + [
    ":shell:", ":wave:", '"wave"', "shell"]), max_size=8).map("".join)
VALUE = st.one_of(st.sampled_from(["shell", "wave"]), TEXT, st.integers(-3, 3),
                  st.floats(allow_nan=False, width=32), st.booleans(), st.none(),
                  TEXT.map(bind.Placeholder))
FIELDS = st.fixed_dictionaries(
    {"title": VALUE, "text": VALUE, "points": VALUE, "icon": VALUE},
    optional={"extra": VALUE, "items": st.lists(st.dictionaries(
        st.sampled_from(["name", "text", "when", "colour"]), VALUE, max_size=3), max_size=3),
        "clan": st.dictionaries(st.sampled_from(["name", "colour", "id"]), VALUE, max_size=3)})


def test_a_faces_digest_is_the_sorted_json_text_of_its_facts(starter, tmp_path):
    """Any card's fields, with or without a picture, its game's own fonts or not, either
    ink, any card size: the digest written from parts made once a kind is the value the
    one JSON text of its facts gives (a manifest's digests do not change)."""
    from PIL import Image

    data = load_fields(starter)
    photo = tmp_path / "p.jpg"
    Image.new("RGB", (40, 30), "teal").save(photo)
    plain = Engine.of(data, "en")
    fonts = msgspec.structs.replace(plain, facts={}, fonts={
        "title": msgspec.defstruct("F", [("digest", str)])("0123456789abcdef")})
    pics = [None] + [Pic(art.Box(0.1, 0.2, 0.8, 0.4), art.Spec(photo, fit, anchor, "c/1"))
                     for fit, anchor in (("cover", "c"), ("contain", "nw"))]

    @settings(max_examples=150, deadline=None)
    @given(FIELDS, st.sampled_from(sorted(plain.kinds)), st.sampled_from(pics),
           st.booleans(), st.booleans(),
           st.sampled_from([(180.0, 252.0, 0.0), (113.385827, 175.748031, 8.503937)]))
    def check(fields, kind, pic, own_fonts, saver, size):
        engine = fonts if own_fonts else plain
        scope = engine._scope(fields, pic)
        with art.logging(draft=True), grounds.ink_saver(saver):
            assert face_mod._digest(engine, kind, scope, pic, *size) == \
                _digest_as_one_text(engine, kind, scope, pic, *size)
    check()
