import pytest
from hypothesis import given, strategies as st

from companion.errors import CompanionError
from companion.text.units import mm, parse_length, parse_size


@pytest.mark.parametrize("text,points", [
    ("72pt", 72.0), ("1in", 72.0), ("25.4mm", 72.0), ("2.54cm", 72.0), (" 3 MM ", mm(3)),
])
def test_lengths_with_each_unit_become_points(text, points):
    assert parse_length(text) == pytest.approx(points)


@pytest.mark.parametrize("text", ["3furlong", "3", "mm", "-3mm", "3,5mm", ""])
def test_a_length_without_a_known_unit_is_an_error(text):
    with pytest.raises(CompanionError):
        parse_length(text)


def test_unknown_unit_error_names_the_unit_and_field():
    with pytest.raises(CompanionError) as e:
        parse_length("3furlong", field="--bleed")
    assert "furlong" in e.value.line() and e.value.line().startswith("--bleed:")


def test_custom_card_sizes_take_one_unit_for_both_sides():
    assert parse_size("63x88mm") == pytest.approx((mm(63), mm(88)))
    assert parse_size("2.5x3.5in") == pytest.approx((180.0, 252.0))


@pytest.mark.parametrize("text", ["63mmx88mm", "63x88", "63x0mm", "x88mm", "63x88parsec"])
def test_malformed_sizes_are_errors(text):
    with pytest.raises(CompanionError):
        parse_size(text)


@given(st.floats(min_value=0.01, max_value=39).map(lambda v: round(v, 3)))
def test_mm_and_in_agree_for_any_length(value):
    assert parse_length(f"{value}in") == pytest.approx(parse_length(f"{value * 25.4}mm"))


@pytest.mark.parametrize("text", ["1001mm", "40in", "9" * 400 + "mm"])
def test_a_length_over_a_metre_is_refused_not_overflowed(text):
    with pytest.raises(CompanionError, match="over a metre"):
        parse_length(text)


@pytest.mark.parametrize("spec", ["0.0001x0.0001mm", "9x63mm", "63x9.99mm"])
def test_a_card_under_10_mm_a_side_is_refused_before_any_planning(spec):
    from companion.press.presets import card_size

    with pytest.raises(CompanionError, match="too small"):
        card_size(spec)


def test_more_bleed_than_10_mm_is_refused():
    from companion.press.presets import bleed

    assert bleed("3mm") == pytest.approx(3 * 72 / 25.4)
    with pytest.raises(CompanionError, match="at most 10 mm"):
        bleed("11mm")
