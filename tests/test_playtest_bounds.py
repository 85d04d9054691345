"""What `companion playtest` accepts is bounded (issue 43): a history's hostile numbers,
versions, seats, factions, categories refused in one line naming the file, the row and
the column, exit 2, no report; two histories pasted together without seats refused; and
every CSV the tool writes keeps a spreadsheet from running a cell as a formula."""

import subprocess
import sys

import pytest

from companion.errors import CompanionError
from companion.files import csv_cells, plays, spreadsheet
from companion.rules import playtest as rules
from tests.playtest_data import HEADER
from tests.test_playtest import ROOT, game  # noqa: F401  (the Tidepool fixture)

HEAD = ",".join(HEADER)


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", "playtest", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def row(pid, seat, *, won=0, version="0.1", faction="reef", score=10, minutes=40,
        player=None, creatures=5, pairs=1) -> str:
    return ",".join(map(str, [pid, "d", "tidepool", player or f"P{seat}", score, won, "", "",
                              version, seat, faction, minutes, creatures, pairs]))


def refused(game, tmp_path, lines, said):  # noqa: F811
    csv = tmp_path / "history.csv"
    csv.write_text("\n".join([HEAD, *lines]) + "\n", encoding="utf-8")
    out = tmp_path / "r"
    r = run(game, csv, "--out", out)
    assert r.returncode == 2, r.stdout + r.stderr
    assert len(r.stderr.splitlines()) == 1, r.stderr
    assert said in r.stderr and str(csv) in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
    assert not out.exists() or not list(out.iterdir())
    return r.stderr


HOSTILE = [
    ("a version of 4,300 digits", [row(1, 1, won=1, version="9" * 4300), row(1, 2)],
     "column I (version): 4,300 characters, over the 64 a version may have"),
    ("a score of 1.7e308", [row(1, 1, won=1, score="1.7e308"), row(1, 2, score="-1.7e308")],
     'column E (score): "1.7e308" is not a number from -1,000,000,000 to 1,000,000,000'),
    ("a score of -1.7e308", [row(1, 1, won=1), row(1, 2, score="-1.7e308")],
     'row 3: column E (score): "-1.7e308" is not a number from'),
    ("minutes of 1e308", [row(1, 1, won=1, minutes="1e308"), row(1, 2, minutes="1e308")],
     'column L (minutes): "1e308" is not a number from 0 to 10,000'),
    ("a figure of 1e300", [row(1, 1, won=1, creatures="1e300"), row(1, 2)],
     'column M (score:creatures): "1e300" is not a number'),
    ("a seat past the table's", [row(1, 1, won=1), row(1, 99)],
     'column J (seat): "99" is not a whole number from 1 to 30'),
    ("a player twice in a play", [row(1, 1, won=1, player="Ana"), row(1, 2, player="ana")],
     '"ana" plays twice in play "1"'),
]


