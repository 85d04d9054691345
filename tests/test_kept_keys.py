"""Issue 49: every key of kept work is the digest of the whole resolved input, so a change
to anything a face reads changes its key. The properties are drawn from the schema itself
(companion.engine.schema's element types and their fields, as msgspec declares them): a
field added to an element tomorrow is changed here without editing this test. Files are
changed byte by byte: a picture's, a font's, an icon's."""

import json
import shutil
import subprocess
import sys
import types
import typing
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.draw import art, card as grounds
from companion.engine import face as face_mod, schema
from companion.engine.face import Engine
from companion.files.data import load_fields
from companion.fontfiles import __file__ as _fontfiles
from companion.kit import identity as kit_identity
from companion.press import pdf

FONTS = Path(_fontfiles).parent
SIZE = (180.0, 252.0, 0.0)


def _shown(value) -> str:
    """A value as its digest reads it (two values equal here are one input)."""
    return json.dumps(msgspec.to_builtins(value), sort_keys=True, default=str)


def _other(new, old) -> bool:
    """Whether `new` is another input than `old` (0.0 and -0.0 are one rotation)."""
    return _shown(new) != _shown(old) and (new != old or type(new) is not type(old))


def _of(t, depth: int = 2):
    """A strategy for values of the declared type `t` (msgspec's field types: unions,
    literals, annotated numbers, lists, tables, structs), nested `depth` deep at most."""
    origin, args = typing.get_origin(t), typing.get_args(t)
    if origin is typing.Annotated:
        return _of(args[0], depth)
    if origin in (typing.Union, types.UnionType):
        return st.one_of([_of(a, depth) for a in args])
    if origin is typing.Literal:
        return st.sampled_from(args)
    if origin is list:
        return st.lists(_of(args[0], depth - 1), max_size=2) if depth > 0 else st.just([])
    if origin is dict:
        return st.dictionaries(_of(args[0], 0), _of(args[1], depth - 1), max_size=2) \
            if depth > 0 else st.just({})
    if isinstance(t, type) and issubclass(t, msgspec.Struct):
        return _struct(t, depth - 1)
    return {type(None): st.none(), bool: st.booleans(), int: st.integers(-5, 1000),
            float: st.floats(-10, 10, allow_nan=False), str: st.text(max_size=6)}[t]


def _struct(kind, depth: int = 1):
    """An instance of a struct type, its required fields drawn from their types."""
    return st.builds(kind, **{f.name: _of(f.type, depth)
                              for f in msgspec.structs.fields(kind) if f.required})


def _element(data, kind):
    return data.draw(_struct(kind))


def _engine(starter) -> Engine:
    return Engine.of(load_fields(starter), "en")


def _key(engine: Engine, element, scope=None, size=SIZE) -> str:
    engine = msgspec.structs.replace(engine, kinds={**engine.kinds, "k": schema.Kind(
        elements=[element])}, facts={})
    with art.logging(draft=True):
        return face_mod._digest(engine, "k", engine._scope(scope or {}, None), None, *size)


