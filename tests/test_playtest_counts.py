"""Plays of a player count the game file does not allow, and French (issue 53): plays
outside `[game] players` are counted apart with a line saying so, in `playtest` and in
`score`; under --lang fr every console line is French."""

import json
import re
import subprocess
import sys

from companion.rules import playtest as rules
from tests.playtest_data import as_csv, planted_plays
from tests.test_playtest import ROOT, game, run  # noqa: F401


def with_players(path, span: str):
    text = path.read_text(encoding="utf-8")
    out = path.parent / f"counted-{span.strip('[]').replace(', ', '-')}.toml"
    out.write_text(text.replace("[game]\n", f"[game]\nplayers = {span}\n", 1),
                   encoding="utf-8")
    return out


def test_plays_outside_the_games_player_counts_are_counted_apart():
    plays = planted_plays(0, counts=(2, 3, 4))
    s = rules.summary(plays, counts=(3, 3))
    apart = {n: sum(1 for p in plays if len(p.rows) == int(n)) for n in ("2", "4")}
    assert s["outside"] == apart and all(apart.values())
    assert s["plays"] == len(plays) - sum(apart.values())
    assert set(s["by_players"]) == {"3"}
    first = next(f for f in s["findings"] if f["line"] == "note")  # the first note
    assert first["kind"] == "outside"
    order = [f["line"] for f in s["findings"]]
    assert order == sorted(order, key=rules.LINES.index)
    assert "outside" not in rules.summary(plays)


def test_the_report_says_how_many_plays_it_set_apart(game, tmp_path):  # noqa: F811
    csv = tmp_path / "history.csv"
    csv.write_text(as_csv(planted_plays(1, counts=(2, 3, 4))), encoding="utf-8")
    r = run(with_players(game, "[3, 3]"), csv, "--out", tmp_path / "r", "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    line = next(f for f in s["findings"] if f["kind"] == "outside")
    assert re.fullmatch(r"All versions: \d+ plays \(\d+ of 2 players, \d+ of 4 players\) lie "
                        r"outside the game file’s 3 to 3 players \(\[game\] players\): "
                        r"counted apart, none of these figures rests on them\.",
                        line["text"]), line["text"]


def test_under_lang_fr_every_console_line_is_french(game, tmp_path):  # noqa: F811
    csv = tmp_path / "history.csv"
    csv.write_text(as_csv(planted_plays(2, counts=(2, 3, 4), faction={"reef": 6})),
                   encoding="utf-8")
    r = run(with_players(game, "[3, 4]"), csv, "--out", tmp_path / "r", "--lang", "fr")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    heads = [ln for ln in lines[:-1] if not ln.startswith("- ")]
    assert heads and all(h in ("Constats\u202f:", "Ce qui ne se détache pas, et les "
                                "versions\u202f:", "Des écarts qui peuvent tenir du "
                                "hasard\u202f:") for h in heads), heads
    assert all(ln.startswith(("- Version 0.1\u202f:", "- Toutes versions\u202f:"))
               for ln in lines if ln.startswith("- ")), lines
    assert re.fullmatch(r"Bilan\u202f: .*playtest-report\.pdf \(\d+ pages, \d+ parties de la "
                        r"version \"0\.1\", \d+,\d s\)", lines[-1]), lines[-1]
    english = re.compile(r"\b(the|plays|games|wins|where|Report|every)\b")
    assert not [ln for ln in lines if english.search(ln.replace("[game] players", ""))]


def score(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", "score", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)


def test_companion_score_says_when_the_players_lie_outside_the_games_count(game, tmp_path):  # noqa: F811
    scores = tmp_path / "scores.toml"
    scores.write_text("".join(f'[[players]]\nname = "{n}"\ncreatures = {i}\npairs = 1\n'
                              for i, n in enumerate(("Ana", "Bo", "Cy", "Di", "Eve"))),
                      encoding="utf-8")
    ranged = with_players(game, "[3, 4]")
    r = score(ranged, scores)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ("Note: 5 players, where the game file says 3 to 4 ([game] "
                        "players): scored all the same.\n")
    assert "Eve" in r.stdout
    r = score(ranged, scores, "--lang", "fr")
    assert r.stderr.startswith("Note\u202f: 5 joueurs, quand le fichier du jeu en prévoit "
                               "de 3 à 4")
    r = score(with_players(game, "[2, 5]"), scores)
    assert r.returncode == 0 and r.stderr == ""
