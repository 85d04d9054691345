"""A kit folder is replaced whole or not at all: failures of the file system give one
line and leave the previous kit as it was; a killed build is cleaned up by the next."""

import errno
import os
import signal
import subprocess
import sys
import time

import pytest

from companion.files import lock


def snapshot(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def leftovers(folder):
    return sorted(p.name for p in folder.parent.iterdir()
                  if p.name.startswith(f".{folder.name}.") and not p.name.endswith(".lock"))


@pytest.fixture
def kit(tmp_path, cli):
    out = tmp_path / "kit"
    assert cli("build", "covenia", "--out", out).code == 0
    return out


def one_line(r):
    lines = r.err.strip().splitlines()
    return r.code == 2 and len(lines) == 1 and "Traceback" not in r.err


def test_a_full_disk_while_writing_gives_one_line_and_keeps_the_old_kit(kit, cli, monkeypatch):
    before = snapshot(kit)
    from reportlab.pdfgen.canvas import Canvas
    real = Canvas.save
    calls = []

    def save(self):
        calls.append(1)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device", "tokens.pdf")
        real(self)

    monkeypatch.setattr(Canvas, "save", save)
    r = cli("build", "covenia", "--lang", "fr", "--out", kit)
    assert one_line(r) and "No space left on device" in r.err, r.err
    assert snapshot(kit) == before and leftovers(kit) == []


def test_a_swap_that_the_system_refuses_gives_one_line_and_keeps_the_old_kit(kit, cli,
                                                                             monkeypatch):
    before = snapshot(kit)
    real = os.rename

    def rename(src, dst):
        if ".staging-" in str(src):  # e.g. a file of the kit open in a viewer on Windows
            raise PermissionError(errno.EACCES, "Permission denied", str(src))
        real(src, dst)

    def exchange(a, b):  # the one-step swap (Linux) refused the same way
        raise PermissionError(errno.EACCES, "Permission denied", str(a))

    monkeypatch.setattr(os, "rename", rename)
    monkeypatch.setattr("companion.files.atomic._exchange", exchange)
    r = cli("build", "covenia", "--lang", "fr", "--out", kit)
    assert one_line(r), r.err
    assert snapshot(kit) == before and leftovers(kit) == []


def test_a_smaller_only_build_leaves_no_file_of_the_earlier_kit(kit, cli):
    assert (kit / "cards.pdf").is_file()
    assert cli("build", "covenia", "--only", "tokens", "--out", kit).code == 0
    import json
    listed = {f["path"] for f in json.loads((kit / "manifest.json").read_text())["files"]}
    assert {p.name for p in kit.iterdir()} == listed | {"manifest.json", "print-guide.txt"}
    assert listed == {"tokens.pdf"}


def test_a_folder_of_someone_elses_files_is_never_replaced(tmp_path, cli):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "thesis.txt").write_text("years of work")
    r = cli("build", "covenia", "--out", out)
    assert one_line(r) and "--out" in r.err, r.err
    assert snapshot(out) == {"thesis.txt": b"years of work"}


def test_out_naming_a_file_is_refused_in_one_line(tmp_path, cli):
    (tmp_path / "f").write_text("x")
    r = cli("build", "covenia", "--out", tmp_path / "f")
    assert one_line(r), r.err
    assert (tmp_path / "f").read_text() == "x"


def test_a_second_build_of_the_same_kit_at_once_is_refused_naming_the_first(kit, cli):
    before = snapshot(kit)
    with lock.held(kit, "building this kit"):
        r = cli("build", "covenia", "--out", kit)
    assert one_line(r) and f"process {os.getpid()}" in r.err, r.err
    assert snapshot(kit) == before


def test_a_kit_set_aside_by_a_build_killed_mid_swap_comes_back(kit, cli, monkeypatch):
    before = snapshot(kit)
    os.rename(kit, kit.with_name(".kit.old-99999"))  # killed between its two renames
    (kit.with_name(".kit.staging-99999-abc")).mkdir()  # and its staging folder left
    # The next build fails half way: the old kit must be back, nothing left behind.
    monkeypatch.setattr("companion.kit.render", lambda *a: (_ for _ in ()).throw(
        OSError(errno.EIO, "Input/output error")))
    r = cli("build", "covenia", "--out", kit)
    assert one_line(r), r.err
    assert snapshot(kit) == before and leftovers(kit) == []


def test_killing_a_real_build_at_any_moment_leaves_the_old_kit_or_the_new_one(kit, tmp_path):
    before = snapshot(kit)
    cmd = [sys.executable, "-m", "companion", "build", "covenia", "--lang", "fr",
           "--out", str(kit)]
    for delay in (0.05, 0.15, 0.25, 0.35):
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        p.send_signal(signal.SIGKILL)
        p.wait(10)
        now = snapshot(kit) if kit.exists() else None
        if now is not None and now != before:  # the new kit landed whole
            assert "cards.pdf" in now and b'"lang": "fr"' in now["manifest.json"]
    # The next build clears whatever the killed ones left.
    assert subprocess.run(cmd, stdout=subprocess.DEVNULL).returncode == 0
    assert leftovers(kit) == []
    assert b'"lang": "fr"' in (kit / "manifest.json").read_bytes()


def test_outputs_inside_a_kit_folder_survive_its_rebuild_but_foreign_folders_do_not_pass(
        tmp_path, cli):
    out = tmp_path / "kit"
    (out / "png").mkdir(parents=True)
    (out / "png" / "manifest.json").write_text("{}")  # an export made before the kit
    assert cli("build", "covenia", "--only", "tokens", "--out", out).code == 0
    assert cli("build", "covenia", "--only", "aids", "--out", out).code == 0
    assert (out / "png" / "manifest.json").read_text() == "{}"
    other = tmp_path / "other"
    (other / "photos").mkdir(parents=True)  # a folder of someone's own, no manifest
    r = cli("build", "covenia", "--out", other)
    assert one_line(r) and (other / "photos").is_dir()
