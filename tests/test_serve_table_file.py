"""The table's SQLite file: one server at a time, our mark, another program's file left
alone, a damaged or cut file refused in one line, owner-only, closed clean on SIGTERM."""

import os
import signal
import sqlite3
import stat
from pathlib import Path

import pytest

from companion.files import lock
from companion.errors import CompanionError
from companion.web import store
from tests.web import BAG, Server, serve_once

GUILDS = ["forge", "jewellery", "herbalism", "academy"]
PLAYERS = [{"colour": c, "name": ""} for c in BAG]


def open_table(path: Path) -> store.Store:
    return store.Store.open(path, GUILDS, None, None, PLAYERS)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[bytes, str, int]:
    """The bytes of a table closed after 30 draws (some undone), its token and draws."""
    path = tmp_path_factory.mktemp("played") / "t.sqlite3"
    table = open_table(path)
    for i in range(30):
        table.draw("forge", BAG, f"key-{i}")
        if i % 7 == 6:
            table.undo(None)
    token, draws = table.token, len(table.draws)
    table.close()
    assert not Path(f"{path}-wal").exists()
    return path.read_bytes(), token, draws


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in text, text
    return lines[0]


def snapshot(folder: Path) -> dict:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir()}


def test_a_second_server_on_the_same_table_is_refused_naming_the_first(tmp_path):
    data = tmp_path / "t.sqlite3"
    first = Server(data).start()
    try:
        first.draw("forge")
        before = snapshot(tmp_path)
        # The same file by another name (a symbolic link) is the same table.
        (tmp_path / "link.sqlite3").symlink_to(data)
        for name in (data, tmp_path / "link.sqlite3"):
            r = serve_once("--host", "127.0.0.1", "--data", name, timeout=15)
            assert r.returncode == 2, r.stdout + r.stderr
            line = one_line(r.stderr)
            assert f"process {first.proc.pid} is serving this table" in line
            assert line.startswith("companion: ") and "t.sqlite3" in line
        after = snapshot(tmp_path)
        del after["link.sqlite3"]
        assert after == before  # nothing in the table changed
        assert first.draw("forge").status_code == 200  # the first one serves on
    finally:
        first.stop()
    # Once it has stopped, the table can be served again.
    again = Server(data).start()
    assert len(again.state()["draws"]) == 2
    again.stop()


def test_a_new_table_is_marked_as_ours_and_owner_only(tmp_path):
    old = os.umask(0o022)
    try:
        table = open_table(tmp_path / "t.sqlite3")
        table.draw("forge", BAG, "k")  # the write-ahead log and its index appear
        files = sorted(tmp_path.iterdir())
        assert [p.name for p in files] == ["t.sqlite3", "t.sqlite3-shm", "t.sqlite3-wal"]
        for p in files:
            assert stat.S_IMODE(p.stat().st_mode) == 0o600, p.name
        table.close()
    finally:
        os.umask(old)
    conn = sqlite3.connect(tmp_path / "t.sqlite3")
    assert conn.execute("PRAGMA application_id").fetchone()[0] == store.APPLICATION_ID
    assert conn.execute("PRAGMA user_version").fetchone()[0] == store.FORMAT
    conn.close()


def another_programs_database(path: Path, application_id: int = 0, wal: bool = False):
    conn = sqlite3.connect(path)
    if wal:
        conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA application_id = {application_id}")
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")  # a name like ours
    conn.execute("CREATE TABLE recipes (name TEXT, steps TEXT)")
    conn.executemany("INSERT INTO recipes VALUES (?, ?)", [("bread", "knead")] * 50)
    conn.commit()
    conn.close()


@pytest.mark.parametrize("application_id,wal", [(0, False), (0, True), (0x4D504246, False)],
                         ids=["unmarked", "unmarked-wal", "other-mark"])
def test_another_programs_database_is_refused_and_left_as_it_was(tmp_path, application_id, wal):
    data = tmp_path / "recipes.db"
    another_programs_database(data, application_id, wal)
    before = (data.read_bytes(), data.stat().st_mtime_ns)
    r = serve_once("--host", "127.0.0.1", "--data", data, timeout=15)
    assert r.returncode == 2, r.stdout + r.stderr
    line = one_line(r.stderr)
    assert str(data) in line and "not a table-companion table" in line
    assert "another program's SQLite database" in line
    assert (data.read_bytes(), data.stat().st_mtime_ns) == before
    # Nothing new beside it (no log, no index) but our own lock file.
    assert {p.name for p in tmp_path.iterdir()} <= {data.name, lock.sidecar(data).name}
    conn = sqlite3.connect(f"file:{data}?mode=ro", uri=True)
    assert {n for (n,) in conn.execute("SELECT name FROM sqlite_master")} >= {"meta", "recipes"}
    assert conn.execute("SELECT count(*) FROM meta").fetchone()[0] == 0
    conn.close()


