"""Nothing a user gave is overwritten (issue 50): every output goes through one guard
(companion.files.atomic.guard): one of the command's inputs is refused before any work,
exit 2; a device or a FIFO in place of an output is written through, never unlinked nor
renamed over; a FIFO nothing reads is refused, the command ends."""

import hashlib
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.playtest_data import HEADER

ROOT = Path(__file__).resolve().parent.parent

SCORES = """\
[[players]]
name = "Ana"
creatures = 3
pairs = 1

[[players]]
name = "Bo"
creatures = 2
pairs = 0
"""


def run(*args, cwd=None, timeout=120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd or ROOT, timeout=timeout)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def scored(starter):
    """(game file, scores file) of the starter game, in the test's folder."""
    scores = starter.parent.parent / "s.toml"
    scores.write_text(SCORES, encoding="utf-8")
    return starter, scores


def _inputs(scored):
    game, scores = scored
    return {"scores": scores, "game": game, "cards": game.parent / "cards.csv"}


@pytest.mark.parametrize("which", ["scores", "game", "cards"])
def test_score_pdf_over_one_of_its_inputs_is_refused_and_the_file_kept(scored, cli, which):
    target = _inputs(scored)[which]
    assert target.is_file()
    before = digest(target)
    game, scores = scored
    r = cli("score", game, scores, "--pdf", target)
    assert r.code == 2, r.err
    assert "one of this command's inputs" in r.err and "--pdf" in r.err
    assert len(r.err.strip().splitlines()) == 1
    assert r.out == ""  # before any work: no scores shown either
    assert digest(target) == before


def test_score_pdf_over_an_input_by_another_name_is_refused(scored, cli, tmp_path):
    game, scores = scored
    link = tmp_path / "other-name.toml"
    os.link(scores, link)  # the same file (device and inode), another name
    before = digest(scores)
    r = cli("score", game, scores, "--pdf", link)
    assert r.code == 2 and "one of this command's inputs" in r.err
    assert digest(scores) == before


def _char_device(path: Path) -> Path:
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # the null device's numbers
    except PermissionError:
        pytest.skip("making a device needs root (CAP_MKNOD)")
    return path


def test_score_pdf_onto_a_character_device_leaves_it_a_device(scored, tmp_path):
    game, scores = scored
    dev = _char_device(tmp_path / "pad.pdf")
    r = run("score", game, scores, "--pdf", dev)
    assert r.returncode == 0, r.stderr
    assert stat.S_ISCHR(os.lstat(dev).st_mode)
    assert not list(tmp_path.glob(".pad.pdf*"))  # nothing left beside it


