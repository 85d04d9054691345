"""companion/rules/lugvanion.py: exact odds, the verifiable draw, and `companion lugvanion`."""

import hashlib
import json
from collections import Counter
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings, strategies as st

from companion.rules import lugvanion as vote
from companion.rules.errors import ScoreError

BAGS = [
    {"red": 3, "blue": 2, "green": 2, "yellow": 1},
    {"red": 2, "blue": 2, "green": 2, "yellow": 2},
    {"red": 4, "blue": 4},
    {"red": 3, "blue": 3, "green": 2},
    {"red": 5, "blue": 1, "green": 1, "yellow": 1},
    {"red": 0, "blue": 4, "green": 4},
]


def brute_force(bag, rule):
    """Every ordering of the 8 (labelled) partisans, equally likely; restarts renormalised."""
    partisans = [c for c, n in bag.items() for _ in range(n)]
    wins, restarts, total = Counter(), 0, 0
    for order in permutations(range(len(partisans))):
        total += 1
        seq = [partisans[i] for i in order]
        winner = None
        for k in range(5, len(seq) + 1 if rule == "extra" else 6):
            counts = Counter(seq[:k])
            top = max(counts.values())
            leaders = [c for c, n in counts.items() if n == top]
            if len(leaders) == 1:
                winner = leaders[0]
                break
        if winner is None:
            restarts += 1
        else:
            wins[winner] += 1
    return {c: Fraction(wins[c], total - restarts) for c in bag}


@pytest.mark.parametrize("rule", ["extra", "redraw"])
@pytest.mark.parametrize("bag", BAGS, ids=lambda b: ",".join(f"{c}{n}" for c, n in b.items()))
def test_exact_odds_match_a_brute_force_over_every_ordering(bag, rule):
    assert vote.odds(bag, rule).exact == brute_force(bag, rule)


def test_the_issue_example_odds():
    o = vote.odds({"red": 3, "blue": 2, "green": 2, "yellow": 1})
    assert {c: str(p) for c, p in o.exact.items()} == {
        "blue": "3/28", "green": "3/28", "red": "11/14", "yellow": "0"}


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 8), min_size=2, max_size=4).filter(lambda xs: 5 <= sum(xs) <= 12),
       st.sampled_from(vote.TIE_RULES))
def test_odds_of_any_bag_sum_to_exactly_one(counts, rule):
    bag = dict(zip(["red", "blue", "green", "yellow"], counts))
    try:
        o = vote.odds(bag, rule, allow_any_size=True)
    except ScoreError as e:
        assert "always ties" in e.message
        return
    assert sum(o.exact.values()) == 1
    assert all(0 <= p <= 1 for p in o.exact.values())


def test_a_bag_that_always_ties_is_an_error_not_a_hang():
    with pytest.raises(ScoreError):
        vote.odds({"red": 2, "blue": 2, "green": 1}, allow_any_size=True)


# Golden vectors: a change here breaks every draw already published. Keep them.
ZERO = bytes(32)
COUNTING = bytes(range(32))


def test_draw_golden_vectors_are_stable():
    bag = {"red": 3, "blue": 2, "green": 2, "yellow": 1}
    d = vote.draw(bag, ZERO)
    assert d.commitment == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    assert (d.drawn, d.winner) == (["blue", "red", "green", "green", "yellow"], "green")
    assert vote.shuffled(ZERO, bag, "extra", 0) == [
        "blue", "red", "green", "green", "yellow", "red", "red", "blue"]
    d = vote.draw(bag, COUNTING)
    assert d.commitment == hashlib.sha256(COUNTING).hexdigest()
    assert (d.drawn, d.winner) == GOLDEN_COUNTING


GOLDEN_COUNTING = (["red", "red", "yellow", "blue", "green"], "red")