def test_a_table_cut_short_at_any_length_is_refused_naming_the_file(tmp_path, played):
    good, token, draws = played
    data = tmp_path / "t.sqlite3"
    lengths = sorted({*range(0, 130), *range(130, len(good), 211), len(good) - 1})
    for n in lengths:
        data.write_bytes(good[:n])
        with pytest.raises(CompanionError) as e:
            open_table(data).close()
        assert e.value.source == str(data), n
        assert "\n" not in e.value.line()
        assert data.read_bytes() == good[:n]  # never replaced by a new table
    data.write_bytes(good)
    table = open_table(data)
    assert (table.token, len(table.draws)) == (token, draws)
    table.close()


def test_damaged_bytes_are_refused_or_change_nothing(tmp_path, played):
    """Every page's header broken: refused. Garbage anywhere else: refused, or the very
    same table (the bytes were unused). Never a traceback, never another token. (The
    token's own characters are left alone: a flipped letter there would still be a
    token, and SQLite keeps no checksum of a value.)"""
    good, token, draws = played
    data = tmp_path / "t.sqlite3"
    page = int.from_bytes(good[16:18], "big")
    spared = range(good.index(token.encode()), good.index(token.encode()) + len(token))
    cases = [(p * page + (100 if p == 0 else 0), True) for p in range(len(good) // page)]
    cases += [(at, False) for at in range(0, len(good), 61) if at not in spared]
    refused = 0
    for at, must_refuse in cases:
        bad = bytearray(good)
        bad[at:at + 8] = b"\xff\x13\x00\xee\x7f\x80\x01\xfe"
        data.write_bytes(bytes(bad))
        for extra in ("-wal", "-shm"):
            Path(f"{data}{extra}").unlink(missing_ok=True)
        try:
            table = open_table(data)
        except CompanionError as e:
            refused += 1
            assert e.source == str(data)
            assert "\n" not in e.line()
            continue
        assert not must_refuse, f"a broken page header at {at} was not noticed"
        assert (table.token, len(table.draws)) == (token, draws), at
        table.close()
    assert refused >= len(good) // page


@pytest.mark.parametrize("content,words", [
    (b"", "empty file (0 bytes)"),
    (b"SQLite format 3\x00" + bytes(40), "damaged table file (cut short at 56 bytes)"),
    ("half", "damaged table file"),
], ids=["empty", "header-only", "half"])
def test_a_damaged_table_is_one_line_exit_2_at_the_command_line(tmp_path, played, content,
                                                                  words):
    data = tmp_path / "t.sqlite3"
    data.write_bytes(played[0][:len(played[0]) // 2] if content == "half" else content)
    r = serve_once("--host", "127.0.0.1", "--data", data, timeout=15)
    assert r.returncode == 2, r.stdout + r.stderr
    line = one_line(r.stderr)
    assert line.startswith(f"companion: {data}: {words}")
    assert "Table link" not in r.stdout


def test_a_table_from_a_newer_version_is_refused(tmp_path, played):
    data = tmp_path / "t.sqlite3"
    data.write_bytes(played[0])
    conn = sqlite3.connect(data)
    conn.execute(f"PRAGMA user_version = {store.FORMAT + 1}")
    conn.close()
    with pytest.raises(CompanionError, match="newer table-companion"):
        open_table(data)


def test_a_table_made_before_the_mark_still_opens_and_is_marked(tmp_path):
    """Tables written by earlier versions carry no mark: they hold exactly our tables."""
    data = tmp_path / "t.sqlite3"
    conn = sqlite3.connect(data, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.executescript(store.SCHEMA)
    meta = store._new_table(PLAYERS, None)
    conn.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
    conn.close()
    table = open_table(data)
    assert table.token == meta["token"]
    table.close()
    head = data.read_bytes()[:100]
    assert int.from_bytes(head[68:72], "big") == store.APPLICATION_ID


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl+C"])
def test_a_stop_signal_closes_the_table_with_its_log_folded_in(tmp_path, sig):
    data = tmp_path / "t.sqlite3"
    s = Server(data).start()
    answers = [s.draw("forge", key=f"k{i}").json() for i in range(3)]
    assert Path(f"{data}-wal").stat().st_size > 0  # the draws sit in the log meanwhile
    assert s.stop(sig) == 0
    assert "Stopped. Every draw is kept in" in "".join(s.out)
    wal = Path(f"{data}-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    # Everything is in the file itself: read it alone, without the log.
    conn = sqlite3.connect(f"file:{data}?immutable=1", uri=True)
    assert conn.execute("SELECT count(*) FROM draws").fetchone()[0] == 3
    conn.close()
    again = Server(data).start()
    try:
        assert [d["id"] for d in again.state()["draws"]] == [a["id"] for a in answers]
    finally:
        again.stop()


def test_a_schema_1_table_is_brought_to_schema_2_with_its_draws_kept(tmp_path, played):
    """A table written before games and history were kept: opened, it gains their tables
    (one transaction), its mark goes to format 2, and every draw is still there."""
    good, token, draws = played
    data = tmp_path / "t.sqlite3"
    data.write_bytes(good)
    conn = sqlite3.connect(data, isolation_level=None)
    for t in ("games", "answered", "history"):
        conn.execute(f"DROP TABLE {t}")
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema'")
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    table = open_table(data)
    assert (table.token, len(table.draws), table.schema) == (token, draws, "2")
    assert table.games == {} and table.history == []
    table.close()
    head = data.read_bytes()[:100]
    assert int.from_bytes(head[60:64], "big") == store.FORMAT == 2


def test_open_games_and_the_history_are_kept_across_a_reopening(tmp_path):
    data = tmp_path / "t.sqlite3"
    table = open_table(data)
    table.save_game("coverta", {"players": ["Ana", "Bo"], "rounds": []},
                    ("k1", "{}", {"ok": True}))
    entry = table.close_game("covenia", {"players": ["Ana", "Bo"], "scores": {"Ana": 3, "Bo": 5},
                                         "winners": ["Bo"]})
    table.close()
    again = open_table(data)
    assert again.games == {"coverta": {"players": ["Ana", "Bo"], "rounds": []}}
    assert again.history == [entry] and entry["id"] == 1
    assert again.answered("k1") == ("{}", {"ok": True})
    again.close()


def test_a_table_of_an_unknown_schema_is_refused_and_left_as_it_was(tmp_path, played):
    data = tmp_path / "t.sqlite3"
    data.write_bytes(played[0])
    conn = sqlite3.connect(data, isolation_level=None)
    conn.execute("UPDATE meta SET value = '9' WHERE key = 'schema'")
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    before = data.read_bytes()
    with pytest.raises(CompanionError, match="table format '9'"):
        open_table(data)
    assert data.read_bytes() == before


@pytest.mark.parametrize("edit", [
    "UPDATE games SET state = '{\"players\": 7}' WHERE game = 'covenia'",
    "UPDATE games SET state = '{\"players\": \"Ana\", \"rounds\": 7}' WHERE game = 'coverta'",
    "UPDATE draws SET result = json_set(result, '$.id', 'one') WHERE id = 1",
    "UPDATE history SET record = json_set(record, '$.players', 5)",
], ids=["covenia-players", "coverta-rounds", "draw-id", "history-players"])
def test_a_table_hand_edited_into_a_shape_we_never_write_is_refused_in_one_line(tmp_path, edit):
    data = tmp_path / "t.sqlite3"
    table = open_table(data)
    table.draw("forge", BAG, "k-draw")
    table.save_game("covenia", {"players": [{"name": "Ana", "area": {"red": [1]}}]})
    table.save_game("coverta", {"players": ["Ana", "Bo"], "rounds": [{"hands": {"Ana": 0,
                                                                               "Bo": 2}}]})
    table.close_game("vengeance", {"players": ["Ana"], "scores": {"Ana": 1},
                                   "winners": ["Ana"]})
    table.close()
    conn = sqlite3.connect(data, isolation_level=None)
    conn.execute(edit)
    conn.close()
    before = data.read_bytes()
    r = serve_once("--host", "127.0.0.1", "--data", data, timeout=15)
    assert r.returncode == 2, r.stdout + r.stderr
    line = one_line(r.stderr)
    assert line.startswith(f"companion: {data}: ") and "Table link" not in r.stdout, line
    assert data.read_bytes() == before  # left as it was
