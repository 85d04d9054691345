"""Round-by-round history (issue 53): a game scored in rounds keeps each player's running
total after each round (the JSON history's "rounds", history.csv's round:1, round:2 ...
columns), and a history read back (or pasted by a designer) carries them, bounded."""

import httpx
import pytest

from companion.errors import CompanionError
from companion.files import plays
from companion.rules import scoring
from companion.web.games import history
from companion.web.games.own import running_totals
from tests.playtest_data import HEADER
from tests.test_play_records import rows_of
from tests.web import Server


def test_running_totals_add_each_rounds_points():
    assert history.running([{"Ana": 3, "Bo": 5}, {"Ana": 4, "Bo": -1}, {"Ana": 0}]) == {
        "Ana": [3, 7, 7], "Bo": [5, 4, 4]}
    assert history.running([{"Ana": 1}] * (history.MAX_ROUNDS + 1)) == {}
    assert history.running([{"Ana": "3"}]) == {}


def test_a_designers_game_counts_a_category_scored_once_in_its_last_round():
    game = scoring.rules([{"id": "gems", "score": "majority", "award": [6, 3]},
                        {"id": "crowns", "score": "majority", "award": [10, 4], "rounds": 1},
                        {"id": "hand", "score": "points", "rounds": 1, "total": False}],
                       rounds=3, tiebreak=["hand"])
    res = scoring.score(game, [{"name": "Ana", "gems": [1, 2, 0], "crowns": 4, "hand": 2},
                             {"name": "Ben", "gems": [2, 1, 3], "crowns": 4, "hand": 5}])
    kept = running_totals(game, res)
    assert kept == {"Ana": [3, 9, 16], "Ben": [6, 9, 22]}  # gems 3 6 0, 6 3 6; crowns 7
    assert [v[-1] for v in kept.values()] == [p.total for p in res.players]
    assert running_totals(scoring.rules([{"id": "gems", "score": "points"}]), scoring.score(
        scoring.rules([{"id": "gems", "score": "points"}]), [{"name": "Ana", "gems": 2}])) == {}


def test_a_coverta_game_keeps_each_players_running_total_in_json_and_csv(tmp_path):
    s = Server(tmp_path / "t.sqlite3").start()
    try:
        for k, hands in enumerate(({"Ana": 0, "Bo": 3, "Cy": 5}, {"Ana": 2, "Bo": 0, "Cy": 1},
                                   {"Ana": 4, "Bo": 6, "Cy": 0})):
            r = httpx.post(s.api("coverta/rounds"), json={"hands": hands},
                           headers={"Idempotency-Key": f"round-{k}"})
            assert r.status_code == 200, r.text
        score = httpx.get(s.api("coverta/score")).json()
        httpx.post(s.api("coverta/close"), json={}).raise_for_status()
        entry = httpx.get(s.api("history")).json()["games"][0]
        text = httpx.get(s.api("history.csv")).text
    finally:
        s.stop()
    want = history.running(score["rounds"])
    assert entry["rounds"] == want and set(want) == {"Ana", "Bo", "Cy"}
    assert [v[-1] for v in want.values()] == [score["totals"][n] for n in want]
    assert text.splitlines()[0].endswith(",round:1,round:2,round:3")
    for row in rows_of(text):
        assert [int(row[f"round:{k}"]) for k in (1, 2, 3)] == want[row["player"]]
    read = plays.read_text(text, "history.csv", "coverta")
    assert {r.player: list(r.rounds) for r in read[0].rows} == want


def _pasted(rounds: list[list], header_rounds: int | None = None) -> str:
    n = header_rounds if header_rounds is not None else max(map(len, rounds))
    head = ",".join([*HEADER, *(f"round:{k}" for k in range(1, n + 1))])
    lines = [head]
    for s, kept in enumerate(rounds, 1):
        cells = ["1", "", "tidepool", f"P{s}", str(kept[-1] if kept else 0), str(int(s == 1)),
                 "", "", "0.1", str(s), "", "", "", "",
                 *(str(v) for v in kept), *([""] * (n - len(kept)))]
        lines.append(",".join(cells))
    return "\n".join(lines) + "\n"


def test_a_pasted_history_carries_round_columns():
    read = plays.read_text(_pasted([[5, 9, 20], [4, 12, 15]]), "h.csv", "tidepool")
    assert [r.rounds for r in read[0].rows] == [(5, 9, 20), (4, 12, 15)]


@pytest.mark.parametrize("text, said", [
    (_pasted([[5, 9]], 0).replace("score:pairs", "score:pairs,round:0"), "\"round:0\": a round"),
    (_pasted([[5, 9]]).replace("round:2", "round:3"), "round:2 is missing"),
    (_pasted([[5, 9, 20]], 0).replace("score:pairs", "score:pairs," + ",".join(
        f"round:{k}" for k in range(1, 102))), "\"round:101\": a round column is round:1 to"),
    (_pasted([[5, 9]]).replace("5,9", ",9"), "empty before a later round's total"),
    (_pasted([[5, 9]]).replace("5,9", "5,9e99"), "is not a number from"),
])
def test_a_bad_round_column_is_one_line(text, said):
    with pytest.raises(CompanionError) as e:
        plays.read_text(text, "h.csv", "tidepool")
    assert said in str(e.value) and "h.csv" in str(e.value)
