"""What the layout engine keeps from one card to the next (companion.engine.bind): a
template filled once per set of values, a length worked out once per card size. Kept or
not, every card gets what the template or the length says for its own fields."""

from hypothesis import given, settings, strategies as st

from companion.engine import bind

NAMES = ("a", "b", "clan.name")
VALUES = st.one_of(st.integers(-20, 20), st.floats(-5, 5, allow_nan=False), st.booleans(),
                   st.sampled_from([0.0, -0.0]),
                   st.sampled_from(["red", "Vert", "", "When {a} wins", "7"]),
                   st.builds(bind.Placeholder, st.sampled_from(["to come", "soon"])))
PIECES = st.one_of(st.sampled_from(["x", " ", "-"]),
                   st.sampled_from(NAMES).map(lambda n: "{" + n + "}"))
TEMPLATES = st.lists(PIECES, min_size=1, max_size=4).map("".join)


def _filled(template: str, scope: dict):
    """The template filled afresh, or the error it gives."""
    try:
        return bind._text(template, scope, True)
    except bind.BindError as e:
        return ("error", str(e))


def _kept(template: str, scope: dict):
    try:
        return bind.text(template, scope)
    except bind.BindError as e:
        return ("error", str(e))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(TEMPLATES, st.dictionaries(st.sampled_from(NAMES), VALUES)),
                min_size=1, max_size=6))
def test_a_template_filled_from_what_was_kept_is_filled_as_afresh(cards):
    for template, scope in cards * 2:  # each card twice: the second from what was kept
        assert _kept(template, scope) == _filled(template, scope)
        assert type(_kept(template, scope)) is type(_filled(template, scope))


def test_a_text_naming_fields_itself_is_filled_for_each_card():
    line = "When {type} wins"  # a rulebook line in the data, naming the card's type
    assert [bind.text("{rule}", {"rule": line, "type": t}) for t in ("red", "blue")] == \
        ["When red wins", "When blue wins"]


def test_values_equal_in_python_but_printed_apart_are_kept_apart():
    assert [bind.text("{a}", {"a": v}) for v in (1, 1.0, True)] == ["1", "1.0", "True"]
    assert [bind.text("{a:+.1f}", {"a": v}) for v in (0.0, -0.0)] == ["+0.0", "-0.0"]


def test_a_date_is_filled_afresh_for_each_card():
    from datetime import datetime, timedelta, timezone

    noon = datetime(2026, 11, 26, 12, tzinfo=timezone.utc)  # the same instant twice
    one = noon.astimezone(timezone(timedelta(hours=1)))
    assert [bind.text("{d}", {"d": d}) for d in (noon, one)] == \
        ["2026-11-26 12:00:00+00:00", "2026-11-26 13:00:00+01:00"]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["0.5", "3mm", "1 - 12mm", "min(10pt, 0.4 * h)", "{a}", "{a} * w",
                        "max(0.145, 3.2mm + 0.085)", "0.045 * w"]),
       st.sampled_from([0.1, 0.25, "0.3", 2, "5mm"]),
       st.sampled_from([(180.0, 252.0), (126.0, 176.0)]))
def test_a_length_kept_for_a_card_size_is_the_length_worked_out(length, a, size):
    w, h = size
    scope = {"a": a, bind.CARD_W: w, bind.CARD_H: h}
    for across in (w, h):
        v = bind.text(length, scope, again=False)
        assert bind.length(length, across, scope) == bind._length(v, length, across, scope)
