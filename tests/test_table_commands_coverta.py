"""`companion coverta round|check` and `score coverta` under concurrent writers, odd
names, bad terminals and bad files (issue 11)."""

import subprocess
import sys
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from companion.rules import coverta as cv

ROOT = Path(__file__).resolve().parents[1]


def companion(*args, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *map(str, args)], input=stdin,
                          capture_output=True, cwd=ROOT, timeout=60)


def rounds(ledger: Path) -> list[dict]:
    return tomllib.loads(ledger.read_text(encoding="utf-8")).get("rounds", [])


# ---- two writers at once -------------------------------------------------------------

def _until_prompt(p: subprocess.Popen) -> None:
    """Read the process's standard error up to its first question: by then it has read
    the ledger."""
    seen = b""
    while not seen.endswith(b"cards left in hand: "):
        ch = p.stderr.read(1)
        assert ch, seen
        seen += ch


def _pair(ledger: Path, answers: tuple[bytes, bytes]) -> list[int]:
    procs = [subprocess.Popen([sys.executable, "-m", "companion", "coverta", "round",
                               str(ledger)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, cwd=ROOT) for _ in answers]
    for p in procs:
        _until_prompt(p)  # both have read the ledger as it was before either writes
    for p, a in zip(procs, answers):
        p.stdin.write(a)
        p.stdin.close()
    codes = [p.wait(timeout=60) for p in procs]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    return codes


def test_two_rounds_typed_at_once_on_one_ledger_are_both_kept(tmp_path):
    """15 pairs of concurrent writers: every round lands in the ledger (the old code kept
    one of each pair)."""
    ledgers = [tmp_path / f"l{i}.toml" for i in range(3)]
    for f in ledgers:
        f.write_text('players = ["Ana", "Bo"]\n', encoding="utf-8")

    def five_pairs(f: Path) -> list[int]:
        codes = []
        for k in range(5):
            codes += _pair(f, (f"{k}\n1\n\n".encode(), f"{k}\n2\nbo\n".encode()))
        return codes

    with ThreadPoolExecutor(len(ledgers)) as pool:
        codes = [c for cs in pool.map(five_pairs, ledgers) for c in cs]
    assert codes == [0] * 30
    for f in ledgers:
        got = rounds(f)
        assert len(got) == 10
        assert sorted((r["hands"]["Ana"], r["hands"]["Bo"], r.get("first_steal", ""))
                      for r in got) == sorted([(k, 1, "") for k in range(5)]
                                              + [(k, 2, "Bo") for k in range(5)])


def test_a_round_that_no_longer_fits_the_ledger_is_refused_and_kept_aside(tmp_path, cli,
                                                                          monkeypatch):
    ledger = tmp_path / "game.toml"
    before = 'players = ["Ana", "Bo"]\n\n[[rounds]]\nhands = { Ana = 1, Bo = 2 }\n'
    ledger.write_text(before)
    from companion.score import coverta as entry_words

    real = entry_words.ask_round

    def players_change_while_typing(prompt, echo, players, *lang):
        typed = real(prompt, echo, players, *lang)
        ledger.write_text('players = ["Ana", "Cy"]\n')  # someone else rewrote it meanwhile
        return typed

    monkeypatch.setattr(entry_words, "ask_round", players_change_while_typing)
    r = cli("coverta", "round", ledger, stdin="4\n0\n\n")
    assert r.code == 2
    line = "companion: " + r.err.split("companion: ", 1)[1].strip()  # after the prompts
    side = tmp_path / "game.round-2.toml"
    assert line == (f"companion: {ledger}: players: its players changed while the round was "
                    "typed (now Ana, Cy), so this round cannot be added; the round typed is "
                    f"kept in {side}")
    assert ledger.read_text() == 'players = ["Ana", "Cy"]\n'
    kept = tomllib.loads(side.read_text())
    assert kept == {"players": ["Ana", "Bo"], "rounds": [{"hands": {"Ana": 4, "Bo": 0}}]}
    ledger.write_text(before)
    r = cli("coverta", "round", ledger, stdin="1\n1\n\n")  # a second refusal: a new side file
    assert r.code == 2 and (tmp_path / "game.round-2-2.toml").exists()


@pytest.mark.parametrize("meanwhile,words", [
    (None, "the ledger was removed while the round was typed"),
    ('players = ["Ana", "Bo"]\n[[rounds]]\nhands = { Ana = 1 }\n', "rounds[0].hands.Bo: missing"),
    ('players = ["Ana", "Bo"\n', "not valid TOML"),
])
def test_a_ledger_removed_or_broken_while_typing_keeps_the_round_aside(tmp_path, cli,
                                                                       monkeypatch, meanwhile,
                                                                       words):
    ledger = tmp_path / "game.toml"
    ledger.write_text('players = ["Ana", "Bo"]\n')
    from companion.score import coverta as entry_words

    real = entry_words.ask_round

    def changed_while_typing(prompt, echo, players, *lang):
        typed = real(prompt, echo, players, *lang)
        if meanwhile is None:
            ledger.unlink()
        else:
            ledger.write_text(meanwhile)
        return typed

    monkeypatch.setattr(entry_words, "ask_round", changed_while_typing)
    r = cli("coverta", "round", ledger, stdin="4\n0\n\n")
    assert r.code == 2 and words in r.err
    assert r.err.rstrip().endswith(f"kept in {tmp_path / 'game.round-1.toml'}")
    assert tomllib.loads((tmp_path / "game.round-1.toml").read_text())["rounds"] == [
        {"hands": {"Ana": 4, "Bo": 0}}]
    assert (ledger.read_text() if ledger.exists() else None) == meanwhile


def test_a_ledger_locked_by_another_writer_keeps_the_round_aside(tmp_path, cli, monkeypatch):
    from companion.files import lock
    from companion.score import ledger as book

    ledger = tmp_path / "l.toml"
    ledger.write_text('players = ["A", "B"]\n')
    monkeypatch.setattr(book, "LOCK_WAIT", 0.1)
    holder = subprocess.Popen([sys.executable, "-c",
                               "import sys, time\nfrom companion.files import lock\n"
                               f"with lock.held({str(ledger)!r}, 'testing'):\n"
                               "    print('held', flush=True)\n    time.sleep(30)\n"],
                              stdout=subprocess.PIPE, cwd=ROOT, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        r = cli("coverta", "round", ledger, stdin="1\n2\n\n")
    finally:
        holder.kill()
        holder.wait()
    assert r.code == 2 and f"l.toml: process {holder.pid} is adding a round" in r.err
    assert "kept in" in r.err and (tmp_path / "l.round-1.toml").exists()
    assert ledger.read_text() == 'players = ["A", "B"]\n'
    assert lock.sidecar(ledger).exists()


# ---- names, comments, the terminal ---------------------------------------------------

def test_emoji_names_round_trip_through_the_ledger(tmp_path, cli):
    f = tmp_path / "l.toml"
    assert cli("coverta", "round", f, stdin="Zoé🎲, Ana\n3\n0\nzoé🎲\n").code == 0
    assert cli("coverta", "round", f, stdin="1\n2\n\n").code == 0
    r = cli("score", "coverta", f, "--json")
    assert r.code == 0, r.err
    assert tomllib.loads(f.read_text(encoding="utf-8"))["players"] == ["Zoé🎲", "Ana"]
    assert "Zoé🎲" in f.read_text(encoding="utf-8")  # written as text, not \ud83c escapes


def test_comments_and_layout_of_a_ledger_are_kept_when_a_round_is_added(tmp_path, cli):
    f = tmp_path / "l.toml"
    before = ("# Friday league, table 2\nplayers = [\"Ana\", \"Bo\"]   # seat order\n\n"
              "[[rounds]]    # round one: Bo stole first\nhands = { Ana = 0, Bo = 3 }\n"
              "first_steal = \"Bo\"\n")
    f.write_text(before)
    assert cli("coverta", "round", f, stdin="2\n1\n\n").code == 0
    assert f.read_text() == before + "\n[[rounds]]\nhands = { Ana = 2, Bo = 1 }\n"


def test_a_windows_ledger_keeps_its_line_endings(tmp_path, cli):
    f = tmp_path / "l.toml"
    f.write_bytes(b'players = ["A", "B"]\r\n\r\n[[rounds]]\r\nhands = { A = 1, B = 2 }\r\n')
    assert cli("coverta", "round", f, stdin="3\n0\n\n").code == 0
    assert f.read_bytes().endswith(b'\r\n\r\n[[rounds]]\r\nhands = { A = 3, B = 0 }\r\n')
    assert b"\n" not in f.read_bytes().replace(b"\r\n", b"")  # no lone \n
    assert len(rounds(f)) == 2


def test_a_ledger_in_a_missing_folder_is_refused_before_anything_is_typed(tmp_path, cli):
    r = cli("coverta", "round", tmp_path / "no" / "l.toml", stdin="Ana, Bo\n1\n2\n\n")
    assert r.code == 2 and r.err == f"companion: {tmp_path / 'no'}: LEDGER: no such folder\n"
    assert not (tmp_path / "no").exists()


def test_an_inline_rounds_list_gets_the_round_inline(tmp_path, cli):
    f = tmp_path / "l.toml"
    f.write_text('players = ["A", "B"]\nrounds = [ { hands = { A = 1, B = 0 } } ]')
    assert cli("coverta", "round", f, stdin="0\n2\na\n").code == 0
    assert rounds(f) == [{"hands": {"A": 1, "B": 0}},
                         {"hands": {"A": 0, "B": 2}, "first_steal": "A"}]


@pytest.mark.parametrize("bad", ["²", "٣", "1e3", "-1", "40", "3.0", "0x10", "9" * 5000])
def test_hand_counts_are_ascii_numbers_0_to_39_and_bad_ones_are_asked_again(tmp_path, cli,
                                                                            bad):
    f = tmp_path / "l.toml"
    f.write_text('players = ["A", "B"]\n')
    r = cli("coverta", "round", f, stdin=f"{bad}\n3\n4\n\n")
    assert r.code == 0, r.err
    assert "a whole number, 0 to 39" in r.err and "Traceback" not in r.err
    assert rounds(f) == [{"hands": {"A": 3, "B": 4}}]


def test_a_round_holding_more_cards_than_the_deck_is_typed_again(tmp_path, cli):
    f = tmp_path / "l.toml"
    f.write_text('players = ["A", "B"]\n')
    r = cli("coverta", "round", f, stdin="30\n30\n5\n6\n\n")
    assert r.code == 0
    assert "the hands hold 60 cards in all" in r.err and "type the round again" in r.err
    assert rounds(f) == [{"hands": {"A": 5, "B": 6}}]


@pytest.mark.parametrize("bad", ["Zo\udce9", "\ud83c", "A\x1b[2J", "A\x00B", "A\u2028B"])
def test_text_that_is_not_plain_is_refused_at_the_prompt(tmp_path, cli, bad):
    f = tmp_path / "l.toml"
    r = cli("coverta", "round", f, stdin=f"{bad}, Bo\nAna, Bo\n1\n2\n\n")
    assert r.code == 0, r.err
    assert "not plain text" in r.err
    assert tomllib.loads(f.read_text(encoding="utf-8"))["players"] == ["Ana", "Bo"]


def test_bytes_that_are_not_utf8_are_refused_at_the_prompt_of_a_real_process(tmp_path):
    f = tmp_path / "l.toml"
    r = companion("coverta", "round", f, stdin=b"Zo\xe9, Bo\n\xff\xfe\nZo\xc3\xa9, Bo\n1\n2\n\n")
    assert r.returncode == 0, r.stderr.decode()
    err = r.stderr.decode()
    assert err.count("not plain text") == 2 and "Traceback" not in err
    assert tomllib.loads(f.read_text(encoding="utf-8"))["players"] == ["Zoé", "Bo"]


def test_a_ledger_is_not_standard_input(cli):
    r = cli("coverta", "round", "-", stdin="1\n2\n\n")
    assert r.code == 2 and "LEDGER" in r.err


# ---- bad ledgers ---------------------------------------------------------------------

@pytest.mark.parametrize("body,field", [
    ('players = ["A", "B"]\nplayer = ["C"]\n', "player"),
    ('players = ["A", "B"]\n[[rounds]]\nhands = { A = 1, B = 2 }\nfirst_stael = "A"\n',
     "rounds[0].first_stael"),
    ('players = ["A", "B"]\n[[rounds]]\nhands = { A = 40, B = 2 }\n', "rounds[0].hands.A"),
    ('players = ["A", "B"]\n[[rounds]]\nhands = { A = 30, B = 20 }\n', "rounds[0].hands"),
    ('players = ["A", "B"]\n[[rounds]]\nhands = { A = 1e400, B = 2 }\n', "rounds[0].hands.A"),
    ('players = ["A", "B\\u0007"]\n', "players[1]"),
    ('players = ["A", "B"]\n[[rounds]]\nhands = { A = 1, B = 2, "\\u001b[2J" = 3 }\n',
     "rounds[0].hands.\\x1b[2J"),
])
def test_a_bad_ledger_is_refused_naming_the_field(tmp_path, cli, body, field):
    f = tmp_path / "l.toml"
    f.write_text(body)
    for args, stdin in ((("score", "coverta", f), None), (("coverta", "round", f), "1\n1\n\n")):
        r = cli(*args, stdin=stdin)
        assert r.code == 2, r.err
        assert r.err.count("\n") == 1 and r.err.startswith(f"companion: {f}: {field}: ")
        assert "\x1b" not in r.err and "\x07" not in r.err
    assert f.read_text() == body


def test_values_in_messages_are_shown_as_toml_never_as_python_reprs(tmp_path, cli):
    f = tmp_path / "l.toml"
    f.write_text('players = ["A", "B"]\n[[rounds]]\nhands = { A = 07:32:00, B = 2 }\n'
                 'first_steal = 1979-05-27\n')
    r = cli("score", "coverta", f)
    assert "07:32:00 is not a hand count" in r.err and "datetime" not in r.err


# ---- the row check -------------------------------------------------------------------

ROW = ('start = "C01"\nplays = [{ card = "C02", row = "Ana" }, { card = "C03", row = "Bo" },'
       ' { card = "C05", row = "Ana" }]\n')


@pytest.mark.parametrize("tail,field,words", [
    ('rules = { Ana = ["keep:ink", "keep:fill", "keep:shape"] }\n', "rules.Ana", "exactly 2"),
    ('rules = { Ana = ["keep:ink"] }\n', "rules.Ana", "exactly 2 rules, not 1"),
    ('rules = { Ana = ["keep:ink", "keep:parity"] }\n', "rules.Ana", "one number rule"),
    ('rules = { Ana = ["keep:fill", "keep:shape"] }\n', "rules.Ana", "one symbol rule"),
    ('rules = { Ana = ["keep:ink", "keep:background"] }\n', "rules.Ana", "jokers"),
    ('rules = { Ana = ["keep:ink", "keep:fill"], Bo = ["keep:ink", "keep:shape"] }\n',
     "rules.Bo[0]", 'already held by "Ana"'),
    ('rules = { Ana = ["keep:ink", "keep:ink"] }\ndeal = "three-card"\n', "rules.Ana[1]",
     "already held by this player"),
    ('rules = { Ana = ["keep:ink", "keep:fill"] }\nmarked = 5\n', "marked", "not 5"),
    ('rules = { Ana = ["keep:ink", "keep:fill"] }\nmarked = ["C07"]\n', "marked[0]",
     "C07 was not laid"),
    ('rules = { Ana = ["keep:ink", "keep:fill"] }\nmarked = ["C01"]\n', "marked[0]",
     "C01 was not laid in a row"),
    ('rules = { Ana = ["keep:ink", "keep:fill"] }\nmarked = ["C02", "c02"]\n', "marked[1]",
     "marked twice"),
    ('rules = { Ana = ["keep:ink", "keep:fill"] }\nmraked = ["C02"]\n', "mraked",
     "unknown field"),
    ('rules = { Ana = ["keep:ink", "keep:fill"] }\ndeal = "five-card"\n', "deal",
     '"five-card" is not a deal'),
    ('rules = { Ana = [1, "keep:fill"] }\n', "rules.Ana[0]", "1 is not a rule"),
])
def test_check_refuses_what_the_rules_do_not_allow_in_one_line(tmp_path, cli, tail, field,
                                                               words):
    f = tmp_path / "row.toml"
    f.write_text(ROW + tail)
    r = cli("coverta", "check", f)
    assert r.code == 2, r.out
    assert r.err.count("\n") == 1 and r.err.startswith(f"companion: {f}: {field}")
    assert words in r.err


def test_the_three_card_deal_allows_any_two_rules_and_jokers(tmp_path, cli):
    f = tmp_path / "row.toml"
    f.write_text(ROW + 'rules = { Ana = ["keep:ink", "alternate:background"] }\n'
                 'deal = "three-card"\n')
    assert cli("coverta", "check", f).code == 0


def test_unknown_fields_in_a_play_are_named(tmp_path, cli):
    f = tmp_path / "row.toml"
    f.write_text('start = "C01"\nplays = [{ card = "C02", row = "Ana", rwo = "Bo" }]\n'
                 'rules = { Ana = ["keep:ink", "keep:fill"] }\n')
    r = cli("coverta", "check", f)
    assert r.code == 2 and f"{f}: plays[0].rwo: unknown field" in r.err


def test_more_rows_than_players_is_refused(tmp_path, cli):
    plays = ", ".join(f'{{ card = "C{i + 2:02d}", row = "P{i}" }}' for i in range(6))
    f = tmp_path / "row.toml"
    f.write_text(f'start = "C01"\nplays = [{plays}]\nrules = {{ P0 = ["keep:ink", "keep:fill"] }}\n')
    r = cli("coverta", "check", f)
    assert r.code == 2 and "plays: cards are laid in 6 rows" in r.err


@pytest.mark.parametrize("deck,field", [
    ("cards = [1, 2]\n", "cards[0]"),
    ("cards = 5\n", "cards"),
    ("cards = []\n", "cards"),
    ("title = 1\n", "cards"),
    ('cards = [{ code = "C01", number = 1, ink = "red", shape = "square", symbol_colour = '
     '"blue", fill = "filled", background = "white", symbol_color = "blue" }]\n',
     "cards[0].symbol_color"),
    ('cards = [{ code = "C\\u001b1", number = 1 }]\n', "cards[0].code"),
    ('cards = [{ code = "C01", number = 1e9 }]\n', "cards[0].number"),
])
def test_a_bad_custom_deck_is_refused_in_one_line(tmp_path, cli, deck, field):
    row = tmp_path / "row.toml"
    row.write_text(ROW + 'rules = { Ana = ["keep:ink", "keep:fill"] }\n')
    d = tmp_path / "deck.toml"
    d.write_text(deck)
    r = cli("coverta", "check", row, "--data", d)
    assert r.code == 2
    assert r.err.count("\n") == 1 and r.err.startswith(f"companion: {d}: {field}: ")
    assert "\x1b" not in r.err


def test_check_names_control_characters_escaped(tmp_path, cli):
    f = tmp_path / "row.toml"
    f.write_text('start = "C01"\nplays = [{ card = "C02", row = "Ana" }]\n'
                 'rules = { "Ana\\u001b[31m" = ["keep:ink", "keep:fill"] }\n')
    r = cli("coverta", "check", f)
    assert r.code == 2 and "rules.Ana\\x1b[31m: no card was laid" in r.err


def test_the_deck_limits_agree_with_the_rules():
    assert cv.DECK_SIZE == 40 and cv.MAX_HAND == 39 and list(cv.PLAYERS) == [2, 3, 4, 5]


def test_a_value_nested_thousands_deep_is_refused_in_one_line(tmp_path, cli):
    f = tmp_path / "row.toml"
    f.write_text(ROW + 'rules = { Ana = ["keep:ink", "keep:fill"] }\nmarked' + ".a" * 5000
                 + " = 1\n")
    r = cli("coverta", "check", f)
    assert r.code == 2 and r.err.startswith(f"companion: {f}: ") and r.err.count("\n") == 1


def test_a_message_shows_a_deeply_nested_value_cut_short():
    from companion.rules.errors import shown

    deep: dict = {}
    for _ in range(5000):
        deep = {"a": deep}
    assert shown(deep) == "{ a = { a = { a = { ... } } } }"
    assert shown(list(range(9))) == "[0, 1, 2, 3, 4, ...]"
