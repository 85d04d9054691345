"""Issue 49: edit sequences are the test. A designer keeps one game folder, one cache and
one `companion build --watch` running, and edits: a row's text, a quantity, her picture's
pixels and alpha, a font file replaced under the same name, an opacity, a gradient's
colours and angle, a rotation, a `when`, a card added or removed, the version, an icon's
colour, then builds in another language or with --ink saver. Hypothesis draws such
sequences (a RuleBasedStateMachine over tests/edit_sequences_game.py) and after each
edit compares with the same run made cold in a fresh cache (tests/differential.py):
- the watcher's kit (after its own "rebuilding" and "watching" lines: no fixed sleep),
- a warm build written again into the same kit folder, its warnings too,
- every few steps, `--changed-since` the first build's manifest,
- one export in turn each step (png, tts, cards-pdf, pdfx), written again into its
  same folder (all four after the first edit),
pages and pictures pixel by pixel; pdfium, poppler and Ghostscript must say nothing about
any warm PDF.

By default a fixed seed runs two drawn sequences of up to 9 edits (cheap). The `differential`
marker (.ci/run runs it) runs COMPANION_DIFFERENTIAL_STEPS=N steps in all (200 unless
set), in sequences of up to 19; COMPANION_DIFFERENTIAL_NEW=1 draws new sequences instead of the seeds'."""

import itertools
import os
import random
import shutil
import subprocess
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, seed, settings
from hypothesis import strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, precondition, rule,
                                 run_state_machine_as_test)

from tests import needs
from tests.differential import differences, fresh, outcome, run, seen
from tests.edit_sequences_game import Game, _row, write
from tests.watching import watching

STEPS = int(os.environ.get("COMPANION_DIFFERENTIAL_STEPS") or 200)
NEW = os.environ.get("COMPANION_DIFFERENTIAL_NEW") == "1"  # other sequences than the seeds'
FORMATS = ("png", "tts", "cards-pdf", "pdfx")
EXPORT_EVERY = 1  # steps between two exports compared (each one format, in turn)
SINCE_EVERY = 3  # steps between two --changed-since compared
PATIENCE = 180  # s: the most a rebuild may take on a loaded machine before it is a failure

COLOURS = st.sampled_from(["accent", "night", "sand", "ink", "#C0392B",
                           "mix(paper, accent, 0.5)"])
TEXTS = st.sampled_from([
    "Moves house when it grows.", "Long spines, and a **bold** word.",
    "Hides :wave: in any pool.", "Stings *what* touches it; friends with the clownfish, "
    "the wrasse, the shrimp and the crab that carries it from rock to rock.", "Eats."])
NEW_TITLES = ["Limpet", "Octopus", "Periwinkle", "Urchin", "Low Tide", "Whelk"]
FONTS = ["DejaVuSansCondensed.ttf", "DejaVuSans.ttf", "DejaVuSans-Bold.ttf",
         "DejaVuSansCondensed-Bold.ttf"]

# How many steps each sequence of the last run made.
RAN: list[int] = []


def ghostscript_says(pdf: Path) -> str:
    """What Ghostscript prints reading `pdf` through (empty for a sound file)."""
    r = subprocess.run([needs.tool("gs"), "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER",
                        "-sDEVICE=nullpage", str(pdf)], capture_output=True, text=True,
                       timeout=300, check=False)
    return (r.stdout + r.stderr).strip() + ("" if r.returncode == 0 else f" (exit {r.returncode})")


def _warnings(stderr: str, out: Path) -> list[str]:
    """A run's warnings, its own output folder's path taken out (two folders compare)."""
    text = stderr.replace(str(out.resolve()), "<out>").replace(str(out), "<out>")
    return sorted(line for line in text.splitlines() if line.strip())


