"""`companion score covenia`: files, standard input, interactive entry, JSON, PDF, bad input."""

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from pypdf import PdfReader

from companion.cli import main

RULEBOOK = Path(__file__).parent / "data" / "covenia-rulebook.toml"


def run(*args, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main([str(a) for a in args])
    except SystemExit as e:
        code = e.code
    finally:
        sys.stdin = old
    return code, out.getvalue(), err.getvalue()


def test_json_is_exactly_the_agreed_object():
    code, out, _ = run("score", "covenia", RULEBOOK, "--json")
    assert code == 0
    assert json.loads(out) == {"game": "covenia", "players": [
        {"name": "Emma", "red": 21, "yellow": 10, "green": 3, "blue": 9, "purple": 9,
         "bonus": 10, "total": 62, "rank": 1},
        {"name": "Laurence", "red": 4, "yellow": 0, "green": 2, "blue": 6, "purple": 0,
         "bonus": 0, "total": 12, "rank": 2}], "winners": ["Emma"]}
    assert len(out.strip().splitlines()) == 1


def test_the_table_explains_each_figure_like_the_rulebook():
    code, out, _ = run("score", "covenia", RULEBOOK)
    assert code == 0
    for line in ("3 red, the most at the table: 3 × 7 = 21",
                 "2 yellow, lowest in hand 5: 2 × 5 = 10",
                 "1 green, 3 in hand: 1 × 3 = 3", "blue values 4 + 5 = 9",
                 "3 purple, squared: 3 × 3 = 9", "Winner: Emma"):
        assert line in out
    total_row = next(ln for ln in out.splitlines() if ln.startswith("Total"))
    assert total_row.split() == ["Total", "62", "12"]


def test_french_words_with_lang_fr():
    code, out, _ = run("score", "covenia", RULEBOOK, "--lang", "fr")
    assert code == 0 and "Gagnante\u202f: Emma" in out and "rouges\u202f: 3" in out


def test_standard_input_with_a_dash():
    code, out, _ = run("score", "covenia", "-", "--json", stdin=RULEBOOK.read_text())
    assert code == 0 and json.loads(out)["winners"] == ["Emma"]


def test_pdf_is_the_filled_score_book_page(tmp_path):
    pdf = tmp_path / "s.pdf"
    code, _, _ = run("score", "covenia", RULEBOOK, "--pdf", pdf)
    assert code == 0
    text = PdfReader(pdf).pages[0].extract_text()
    assert "Emma" in text and "Laurence" in text and "62" in text and "Winner: Emma" in text
    assert [p.name for p in tmp_path.iterdir()] == ["s.pdf"]  # no temporary file left


def test_interactive_entry_reasks_bad_lines_and_saves_what_was_entered(tmp_path):
    lines = [
        "5", "2",               # a bad player count, then 2
        "Emma", "Emma", "Laurence",  # a repeated name is refused
        "",                     # decks: the default (A for 2 players)
        "1 4 6", "2,8", "3", "4 5", "1 2 3",
        "yellow 5, green 9, purple nine", "yellow 5, green 9, purple 9",
        "5", "", "4 7 2", "4, 7", "6", "", "r3",
    ]
    save = tmp_path / "game.toml"
    code, out, err = run("score", "covenia", "--save", save, "--json", stdin="\n".join(lines) + "\n")
    assert code == 0, err
    assert json.loads(out)["players"][0]["total"] == 62
    assert "2, 3 or 4" in err and "two players cannot share a name" in err
    assert "column rises strictly" in err and 'unknown clan "nine"' in err
    code, again, _ = run("score", "covenia", save, "--json")
    assert code == 0 and again == out


@pytest.mark.parametrize("body,field", [
    ('[[players]]\nname = "A"\n', "players"),
    ('[[players]]\nname = "A"\narea = { red = [12] }\n[[players]]\nname = "B"\n',
     'players[0] "A".area.red'),
    ('[[players]]\nname = "A"\narea = { red = [3, 1] }\n[[players]]\nname = "B"\n',
     'players[0] "A".area.red'),
    ('[[players]]\nname = "A"\narea = { gold = [3] }\n[[players]]\nname = "B"\n',
     'players[0] "A".area.gold'),
    ('[[players]]\nname = "A"\nhand = { red = [3] }\n[[players]]\nname = "B"\n'
     'area = { red = [3] }\n', 'players[1] "B".area.red'),
    ('players = [\n', "game.toml"),
    ('[[players]]\nname = "A"\n[[players]]\nname = "B"\n[[players]]\nname = "C"\n'
     '[[players]]\nname = "D"\n[[players]]\nname = "E"\n', "players"),
    # two players play one deck, A or B (rulebook set-up, RULINGS C1)
    ('decks = "AB"\n[[players]]\nname = "A"\n[[players]]\nname = "B"\n', "decks"),
])
def test_bad_files_exit_2_with_one_line_naming_the_field(tmp_path, body, field):
    f = tmp_path / "game.toml"
    f.write_text(body)
    pdf = tmp_path / "out.pdf"
    code, out, err = run("score", "covenia", f, "--pdf", pdf)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and field in err and "Traceback" not in err
    assert str(f) in err
    assert not pdf.exists()


def test_a_missing_file_exits_2():
    code, _, err = run("score", "covenia", "/no/such/game.toml")
    assert code == 2 and "no such file" in err


VALID = {"decks": "A", "players": [
    {"name": "Emma", "area": {"red": [1, 4, 6]}, "hand": {"yellow": [5]}},
    {"name": "Bo", "area": {"blue": [2]}, "hand": {}}]}
BAD_VALUES = st.one_of(st.integers(-5, -1), st.integers(11, 99), st.just(0), st.text(max_size=3),
                       st.booleans(), st.floats(allow_nan=False))


def toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, float):
        return repr(v) if v == v and abs(v) != float("inf") else "1.5"
    return str(v)