def test_the_documented_derivation_reproduces_from_scratch():
    """Recompute one shuffle from the module docstring alone, with hmac and hashlib."""
    import hmac
    bag = {"red": 3, "blue": 2, "green": 2, "yellow": 1}
    ctx = "lugvanion-draw-v1|tie=extra|bag=blue:2,green:2,red:3,yellow:1|attempt=0"
    stream = b"".join(hmac.new(ZERO, f"{ctx}|block={k}".encode(), hashlib.sha256).digest()
                      for k in range(4))
    items = ["blue", "blue", "green", "green", "red", "red", "red", "yellow"]
    pos = 0
    for i in range(len(items) - 1, 0, -1):
        while True:
            x = int.from_bytes(stream[pos:pos + 4], "big")
            pos += 4
            if x < 2**32 - (2**32 % (i + 1)):
                break
        j = x % (i + 1)
        items[i], items[j] = items[j], items[i]
    assert items == vote.shuffled(ZERO, bag, "extra", 0)


@pytest.mark.parametrize("rule", ["extra", "redraw"])
@pytest.mark.parametrize("bag", [BAGS[0], BAGS[1], BAGS[3]], ids=["3221", "2222", "332"])
def test_seeded_draws_follow_the_exact_distribution_chi_square(bag, rule):
    n = 3000
    wins = Counter(vote.draw(bag, hashlib.sha256(f"chi{i}".encode()).digest(), rule).winner
                   for i in range(n))
    exact = vote.odds(bag, rule).exact
    live = [c for c in bag if exact[c] > 0]
    assert all(wins[c] == 0 for c in bag if exact[c] == 0)
    chi2 = sum((wins[c] - n * float(exact[c])) ** 2 / (n * float(exact[c])) for c in live)
    critical = {1: 10.83, 2: 13.82, 3: 16.27}[len(live) - 1]  # p = 0.001
    assert chi2 < critical, (chi2, wins, exact)


def test_a_tie_under_redraw_draws_a_fresh_five_and_records_the_tied_attempt():
    bag = {"red": 2, "blue": 2, "green": 2, "yellow": 2}
    for i in range(200):
        d = vote.draw(bag, hashlib.sha256(bytes([i])).digest(), "redraw")
        if d.redrawn:
            assert all(len(t) == 5 for t in d.redrawn) and len(d.drawn) == 5
            return
    pytest.fail("no tie in 200 draws of 2-2-2-2")


def test_a_tie_under_extra_draws_one_more_at_a_time():
    bag = {"red": 3, "blue": 3, "green": 2}  # 2-2-1 after five: the sixth decides
    draws = [vote.draw(bag, hashlib.sha256(bytes([i])).digest()) for i in range(100)]
    longer = [d for d in draws if len(d.drawn) > 5]
    assert longer and any(len(d.drawn) == 5 for d in draws)
    for d in longer:
        five = Counter(d.drawn[:5])
        assert sorted(five.values())[-1] == sorted(five.values())[-2]  # the five were tied
        assert Counter(d.drawn)[d.winner] > max(n for c, n in Counter(d.drawn).items()
                                                if c != d.winner)


def test_with_two_of_each_colour_a_tie_can_only_restart():
    bag = {"red": 2, "blue": 2, "green": 2, "yellow": 2}
    draws = [vote.draw(bag, hashlib.sha256(bytes([i])).digest()) for i in range(100)]
    assert all(len(d.drawn) == 5 for d in draws) and any(d.redrawn for d in draws)


class TestVerify:
    bag = {"red": 3, "blue": 2, "green": 2, "yellow": 1}
    d = vote.draw(bag, COUNTING)

    def test_accepts_a_true_draw(self):
        assert vote.verify(self.bag, COUNTING, self.d.commitment, self.d.drawn).ok

    def test_rejects_a_changed_seed(self):
        v = vote.verify(self.bag, bytes([1]) * 32, self.d.commitment, self.d.drawn)
        assert not v.ok and v.problem.startswith("commitment")

    def test_rejects_a_changed_bag(self):
        v = vote.verify({"red": 4, "blue": 1, "green": 2, "yellow": 1}, COUNTING,
                        self.d.commitment, self.d.drawn)
        assert not v.ok and v.problem.startswith("drawn")

    def test_rejects_a_changed_order(self):
        swapped = list(self.d.drawn)
        i = next(k for k in range(len(swapped) - 1) if swapped[k] != swapped[k + 1])
        swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
        v = vote.verify(self.bag, COUNTING, self.d.commitment, swapped)
        assert not v.ok and f"drawn[{i}]" in v.problem


