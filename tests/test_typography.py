"""French typography: one function every printed French string goes through."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.text.typography import NNBSP, french, listing, number, typeset


@pytest.mark.parametrize("before,after", [
    ("Papier : A4", f"Papier{NNBSP}: A4"),
    ("Fin: la partie", f"Fin{NNBSP}: la partie"),
    ("Vraiment ?", f"Vraiment{NNBSP}?"),
    ("Attention!", f"Attention{NNBSP}!"),
    ("a ; b", f"a{NNBSP}; b"),
    ("« Cette vengeance est mienne ! »", f"«{NNBSP}Cette vengeance est mienne{NNBSP}!{NNBSP}»"),
    ("«ajuster»", f"«{NNBSP}ajuster{NNBSP}»"),
    ("à 10:30, voir http://x.fr", "à 10:30, voir http://x.fr"),
    ("1/2/3 or : 1/2/3 partisans", f"1/2/3 or{NNBSP}: 1/2/3 partisans"),
    ("Aucune partie pour l'instant.", "Aucune partie pour l\u2019instant."),
    ("« L'appel de la forêt »", f"«{NNBSP}L\u2019appel de la forêt{NNBSP}»"),
    ("--flip 'short' ou 'long'", "--flip 'short' ou 'long'"),  # quotes, not apostrophes
])
def test_french_punctuation_gets_a_narrow_no_break_space(before, after):
    assert french(before) == after


def test_english_is_left_as_written():
    assert typeset("Paper: A4 « x »", "en") == "Paper: A4 « x »"


@given(st.text(alphabet=st.sampled_from(list("ab :;!?«»\u00a0\u202f1/0.'")), max_size=30))
def test_typesetting_twice_changes_nothing_and_no_plain_space_precedes_high_punctuation(s):
    once = french(s)
    assert french(once) == once
    for mark in ";!?»":
        assert f" {mark}" not in once and f"\u00a0{mark}" not in once


def test_measures_take_a_decimal_comma_in_french():
    assert number(63.5, "fr") == "63,5" and number(63.5, "en") == "63.5"
    assert number(38.0, "fr") == "38"


def test_lists_read_a_b_and_c():
    assert listing(["A", "B", "C"], "and") == "A, B and C"
    assert listing(["A", "B"], "et") == "A et B"
    assert listing(["A"], "and") == "A"


def test_three_tied_winners_read_a_b_and_c(cli, tmp_path):
    areas = ("blue = [1]", "blue = [1]", "purple = [5]")  # 1 point each
    game = "\n".join(f'[[players]]\nname = "{n}"\narea = {{ {a} }}\n'
                     for n, a in zip("ABC", areas))
    (tmp_path / "g.toml").write_text(game)
    r = cli("score", "covenia", tmp_path / "g.toml")
    assert r.code == 0 and "Shared win: A, B and C" in r.out, r.out


def test_no_french_text_in_the_data_keeps_a_straight_apostrophe():
    from companion.files import paths
    from companion.files.data import Fields, load_toml

    def walk(f: Fields, table):
        for key, value in table.items():
            if isinstance(value, dict) and isinstance(value.get("fr"), str):
                assert "'" not in f.text(key, "fr").strip("'"), (f.source, key)
            elif isinstance(value, dict):
                walk(f.sub(key), value)
    for path in paths.LAYOUTS.glob("*.toml"):
        table = load_toml(path)
        walk(Fields(table, str(path)), table)
