"""Every decoder of a designer's file runs under one bound (companion.files.bounded): a worker
process with a deadline and a memory limit; a bound that trips is one CompanionError
naming the file and the limit."""

import os
import threading

import pytest

from companion.files import bounded
from companion.errors import CompanionError


def _double(x):
    return 2 * x


def _hog(n):
    return len(bytearray(n))


def _spin():
    while True:
        pass


def _fails():
    raise ValueError("bad table")


def _crash():
    os._exit(3)


def test_a_result_comes_back():
    assert bounded.run(_double, 21, source="f.ttf", what="font") == 42


def test_a_decoder_past_its_deadline_is_stopped_and_named():
    with pytest.raises(CompanionError) as e:
        bounded.run(_spin, source="hang.svg", what="SVG icon", seconds=1)
    assert e.value.source == "hang.svg"
    assert "takes over 1 s" in e.value.message


def test_a_decoder_over_its_memory_is_refused():
    with pytest.raises(CompanionError) as e:
        bounded.run(_hog, 3_000_000_000, source="bomb.ttf", what="font",
                    memory=200_000_000)
    assert "needs over 200 MB" in e.value.message


def test_a_decoder_that_raises_or_crashes_is_one_line():
    with pytest.raises(CompanionError, match="could not be read: ValueError: bad table"):
        bounded.run(_fails, source="x", what="font")
    with pytest.raises(CompanionError, match="stopped with code 3"):
        bounded.run(_crash, source="x", what="font")


def test_with_other_threads_running_the_worker_still_runs():
    # A server or a watcher runs threads: the worker then comes from the fork server.
    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        assert bounded.run(_double, 4, source="f", what="font") == 8
    finally:
        stop.set()
        t.join()


def test_the_default_bounds_are_read_at_each_call(monkeypatch):
    monkeypatch.setattr(bounded, "SECONDS", 1)
    with pytest.raises(CompanionError, match="takes over 1 s"):
        bounded.run(_spin, source="hang.svg", what="SVG icon")

