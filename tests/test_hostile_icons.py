"""A designer's SVG icons made by a careless or hostile designer (issue 30): a style sheet
whose selectors svglib takes minutes to match, a <text> naming a font file anywhere (a
FIFO, one outside the game's folder) or a family fontconfig would look up, numbers of
1e30, nan or inf, shapes svglib cannot read, a file of 19,990 circles or of 50,000
attributes, a text of 20,000 inline icons. Each build ends with exit 2 and one line
naming the file (or the text) within seconds, never a traceback nor a kit half written;
an icon's text is drawn in our bundled font, no file opened. What the worker worked out
is kept: a warm build starts none."""

import os
import shutil
import subprocess
import sys
import threading
import time

import pytest

from companion.files import bounded
from companion.draw import icons
from tests import capped

SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{}</svg>'
SECONDS = 2  # the workers' deadline in these tests: each must end well within it
PRODUCT_SECONDS = bounded.SECONDS  # the product's own, for the normal icons' first read


def nested(depth: int) -> str:
    return "<g>" * depth + '<rect width="10" height="10"/>' + "</g>" * depth


@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory):
    """A cache that already holds the starter's own icons, read once under the product's
    own deadline: a test's short deadline then bounds only the hostile icon, and a busy
    machine cannot make a normal icon miss it."""
    folder = tmp_path_factory.mktemp("warm")
    env = {**os.environ, "TABLE_COMPANION_CACHE": str(folder / "cache")}
    for args in (["new", "Moth Lanterns"],
                 ["build", "moth-lanterns/moth-lanterns.toml", "--out", "kit"]):
        subprocess.run([sys.executable, "-m", "companion", *args], cwd=folder, env=env,
                       check=True, capture_output=True, stdin=subprocess.DEVNULL)
    return folder / "cache"


@pytest.fixture
def game(starter, monkeypatch, tmp_path, warm_cache):
    """The starter game, its own copy of the warm cache, its workers bounded to SECONDS."""
    shutil.copytree(warm_cache, tmp_path / "cache")
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(bounded, "SECONDS", SECONDS)
    return starter


def build(cli, game, out):
    """A build's result and the CPU seconds it took (CPU, not wall clock: a loaded
    machine does not fail the test)."""
    started = time.process_time()
    r = cli("build", str(game), "--out", str(out))
    return r, time.process_time() - started


def refused(cli, game, tmp_path, svg: str, words: str, icon: str = "shell.svg") -> None:
    """A build with `svg` as the game's icon: exit 2, one line naming the file and
    saying `words`, within seconds, no kit written."""
    (game.parent / "icons" / icon).write_text(svg, encoding="utf-8")
    out = tmp_path / "kit"
    r, seconds = build(cli, game, out)
    assert r.code == 2, r
    assert len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err, r.err
    assert icon in r.err and words in r.err, r.err
    assert seconds < 5 * SECONDS, seconds
    assert not out.exists() or not any(out.iterdir())


CSS = {  # name: (the icon, what the one line says)
    # svglib matching this over 150 nested groups ran past 150 s
    "selector-over-deep-nesting": (SVG.format("<style>x g g g g g g g g g g g g rect "
                                              "{fill: red}</style>" + nested(150)),
                                   "a style selector of over 3 steps (\"x g g g"),
    "star-selector": (SVG.format("<style>x " + "* " * 450 + "{}</style>" + nested(40)),
                      "a style selector of over 3 steps"),
    "selector-in-is": (SVG.format("<style>:is(x g g g g) rect {fill: red}</style>"
                                  + nested(150)), "a style selector of over 3 steps"),
    "many-rules": (SVG.format("<style>" + "".join(f".c{i} g g rect {{fill: #123456}}\n"
                                                  for i in range(20_000))
                              + "</style>" + nested(100)), "over 500 style rules"),
    "many-selectors": (SVG.format("<style>" + ", ".join(f".c{i} rect" for i in range(600))
                                  + " {fill: red}</style>" + nested(100)),
                       "over 500 style selectors"),
    "long-rule": (SVG.format("<style>rect {" + "fill: red;" * 5_000 + "}</style>"
                             + nested(3)), "over 1,000 style declarations"),
}


@pytest.mark.parametrize("name", sorted(CSS))
def test_a_style_sheet_svglib_would_match_for_ever_is_refused(game, cli, tmp_path, name):
    refused(cli, game, tmp_path, *CSS[name])


NUMBERS = {
    "font-size-1e30": '<text x="10" y="50" font-size="1e30">A</text>',
    "viewbox-1e308": None,  # the root's own
    "scale-1e308": '<g transform="scale(1e308)"><rect width="10" height="10"/></g>',
    "nan": '<rect x="nan" width="10" height="10"/>',
    "inf": '<circle cx="5" cy="5" r="inf"/>',
    "width-inf": '<rect width="inf" height="10"/>',
}


