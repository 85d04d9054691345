"""Benchmark: what a phone is sent for a designer's game (issue 33) after each save, and
for each preview while a player types: the CLI's --json, every figure in its words in
English and French, the tie-break lines and the majorities' places
(companion.web.games.own.view), for 10 players, 5 rounds and every kind of category
(tests/bench/bench_scoring.py's game), median of runs, against the engine's 50 ms target.

Run: python tests/bench/bench_phone_own_game.py
Baseline, in the same run: the engine's score alone (companion.rules.scoring.score)."""

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.rules import scoring  # noqa: E402
from companion.web import look  # noqa: E402
from companion.web.games.own import view  # noqa: E402
from tests.bench.bench_scoring import KINDS, ROUNDS, players  # noqa: E402

RUNS = 21


def game_file(folder: Path) -> Path:
    import json

    lines = ['[game]', 'id = "bench"', 'name = "Bench"', 'credits = "us"',
             f"rounds = {ROUNDS}", 'tiebreak = ["gems"]', ""]
    for k in KINDS:
        lines.append("[[scoring]]")
        lines.append(f'name = "{k["id"].title()}"')
        lines += [f"{key} = {json.dumps(v)}" for key, v in k.items()]
        lines.append("")
    path = folder / "bench.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def timed(fn) -> float:
    times = []
    for _ in range(RUNS):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        game = look.own_game(game_file(Path(folder)))
    entries = players(ROUNDS, [k["id"] for k in KINDS if "of" not in k])
    state = {"id": "bench", "players": entries}
    assert view(game, state)["score"] is not None
    phone = timed(lambda: view(game, state))
    engine = timed(lambda: scoring.score(game.rules, entries))
    print(f"{len(entries)} players, {ROUNDS} rounds, {len(KINDS)} categories: the phone's "
          f"answer (score, words in en and fr, places) {phone * 1000:.1f} ms, the engine "
          f"alone {engine * 1000:.2f} ms (medians of {RUNS})   target < 50 ms: "
          f"{'met' if phone < 0.05 else 'MISSED'}")


if __name__ == "__main__":
    main()
