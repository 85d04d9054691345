"""Files the user owns are hers: rewriting a ledger, a score file or a PDF keeps its mode,
refuses a read-only file, follows a symlink to write its target, syncs before the rename
and says when it breaks a hard link; nothing is overwritten unasked (`--save`, `export
--out` onto a kit, `init` half-written); a killed export leaves nothing in the temporary
folder; no lock file stays beside an output; a kit is never missing, even killed between
its two renames; Ctrl+C ends a watch the same way whenever it comes."""

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.files import atomic
from tests.test_watch import Watching

ROOT = Path(__file__).resolve().parents[1]
LEDGER = 'players = ["Ana", "Bo"]\n'
GAME = ('# Tuesday\n[[players]]\nname = "Ana"\narea = { red = [1] }\n'
        '[[players]]\nname = "Bo"\narea = { red = [2] }\n')

posix = pytest.mark.skipif(os.name == "nt", reason="POSIX modes and links")


@posix
def test_a_ledger_keeps_its_mode_when_a_round_is_added(tmp_path, cli):
    f = tmp_path / "l.toml"
    f.write_text(LEDGER)
    f.chmod(0o600)
    assert cli("coverta", "round", f, stdin="2\n1\n\n").code == 0
    assert stat.S_IMODE(f.stat().st_mode) == 0o600
    assert "[[rounds]]" in f.read_text()


@posix
def test_a_read_only_ledger_is_refused_and_left_as_it_is(tmp_path, cli):
    f = tmp_path / "l.toml"
    f.write_text(LEDGER)
    f.chmod(0o444)
    r = cli("coverta", "round", f, stdin="2\n1\n\n")
    assert r.code == 2 and "read-only" in r.err and str(f) in r.err
    assert f.read_text() == LEDGER


@posix
def test_a_symlinked_ledger_gets_the_round_and_stays_a_link(tmp_path, cli):
    shared = tmp_path / "shared" / "league.toml"
    shared.parent.mkdir()
    shared.write_text(LEDGER)
    link = tmp_path / "mine.toml"
    link.symlink_to(shared)
    assert cli("coverta", "round", link, stdin="2\n1\n\n").code == 0
    assert link.is_symlink()
    assert "[[rounds]]" in shared.read_text()


@posix
def test_replacing_a_file_with_hard_links_says_so(tmp_path, cli):
    f = tmp_path / "l.toml"
    f.write_text(LEDGER)
    os.link(f, tmp_path / "copy.toml")
    r = cli("coverta", "round", f, stdin="2\n1\n\n")
    assert r.code == 0
    assert "1 other name (hard links), which keep the old content" in r.err


def test_a_replaced_file_and_its_folder_are_synced_before_it_counts(tmp_path, monkeypatch):
    synced = []
    real = os.fsync

    def fsync(fd):
        synced.append(os.readlink(f"/proc/self/fd/{fd}") if os.path.exists("/proc/self/fd")
                      else fd)
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    target = tmp_path / "out.txt"
    atomic.write_text(target, "hello")
    assert target.read_text() == "hello" and len(synced) == 2
    if os.path.exists("/proc/self/fd"):
        assert synced[0].endswith(".tmp") and synced[1] == str(tmp_path)


def test_save_onto_the_file_read_keeps_it_with_its_comments(tmp_path, cli):
    f = tmp_path / "game.toml"
    f.write_text(GAME)
    r = cli("score", "covenia", f, "--save", f)
    assert r.code == 0 and "kept as it is" in r.err
    assert f.read_text() == GAME


def test_save_onto_another_existing_file_is_refused_before_anything_is_typed(tmp_path, cli):
    other = tmp_path / "other.toml"
    other.write_text("# someone's notes\n")
    r = cli("score", "covenia", "--save", other, stdin="")
    assert r.code == 2 and "already exists" in r.err and r.err.count("\n") == 1
    assert other.read_text() == "# someone's notes\n"


def test_paper_without_pdf_is_refused(tmp_path, cli):
    f = tmp_path / "game.toml"
    f.write_text(GAME)
    r = cli("score", "covenia", f, "--paper", "a3")
    assert r.code == 2 and "--paper" in r.err and "--pdf" in r.err