@pytest.mark.parametrize("name", sorted(NUMBERS))
def test_a_number_out_of_range_is_refused_in_one_line(game, cli, tmp_path, name):
    body = NUMBERS[name]
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1e308 1e308">'
           '<rect width="10" height="10"/></svg>') if body is None else SVG.format(body)
    refused(cli, game, tmp_path, svg, "an icon's numbers stay within ±1,000,000")


def test_an_icon_too_small_to_fit_is_refused_in_one_line(game, cli, tmp_path):
    """Fitting an icon 1e-30 pt wide to its symbol's circle scaled it past what reportlab
    writes: a traceback."""
    refused(cli, game, tmp_path, '<svg xmlns="http://www.w3.org/2000/svg" width="1e-30" '
            'height="1e-30" viewBox="0 0 100 100"><rect width="9" height="9"/></svg>',
            "too small to draw")


@pytest.mark.parametrize("body", ['<path d="Q"/>', '<path d="M 1"/>'])
def test_a_shape_svglib_cannot_read_is_refused_in_one_line(game, cli, tmp_path, body):
    refused(cli, game, tmp_path, SVG.format(body), "could not be drawn as an SVG icon")


def test_an_icon_of_too_many_elements_or_attributes_is_refused(game, cli, tmp_path):
    circles = "".join(f'<circle cx="{i % 100}" cy="{i // 200}" r="1"/>' for i in range(19_990))
    refused(cli, game, tmp_path, SVG.format(circles), "19,991 elements, over the 5,000")
    attributes = " ".join(f'a{i}="1"' for i in range(50_000))
    refused(cli, game, tmp_path, SVG.format(f'<rect width="9" height="9" {attributes}/>'),
            "a <rect> of over 100 attributes")
    styled = ";".join(f"a{i}:1" for i in range(50_000))
    refused(cli, game, tmp_path, SVG.format(f'<rect width="9" height="9" style="{styled}"/>'),
            "a <rect> of over 100 attributes")


def test_a_drawing_of_too_many_calls_is_refused(game, cli, tmp_path):
    """One path of 12,000 points: under every cap on the file, over the drawing's."""
    d = "M0 0 " + "L1 1 L2 0 " * 6_000
    refused(cli, game, tmp_path, SVG.format(f'<path d="{d}"/>'),
            "over 10,000 canvas calls")


def test_a_decoder_that_hangs_is_stopped_at_the_deadline(game, cli, tmp_path, monkeypatch):
    """A style sheet within the caps that svglib still takes long to match: the worker
    is stopped at the deadline, in one line naming the file and the limit."""
    monkeypatch.setattr(bounded, "SECONDS", 1)
    rules = "x g g rect {fill: red}" * 500  # as many as an icon may hold
    refused(cli, game, tmp_path, SVG.format(f"<style>{rules}</style>{nested(190)}"),
            "takes over 1 s to read")


def test_inline_icons_in_a_text_are_capped(game, cli, tmp_path):
    """A text of 20,000 :shell: (minutes to draw before): one line naming the card."""
    text = game.read_text(encoding="utf-8")
    assert 'text = "{text}"' in text
    game.write_text(text.replace('text = "{text}"',
                                 'text = "' + ":shell: " * 20_000 + '"', 1), encoding="utf-8")
    out = tmp_path / "kit"
    r, seconds = build(cli, game, out)
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r
    assert "kinds." in r.err and "card " in r.err, r.err
    assert "holds 20,000 icons, over the 300" in r.err, r.err
    assert seconds < 5 * SECONDS and not out.exists()