# ---- the command line ----------------------------------------------------------------

def test_odds_json_has_the_agreed_shape(cli):
    r = cli("lugvanion", "odds", "red=3", "blue=2", "green=2", "yellow=1", "--json")
    assert r.code == 0
    got = json.loads(r.out)
    assert got["exact"] == {"red": "11/14", "blue": "3/28", "green": "3/28", "yellow": "0"}
    assert got["odds"]["red"] == pytest.approx(11 / 14)
    assert (got["bag"], got["drawn"], got["tie_rule"]) == (
        {"blue": 2, "green": 2, "red": 3, "yellow": 1}, 5, "extra")


def test_draw_with_a_seed_is_the_same_every_time_and_verifies(cli):
    seed = COUNTING.hex()
    args = ("lugvanion", "draw", "red=3", "blue=2", "green=2", "yellow=1", "--seed", seed, "--json")
    first, second = cli(*args), cli(*args)
    assert first.code == 0 and first.out == second.out
    d = json.loads(first.out)
    assert set(d) >= {"bag", "commitment", "seed", "drawn", "winner", "tie_rule"}
    assert (d["drawn"], d["winner"]) == (GOLDEN_COUNTING[0], GOLDEN_COUNTING[1])
    ok = cli("lugvanion", "verify", "--seed", d["seed"], "--commitment", d["commitment"],
             "red=3", "blue=2", "green=2", "yellow=1", "--drawn", ",".join(d["drawn"]))
    assert (ok.code, ok.out.strip()) == (0, "verified")


def test_a_fresh_draw_reveals_a_seed_that_matches_its_commitment(cli):
    d = json.loads(cli("lugvanion", "draw", "red=4", "blue=4", "--json").out)
    assert hashlib.sha256(bytes.fromhex(d["seed"])).hexdigest() == d["commitment"]


def test_verify_exits_1_with_the_first_difference(cli):
    d = vote.draw({"red": 4, "blue": 4}, ZERO)
    wrong = ["blue" if c == "red" else "red" for c in d.drawn]
    r = cli("lugvanion", "verify", "--seed", ZERO.hex(), "--commitment", d.commitment,
            "red=4", "blue=4", "--drawn", ",".join(wrong))
    assert r.code == 1 and "drawn[0]" in r.err


@pytest.mark.parametrize("args", [
    ["odds", "red=3", "red=5"],
    ["odds", "red=-1", "blue=9"],
    ["odds", "red=2", "blue=2"],
    ["odds", "a=2", "b=2", "c=2", "d=1", "e=1"],
    ["odds", "red=3", "blue=2"],
    ["odds", "red=3", "blue=2", "green=2", "yellow=2"],
    ["draw", "red=4", "blue=4", "--seed", "abc"],
    ["draw", "red=4", "blue=4", "--seed", "g" * 64],
    ["odds", "red=4", "blue=4", "--tie-rule", "coin"],
    ["odds", "red:4", "blue=4"],
    ["odds"],
    ["verify", "--seed", "0" * 64, "--commitment", "xyz", "red=4", "blue=4", "--drawn", "red"],
])
def test_bad_input_exits_2_with_one_line(cli, args):
    r = cli("lugvanion", *args)
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err


def test_allow_any_size_explores_other_bags(cli):
    r = cli("lugvanion", "odds", "red=3", "blue=2", "--allow-any-size", "--json")
    assert r.code == 0 and json.loads(r.out)["exact"]["red"] == "1"


