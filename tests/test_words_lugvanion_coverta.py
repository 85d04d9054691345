"""What a fresh reader found in Lugvanion's and Coverta's printed words (issue 31), read
back from the built kits at every size a table plays them (poker, mini-euro, mini-usa), in
English and French: the mini cards keep every rule, the French speaks the rulebooks'
words, the print guides say "silent" only where the rulebook is, and each game has a
set-up card for the table."""

import json
import re

import tomllib
from pathlib import Path

import pytest
from PIL import Image

from companion.kit import Options, build
from companion.engine import bind
from companion.text.typography import typeset
from tests.pdfs import page_texts

SIZES = ("poker", "mini-euro", "mini-usa")
MINIS = ("mini-euro", "mini-usa")
LUGVANION = Path(__file__).parent.parent / "companion" / "layouts" / "lugvanion.toml"


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    """kit(game, size, lang) -> {"cards": text, "guide": text, "manifest": dict,
    "folder": path}, each built once."""
    cache = {}

    def get(game, size, lang):
        if (game, size, lang) not in cache:
            folder = tmp_path_factory.mktemp(f"{game}-{size}-{lang}") / "kit"
            build(game, Options(card_size=size, lang=lang, out=folder))
            cache[game, size, lang] = {
                "cards": flat(" ".join(page_texts(folder / "cards.pdf"))),
                "guide": flat((folder / "print-guide.txt").read_text()),
                "manifest": json.loads((folder / "manifest.json").read_text()),
                "folder": folder}
        return cache[game, size, lang]
    return get


def flat(text: str) -> str:
    """One space for every run of spaces and line ends (a text wraps where the card says)."""
    return re.sub(r"[ \n\t]+", " ", text)


def words(lang: str, text: str) -> str:
    """A text as the kit prints it: French with its no-break spaces."""
    return flat(typeset(text, lang))


# ---- Lugvanion on a mini card ----------------------------------------------------------

@pytest.mark.parametrize("size", MINIS)
@pytest.mark.parametrize("lang, turn", [("en", "Your turn"), ("fr", "Votre tour")])
def test_the_mini_aids_second_side_is_headed_two_of_three(kit, size, lang, turn):
    """The turn takes three sides: 1/3, 2/3 (the first card's back), 3/3; never "1/3 2/3"."""
    text = kit("lugvanion", size, lang)["cards"]
    assert f"{turn} 1/3 2/3" not in text
    for part in ("1/3", "2/3", "3/3"):
        assert text.count(f"{turn} {part}") == 4, part  # one aid per player


@pytest.mark.parametrize("size", MINIS)
@pytest.mark.parametrize("lang, discard", [
    ("en", "Your bounty’s target? Take 3 gold, discard it, draw another."),
    ("fr", "Cible de votre mise à prix ? Prenez 3 or, défaussez-la, piochez-en une.")])
def test_the_mini_assassin_discards_the_bounty_it_collects(kit, size, lang, discard):
    """The rulebook: the bounty card is discarded, its 3 gold taken, a new one drawn; the
    mini card's shorter power says all three, as the poker card does."""
    assert kit("lugvanion", size, lang)["cards"].count(words(lang, discard)) == 4  # 4 teams


@pytest.mark.parametrize("size", MINIS)
@pytest.mark.parametrize("lang, holder", [
    ("en", "Another winner: the old holder takes hers back. Won again: she may swap it."),
    ("fr", "un autre gagnant : l’ancien reprend le sien ; regagnée : il peut en changer.")])
def test_a_mini_guild_says_what_the_votes_winner_does(kit, size, lang, holder):
    """The box a poker guild holds, shortened: the winner lays a character face down; a new
    winner's vote gives the former holder hers back; a winner again may change hers."""
    text = kit("lugvanion", size, lang)["cards"]
    assert text.count(words(lang, holder)) == 4  # each guild


@pytest.mark.parametrize("size", MINIS)
def test_a_mini_guild_shows_its_badge_in_its_colour(tmp_path, cli, size):
    """Between spaces 7 and 8, the guild's badge (its colour, its symbol in paper): a
    character's guild badge matches it by symbol as well as by colour, as on a poker card."""
    data = tomllib.loads(LUGVANION.read_text(encoding="utf-8"))
    r = cli("export", "lugvanion", "png", "--card-size", size, "--only", "guilds",
            "--bleed", "0mm", "--dpi", "300", "--out", tmp_path)
    assert r.code == 0, r.err
    px = 300 / 72  # pixels a point
    mm = 72 / 25.4  # points a millimetre
    for guild in data["guilds"]:
        image = Image.open(tmp_path / "guilds" / f"{guild['id']}-front.png").convert("RGB")
        w, h = image.width / px, image.height / px  # the card, in points
        top = bind.length(data["layout"]["guild"]["mini_top"], h, {bind.CARD_W: w,
                                                                   bind.CARD_H: h})
        # on the badge's ring, right of its symbol: the guild's colour
        colour = image.getpixel((round((w / 2 + 4.0 * mm) * px), round((top + 30.9 * mm) * px)))
        want = tuple(int(guild["colour"][i:i + 2], 16) for i in (1, 3, 5))
        assert max(abs(a - b) for a, b in zip(colour, want)) < 16, (guild["id"], colour)


# ---- Lugvanion's French: the rulebook's words -----------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_lugvanion_says_en_jeu_for_characters_in_play_never_poses(kit, size):
    """The rulebook's term for a character in play is « en jeu »: one term, not two."""
    text = kit("lugvanion", size, "fr")["cards"]
    assert not re.search(r"personnages?(?: adverses?)?(?: \w+){0,2} posés?\b", text)
    assert "reste posé" not in text and "posé devant vous" not in text
    assert "en jeu" in text
    assert not re.search(r"personnages? posés?", kit("lugvanion", size, "fr")["guide"])


