"""Vengeance at the table (issue 31): the set-up card at every size, the turn aid saying
where the resolution really is and carrying the gates' line on mini cards, the rulebook's
French, and a print guide that calls the rulebook's rules the rulebook's."""

import re

import pytest

from companion.kit import Options, build
from tests.pdfs import page_texts

NNBSP = "\u202f"
SIZES = ("poker", "mini-euro", "mini-usa")


def flat(s: str) -> str:
    return re.sub(r"\s+", " ", s.replace(NNBSP, " ").replace("\u00a0", " "))


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    """kit(size, lang) -> (the cards' text, flattened; the print guide), built once."""
    cache: dict = {}

    def get(size: str, lang: str):
        if (size, lang) not in cache:
            out = tmp_path_factory.mktemp(f"vengeance-{size}-{lang}") / "kit"
            build("vengeance", Options(card_size=size, lang=lang, out=out,
                                       only=["aids", "setup", "demons"]))
            cache[size, lang] = (flat(" ".join(page_texts(out / "cards.pdf"))),
                                 (out / "print-guide.txt").read_text(encoding="utf-8"))
        return cache[size, lang]
    return get


SET_UP = {
    "en": ["Sit in a circle; each player takes an aid card.",
           "The 8 Vengeance & Gate cards in a circle, in order from 1 to 8; the demon token "
           "on Gate I (card I is a Gate).",
           "A demon card drawn at random, face up, its 3 chain tokens stacked on it",
           "Face up: one pile for each ritual object type (violet backs), the 13 artifacts "
           "shuffled, the 13 incantations shuffled.",
           "Face down, to one side: the transitory objects (golden backs), shuffled.",
           "An empty pile can no longer be drawn from.",
           "Deal the youngest player 2 spell cards: she keeps 1 and puts the other under the "
           "pile.", "at 4 players, shuffle the pile before dealing to the last",
           "Each player lays on her spell card the witch card that matches it.",
           "Each witch takes 5 Vengeance and Gate tokens",
           "1 herb, 1 mineral, 1 potion, 1 artifact, 1 incantation. No hand limit."],
    "fr": ["Placez-vous en cercle ; chaque joueur prend une carte d’Aide.",
           "Les 8 cartes Vengeance & Porte en cercle, dans l’ordre de 1 à 8 ; le jeton Démon "
           "sur la Porte I (la carte I est une Porte).",
           "Une carte Démon tirée au hasard, face visible, ses 3 jetons Chaîne empilés dessus",
           "Face visible : une pile par type d’objet rituel (dos violet), les 13 artéfacts "
           "mélangés, les 13 incantations mélangées.",
           "Face cachée, sur le côté : les objets transitoires (dos doré), mélangés.",
           "On ne pioche plus dans une pile vide.",
           "Donnez 2 cartes Sortilèges au plus jeune joueur, qui en garde 1 et glisse "
           "l’autre sous la pile.", "en partie à 4, mélangez la pile avant de servir le dernier",
           "Chaque joueur pose sur sa carte Sortilèges la carte Sorcière qui lui correspond.",
           "Chaque sorcière prend 5 jetons Vengeance et Porte",
           "1 herbe, 1 minéral, 1 potion, 1 artéfact, 1 incantation. Pas de limite de cartes "
           "en main."],
}
TITLES = {("poker", "en"): ["SET-UP: THE TABLE", "SET-UP: THE WITCHES"],
          ("poker", "fr"): ["MISE EN PLACE : LA TABLE", "MISE EN PLACE : LES SORCIÈRES"]}


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", SIZES)
def test_the_set_up_card_prints_the_rulebooks_set_up_at_every_size(kit, size, lang):
    text, _ = kit(size, lang)
    for words in SET_UP[lang]:
        assert text.count(words) == 1, words
    word = "SET-UP" if lang == "en" else "MISE EN PLACE"
    titles = TITLES.get((size, lang), [f"{word} {n}/4" for n in range(1, 5)])
    for title in titles:
        assert text.count(title) == 1, title
    assert not re.search(r"\d/4 \d/4", text)  # each side its own number, never two


@pytest.mark.parametrize("lang, back, card, gates", [
    ("en", "III. Resolve (see the back).", "III. Resolve (see the Resolution card).",
     "Gates, kept once gained: one more herb, potion or artifact"),
    ("fr", "III. Résolvez (voir au dos).", "III. Résolvez (voir la carte Résolution).",
     "Portes, acquises pour la partie : une herbe, une potion ou un artéfact de plus"),
])
@pytest.mark.parametrize("size", SIZES)
def test_the_turn_aid_says_where_the_resolution_is_and_keeps_the_gates_line(
        kit, size, lang, back, card, gates):
    text, _ = kit(size, lang)
    here, elsewhere = (back, card) if size == "poker" else (card, back)
    assert text.count(here) == 4 and elsewhere not in text
    assert text.count(gates) == 4


@pytest.mark.parametrize("size, when", [("poker", "Quand {} l’emporte :"),
                                        ("mini-euro", "Si {} l’emporte :"),
                                        ("mini-usa", "Si {} l’emporte :")])
def test_french_demon_cards_name_each_type_with_its_article(kit, size, when):
    text, _ = kit(size, "fr")
    for the in ("l’Herbe", "le Minéral", "la Potion"):
        assert text.count(when.format(the)) == 3, when.format(the)  # on each of 3 demons
    assert not re.search(r"(Quand|Si) (Herbe|Minéral|Potion) l’emporte", text)
    english, _ = kit(size, "en")
    assert ("When Herb wins the turn:" if size == "poker" else "Herb wins:") in english


@pytest.mark.parametrize("size", SIZES)
def test_french_says_the_rulebooks_no_limit_of_cards_in_hand(kit, size):
    text, _ = kit(size, "fr")
    assert "Pas de limite de main" not in text
    assert text.count("Pas de limite de cartes en main.") == 5  # four aids, the set-up card


@pytest.mark.parametrize("lang, own, silent", [
    ("en", "From the rulebook, easily missed (no house rule): a turn’s tie goes to potion",
     "Decided where the rulebook is silent"),
    ("fr", "D’après la règle, à ne pas manquer (aucune règle maison) : une égalité de tour va à la potion",
     "la règle se tait"),
])
def test_the_print_guide_calls_the_tie_and_the_empty_centre_the_rulebooks(kit, lang, own,
                                                                          silent):
    _, guide = kit("poker", lang)
    assert own in flat(guide) and silent not in guide