def test_score_pdf_to_dev_full_fails_in_one_line(scored):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    game, scores = scored
    r = run("score", game, scores, "--pdf", "/dev/full")
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        "companion: /dev/full: cannot write (No space left on device)"]
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_score_pdf_to_dev_stdout_writes_the_pdf_into_the_redirect(scored, tmp_path):
    game, scores = scored
    out = tmp_path / "redirected"
    with open(out, "wb") as f:
        r = subprocess.run([sys.executable, "-m", "companion", "score", str(game),
                            str(scores), "--pdf", "/dev/stdout"], stdout=f,
                           stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    assert b"%PDF-" in out.read_bytes() and b"%%EOF" in out.read_bytes()


def test_score_pdf_onto_a_fifo_nothing_reads_ends_and_leaves_the_fifo(scored, tmp_path):
    game, scores = scored
    fifo = tmp_path / "pad.pdf"
    os.mkfifo(fifo)
    r = run("score", game, scores, "--pdf", fifo, timeout=60)  # bounded: never hangs
    assert r.returncode == 2
    assert "FIFO" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_score_pdf_onto_a_fifo_with_a_reader_goes_through_it(scored, tmp_path):
    game, scores = scored
    fifo = tmp_path / "pad.pdf"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    try:
        # the reader opens first; its open waits on a writer: ours
        r = run("score", game, scores, "--pdf", fifo, timeout=60)
        got = reader.communicate(timeout=60)[0]
    finally:
        reader.kill()
    if r.returncode == 2 and "nothing reads" in r.stderr:  # cat was not yet reading
        pytest.skip("the reader had not opened the FIFO yet")
    assert r.returncode == 0, r.stderr
    assert got.startswith(b"%PDF-")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_socket_in_place_of_the_pdf_is_refused_before_any_work(scored, tmp_path):
    import socket

    game, scores = scored
    path = tmp_path / "pad.pdf"
    s = socket.socket(socket.AF_UNIX)
    try:
        s.bind(str(path))
        r = run("score", game, scores, "--pdf", path)
    finally:
        s.close()
    assert r.returncode == 2 and "is a socket, not a file" in r.stderr
    assert r.stdout == ""
    assert stat.S_ISSOCK(os.lstat(path).st_mode)


def test_a_symlink_to_a_regular_file_is_still_replaced_through_it(scored, tmp_path):
    game, scores = scored
    real = tmp_path / "real.pdf"
    real.write_bytes(b"old")
    link = tmp_path / "link.pdf"
    link.symlink_to(real)
    r = run("score", game, scores, "--pdf", link)
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and real.read_bytes().startswith(b"%PDF-")


# ---- playtest --out --------------------------------------------------------------------

@pytest.fixture
def history(tmp_path) -> Path:
    rows = [",".join(HEADER[:12]),
            "1,2026-11-01,covenia,Ana,40,1,,,1.0,1,,50",
            "1,2026-11-01,covenia,Ben,30,0,,,1.0,2,,50"]
    path = tmp_path / "history.csv"
    path.write_text("\r\n".join(rows) + "\r\n", encoding="utf-8")
    return path


def test_playtest_report_onto_a_character_device_leaves_it_a_device(history, tmp_path):
    out = tmp_path / "reports"
    out.mkdir()
    dev = _char_device(out / "playtest-report.pdf")
    r = run("playtest", "covenia", history, "--out", out)
    assert r.returncode == 0, r.stderr
    assert stat.S_ISCHR(os.lstat(dev).st_mode)


def test_playtest_out_that_is_a_character_device_is_refused(history, tmp_path):
    dev = _char_device(tmp_path / "reports")
    r = run("playtest", "covenia", history, "--out", dev)
    assert r.returncode == 2 and "--out" in r.stderr and "not a folder" in r.stderr
    assert stat.S_ISCHR(os.lstat(dev).st_mode)


def test_playtest_report_onto_a_fifo_ends_and_leaves_the_fifo(history, tmp_path):
    out = tmp_path / "reports"
    out.mkdir()
    fifo = out / "playtest-report.pdf"
    os.mkfifo(fifo)
    r = run("playtest", "covenia", history, "--out", out, timeout=60)
    assert r.returncode == 2 and "FIFO" in r.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_playtest_report_over_its_history_is_refused(history, tmp_path):
    before = digest(history)
    renamed = tmp_path / "playtest-report.pdf"
    os.link(history, renamed)
    r = run("playtest", "covenia", renamed, "--out", tmp_path)
    assert r.returncode == 2 and "one of this command's inputs" in r.stderr
    assert digest(history) == before


def test_build_out_that_is_a_character_device_is_refused_and_left(tmp_path, cli):
    dev = _char_device(tmp_path / "kit")
    r = cli("build", "covenia", "--out", dev)
    assert r.code == 2 and "not a folder" in r.err
    assert stat.S_ISCHR(os.lstat(dev).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit"]  # no lock file beside it


def test_build_out_holding_the_game_file_is_refused(starter, cli):
    folder = starter.parent
    r = cli("build", starter, "--out", folder.parent)
    assert r.code == 2, r.err
    assert starter.is_file()


# ---- --out . : the shell's folder stays ------------------------------------------------

def _cwd_alive(folder: Path, inode: int) -> None:
    assert os.stat(".").st_ino == inode  # the folder the shell stands in, not a new one
    assert Path.cwd() == folder and folder.is_dir()


@pytest.mark.parametrize("out", [".", "./"])
def test_build_out_dot_writes_into_the_current_folder_and_leaves_it(tmp_path, cli,
                                                                    monkeypatch, out):
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    inode = os.stat(".").st_ino
    r = cli("build", "covenia", "--out", out, "--only", "tokens")
    assert r.code == 0, r.err
    _cwd_alive(here, inode)
    assert (here / "manifest.json").is_file() and (here / "tokens.pdf").is_file()
    assert not [p for p in here.parent.iterdir() if p.name.startswith(".here.")]
    # again, a smaller kit: its files replace the old ones, the files it lists no more go
    r = cli("build", "covenia", "--out", out, "--only", "scorebook")
    assert r.code == 0, r.err
    _cwd_alive(here, inode)
    assert (here / "scorebook.pdf").is_file() and not (here / "tokens.pdf").exists()


def test_export_png_out_dot_writes_into_the_current_folder_and_leaves_it(tmp_path, cli,
                                                                         monkeypatch):
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    inode = os.stat(".").st_ino
    r = cli("export", "lugvanion", "png", "--out", ".")
    assert r.code == 0, r.err
    _cwd_alive(here, inode)
    assert (here / "manifest.json").is_file() and list(here.rglob("*.png"))


def test_export_into_a_folder_holding_the_current_one_keeps_it(tmp_path, cli, monkeypatch):
    out = tmp_path / "png"
    assert cli("export", "lugvanion", "png", "--out", out).code == 0
    inner = next(p for p in out.iterdir() if p.is_dir())
    monkeypatch.chdir(inner)
    inode = os.stat(".").st_ino
    r = cli("export", "lugvanion", "png", "--out", "..")
    assert r.code == 0, r.err
    _cwd_alive(inner, inode)
    assert list(inner.glob("*.png"))


def test_build_out_root_is_one_line(cli):
    r = cli("build", "covenia", "--out", "/")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1


# ---- the table's files -------------------------------------------------------------------

def test_serve_qr_pdf_onto_the_table_file_is_refused_before_any_work(tmp_path):
    table = tmp_path / "t.sqlite3"
    r = run("serve", "--data", table, "--players", "red,blue", "--host", "127.0.0.1",
            "--qr-pdf", table, timeout=60)
    assert r.returncode == 2 and "--qr-pdf" in r.stderr
    assert "one of this command's inputs" in r.stderr
    assert not table.exists()  # not even made


def test_serve_data_that_is_a_fifo_is_refused_and_ends(tmp_path):
    fifo = tmp_path / "t.sqlite3"
    os.mkfifo(fifo)
    r = run("serve", "--data", fifo, "--players", "red,blue", "--host", "127.0.0.1",
            timeout=60)
    assert r.returncode == 2 and "not a regular file" in r.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_regular_file_under_dev_shm_is_replaced_not_written_into(scored, tmp_path):
    shm = Path("/dev/shm")
    if not shm.is_dir():
        pytest.skip("no /dev/shm here")
    game, scores = scored
    target = shm / f"companion-test-{os.getpid()}.pdf"
    target.write_bytes(b"x" * 5_000_000)  # longer than the pad: no tail may stay
    try:
        r = run("score", game, scores, "--pdf", target)
        assert r.returncode == 0, r.stderr
        data = target.read_bytes()
        assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    finally:
        target.unlink(missing_ok=True)