def test_an_export_never_replaces_a_built_kit(tmp_path, cli):
    kit = tmp_path / "kit"
    assert cli("build", "coverta", "--only", "memo", "--out", kit).code == 0
    before = {p.name: p.read_bytes() for p in kit.iterdir() if p.is_file()}
    r = cli("export", "coverta", "preview", "--out", kit)
    assert r.code == 2 and "holds a kit built by `companion build`" in r.err
    assert {p.name: p.read_bytes() for p in kit.iterdir() if p.is_file()} == before
    # nor one format's folder another's
    assert cli("export", "coverta", "cards-pdf", "--only", "memo", "--out",
               tmp_path / "pdfs").code == 0
    r = cli("export", "coverta", "preview", "--out", tmp_path / "pdfs")
    assert r.code == 2 and "holds a cards-pdf export" in r.err


def test_init_refuses_an_art_file_before_writing_anything(tmp_path, cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "covenia").mkdir()
    (tmp_path / "covenia" / "art").write_text("not a folder")
    r = cli("init", "covenia")
    assert r.code == 2 and "art" in r.err and "is a file, not a folder" in r.err
    assert sorted(p.name for p in (tmp_path / "covenia").iterdir()) == ["art"]


def test_a_killed_export_leaves_nothing_in_the_temporary_folder(tmp_path):
    temp = tmp_path / "temp"
    temp.mkdir()
    out = tmp_path / "png"
    env = {**os.environ, "TMPDIR": str(temp), "TEMP": str(temp), "TMP": str(temp)}
    p = subprocess.Popen([sys.executable, "-m", "companion", "export", "coverta", "png",
                          "--dpi", "150", "--out", str(out)], cwd=ROOT, env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        # Killed once it has pages drawn for the rasterizer: its working files exist.
        while not list(tmp_path.glob(".png.staging-*/*/*.png")):
            assert p.poll() is None and time.monotonic() < deadline, "not caught writing"
            time.sleep(0.01)
    finally:
        p.kill()
        p.wait(30)
    assert p.returncode == -signal.SIGKILL
    assert [x.name for x in temp.iterdir()] == []  # nothing left there
    # The next export clears what the killed one left beside its folder.
    env2 = {**env, "PYTHONUNBUFFERED": "1"}
    done = subprocess.run([sys.executable, "-m", "companion", "export", "coverta", "png",
                           "--dpi", "72", "--only", "memo", "--out", str(out)], cwd=ROOT,
                          env=env2, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert sorted(x.name for x in tmp_path.iterdir()) == ["png", "temp"]


def test_no_lock_file_stays_beside_an_output(tmp_path, cli):
    kit = tmp_path / "kit"
    assert cli("build", "coverta", "--only", "memo", "--out", kit).code == 0
    assert cli("export", "coverta", "preview", "--only", "memo",
               "--out", tmp_path / "preview").code == 0
    f = tmp_path / "l.toml"
    f.write_text(LEDGER)
    assert cli("coverta", "round", f, stdin="2\n1\n\n").code == 0
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".lock")] == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux's")
def test_a_kit_is_never_missing_even_killed_between_two_renames(tmp_path, cli, monkeypatch):
    kit = tmp_path / "kit"
    assert cli("build", "coverta", "--only", "memo", "--out", kit).code == 0

    def killed(*args, **kwargs):  # the process dies at its first rename of the swap
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "rename", killed)
    r = cli("build", "coverta", "--only", "memo,aids", "--out", kit)
    monkeypatch.undo()
    assert r.code == 0, r.err  # swapped in one step: no rename to die in
    assert (kit / "manifest.json").is_file()


def test_ctrl_c_ends_a_watch_with_exit_0_while_waiting_and_while_rebuilding(tmp_path):
    w = Watching(tmp_path)
    n = w.wait_for("watching")
    w.p.send_signal(signal.SIGINT)
    assert w.p.wait(30) == 0
    again = tmp_path / "again"
    again.mkdir()
    w = Watching(again)
    n = w.wait_for("watching")
    w.edit('front_title = { en = "A round"', 'front_title = { en = "One round"')
    w.wait_for("rebuilding", n)
    w.p.send_signal(signal.SIGINT)  # in the rebuild
    assert w.p.wait(30) == 0
    assert (again / "kit" / "manifest.json").is_file()
