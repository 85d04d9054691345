"""A long data file is parsed once (companion.files.data, companion.files.kept): later runs read its
table back from the cache, equal to the parse; a damaged cache file is parsed again, and
a file that does not parse is never kept."""

import tomllib

import pytest

from companion.files import data, paths
from companion.errors import CompanionError

GAME = paths.layout("covenia.toml")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "data"


def test_a_long_file_is_read_back_as_it_was_parsed(cache, monkeypatch):
    text = GAME.read_text(encoding="utf-8")
    assert len(text) >= data.KEPT_FROM
    first = data.parse_toml(text, str(GAME))
    assert first == tomllib.loads(text)
    assert len(list(cache.glob("*.marshal"))) == 1
    monkeypatch.setattr(tomllib, "loads", lambda *a: pytest.fail("parsed again"))
    again = data.parse_toml(text, str(GAME))
    assert again == first and again is not first
    again["game"]["name"] = "changed"  # each read is the reader's own
    assert data.parse_toml(text, str(GAME))["game"]["name"] == first["game"]["name"]


def test_a_short_file_and_a_partial_read_are_parsed_each_time(cache):
    data.parse_toml('[game]\nname = "Short"\n', "short.toml")
    data.parse_toml(GAME.read_text(encoding="utf-8"), str(GAME), only=frozenset({"game"}))
    assert not cache.exists() or not list(cache.glob("*.marshal"))


def test_a_damaged_cache_file_is_parsed_again(cache):
    text = GAME.read_text(encoding="utf-8")
    first = data.parse_toml(text, str(GAME))
    (kept,) = cache.glob("*.marshal")
    whole = kept.read_bytes()
    flipped = bytearray(whole)
    flipped[-40] ^= 0x01  # one bit of a text
    for damage in (b"", b"\x00garbage", whole[:-1], bytes(flipped)):
        kept.write_bytes(damage)
        assert data.parse_toml(text, str(GAME)) == first
        assert kept.read_bytes() == whole


def test_a_kept_table_deeper_than_a_parse_allows_is_parsed_again(cache):
    from companion.files import kept

    text = GAME.read_text(encoding="utf-8")
    first = data.parse_toml(text, str(GAME))
    (file,) = cache.glob("*.marshal")
    deep: dict = {}
    for _ in range(data.MAX_DEPTH + 5):
        deep = {"in": deep}
    kept.keep("data", file.name.rsplit("-v", 1)[0], {**first, "deep": deep})
    assert data.parse_toml(text, str(GAME)) == first


def test_a_long_file_that_does_not_parse_is_refused_every_time(cache):
    text = GAME.read_text(encoding="utf-8") + "\n[game\n"
    for _ in range(2):
        with pytest.raises(CompanionError, match="not valid TOML"):
            data.parse_toml(text, "broken.toml")
    assert not cache.exists() or not list(cache.glob("*.marshal"))


def test_a_long_file_holding_a_date_is_parsed_each_time(cache):
    text = GAME.read_text(encoding="utf-8") + "\n[dates]\nprinted = 2026-11-26\n"
    table = data.parse_toml(text, "dated.toml")
    assert str(table["dates"]["printed"]) == "2026-11-26"
    assert data.parse_toml(text, "dated.toml") == table


def test_the_cache_keeps_the_newest_files_only(cache, monkeypatch):
    """A designer saving a game file again and again (watch mode) makes a new file each
    time: the oldest go past kept.MOST."""
    import os

    from companion.files import kept

    monkeypatch.setattr(kept, "MOST", 5)
    for n in range(8):
        kept.keep("data", f"key{n}", {"n": n})
        os.utime(cache / f"key{n}-v{kept.VERSION}.marshal", ns=(n * 10**9, n * 10**9))
    assert sorted(f.stem for f in cache.glob("*.marshal")) == \
        [f"key{n}-v{kept.VERSION}" for n in range(3, 8)]
    assert kept.read("data", "key7") == {"n": 7} and kept.read("data", "key0") is None


def test_two_builds_filling_an_empty_cache_at_once_both_print_the_same(cache, tmp_path):
    """Two processes keep the same fonts and game file at the same moment: each file is
    written aside and renamed, so neither reads half of one and both kits are the same."""
    import subprocess
    import sys

    from companion.files import kept

    runs = [subprocess.Popen([sys.executable, "-m", "companion", "build", "covenia", "--only",
                              "cards", "--out", str(tmp_path / f"kit{n}")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE) for n in (1, 2)]
    for run in runs:
        _, err = run.communicate()  # waits for the process to end
        assert run.returncode == 0, err.decode()
    assert (tmp_path / "kit1" / "cards.pdf").read_bytes() == \
        (tmp_path / "kit2" / "cards.pdf").read_bytes()
    for folder in ("fonts", "data"):
        files = list((cache.parent / folder).glob("*.marshal"))
        assert files and not list((cache.parent / folder).glob(".*.tmp"))
        for f in files:
            assert kept.read(folder, f.stem.rsplit("-v", 1)[0]) is not None, f