def test_a_colour_holding_two_guilds_is_governor_and_one_guild_each_is_not():
    from companion.rules.lugvanion import governor

    assert governor({"forge": "red", "jewellery": "blue", "herbalism": None,
                     "academy": "green"}) is None
    assert governor({"forge": "red", "jewellery": "blue", "herbalism": "red",
                     "academy": None}) == "red"
    assert governor(dict.fromkeys(["forge", "jewellery", "herbalism", "academy"])) is None


# ---- issue 42: a tie-break shown apart, a bag typed without its zeros ------------------

TIED_SEED = "0" * 63 + "1"  # red=3 blue=2 green=2 yellow=1: red and blue level after five


def test_a_draw_shows_five_partisans_and_a_tie_s_extra_ones_as_its_tie_break(cli):
    r = cli("lugvanion", "draw", "red=3", "blue=2", "green=2", "yellow=1", "--seed", TIED_SEED)
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    drawn = next(line for line in lines if line.startswith("Drawn"))
    assert drawn == "Drawn, in order: green, red, red, blue, blue"  # five, as README says
    tie = next(line for line in lines if line.startswith("Tie-break"))
    assert tie.startswith("Tie-break (red and blue level at 2;") and tie.endswith(": green, red")
    assert lines.index(drawn) < lines.index(tie) < lines.index("Winner: red")
    d = json.loads(cli("lugvanion", "draw", "red=3", "blue=2", "green=2", "yellow=1",
                       "--seed", TIED_SEED, "--json").out)
    assert (d["drawn"], d["tie_break"]) == (["green", "red", "red", "blue", "blue", "green",
                                              "red"], ["green", "red"])


def test_a_draw_that_five_decide_prints_no_tie_break(cli):
    r = cli("lugvanion", "draw", "red=3", "blue=2", "green=2", "yellow=1", "--seed", COUNTING.hex())
    assert r.code == 0 and "Tie-break" not in r.out
    assert "Drawn, in order: red, red, yellow, blue, green" in r.out


@given(st.lists(st.sampled_from(["red", "blue", "green", "yellow"]), min_size=8, max_size=8)
       .map(lambda drawn: {c: drawn.count(c) for c in drawn}),  # 8 partisans, no filter
       st.binary(min_size=32, max_size=32))
@settings(max_examples=60, deadline=None)
def test_a_bag_typed_with_or_without_its_zeros_draws_and_verifies_alike(bag, seed):
    """A colour at 0 cannot be drawn: the guild shows no partisan of it, so a player who
    types what stands on the guild must verify the phone's draw, which lists the zeros."""
    with_zeros = {c: bag.get(c, 0) for c in ("red", "blue", "green", "yellow")}
    without = {c: n for c, n in bag.items() if n}
    d = vote.draw(with_zeros, seed)
    assert vote.draw(without, seed).drawn == d.drawn
    assert vote.verify(without, seed, d.commitment, d.drawn).ok


def test_verify_at_the_command_line_leaves_the_empty_colours_out(cli):
    d = vote.draw({"red": 5, "blue": 3, "green": 0, "yellow": 0}, ZERO)
    r = cli("lugvanion", "verify", "--seed", ZERO.hex(), "--commitment", d.commitment,
            "red=5", "blue=3", "--drawn", ",".join(d.drawn))
    assert (r.code, r.out.strip()) == (0, "verified"), r.err


def test_a_draw_made_with_the_zeros_in_its_context_still_verifies_typed_with_them():
    """Draws made before the zeros left the context (the phones typed them in) are kept in
    tables: typed as the phone showed them, they still verify."""
    from companion.rules import lugvanion as lv

    seed = bytes(range(32))
    bag = {"red": 3, "blue": 3, "green": 2, "yellow": 0}
    old = lv._draw(bag, seed, "extra", zeros=True)
    assert old.drawn != lv.draw(bag, seed).drawn  # the two contexts draw apart here
    assert lv.verify(bag, seed, old.commitment, old.drawn).ok
    assert not lv.verify({"red": 3, "blue": 3, "green": 2}, seed, old.commitment,
                         old.drawn).ok
