"""A build runs with the garbage collector passing seldom, its imported objects set
aside (issue 36: 6% of a 2,000-card build), and leaves it as it found it: a watching
process, or a test session building many kits, collects as before."""

import gc

from companion import kit


def test_a_build_sets_the_collector_aside_and_gives_it_back(tmp_path, monkeypatch, cli):
    seen = []
    real = kit.build

    def build(*args, **kw):
        seen.append((gc.get_freeze_count() > 0, gc.get_threshold()[0]))
        return real(*args, **kw)
    monkeypatch.setattr(kit, "build", build)
    before = gc.get_threshold()
    r = cli("build", "covenia", "--only", "cards", "--out", tmp_path / "kit")
    assert r.code == 0, r.err
    assert seen == [(True, 10_000)]
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