@st.composite
def broken_files(draw):
    kind = draw(st.sampled_from(["value", "clan", "order", "count", "decks", "garbage"]))
    if kind == "garbage":
        return draw(st.text(max_size=60))
    players = json.loads(json.dumps(VALID["players"]))
    decks = "A"
    if kind == "value":
        players[0]["area"]["red"][draw(st.integers(0, 2))] = draw(BAD_VALUES)
    elif kind == "clan":
        players[1]["area"][draw(st.sampled_from(["gold", "grey", "Red!", "x"]))] = [1]
    elif kind == "order":
        players[0]["area"]["red"] = [6, 4, 1]
    elif kind == "count":
        players = players[:draw(st.sampled_from([0, 1]))] + (
            [] if draw(st.booleans()) else [dict(players[1], name=f"N{i}") for i in range(4)])
    elif kind == "decks":
        decks = draw(st.sampled_from(["C", "ABC", "", "a b"]))
    out = [f"decks = {json.dumps(decks)}"]
    for p in players:
        out.append("[[players]]")
        out.append(f"name = {json.dumps(p['name'])}")
        for part in ("area", "hand"):
            cells = ", ".join(f"{json.dumps(c)} = [{', '.join(toml_value(v) for v in vs)}]"
                              for c, vs in p[part].items())
            out.append(f"{part} = {{ {cells} }}")
    return "\n".join(out) + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(broken_files())
def test_any_malformed_file_exits_2_naming_a_field(tmp_path, body):
    f = tmp_path / "game.toml"
    f.write_text(body)
    code, out, err = run("score", "covenia", f, "--json")
    if code == 0:  # random text can happen to be a valid table only if it names players
        assert json.loads(out)["game"] == "covenia"
        return
    assert code == 2, err
    line = err.strip()
    assert len(line.splitlines()) == 1 and "Traceback" not in line
    assert line.startswith(f"companion: {f}: ")
    rest = line[len(f"companion: {f}: "):]
    if not rest.startswith("not valid TOML"):  # a TOML error names the line and column instead
        field, _, message = rest.partition(": ")
        assert field and message, rest


def test_the_scoring_path_loads_neither_reportlab_nor_a_web_stack():
    code = ("import sys\nfrom companion.cli import main\n"
            "try:\n    main(['score', 'covenia', sys.argv[1], '--json'])\n"
            "except SystemExit:\n    pass\n"
            "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
            "('reportlab', 'PIL', 'starlette', 'uvicorn', 'qrcode'))\n"
            "print(heavy, file=sys.stderr)\n")
    r = subprocess.run([sys.executable, "-c", code, str(RULEBOOK)], capture_output=True, text=True)
    assert json.loads(r.stdout)["winners"] == ["Emma"]
    assert r.stderr.strip() == "[]"


TYPED = ["2", "Emma", "Laurence", "", "1 4 6", "2,8", "3", "4 5", "1 2 3",
         "yellow 5, green 9, purple 9", "5", "", "4 7", "6", "", "r3"]


def test_save_into_a_missing_folder_is_refused_before_anything_is_asked(tmp_path):
    code, out, err = run("score", "covenia", "--save", tmp_path / "nope" / "game.toml",
                         stdin="")
    assert code == 2 and out == "" and "How many players" not in err, err
    assert err.count("\n") == 1 and "--save" in err and "nothing was asked" in err


def test_a_save_that_fails_after_the_typing_prints_the_scores_and_keeps_the_game(
        tmp_path, monkeypatch):
    from companion.files import atomic

    def full_disk(path, text):
        raise OSError(28, "No space left on device", str(path))
    monkeypatch.setattr(atomic, "write_text", full_disk)
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "cache"))
    save = tmp_path / "game.toml"
    code, out, err = run("score", "covenia", "--save", save, "--json",
                         stdin="\n".join(TYPED) + "\n")
    assert code == 2 and json.loads(out)["players"][0]["total"] == 62  # the scores shown
    assert "No space left on device" in err and not save.exists()
    # Nowhere to write at all: the typed game itself is on the terminal, whole.
    assert "[[players]]" in err and 'name = "Emma"' in err


def test_a_save_that_fails_keeps_the_typed_game_in_the_cache_and_says_where(
        tmp_path, monkeypatch):
    from companion.files import atomic

    real = atomic.write_text
    monkeypatch.setattr(atomic, "write_text", lambda path, text: real(path, text) if
                        "cache" in str(path) else (_ for _ in ()).throw(
                            OSError(13, "Permission denied", str(path))))
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "cache"))
    code, out, err = run("score", "covenia", "--save", tmp_path / "game.toml",
                         stdin="\n".join(TYPED) + "\n")
    assert code == 2 and "Emma" in out and "62" in out
    kept = list((tmp_path / "cache" / "typed").iterdir())
    assert len(kept) == 1 and str(kept[0]) in err
    code, again, _ = run("score", "covenia", kept[0], "--json")
    assert code == 0 and json.loads(again)["players"][0]["total"] == 62