@pytest.mark.parametrize("what, lines, said", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_cell_is_one_line_and_exit_2(game, tmp_path, what, lines, said):  # noqa: F811
    refused(game, tmp_path, lines, said)


def test_one_play_of_40000_seats_is_refused_at_its_31st_row(game, tmp_path):  # noqa: F811
    lines = [row(1, s, won=int(s == 1), player=f"P{s}") for s in range(1, 40_001)]
    lines = [ln.replace(f",{s},reef,", ",,reef,") for s, ln in enumerate(lines, 1)]  # no seat
    said = refused(game, tmp_path, lines, 'has more than 30 players, the most a table seats')
    assert "row 32" in said


def test_10000_factions_are_refused_past_the_50th(game, tmp_path):  # noqa: F811
    lines = [row(k, s, won=int(s == 1), faction=f"f{k}-{s}")
             for k in range(1, 2_501) for s in range(1, 5)]
    refused(game, tmp_path, lines, '"f13-3" is one faction more than the 50 a history may hold')


def test_10000_versions_are_refused_past_the_100th(game, tmp_path):  # noqa: F811
    lines = [row(k, s, won=int(s == 1), version=f"0.{k}") for k in range(1, 10_001)
             for s in (1, 2)]
    refused(game, tmp_path, lines, '"0.101" is one version more than the 100 a history')


def test_10000_categories_are_refused(game, tmp_path):  # noqa: F811
    csv = tmp_path / "history.csv"
    cats = ",".join(f"score:c{i}" for i in range(10_000))
    csv.write_text(f"id,game,won,{cats}\n1,tidepool,1\n", encoding="utf-8")
    r = run(game, csv, "--out", tmp_path / "r")
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1
    assert "10,000 score: columns, over the 100 a history may hold" in r.stderr


def test_two_histories_pasted_together_without_seats_are_refused(game, tmp_path):  # noqa: F811
    # Each file numbers its plays from 1: pasted, play 1 holds 4 rows of one file and 4
    # of the other. Without seats nothing tells them apart but the player count.
    def one(names, plays_):
        return [f"{k},d,tidepool,{n},10,{int(i == 0)}"
                for k in range(1, plays_ + 1) for i, n in enumerate(names)]
    first = one(["Ana", "Ben", "Cy", "Di"], 12)
    second = one(["Eve", "Fay", "Gus", "Hal"], 6)
    csv = tmp_path / "history.csv"
    csv.write_text("\n".join(["id,date,game,player,score,won", *first, *second]) + "\n",
                   encoding="utf-8")
    r = run(game, csv, "--out", tmp_path / "r")
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert 'play "7" (row 26) has 4 players and play "1" (row 2) 8' in r.stderr
    assert "two histories pasted together?" in r.stderr


@pytest.mark.parametrize("second_head", [
    HEAD,  # the same history twice, each with its header
    "id,date,game,player,score,won",  # the second without its seat column
    ' ID , Game,WON,player',  # another order, spaces, another case
])
def test_a_second_header_row_is_refused_naming_its_row(game, tmp_path, second_head):  # noqa: F811
    first = [row(1, 1, won=1), row(1, 2), row(1, 3), row(1, 4)]
    said = refused(game, tmp_path, [*first, second_head, *first],
                   "row 6: is a second header row")
    assert "two histories pasted together?" in said


def test_a_second_header_row_of_another_game_is_refused_too():
    text = "id,game,won\n1,tidepool,1\n1,tidepool,0\nid,game,won\n1,other,1\n"
    with pytest.raises(CompanionError, match="row 4: is a second header row"):
        plays.read_text(text, "h.csv", "tidepool")


def test_plays_of_one_count_without_seats_are_read():
    text = "id,game,won\n" + "".join(f"{k},tidepool,{int(i == 0)}\n"
                                     for k in range(1, 4) for i in range(3))
    assert [len(p.rows) for p in plays.read_text(text, "h.csv", "tidepool")] == [3, 3, 3]


def test_a_very_long_version_still_sorts_by_its_value():
    long = "1" + "0" * 5000
    assert sorted(["9", long, "10"], key=rules.version_key) == ["9", "10", long]
    assert sorted(["0.10", "0.9", "0.010"], key=rules.version_key)[0] == "0.9"


# ---- every CSV the tool writes ----------------------------------------------------------

def test_the_tables_history_csv_escapes_its_game_id_and_reads_it_back(tmp_path):
    from companion.web.games.history import as_csv

    games = [{"id": 1, "date": "2026-11-01T20:00:00Z", "game": "-2-3", "players": ["=Ana"],
              "scores": {"=Ana": -4}, "winners": ["=Ana"], "version": "@v1"}]
    text = as_csv(games)
    line = text.splitlines()[1].split(",")
    assert line[:6] == ["1", "2026-11-01T20:00:00Z", "'-2-3", "'=Ana", "-4", "1"]
    assert line[8] == "'@v1"  # the version
    (tmp_path / "h.csv").write_text(text, encoding="utf-8")
    (p,) = plays.read(tmp_path / "h.csv", "-2-3")
    assert p.version == "@v1" and p.rows[0].score == -4


def test_a_data_sheet_written_as_csv_escapes_formulas_and_reads_them_back(tmp_path):
    rows = [["id", "name", "cost"], ["a", "=HYPERLINK(\"x\")", -2], ["b", "-2-3", 3],
            ["c", "@sum", "-5"]]
    path = tmp_path / "cards.csv"
    spreadsheet.write(path, {"Cards": rows})
    written = path.read_text(encoding="utf-8").splitlines()
    assert written[1].startswith("a,\"'=HYPERLINK(") and written[2] == "b,'-2-3,3"
    assert written[3] == "c,'@sum,-5"  # "-5" is a number: as it is
    read = spreadsheet._csv_text(path.read_bytes(), "cards.csv")
    assert read[1][1] == "=HYPERLINK(\"x\")" and read[2][1] == "-2-3" and read[3][1] == "@sum"


@pytest.mark.parametrize("value, written", [
    ("=1+1", "'=1+1"), ("-2-3", "'-2-3"), ("+33 6", "'+33 6"), ("@a", "'@a"),
    ("\tx", "'\tx"), ("-5", "-5"), ("+2.5", "+2.5"), ("plain", "plain"), (-5, -5), (None, None),
])
def test_csv_cells_are_safe_and_come_back_as_meant(value, written):
    assert csv_cells.safe(value) == written
    if isinstance(value, str):
        assert csv_cells.unquoted(csv_cells.safe(value)) == value


def test_a_history_at_its_bounds_lays_out_within_the_pages():
    from reportlab.lib.pagesizes import A4

    from companion.playtest import report

    text = "\n".join([HEAD, *(row(k, s, won=int(s == 1), version=f"0.{k % 100}",
                                  faction=f"f{(k + s) % 50}", creatures=k % 9)
                              for k in range(1, 3001) for s in (1, 2, 3))])
    summary = rules.summary(plays.read_text(text, "h.csv", "tidepool"), rules.ALL)
    assert len(summary["versions"]) == 100 and len(summary["factions"]) == 50
    room = A4[1] - 2 * report.MARGIN - report.FOOTER
    laid = report.pages(report.blocks(summary, report.Game("Tidepool"), "h.csv", "en"))
    for page in laid:
        assert sum(b.height for b in page) <= room + 1e-6, [b.height for b in page]
