"""The scorers' words in French (issue 31): the filled Covenia score page and the terminal
follow French typography (a narrow no-break space before : and ;), and Coverta's scorer
speaks French with --lang fr, its words data; English stays as it was."""

import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.test_covenia_score_cli import run

RULEBOOK = Path(__file__).parent / "data" / "covenia-rulebook.toml"
NNBSP = "\u202f"
SPACES = "\u202f\u00a0"


def page_text(pdf: Path) -> str:
    return re.sub(r"[ \n]+", " ", PdfReader(pdf).pages[0].extract_text())


def bad_french_marks(text: str) -> list[str]:
    """Each : ; ! ? with no (narrow) no-break space before it, with what precedes it."""
    return [m.group(0) for m in re.finditer(rf"\S{{0,12}}[^{SPACES}][:;!?]", text)]


def test_the_filled_french_score_page_spaces_its_colons_and_semicolons(tmp_path):
    pdf = tmp_path / "s.pdf"
    code, _, err = run("score", "covenia", RULEBOOK, "--pdf", pdf, "--lang", "fr")
    assert code == 0, err
    text = page_text(pdf)
    # The rulebook's example: Emma's line, each figure after her name, then the next.
    assert f"Emma{NNBSP}: rouges{NNBSP}: 3, le plus de la table → 3 × 7 = 21{NNBSP}; jaunes" \
        in text, text
    assert f"Laurence{NNBSP}: rouges{NNBSP}: 1" in text
    assert bad_french_marks(text) == []
    code, _, _ = run("score", "covenia", RULEBOOK, "--pdf", pdf)  # English: as it was
    assert code == 0
    assert "Emma: 3 red, the most at the table: 3 × 7 = 21; 2 yellow, lowest in hand 5" \
        in page_text(pdf)


def test_a_player_s_name_is_printed_as_typed_not_respaced(tmp_path):
    game = tmp_path / "game.toml"
    game.write_text(RULEBOOK.read_text().replace('"Emma"', '"Emma!"'))
    pdf = tmp_path / "s.pdf"
    code, _, err = run("score", "covenia", game, "--pdf", pdf, "--lang", "fr")
    assert code == 0, err
    assert f"Emma!{NNBSP}: rouges" in page_text(pdf)


def test_typing_a_covenia_table_in_french_asks_with_french_colons(tmp_path):
    lines = ["2", "Emma", "Laurence", "",  # decks: the default (A at 2 players)
             "1 4 6", "2 8", "3", "4 5", "1 2 3", "jaune 5, vert 9, violet 9",
             "5", "", "4 7", "6", "", "rouge 3"]
    code, out, err = run("score", "covenia", "--lang", "fr", stdin="\n".join(lines) + "\n")
    assert code == 0, err
    assert f"Nombre de joueuses (2-4){NNBSP}: " in err
    assert f"Joueuse 1, nom{NNBSP}: " in err
    assert f"Paquets en jeu (A, B ou AB) [A]{NNBSP}: " in err
    assert f"Emma, main (ex. jaune 5, vert 9{NNBSP}; Entrée si vide){NNBSP}: " in err
    assert bad_french_marks(err) == []
    assert "(paquets A)" in out and f"Gagnante{NNBSP}: Emma" in out


LEDGER = ('players = ["Ana", "Bo", "Cy"]\n[[rounds]]\nhands = { Ana = 0, Bo = 3, Cy = 5 }\n'
          'first_steal = "Bo"\n[[rounds]]\nhands = { Ana = 2, Bo = 1, Cy = 1 }\n')


def test_coverta_scores_a_ledger_in_french(tmp_path):
    ledger = tmp_path / "ledger.toml"
    ledger.write_text(LEDGER)
    code, out, err = run("score", "coverta", ledger, "--lang", "fr")
    assert code == 0, err
    rows = [ln.split() for ln in out.splitlines()]
    assert ["Manche", "1", "-1", "2", "5"] in rows and ["Manche", "2", "1", "0", "0"] in rows
    assert ["Total", "0", "2", "5"] in rows
    assert out.startswith(f"Coverta{NNBSP}: points par manche")
    assert f"Vainqueur{NNBSP}: Ana" in out
    assert "Round" not in out and "Winner" not in out
    assert bad_french_marks(out) == []
    code, out, _ = run("score", "coverta", ledger)  # English: as it was
    assert code == 0
    assert out == ("Coverta: points per round (hand - smallest hand, -1 for an emptied hand, "
                   "-1 for the first steal); lowest total wins\n\n"
                   "           Ana   Bo   Cy\n"
                   "Round 1     -1    2    5\n"
                   "Round 2      1    0    0\n"
                   "Total        0    2    5\n\n"
                   "Winner: Ana\n")


def test_coverta_round_asks_and_answers_in_french(tmp_path):
    ledger = tmp_path / "ledger.toml"
    typed = ["Ana", "Ana, Bo", "40", "30", "20", "3", "2", "Zed", "bo"]
    code, out, err = run("coverta", "round", ledger, "--lang", "fr",
                         stdin="\n".join(typed) + "\n")
    assert code == 0, err
    assert f"Joueurs, dans l’ordre de la table (séparés par des virgules){NNBSP}: " in err
    assert "Coverta se joue de 2 à 5 joueurs, pas 1" in err  # a refusal, in French
    assert f"Ana{NNBSP}: cartes restant en main{NNBSP}: " in err
    assert "un nombre entier, de 0 à 39" in err
    assert "les mains comptent 50 cartes en tout" in err
    assert f"l’un d’entre{NNBSP}: Ana, Bo" in err
    assert bad_french_marks(err) == []
    assert f"Vainqueur{NNBSP}: Bo" in out and "Manche 1" in out


ROW = ('start = "C12"\nplays = [ { card = "C07", row = "Ana" } ]\n'
       'rules = { Ana = ["keep:parity", "alternate:shape"] }\n')


def test_coverta_check_names_a_fault_in_french_as_the_cards_print_it(tmp_path):
    row = tmp_path / "row.toml"
    row.write_text(ROW)
    code, out, err = run("coverta", "check", row, "--lang", "fr")
    assert code == 0, err
    assert out.strip() == (f"Ana, carte C07{NNBSP}: consigne Parité (maintien) enfreinte, pair "
                           "après impair (C12, posée juste avant)")
    code, out, _ = run("coverta", "check", row)
    assert out.strip() == ("C07 in Ana's row breaks keep:parity: it is even, and C12 laid "
                           "just before it is odd")


@pytest.mark.parametrize("args", [["score", "coverta", "LEDGER"], ["coverta", "round", "LEDGER"],
                                  ["coverta", "check", "ROW"]])
def test_coverta_commands_refuse_an_unknown_language(tmp_path, args):
    files = {"LEDGER": (tmp_path / "ledger.toml", LEDGER), "ROW": (tmp_path / "row.toml", ROW)}
    for path, body in files.values():
        path.write_text(body)
    code, _, err = run(*[str(files[a][0]) if a in files else a for a in args], "--lang", "de")
    assert code == 2 and "'--lang': \"de\" is not a language: use en or fr" in err, err