def test_as_many_inline_icons_as_allowed_still_print(game, cli, tmp_path):
    text = game.read_text(encoding="utf-8")
    game.write_text(text.replace('text = "{text}"', 'text = "' + ":shell:" * 300
                                 + '"', 1), encoding="utf-8")
    r, _ = build(cli, game, tmp_path / "kit")
    assert r.code == 0, r.err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_an_icons_text_opens_no_font_file_and_runs_no_fontconfig(game, cli, tmp_path,
                                                                 monkeypatch):
    """svglib opened `<font-family>.ttf` wherever the file said (a FIFO there hung the
    build; a font outside the game's folder was embedded) and ran fc-match for a plain
    family: the icon's text is drawn in our bundled font, no file opened, nothing run."""
    fifo = tmp_path / "elsewhere" / "evil.ttf"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    opened, done = threading.Event(), threading.Event()

    def writer():  # each open returns once someone opens the FIFO to read it
        while not done.is_set():
            fd = os.open(fifo, os.O_WRONLY)
            if not done.is_set():
                opened.set()
                os.write(fd, b"not a font")
            os.close(fd)
    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    ran = tmp_path / "fc-match-ran"
    (bin_ / "fc-match").write_text(f"#!/bin/sh\ntouch {ran}\n", encoding="utf-8")
    (bin_ / "fc-match").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_}{os.pathsep}{os.environ.get('PATH', '')}")
    svg = SVG.format(f'<text x="10" y="50" font-family="{fifo.with_suffix("")}" '
                     'font-size="30">A</text><text x="10" y="90" font-family="Some Family" '
                     'font-size="30">B</text>')
    (game.parent / "icons" / "shell.svg").write_text(svg, encoding="utf-8")
    try:
        r, _ = build(cli, game, tmp_path / "kit")
        assert not opened.is_set(), "the FIFO named as a font was opened"
        assert not ran.exists(), "fc-match ran"
        assert r.code == 0, r.err
        pdf = (tmp_path / "kit" / "cards.pdf").read_bytes()
        assert b"Helvetica" not in pdf  # the text is in our embedded font
    finally:
        done.set()
        fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # lets the writer's open return
        thread.join(timeout=10)
        os.close(fd)


def test_what_svglib_skips_prints_no_raw_lines(game, tmp_path):
    """svglib logged "Can't handle color: ..." on stderr, once for each card (the build
    runs in a process of its own: its workers' stderr is the real one)."""
    (game.parent / "icons" / "shell.svg").write_text(
        SVG.format('<rect width="9" height="9" fill="notacolour"/>'), encoding="utf-8")
    r = capped.run(tmp_path, "build", str(game), "--out", str(tmp_path / "kit"),
                   env={"TABLE_COMPANION_CACHE": str(tmp_path / "cache")})
    assert r.code == 0 and r.err == "", r


def test_a_character_our_font_lacks_is_refused_not_drawn_as_a_box(game, cli, tmp_path):
    refused(cli, game, tmp_path, SVG.format('<text x="10" y="50">\u4e2d</text>'),
            "no glyph")


def test_a_warm_build_with_icons_starts_no_worker(game, cli, tmp_path, monkeypatch):
    """The cold build reads each icon in a worker; the warm one replays what was kept."""
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "empty-cache"))
    monkeypatch.setattr(bounded, "SECONDS", PRODUCT_SECONDS)
    started = []
    run = bounded.run
    monkeypatch.setattr(bounded, "run", lambda *a, **k: started.append(k["source"]) or
                        run(*a, **k))
    r, _ = build(cli, game, tmp_path / "cold")
    assert r.code == 0, r.err
    assert sorted(os.path.basename(s) for s in started) == ["shell.svg", "wave.svg"]

    def no_worker(*args, **kwargs):
        raise AssertionError("a warm build started a worker")
    monkeypatch.setattr(bounded, "run", no_worker)
    r, _ = build(cli, game, tmp_path / "warm")
    assert r.code == 0, r.err
    assert (tmp_path / "warm" / "cards.pdf").read_bytes() == \
        (tmp_path / "cold" / "cards.pdf").read_bytes()


def test_a_damaged_kept_drawing_is_worked_out_again(game, cli, tmp_path):
    """What the cache holds is checked before it is replayed: calls of unknown names or
    wrong arguments, numbers out of range, more restores than saves are drawn afresh."""
    r, _ = build(cli, game, tmp_path / "cold")
    assert r.code == 0, r.err
    good = [(75.0, 75.0, (("q",), ("rect", 0, 0, 1, 1, 0, 1), ("Q",)))]
    bad = [(75.0, 75.0, (("Q",),)), (75.0, 75.0, (("exec", "x"),)),
           (75.0, 75.0, (("rect", 0, 0, 1e30, 1, 0, 1),)), (75.0, float("nan"), ()),
           (75.0, 75.0, (("fill", ("rgb", 0, 0)),)), (75.0, 75.0, (("rect", 0, 0, 1, 1, 2, 1),)),
           (75.0, 75.0, [("q",)]), (1e-30, 1e-30, ()), "nothing", None]
    assert all(map(icons._valid, good)) and not any(map(icons._valid, bad))
    kept = sorted((tmp_path / "cache" / "icons").iterdir())
    assert kept
    for f in kept:
        f.write_bytes(f.read_bytes()[:-3])  # cut short: its checksum no longer matches
    r, _ = build(cli, game, tmp_path / "again")
    assert r.code == 0, r.err
    assert (tmp_path / "again" / "cards.pdf").read_bytes() == \
        (tmp_path / "cold" / "cards.pdf").read_bytes()
