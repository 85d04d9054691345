"""A bundled kit built cold (issue 36): a new run of an unchanged game puts back what an
earlier run kept in the cache folder (card fronts and score-book pages alike) and
writes the same bytes; what it keeps is small and read cheaply; a one-off command does
not pay the cyclic collector's passes over everything it made as the process ends."""

import gc
import io
import shutil
import sys
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from companion import cli, kit
from companion.draw import art
from companion.draw.print_sheets import Face
from companion.files import kept, paths
from companion.kit import drawings
from companion.engine import undefined
from companion.engine.parts import PageFile
from companion.press import presets
from companion.press.pdf import open_canvas
from companion.text import fit

PDFS = ("cards.pdf", "tokens.pdf", "scorebook.pdf")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(kept, "in_process", None, raising=False)  # a one-off run each
    return tmp_path / "cache"


def build(game: str, out: Path, **opts) -> tuple[dict, list[str]]:
    warnings: list[str] = []
    manifest = kit.build(game, kit.Options(out=out, **opts), warn=warnings.append)
    return manifest, warnings


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_cold_rebuild_of_covenia_draws_no_front_nor_page_and_writes_the_same_bytes(
        tmp_path, cache, counted, lang):
    first = build("covenia", tmp_path / "a", lang=lang)
    assert any(label.startswith("scorebook/") for label in counted)  # drawn the first time
    counted.clear()
    again = build("covenia", tmp_path / "b", lang=lang)  # a new run: from the cache folder
    # Only the backs, each drawn once as a form in its PDF, are drawn again.
    assert counted and all(label.startswith("backs/") or label.endswith("(back)")
                           for label in counted), counted
    assert again == first
    for pdf in PDFS:
        assert (tmp_path / "b" / pdf).read_bytes() == (tmp_path / "a" / pdf).read_bytes(), pdf


def test_score_book_pages_are_kept_in_a_watching_process_too(tmp_path, counted, monkeypatch):
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(kept, "in_process", {}, raising=False)
    build("covenia", tmp_path / "a", only=["scorebook"])
    shutil.rmtree(tmp_path / "cache")  # what the process kept, not the cache folder
    counted.clear()
    build("covenia", tmp_path / "b", only=["scorebook"])
    assert counted == []
    assert (tmp_path / "b" / "scorebook.pdf").read_bytes() == \
        (tmp_path / "a" / "scorebook.pdf").read_bytes()


def test_a_kept_page_whose_digest_changed_is_drawn_again(tmp_path, cache, counted):
    data = tmp_path / "covenia.toml"
    text = (paths.LAYOUTS / "covenia.toml").read_text(encoding="utf-8")
    data.write_text(text, encoding="utf-8")
    build("covenia", tmp_path / "a", only=["scorebook"], data=data)
    data.write_text(text.replace('scorebook_note = { en = "Score each clan',
                                 'scorebook_note = { en = "Count each clan'), encoding="utf-8")
    counted.clear()
    build("covenia", tmp_path / "b", only=["scorebook"], data=data)
    assert sorted(set(counted)) == ["scorebook/01", "scorebook/02"]
    shutil.rmtree(cache)
    build("covenia", tmp_path / "c", only=["scorebook"], data=data)  # nothing kept
    assert (tmp_path / "b" / "scorebook.pdf").read_bytes() == \
        (tmp_path / "c" / "scorebook.pdf").read_bytes()


# ---- a page's digest follows what it prints ------------------------------------------

def _pages(data: Path) -> list[tuple[str, str]]:
    """(the digest each score-book page is kept under, the PDF operators it draws)."""
    prepared = kit.prepare("covenia", kit.Options(data=data, only=["scorebook"]))
    (book,) = [f for f in prepared.files if isinstance(f, PageFile)]
    out = []

    def keeper(c, face, w, h, bleed):
        start = len(c._code)
        face.draw(c, w, h, bleed)
        out.append((face.kept.split(" ")[0], "\n".join(c._code[start:])))
    c = open_canvas(io.BytesIO(), prepared.ctx.page, "t", "t")
    with fit.recording(presets.text_limits()), undefined.noting(), art.logging(True):
        book.draw(c, keeper)
    return out


# What a designer may write in the credits the page prints at its foot (no braces: a
# text naming fields is filled again).
CREDITS = st.text(st.characters(codec="latin-1", categories=("L", "N", "P", "Zs"),
                                exclude_characters="{}"), max_size=40)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(credits=CREDITS)
@example(credits=tomllib.loads((paths.LAYOUTS / "covenia.toml").read_text(encoding="utf-8"))
         ["game"]["credits"]["en"])  # the same words (the French ones apart): the same digest
def test_a_pages_digest_changes_exactly_when_what_it_prints_changes(tmp_path, credits):
    text = (paths.LAYOUTS / "covenia.toml").read_text(encoding="utf-8")
    start = text.index("credits = ", text.index("[game]"))
    end = text.index("\n", start)
    base, other = tmp_path / "base.toml", tmp_path / "other.toml"
    base.write_text(text, encoding="utf-8")
    other.write_text(text[:start] + f"credits = {{ en = {_toml_string(credits)}, fr = \"\" }}"
                     + text[end:], encoding="utf-8")
    for (d1, ops1), (d2, ops2) in zip(_pages(base), _pages(other), strict=True):
        assert (d1 == d2) == (ops1 == ops2)


def _toml_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ---- what is kept, and how it is read --------------------------------------------------

