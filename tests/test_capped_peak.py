"""The capped runs' peak memory (tests/capped.py) is the child's own: not the test run's,
whose memory a forked child counts in ru_maxrss, and which grows as the suite runs (a
bomb's test read 305 MB of which the build held 32)."""

from tests.capped import run


def test_a_capped_runs_peak_is_its_own_whatever_the_test_run_holds(tmp_path):
    held = bytearray(300 * 1024 * 1024)
    held[::4096] = b"\x01" * len(held[::4096])  # touched: resident, not only reserved
    r = run(tmp_path, "--help")
    assert r.code == 0, r
    assert r.peak_mb is not None and r.peak_mb < 150, r
    del held