class EditSequences(RuleBasedStateMachine):
    """One designer's folder, cache and watcher, edited step by step."""

    def __init__(self):
        super().__init__()
        self.tmp = Path(tempfile.mkdtemp(prefix="edit-sequence-"))
        self.folder = self.tmp / "game"
        self.cache = self.tmp / "cache"
        self.kit = self.tmp / "kit"
        self.watched = self.tmp / "watched"
        self.g = Game()
        self.lang, self.ink = "en", "normal"
        self.steps = 0
        self.log: list[str] = []  # each step, as a repro says it
        self._watch = self.w = None

    # ---- the runs ----------------------------------------------------------------
    @property
    def game(self) -> Path:
        return self.folder / "tide.toml"

    def options(self) -> tuple:
        return ("--lang", self.lang, "--ink", self.ink)

    def _start_watch(self) -> None:
        self._watch = watching(str(self.game), "--out", str(self.watched), *self.options(),
                               cache=self.cache)
        self.w = self._watch.__enter__()
        self.w.wait_for("watching", patience=PATIENCE)

    def _stop_watch(self) -> None:
        if self._watch is not None:
            watch, self._watch = self._watch, None
            watch.__exit__(None, None, None)

    def _export(self, fmt: str, out: Path, cache: Path) -> subprocess.CompletedProcess:
        dpi = ("--dpi", "72") if fmt == "png" else ()
        return run("export", self.game, fmt, "--out", out, *dpi, "--lang", self.lang,
                   cache=cache)

    @initialize()
    def start(self):
        write(self.folder, self.g)
        first = run("build", self.game, "--out", self.kit, *self.options(), cache=self.cache)
        assert outcome(first) == (0, ""), first.stderr
        self.manifest = self.tmp / "first-manifest.json"
        self.manifest.write_bytes((self.kit / "manifest.json").read_bytes())
        for fmt in FORMATS:  # exports before any edit: the next ones write over them
            assert outcome(self._export(fmt, self.tmp / f"export-{fmt}", self.cache))[0] == 0
        self._start_watch()

    def teardown(self):
        RAN.append(self.steps)
        try:
            self._stop_watch()
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)

    # ---- the check after each edit ------------------------------------------------
    def _edited(self, what: str, changed: list[str] | None = None) -> None:
        """After an edit (`changed`: the files it wrote; None: the options changed, and
        the watcher is started again with them): the watcher rebuilt, then every warm
        output equals the cold one."""
        self.steps += 1
        self.log.append(what)
        if changed is None:
            self._stop_watch()
            self._start_watch()
        else:
            n = self.w.wait_for("rebuilding", self._lines_before, patience=PATIENCE)
            self.w.wait_for("watching", n, patience=PATIENCE)
        assert self.w.proc.poll() is None, self.w.lines
        bad = [line for line in self.w.lines if "Traceback" in line or "failed" in line]
        assert not bad, self._say(f"the watcher: {bad}")
        warm = run("build", self.game, "--out", self.kit, *self.options(), cache=self.cache)
        cold_out = fresh(self.tmp, "cold-out")
        cold = run("build", self.game, "--out", cold_out, *self.options(),
                   cache=fresh(self.tmp, "cold-cache"))
        assert outcome(warm) == outcome(cold), self._say(f"build: {outcome(warm)} warm, "
                                                         f"{outcome(cold)} cold")
        assert _warnings(warm.stderr, self.kit) == _warnings(cold.stderr, cold_out), \
            self._say(f"build warnings: {warm.stderr} warm, {cold.stderr} cold")
        # Every edit drawn is one the game takes (a refused one would leave the watcher
        # watching only the files read before the error, and the next edit unseen).
        assert outcome(cold)[0] == 0, self._say(f"an edit the game refuses: {cold.stderr}")
        cold_seen = seen(cold_out)
        self._same("build", self.kit, cold_seen)
        self._same("the watcher's kit", self.watched, cold_seen, self._watched_seen())
        if self.steps % SINCE_EVERY == 0:
            self._changed_since()
        if self.steps == 1:  # exported, one edit, exported again: every format
            for fmt in FORMATS:
                self._export_again(fmt)
        elif self.steps % EXPORT_EVERY == 0:
            self._export_again(FORMATS[(self.steps // EXPORT_EVERY) % len(FORMATS)])

    def _watched_seen(self) -> dict:
        """The watcher's kit as it stands between two of its rebuilds (a rebuild replaces
        the folder whole: one begun while it was read, after a late event, is waited for
        and the folder read again)."""
        while True:
            n = len(self.w.lines)
            try:
                got = seen(self.watched)
            except OSError:
                got = None
            later = [i for i, line in enumerate(self.w.lines[n:], n) if "rebuilding" in line]
            if got is not None and not later:
                return got
            self.w.wait_for("watching", later[0] if later else n, patience=PATIENCE)

    def _same(self, what: str, warm_out: Path, cold_seen: dict,
              warm_seen: dict | None = None) -> None:
        diff = differences(seen(warm_out) if warm_seen is None else warm_seen, cold_seen)
        assert not diff, self._say(f"{what}: {diff}")
        for pdf in sorted(warm_out.rglob("*.pdf")):
            said = ghostscript_says(pdf)
            assert not said, self._say(f"{what}: Ghostscript on {pdf.name}: {said}")

    def _changed_since(self) -> None:
        args = ("--changed-since", self.manifest)
        since = fresh(self.tmp, "since")
        warm = run("build", self.game, "--out", since, *self.options(), *args,
                   cache=self.cache)
        cold_out = fresh(self.tmp, "cold-since")
        cold = run("build", self.game, "--out", cold_out, *self.options(), *args,
                   cache=fresh(self.tmp, "cold-cache"))
        assert outcome(warm) == outcome(cold), self._say("--changed-since: outcomes")
        if outcome(cold)[0] == 0:
            self._same("--changed-since", since, seen(cold_out) if cold_out.exists() else {})

    def _export_again(self, fmt: str) -> None:
        out = self.tmp / f"export-{fmt}"
        warm = self._export(fmt, out, self.cache)
        cold_out = fresh(self.tmp, "cold-export")
        cold = self._export(fmt, cold_out, fresh(self.tmp, "cold-cache"))
        assert outcome(warm) == outcome(cold), self._say(f"export {fmt}: outcomes")
        if outcome(cold)[0] == 0:
            self._same(f"export {fmt} (written again)", out, seen(cold_out))

    def _say(self, what: str) -> str:
        return f"after {self.steps} steps ({'; '.join(self.log)}): {what}"

    def _edit(self, what: str, **changes) -> None:
        self.g = replace(self.g, **changes)
        self._lines_before = len(self.w.lines)
        changed = write(self.folder, self.g)
        if changed:  # an edit that changes nothing is no step
            self._edited(what, changed)

    # ---- the edits ----------------------------------------------------------------
    @rule(i=st.integers(0, 9), text=TEXTS)
    def row_text(self, i, text):
        rows = [dict(r) for r in self.g.rows]
        rows[i % len(rows)]["text"] = text
        self._edit(f"row {i % len(rows)} text {text!r}", rows=rows)

    @rule(i=st.integers(0, 9), qty=st.integers(1, 3))
    def quantity(self, i, qty):
        rows = [dict(r) for r in self.g.rows]
        rows[i % len(rows)]["qty"] = str(qty)
        self._edit(f"row {i % len(rows)} qty {qty}", rows=rows)

    @rule(colour=st.sampled_from([(30, 120, 90), (200, 60, 10), (240, 230, 40)]),
          alpha=st.sampled_from([255, 160, 60]))
    def picture(self, colour, alpha):
        self._edit(f"picture {colour} alpha {alpha}", picture=(colour, alpha))

    @rule(regular=st.sampled_from(FONTS), bold=st.sampled_from(FONTS))
    def font_replaced(self, regular, bold):
        self._edit(f"f.ttf := {regular}, fb.ttf := {bold}", font=regular, bold=bold)

    @rule(band=st.sampled_from([1, 0.9, 0.6]), image=st.sampled_from([0.25, 0.6, 1]))
    def opacity(self, band, image):
        self._edit(f"opacity band {band} image {image}", band_opacity=band,
                   image_opacity=image)

    @rule(start=COLOURS, end=COLOURS, angle=st.sampled_from([0, 30, 90, 135]))
    def gradient(self, start, end, angle):
        self._edit(f"gradient {start} -> {end} at {angle}", band_start=start, band_end=end,
                   band_angle=angle)

    @rule(angle=st.sampled_from([0, 15, 90, 180]))
    def rotate(self, angle):
        self._edit(f"rotate {angle}", rotate=angle)

    @rule(when=st.sampled_from(["", "points > 2", "points < 3", 'icon == "shell"']))
    def when(self, when):
        self._edit(f"when {when!r}", when=when)

    @rule(title=st.sampled_from(NEW_TITLES), tide=st.booleans(), qty=st.integers(1, 2))
    def card_added(self, title, tide, qty):
        while any(r["title"] == title for r in self.g.rows):  # ids stay apart
            title += " II"
        row = (_row("tide", title, "Everyone passes a card.", str(qty), "", "", "") if tide
               else _row("creature", title, "Small and many.", str(qty), "1", "shell",
                         "pics/p.png"))
        self._edit(f"card added {title}", rows=[*self.g.rows, row])

    @precondition(lambda self: len(self.g.rows) > 2)
    @rule(i=st.integers(0, 9))
    def card_removed(self, i):
        rows = list(self.g.rows)
        gone = rows.pop(i % len(rows))
        if not any(r["kind"] == "creature" for r in rows):
            rows.append(gone)  # a creature stays: the game's fonts and picture are read
            gone = rows.pop(0)
        self._edit(f"card removed {gone['title']}", rows=rows)

    @rule(version=st.sampled_from(["", "0.1", "0.2", "1.0-beta"]))
    def version(self, version):
        self._edit(f"version {version!r}", version=version)

    @rule(colour=COLOURS, ribs=st.sampled_from(["#FFFFFF", "#C0392B", "#000000"]))
    def icon_colour(self, colour, ribs):
        self._edit(f"icon colour {colour}, shell ribs {ribs}", icon_colour=colour, ribs=ribs)

    @rule(lang=st.sampled_from(["en", "fr"]))
    def language(self, lang):
        if lang != self.lang:
            self.lang = lang
            self._edited(f"--lang {lang}", None)

    @rule(ink=st.sampled_from(["normal", "saver"]))
    def ink_option(self, ink):
        if ink != self.ink:
            self.ink = ink
            self._edited(f"--ink {ink}", None)


def _settings(sequences: int, steps: int) -> settings:
    return settings(max_examples=sequences, stateful_step_count=steps, deadline=None,
                    derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck),
                    # no shrinking: each step is a dozen runs; a failure says its steps
                    phases=[Phase.explicit, Phase.generate])


def _run(sequences: int, steps: int, drawn_by: int | None = None) -> list[int]:
    """Runs the sequences (`drawn_by`: a seed, else the test's own): how many steps each
    made."""
    RAN.clear()
    machine = EditSequences
    if drawn_by is not None:
        machine = seed(drawn_by)(type(f"EditSequences{drawn_by}", (EditSequences,), {}))
    run_state_machine_as_test(machine, settings=_settings(sequences, steps))
    print(f"edit sequences: {len(RAN)} sequences, {sum(RAN)} steps in all {RAN}")
    return list(RAN)


def test_a_few_edit_sequences_build_watch_and_export_as_cold():
    """A fixed seed: hypothesis's first two sequences (its simplest choices: two cards
    removed, then options set as they are, no step; and an empty one), then two drawn
    sequences of up to 9 edits (an edit that changes nothing is no step)."""
    ran = _run(4, 10, drawn_by=100)
    assert sum(ran) >= 10, ran


@pytest.mark.differential
def test_many_edit_sequences_build_watch_and_export_as_cold():
    """COMPANION_DIFFERENTIAL_STEPS steps at least (200 unless set; .ci/run runs it), in
    sequences of up to 19 edits, four a seed, two of them drawn (seeds 1, 2, ... or, with
    COMPANION_DIFFERENTIAL_NEW=1, from a random one, printed): with many more a run,
    hypothesis mutates the sequences it drew rather than drawing new ones."""
    first = random.randrange(10**6) if NEW else 1
    print(f"edit sequences: seeds from {first}")
    ran: list[int] = []
    for n in itertools.count(first):
        if sum(ran) >= STEPS:
            break
        ran += _run(4, 20, drawn_by=n)
    print(f"edit sequences: {len(ran)} sequences, {sum(ran)} steps in all")