def test_a_kept_drawing_keeps_the_pdf_version_its_drawing_asked_for(tmp_path, cache):
    """An alpha of 1 writes nothing on the page, yet reportlab makes the PDF 1.4: a face
    put back asks for the same."""
    def draw(c, w, h, bleed):
        c.setFillAlpha(1)
        c.rect(0, 0, w, h, fill=1, stroke=0)
    face = Face(draw, kept="digest-1 faded")

    def one(out: Path) -> bytes:
        c = open_canvas(out, (200, 200), "t", "t")
        with fit.recording(presets.text_limits()) as rec, undefined.noting() as notes, \
                art.logging(True) as log:
            keeper = drawings.Keeper("context", "x.pdf", c, rec, notes, log)
            keeper(c, face, 100.0, 100.0, 0.0)
            keeper.commit()
        c.save()
        return out.read_bytes()
    first = one(tmp_path / "a.pdf")
    again = one(tmp_path / "b.pdf")  # put back from the cache folder, not drawn
    assert first.startswith(b"%PDF-1.4")
    assert again == first


def test_kept_drawings_keep_only_the_names_a_face_used_and_still_report_undefined_ones(
        tmp_path, cache):
    data = tmp_path / "covenia.toml"
    text = (paths.LAYOUTS / "covenia.toml").read_text(encoding="utf-8")
    when = 'when = "not art_whole"'
    assert when in text  # a condition naming a field no card has: noted, drawn as false
    data.write_text(text.replace(when, 'when = "not art_whole and not clan.remindr"', 1),
                    encoding="utf-8")
    first = build("covenia", tmp_path / "a", only=["cards"], data=data)
    again = build("covenia", tmp_path / "b", only=["cards"], data=data)
    assert any("remindr" in w and "no card has" in w for w in first[1])
    assert again == first  # the undefined name reported again, put back from the cache
    (folder,) = [cache / "drawings"]
    sizes = {}
    for f in folder.iterdir():
        k = drawings._decoded(kept.read(drawings.FOLDER, f.name.split("-")[0]))
        for d in k.faces.values():
            for method, args in d.notes:
                if method == "field":
                    where, name, scope = args
                    sizes[name] = len(scope)
    # A name the card has is kept alone; one it lacks keeps the card's names, for the
    # report's "did you mean".
    assert sizes["art_whole"] == 1
    assert sizes["clan.remindr"] > 10, sizes


def test_kept_values_are_read_with_the_cyclic_collector_paused(cache, monkeypatch):
    import marshal

    seen = []

    class Spy:
        dumps = staticmethod(marshal.dumps)

        @staticmethod
        def loads(payload):
            seen.append(gc.isenabled())
            return marshal.loads(payload)
    monkeypatch.setattr(kept, "marshal", Spy)
    kept.keep("test", "k", {"a": [1, 2, (3, 4)]})
    assert gc.isenabled()
    assert kept.read("test", "k") == {"a": [1, 2, (3, 4)]}
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:
        assert kept.read("test", "k") == {"a": [1, 2, (3, 4)]}
        assert not gc.isenabled()  # left as it was
    finally:
        gc.enable()


def test_the_command_line_freezes_its_objects_as_it_ends_a_caller_of_main_does_not(
        monkeypatch, capsys):
    frozen = []
    monkeypatch.setattr(cli.gc, "freeze", lambda: frozen.append(True))
    with pytest.raises(SystemExit):
        cli.main(["--version"])  # a test, a program calling main: it goes on
    assert frozen == []
    monkeypatch.setattr(sys, "argv", ["companion", "--version"])
    with pytest.raises(SystemExit):
        cli.main()  # the process's own command line: it ends here
    assert frozen == [True]
    assert "companion" in capsys.readouterr().out


def test_kept_drawings_are_of_this_code_any_module_of_ours_changed_gives_another(
        tmp_path, monkeypatch):
    import companion

    pkg = tmp_path / "pkg"
    (pkg / "draw" / "__pycache__").mkdir(parents=True)
    for f in ("__init__.py", "draw/__init__.py", "draw/card.py"):
        (pkg / f).write_text("x = 1\n")
    monkeypatch.setattr(companion, "__file__", str(pkg / "__init__.py"))
    version = drawings.code_version.__wrapped__
    first = version()
    (pkg / "draw" / "__pycache__" / "card.cpython-311.pyc").write_bytes(b"compiled")
    (pkg / "draw" / "notes.txt").write_text("not code")
    assert version() == first  # bytecode and other files: not our code
    (pkg / "draw" / "card.py").write_text("x = 22\n")
    assert version() != first
    second = version()
    (pkg / "draw" / "new.py").write_text("")
    assert version() not in (first, second)


def test_a_fonts_kept_widths_and_metrics_are_read_back_one_object_a_value(tmp_path, cache):
    from companion.press import fonts

    raw = (paths.FONTS / "DejaVuSans.ttf").read_bytes()
    fonts._font("KeptA", raw, str(paths.FONTS / "DejaVuSans.ttf"))  # parsed, kept
    face = fonts._font("KeptB", raw, str(paths.FONTS / "DejaVuSans.ttf")).face  # read back
    widths = face.charWidths.values()
    assert len({id(w) for w in widths}) == len(set(widths)) < 1000 < len(face.charWidths)
    whole = [m for m in face.hmetrics if all(type(x) is int for x in m)]  # most of them
    assert len({id(m) for m in whole}) == len(set(whole)) < len(whole) - 1000
