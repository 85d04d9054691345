"""What a careless or hostile layouts file nests without end (issue 30): a condition of
2,000 `not`s, a length of 5,000 minus signs or 20,000 `+` terms, a kind that shows
itself small. Each is one line naming the file (exit 2), never a RecursionError."""

import pytest

from companion.engine import bind

BAND = 'type = "rect"               # the title\'s band\ny = 0.04'
BADGE = 'type = "badge"              # the points, in a round badge at the foot'


def edited(game, old: str, new: str):
    text = game.read_text(encoding="utf-8")
    assert old in text
    game.write_text(text.replace(old, new, 1), encoding="utf-8")
    return game


HOSTILE = {
    "2000 nots": (BADGE, 'type = "badge"\nwhen = \'' + "not " * 2000 + "points'",
                  "when: \"not not not", "nests over 100 levels deep"),
    "5000 minus signs": (BAND, 'type = "rect"\ny = "' + "-" * 5000 + '0.04"',
                         "\"-----", "nests over 100 levels deep"),
    "20000 terms": (BAND, 'type = "rect"\ny = "' + "+".join(["0.00001"] * 20000) + '"',
                    "0.00001+0.00001", "nests over 100 levels deep"),
    "a kind showing itself": ("[kinds.tide]\n",
                              '[kinds.tide]\n\n[[kinds.tide.elements]]\ntype = "card"\n'
                              'kind = "tide"\n',
                              "kinds.tide, element 1 (card): kind: shows tide",
                              "(tide -> tide): a card cannot show itself"),
    "two kinds showing each other": ("[kinds.tide]\n", "", "shows",
                                     "a card cannot show itself"),
}


@pytest.mark.parametrize("case", HOSTILE, ids=list(HOSTILE))
def test_a_layout_nesting_without_end_is_one_line(starter, cli, tmp_path, case):
    old, new, *words = HOSTILE[case]
    if case == "two kinds showing each other":  # the creature shows the tide too
        edited(starter, "[kinds.creature]\n",
               '[kinds.creature]\n\n[[kinds.creature.elements]]\ntype = "card"\n'
               'kind = "tide"\n')
        new = '[kinds.tide]\n\n[[kinds.tide.elements]]\ntype = "card"\nkind = "creature"\n'
    edited(starter, old, new)
    r = cli("build", starter, "--out", tmp_path / "kit")
    assert r.code == 2
    assert r.err.count("\n") == 1 and "Traceback" not in r.err and "Recursion" not in r.err
    assert str(starter) in r.err
    for w in words:
        assert w in r.err
    assert not (tmp_path / "kit").exists()


def test_a_condition_or_length_as_deep_as_allowed_still_works():
    assert bind.holds(bind.condition("not " * 97 + "x"), {"x": True}) is False
    assert bind.length("0.5" + " + 0" * 98, 100.0) == 50.0


def test_a_kind_showing_another_is_no_loop(starter, cli, tmp_path):
    edited(starter, "[kinds.tide]\n",
           '[kinds.tide]\n\n[[kinds.tide.elements]]\ntype = "card"\nkind = "back"\n'
           'x = 0.7\ny = 0.7\nw = 0.2\nh = 0.2\n')
    r = cli("build", starter, "--out", tmp_path / "kit", "--only", "cards")
    assert r.code == 0, r.err