@pytest.mark.parametrize("size", SIZES)
def test_the_french_vote_is_won_by_the_colour_with_the_most_of_the_five_drawn(kit, size):
    """RULINGS L5: the colour with strictly the most drawn partisans wins, not « strictement
    majoritaire » (3 of 5?)."""
    text = kit("lugvanion", size, "fr")["cards"]
    assert "majoritaire" not in text
    assert words("fr", "la couleur la plus tirée, seule en tête, gagne") in text


# ---- Coverta's French ---------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_coverta_french_speaks_the_rulebooks_words(kit, size):
    """« par rapport à la dernière carte posée », the cards dealt, not a « taille de main »."""
    text = kit("coverta", size, "fr")["cards"]
    for calque in ("Taille de main", "face à la dernière", "limite de main"):
        assert calque not in text, calque
    assert words("fr", "vos deux consignes secrètes par rapport à la dernière carte posée") in text
    assert words("fr", "Cartes distribuées à chacun (règle maison) : 7 à 2-3 joueurs") in text


# ---- the print guides: "silent" only where the rulebook is ------------------------------

@pytest.mark.parametrize("lang, no_figure, silent, wrong", [
    ("en", "Decided where the rulebook gives no figure: an objective’s second option pays "
           "1 gold per partisan", "Decided where it is silent: a tied vote",
     "Decided where the rulebook is silent: an objective"),
    ("fr", "Tranché là où la règle ne donne pas de chiffre : la seconde option d’un objectif",
     "Tranché là où elle se tait : un vote à égalité",
     "Tranché là où la règle se tait : la seconde option")])
def test_lugvanions_guide_says_silent_only_of_the_tie(kit, lang, no_figure, silent, wrong):
    """The rulebook pays an objective's second option « en fonction du nombre » of partisans
    with no figure (RULINGS L3); it says nothing of a tie (L6)."""
    guide = kit("lugvanion", "poker", lang)["guide"]
    assert words(lang, no_figure) in guide and words(lang, silent) in guide
    assert words(lang, wrong) not in guide


@pytest.mark.parametrize("lang, silent, stated, tokens", [
    ("en", "Decided where it is silent: the deal passes left each round; the card turned up "
           "to start lies left of the first column",
     "silent: the 40 cards (numbers 1-10, four each, every feature balanced); 7 cards in hand "
     "at 2-3 players, 6 at 4, 5 at 5; a card is checked against the card laid just before it",
     "Not in the kit: tokens to mark faulty cards (coins or counters"),
    ("fr", "Tranché là où elle se tait : la donne passe à gauche à chaque manche ; la carte "
           "retournée au départ se pose à gauche de la première colonne",
     "une carte se compare à celle posée juste avant, par quiconque",
     "Hors du kit : des jetons pour marquer les cartes fautives (pièces ou pions")])
def test_covertas_guide_says_silent_only_where_the_rulebook_is_and_names_the_tokens(
        kit, lang, silent, stated, tokens):
    """The rulebook does say a card follows « la dernière carte jouée »; it lists no cards
    and its hand size is missing (RULINGS V2, V4); it asks for tokens and prints none."""
    guide = kit("coverta", "poker", lang)["guide"]
    assert words(lang, silent) in guide and words(lang, tokens) in guide
    assert words(lang, stated) not in guide


# ---- a set-up card for each game, at every size, in both languages --------------------

LUGVANION_SETUP = {
    "en": ("Set-up", "At the table", "The player who most recently embezzled funds starts; "
           "play goes clockwise", "the objectives (grey backs) and the bounties (black backs)",
           "The 4 guilds face up in the middle of the table; the 3 circles in a row",
           "An empty objective or bounty deck: shuffle its discard pile into a new deck",
           "the player who laid the last partisan or partisans bags all 8"),
    "fr": ("Mise en place", "En cours de partie", "Le joueur qui a détourné des fonds le plus "
           "récemment commence ; on joue dans le sens horaire", "les objectifs (dos gris) et les mises à prix (dos noir)",
           "Au centre de la table, les 4 guildes face visible ; à côté, les 3 cercles en ligne",
           "mélangez sa défausse pour en refaire une",
           "le joueur ayant posé le ou les derniers partisans qui met les 8 dans le sac"),
}
COVERTA_SETUP = {
    "en": ("Set-up", "The table", "The player left of the dealer starts; play goes clockwise",
           "Keep yours face down in front of you; look at them at any time",
           "each player lays their cards in a row of their own; a new column starts with each "
           "full turn", "House rule: the card turned up to start",
           "Tokens (coins or counters) mark faulty cards"),
    "fr": ("Préparation", "La table", "Le joueur à gauche du donneur commence, puis on joue "
           "dans le sens horaire", "et les garde devant lui face cachée, à consulter à tout moment",
           "chacun pose ses cartes dans sa propre rangée ; une nouvelle colonne commence à "
           "chaque tour complet", "Règle maison : la carte retournée au départ",
           "Des jetons (pièces ou pions) marquent les cartes fautives"),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ("en", "fr"))
@pytest.mark.parametrize("game, says", [("lugvanion", LUGVANION_SETUP),
                                        ("coverta", COVERTA_SETUP)])
def test_each_game_has_a_set_up_card_for_the_table(kit, game, says, size, lang):
    """One card, both sides: the set-up and the table's routines, from the rulebook; what
    it leaves unsaid, said as a house rule."""
    built = kit(game, size, lang)
    counts = {c["id"]: c["count"] for f in built["manifest"]["files"]
              for c in f["components"]}
    assert counts["setup"] == 1
    for phrase in says[lang]:
        assert words(lang, phrase) in built["cards"], phrase
