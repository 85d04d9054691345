"""Covenia's printed words a fresh reader found wrong or missing (issue 31), read back from
the kits at poker and both mini sizes, in English and French: the last round's ritual, the
rulebook's French vocabulary, what the print guide calls decided, and the set-up card."""

import json
import re

import pytest

from companion.kit import Options, build
from tests.pdfs import page_texts

SIZES = ("poker", "mini-euro", "mini-usa")
LANGS = ("en", "fr")


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    """Every Covenia kit (card size x language), built once: {(size, lang): folder}."""
    out = {}
    for size in SIZES:
        for lang in LANGS:
            folder = tmp_path_factory.mktemp(f"covenia-{size}-{lang}") / "kit"
            build("covenia", Options(card_size=size, lang=lang, out=folder))
            out[size, lang] = folder
    return out


def flat(text: str) -> str:
    """One plain space for every run of spaces, no-break spaces and line ends."""
    return re.sub(r"[\s\u00a0\u202f]+", " ", text)


def cards(kits, size, lang) -> str:
    return flat(" ".join(page_texts(kits[size, lang] / "cards.pdf")))


def guide(kits, size, lang) -> str:
    return flat((kits[size, lang] / "print-guide.txt").read_text(encoding="utf-8"))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang, temple, aid, wrong", [
    # The rulebook: powers apply whenever possible EXCEPT on the last turn, when a card
    # may be discarded in the Temple even if the player cannot or will not apply it.
    ("en", {"poker": "to perform it. Compulsory when possible, optional in the last round.",
            "mini": "ritual compulsory if possible, optional in the last round."},
     "perform that ritual: compulsory if you can, optional in the last round.",
     "not in the last round"),
    ("fr", {"poker": "pour l’accomplir. Obligatoire si possible, facultatif au dernier tour.",
            "mini": "rituel obligatoire si possible, facultatif au dernier tour."},
     "accomplissez son rituel, obligatoire si possible, facultatif au dernier tour.",
     "sauf au dernier tour"),
])
def test_the_last_round_lets_a_card_be_discarded_without_its_ritual(kits, size, lang,
                                                                    temple, aid, wrong):
    text = cards(kits, size, lang)
    said = temple["poker" if size == "poker" else "mini"]
    assert text.count(said) == 5  # the five Temple cards
    assert aid in text  # the aid's line, on every copy
    assert wrong not in text


@pytest.mark.parametrize("size", SIZES)
def test_french_cards_name_the_rival_and_the_uncovered_card_as_the_rulebook_does(kits, size):
    """« une adversaire », never « une adverse » as a noun; « non recouverte », never « non
    couverte » nor « carte libre »: on the 20 red and 20 yellow cards of both decks and on
    the red and yellow Temple cards."""
    text = cards(kits, size, "fr")
    assert re.findall(r"\bune adverse\b", text) == []
    assert text.count("une adversaire") >= 20 + 20 + 2
    assert "non couverte" not in text and "carte libre" not in text
    assert text.count("Échangez une carte non recouverte contre celle d’une adversaire") == 20
    assert text.count("non recouverte") == 20 + 2  # the red cards; the Temple's ritual twice


@pytest.mark.parametrize("lang, ambiguous, silent, not_silent", [
    ("en", "Decided where the rulebook is ambiguous: a tie for the most red cards gives each "
           "tied player 7 per card; the bonus counts full rows of all five clans",
     "Decided where the rulebook is silent: an empty hand scores 0 for yellow; tied totals "
     "share the win.",
     "silent: a tie for the most red cards"),
    ("fr", "Tranché là où la règle est ambiguë : à égalité pour le plus de rouges, chaque ex "
           "aequo marque 7 par carte ; le bonus compte les lignes complètes des cinq clans",
     "Tranché là où la règle se tait : une main vide rapporte 0 au jaune ; des totaux égaux "
     "partagent la victoire.",
     "se tait : à égalité pour le plus de rouges"),
])
def test_the_print_guide_calls_ambiguous_what_the_rulebook_says_ambiguously(
        kits, lang, ambiguous, silent, not_silent):
    """RULINGS C3 and C6 settle what the rulebook says ambiguously (a red tie's 7 points,
    a "line of different clans"); C4 and C8 what it does not say (an empty hand's yellow,
    a tie for the win: both listed since issue 55)."""
    for size in SIZES:
        text = guide(kits, size, lang)
        assert ambiguous in text and silent in text
        assert not_silent not in text


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang, said", [
    ("en", ["Set-up", "2 players: deck A (sun) or B (moon); 3-4: both. Shuffle.",
            "Each player gets 5 cards face down and a game aid.",
            "Lay the 5 Temple cards face up in a row.",
            "Turn the deck’s top 4 cards face up onto the Temple, each on its clan, stacked "
            "in order of arrival whatever the numbers.",
            "Start and end",
            "at 2, call sun or moon and throw the First Player token; the winner takes it and "
            "starts. At 3-4, any way. Play goes clockwise.",
            "Last round: the round in play once the deck holds fewer than 4 cards",
            "4 new cards cannot be revealed.",
            "In it, you may discard to the Temple without performing the ritual."]),
    ("fr", ["Mise en place", "À 2 : paquet A (soleil) ou B (lune) ; à 3-4 : les deux.",
            "Donnez 5 cartes face cachée à chaque joueuse, et une aide de jeu.",
            "Alignez les 5 cartes du Temple, face visible.",
            "Posez sur le Temple, face visible, les 4 premières cartes du paquet, chacune sur "
            "son clan, empilées par ordre d’arrivée quels que soient les chiffres.",
            "Début et fin",
            "à 2, annoncez soleil ou lune et lancez le jeton Première joueuse ; la gagnante le "
            "prend et commence. À 3-4, au choix. Sens horaire.",
            "Dernier tour : le tour en cours dès que la pioche compte moins de 4 cartes",
            "4 nouvelles cartes ne pourront plus être révélées.",
            "Pendant ce tour, on peut défausser au Temple sans accomplir le rituel."]),
])
def test_a_two_sided_set_up_card_says_who_starts_and_which_round_is_the_last(kits, size,
                                                                           lang, said):
    """The rulebook's set-up (decks, hands, the Temple's 4 first cards stacked by clan in
    order of arrival), its first player (the token thrown at 2, any way at 3-4, clockwise)
    and its end (4 new cards cannot be revealed), on one card at every size."""
    text = cards(kits, size, lang)
    for words in said:
        assert words in text, words
    manifest = json.loads((kits[size, lang] / "manifest.json").read_text())
    setup = [c for f in manifest["files"] for c in f["components"] if c["id"] == "setup"]
    assert setup == [{"id": "setup", "count": 1}], setup
