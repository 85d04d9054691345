"""The table's reports (/api/playtest, /api/history.csv, /api/history) are worked out once
per state of the history, in a thread off the event loop (issue 50): 200 requests at once
cost one piece of work, and a closed game makes the next request see it.
tests/bench/bench_reports.py measures /api/state's p99 during such a flood."""

import asyncio
import threading

from companion.web.games.history import Reports


class _Store:
    def __init__(self):
        self.history = [{"id": 1}]
        self.history_changes = 0


def test_a_flood_of_requests_costs_one_piece_of_work_off_the_loop():
    store, calls = _Store(), []

    def work(history):
        calls.append((len(history), threading.current_thread()))
        return b"report"

    async def main():
        reports = Reports(store)
        loop_thread = threading.current_thread()
        got = await asyncio.gather(*(reports.get("csv", work) for _ in range(200)))
        assert got == [b"report"] * 200
        assert len(calls) == 1 and calls[0][1] is not loop_thread
        await reports.get(("playtest", "g", None), work)  # another report: its own work
        assert len(calls) == 2
        store.history.append({"id": 2})  # a game closed: the next request sees it
        store.history_changes += 1
        await reports.get("csv", work)
        assert [n for n, _ in calls] == [1, 1, 2]

    asyncio.run(main())


def test_a_failed_piece_of_work_fails_its_requests_and_is_not_lost_silently():
    store = _Store()

    def work(history):
        raise ValueError("bad")

    async def main():
        reports = Reports(store)
        results = await asyncio.gather(*(reports.get("csv", work) for _ in range(3)),
                                       return_exceptions=True)
        assert all(isinstance(r, ValueError) for r in results)

    asyncio.run(main())


def test_the_store_counts_each_change_of_its_history(tmp_path):
    from companion.web.store import Store

    store = Store.open(tmp_path / "t.sqlite3", ["forge"], None, None,
                       [{"colour": "red", "name": ""}])
    try:
        assert store.history_changes == 0
        entry = store.close_game("covenia", {"players": ["Ana", "Ben"], "scores":
                                             {"Ana": 3, "Ben": 2}, "winners": ["Ana"]})
        assert store.history_changes == 1
        store.remove_history(entry["id"])
        assert store.history_changes == 2
    finally:
        store.close()