def test_any_one_field_of_any_element_changed_changes_the_faces_key(starter):
    engine = _engine(starter)

    @settings(max_examples=200, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(st.data())
    def check(data):
        kind = data.draw(st.sampled_from(schema.ELEMENTS))
        base = _element(data, kind)
        field = data.draw(st.sampled_from(msgspec.structs.fields(kind)))
        old = getattr(base, field.name)
        new = data.draw(_of(field.type).filter(lambda v: _other(v, old)))
        changed = msgspec.structs.replace(base, **{field.name: new})
        assert _key(engine, base) != _key(engine, changed), (kind.__name__, field.name)
    check()


def test_a_field_the_kind_names_bare_or_braced_changes_the_key_and_others_do_not(starter):
    """Fields are those a kind's values name, found mechanically (a table's rows, a
    condition), whatever key holds the name."""
    engine = _engine(starter)
    table = schema.Table(rows=["points"]) if hasattr(schema, "Table") else None
    text = schema.Text(text="{title}", x=0.1, y=0.1)
    for element, field in ((text, "title"), (table, "points")):
        if element is None:
            continue
        a = _key(engine, element, {field: 1, "unread": "a"})
        assert a != _key(engine, element, {field: 2, "unread": "a"})
        assert a == _key(engine, element, {field: 1, "unread": "b"})


def test_every_option_reaching_the_drawing_changes_the_key(starter):
    engine = _engine(starter)
    text = schema.Text(text="{title}", x=0.1, y=0.1)
    base = _key(engine, text)
    assert base != _key(msgspec.structs.replace(engine, lang="fr", facts={}), text)
    assert base != _key(engine, text, size=(180.0, 252.0, 8.5))
    assert base != _key(engine, text, size=(181.0, 252.0, 0.0))
    with grounds.ink_saver(True):
        assert base != _key(engine, text)
    palette = {**engine.palette, "ink": engine.palette["accent"]}  # the text's colour
    assert base != _key(msgspec.structs.replace(engine, palette=palette, facts={}), text)


def test_a_colour_or_an_icon_a_card_names_in_a_field_is_part_of_its_key(starter):
    """What a face may print: a colour or an icon named by the kind or by a card's field
    (`colour = "{tone}"`, tone = "accent"); another colour or icon of the game is not."""
    engine = _engine(starter)
    text = schema.Text(text="{title} :{mark}:", x=0.1, y=0.1, colour="{tone}")
    scope = {"title": "Gull", "tone": "accent", "mark": "shell"}
    base = _key(engine, text, scope)
    other = {**engine.palette, "accent": engine.palette["ink"]}
    assert base != _key(msgspec.structs.replace(engine, palette=other, facts={}), text, scope)
    unused = {**engine.palette, "night": engine.palette["ink"]}
    assert base == _key(msgspec.structs.replace(engine, palette=unused, facts={}), text, scope)
    icons = dict(engine.icons)
    icons["shell"] = msgspec.structs.replace(icons["shell"], digest="0" * 16)
    assert base != _key(msgspec.structs.replace(engine, icons=icons, facts={}), text, scope)


@pytest.mark.parametrize("what", ["picture", "font", "icon"])
def test_any_byte_of_a_file_a_face_reads_changes_its_key(starter, what):
    """A picture an image element prints, a font of the game's, an icon: one byte of the
    file changed (its name the same) changes the key of every face reading it."""
    from PIL import Image

    folder = starter.parent
    text = starter.read_text(encoding="utf-8")
    pic = folder / "p.png"
    Image.new("RGBA", (8, 6), (10, 200, 30, 128)).save(pic)
    shutil.copy(FONTS / "DejaVuSansCondensed.ttf", folder / "f.ttf")
    starter.write_text(text.replace("[titles]", '[fonts]\ntitle = "f.ttf"\n\n[titles]', 1),
                       encoding="utf-8")
    image = schema.Image(file="p.png", x=0.1, y=0.1, w=0.5, h=0.5)
    title = schema.Text(text="{title} :shell:", x=0.1, y=0.1, font="title")

    def key() -> str:
        engine = _engine(starter)
        k = msgspec.structs.replace(engine, kinds={**engine.kinds, "k": schema.Kind(
            elements=[image, title])}, facts={})
        with art.logging(draft=True):
            face = k.face("k", {"title": "Gull"})
            return kit_identity.digest(face, *SIZE)

    before = key()
    if what == "picture":
        Image.new("RGBA", (8, 6), (10, 200, 31, 128)).save(pic)
    elif what == "font":
        raw = bytearray((folder / "f.ttf").read_bytes())
        shutil.copy(FONTS / "DejaVuSans.ttf", folder / "f.ttf")
        assert (folder / "f.ttf").read_bytes() != raw
    else:
        shell = folder / "icons" / "shell.svg"
        shell.write_text(shell.read_text(encoding="utf-8").replace(
            "</svg>", '<circle cx="1" cy="1" r="1"/></svg>'), encoding="utf-8")
    assert key() != before


def test_an_opacity_changes_the_drawn_digest_as_its_state_is_named_by_its_content():
    """The digest of what a face draws reads a transparency state by its name, which is
    the state itself (companion.press.pdf.state_name), and a font by its face's name."""
    from companion.draw import digest

    def faded(alpha):
        def draw(c, w, h, bleed):
            c.setFillAlpha(alpha)
            c.rect(0, 0, 10, 10, fill=1)
        return digest.drawn(draw, *SIZE)
    assert faded(0.25) != faded(0.6)
    assert pdf.state_name(("ca", 0.25)) != pdf.state_name(("ca", 0.6))


_DRAWN_IN = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from tests.test_kept_keys import _drawn_in
print(_drawn_in(Path(sys.argv[2]), sys.argv[3:]))
"""


def _drawn_in(folder: Path, met: list[str]) -> str:
    """The drawn digest of a word in the font `met[-1]` (a file of `folder`), the fonts
    `met` registered first, in that order, as a game's fonts are."""
    from companion.draw import digest
    from companion.press import fonts

    names = [fonts._game_font(stem, folder / f"{stem}.ttf",
                              (folder / f"{stem}.ttf").read_bytes()).name for stem in met]

    def draw(c, w, h, bleed):
        c.setFont(names[-1], 9)
        c.drawString(10, 10, "Gull é")
    return digest.drawn(draw, *SIZE)


def test_a_drawn_digest_reads_a_font_by_its_content_whatever_the_process_met_before(
        tmp_path):
    """F2 (issue 49): reportlab takes a face registered under a second name (the same file
    as f.ttf and fb.ttf, or a font put back where another was) for the font first
    registered, so a `--watch` process that met the file under another name drew with
    that name, and wrote digests a cold build does not. The digest of what a face draws
    reads a font by its content: here, after the file was met as another role, as in a
    fresh process that meets it only as this one."""
    for stem in ("aliased-regular", "aliased-bold"):  # one file, under two names
        shutil.copy(FONTS / "DejaVuSans-Bold.ttf", tmp_path / f"{stem}.ttf")
    shutil.copy(FONTS / "DejaVuSans.ttf", tmp_path / "aliased-other.ttf")
    root = str(Path(__file__).resolve().parents[1])
    fresh = subprocess.run([sys.executable, "-c", _DRAWN_IN, root, str(tmp_path),
                            "aliased-bold"], capture_output=True, text=True, check=True,
                           cwd=root).stdout.strip()
    assert _drawn_in(tmp_path, ["aliased-regular", "aliased-bold"]) == fresh
    assert _drawn_in(tmp_path, ["aliased-other"]) != fresh  # another font's bytes
