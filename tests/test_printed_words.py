"""The printed words a reader found misleading or wrong (issue 23), each read back from the
built PDFs in English and French: what the rulebooks and RULINGS.md say, in our words."""

import re

import pytest

from companion.kit import Options, build
from companion.text.typography import typeset
from tests.pdfs import page_texts

GAMES = ("covenia", "coverta", "lugvanion", "vengeance")


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    """Every game's kit in both languages, built once: {(game, lang): {file: text}}."""
    out = {}
    for game in GAMES:
        for lang in ("en", "fr"):
            folder = tmp_path_factory.mktemp(f"{game}-{lang}")
            build(game, Options(lang=lang, out=folder / "kit"))
            out[game, lang] = {pdf.name: " ".join(page_texts(pdf))
                               for pdf in (folder / "kit").glob("*.pdf")}
            out[game, lang]["guide"] = (folder / "kit" / "print-guide.txt").read_text()
    return out


def flat(text: str) -> str:
    """One space for every run of spaces and line ends (a text wraps where the card says)."""
    return re.sub(r"[ \n\t]+", " ", text)


def printed(kits, game, lang, file="cards.pdf") -> str:
    return flat(kits[game, lang][file])


@pytest.mark.parametrize("game, file, lang, present, absent", [
    # Covenia: every clan counts the area; yellow and green also the hand.
    ("covenia", "cards.pdf", "en", "Each clan counts the cards in your area; yellow and green "
                                   "also use your hand.", "look at your hand"),
    ("covenia", "cards.pdf", "fr", "Chaque clan compte les cartes de votre zone ; jaune et vert "
                                   "tiennent aussi compte de votre main.", "regardent"),
    # Blue takes any *other* Temple card; yellow, from the hand of a rival holding two or more.
    ("covenia", "cards.pdf", "en", "Take another Temple card into your hand", "Take a Temple card"),
    ("covenia", "cards.pdf", "fr", "Prenez en main une autre carte du Temple", "une carte du Temple "),
    ("covenia", "cards.pdf", "en", "Take a rival’s lowest or highest card in hand (she holds 2+)",
     None),
    ("covenia", "cards.pdf", "fr", "Prenez la plus petite ou la plus grande carte d’une "
                                   "adversaire (au moins 2 en main)", "avec une adverse"),
    # The score book: the red tie rule and yellow's empty hand.
    ("covenia", "scorebook.pdf", "en", "most (ties too): 7 × cards", None),
    ("covenia", "scorebook.pdf", "en", "cards × lowest card in hand (house rule: empty hand 0)",
     None),
    ("covenia", "scorebook.pdf", "fr", "en tête (même ex aequo) : 7 × cartes", None),
    ("covenia", "scorebook.pdf", "fr", "cartes × plus petite en main (règle maison : main vide "
                                       "0)", "regardent"),
    # Coverta: whose penalty, which mistakes, which end.
    ("coverta", "cards.pdf", "en", "they take the last card back instead, with the penalties "
                                   "for their mistake (token, skip a turn, draw)", "pay for it"),
    ("coverta", "cards.pdf", "fr", "il reprend la dernière carte et subit les pénalités de sa "
                                   "faute (jeton, tour passé, pioche)", "paie sa faute"),
    ("coverta", "cards.pdf", "en", "A mistake you find in your own row", "found when rules are"),
    ("coverta", "cards.pdf", "fr", "Une faute que vous trouvez dans votre propre rangée",
     "vue à la révélation"),
    ("coverta", "cards.pdf", "en", "All rule cards revealed and a full round", "All out"),
    ("coverta", "cards.pdf", "fr", "dans une tranche (1-5 ou 6-10) différente de celle de la "
                                   "dernière carte posée", "l’autre tranche"),
    ("coverta", "scoresheet.pdf", "en", "−1 if you emptied your hand, −1 for the first to play "
                                        "correctly in another’s place", "-1"),
    ("coverta", "scoresheet.pdf", "fr", "−1 si vous avez vidé votre main", "-1"),
    # Lugvanion: who takes what back; the teams' names agree in French.
    ("lugvanion", "cards.pdf", "en", "Won by another: the former holder takes hers back, the new "
                                     "winner lays one.", "swaps it"),
    ("lugvanion", "cards.pdf", "fr", "l’ancien reprend le sien en main", None),
    ("lugvanion", "cards.pdf", "en", "pays you 2 gold to get it back into their hand", None),
    ("lugvanion", "cards.pdf", "fr", "vous paie 2 or pour le reprendre en main", None),
    ("lugvanion", "cards.pdf", "en", "each partisan of yours in the Jewellery guild.",
     "in the Jewellery."),
    ("lugvanion", "cards.pdf", "fr", "Équipe bleue", "Équipe Bleu"),
    ("lugvanion", "cards.pdf", "fr", "Équipe verte", "Équipe Vert"),
    ("lugvanion", "cards.pdf", "fr", "tirez-en un de plus, un par un,", "un de plus à la fois"),
    # The set-up, on the aid where a player needs it.
    ("lugvanion", "cards.pdf", "en", "Set-up: each player gets a team’s 8 characters, its 11 "
                                     "partisans, 7 gold, and 1 objective and 1 bounty in hand.",
     None),
    ("lugvanion", "cards.pdf", "fr", "Mise en place : à chacun 8 personnages d’une équipe, "
                                     "11 partisans, 7 or, 1 objectif et 1 mise à prix en main.",
     None),
    ("vengeance", "cards.pdf", "en", "Set-up: the demon on Gate I; in each witch’s hand 1 herb, "
                                     "1 mineral, 1 potion, 1 artifact, 1 incantation.", None),
    ("vengeance", "cards.pdf", "fr", "Mise en place : le démon sur la Porte I ; en main, chaque "
                                     "sorcière a 1 herbe, 1 minéral, 1 potion, 1 artéfact, 1 "
                                     "incantation.", None),
    # Each Vengeance & Gate card: a Gate's passive ability and its arrival effect (still to
    # come in the rulebook: placeholders, listed in the print guide).
    ("vengeance", "cards.pdf", "en", "A Gate: its passive ability TO COME Passive ability: to "
                                     "come", None),
    ("vengeance", "cards.pdf", "en", "A Gate: when the demon arrives TO COME Arrival effect: "
                                     "to come", None),
    ("vengeance", "cards.pdf", "fr", "Une Porte : sa capacité passive À VENIR Capacité "
                                     "passive : à venir", None),
    ("vengeance", "cards.pdf", "fr", "Une Porte : à l’arrivée du démon À VENIR Effet d’arrivée "
                                     ": à venir", None),
    # Vengeance: English as a reader speaks it; no placeholder inside a title.
    ("vengeance", "cards.pdf", "en", "let’s find some prey", "let us find a prey"),
    ("vengeance", "cards.pdf", "en", "in the river’s waters", "river's"),
    ("vengeance", "cards.pdf", "en", "my enemies’ bones", "enemies'"),
    ("vengeance", "cards.pdf", "en", "SPELLS OF THE WITCH TO COME", "NAME TO COME"),
    ("vengeance", "cards.pdf", "fr", "SORTILÈGES DE LA SORCIÈRE À VENIR", "NOM À VENIR"),
])
def test_the_printed_words_say_what_the_rules_say(kits, game, file, lang, present, absent):
    text = printed(kits, game, lang, file)
    present = typeset(present, lang)  # French: narrow no-break spaces before ; : ! ?
    assert present in text, present
    if absent:
        assert absent not in text, absent


@pytest.mark.parametrize("game", GAMES)
def test_every_sheet_says_100_percent_as_each_language_writes_it(kits, game):
    assert "print at 100%," in printed(kits, game, "en")
    assert "imprimez à 100\u202f%," in kits[game, "fr"]["cards.pdf"]  # a narrow no-break space


@pytest.mark.parametrize("game, lang, line", [
    ("lugvanion", "en", "You get: 44 × Partisans, 40 × Gold coins."),
    ("lugvanion", "fr", "Vous obtenez : 44 × Partisans, 40 × Pièces d’or."),
    ("covenia", "en", "You get: 6 × Score-book games."),  # one book of 2 pages, 3 games a page
    ("covenia", "fr", "Vous obtenez : 6 × Parties du carnet de score."),
])
def test_the_print_guide_counts_each_piece_by_its_own_name(kits, game, lang, line):
    assert typeset(line, lang) in kits[game, lang]["guide"]


def test_a_partisan_token_fits_a_guild_cards_space():
    """The guild card's eight spaces hold the partisan tokens the kit prints."""
    from companion.files import paths
    from companion.files.data import load_toml
    from companion.text.units import parse_length, parse_size

    data = load_toml(paths.layout("lugvanion.toml"))
    token_w, token_h = parse_size(data["tokens"]["size"])
    spaces = {e["id"]: e for e in data["kinds"]["guild"]["elements"] if "id" in e}
    for row in ("spaces", "spaces-2"):
        assert 2 * parse_length(spaces[row]["r"]) >= max(token_w, token_h)


def test_the_print_guide_lists_each_gates_fields_still_to_come(kits):
    guide = kits["vengeance", "en"]["guide"]
    for n in range(1, 9):
        assert f"{n}: Passive ability: to come" in guide
        assert f"{n}: Arrival effect: to come" in guide


@pytest.mark.parametrize("game, en, fr", [
    ("covenia", "a tie for the most red cards gives each tied player 7 per card",
     "chaque ex aequo marque 7 par carte"),
    ("coverta", "7 cards in hand at 2-3 players, 6 at 4, 5 at 5", "7 cartes en main à 2-3 joueurs"),
    ("lugvanion", "the votes need an opaque bag", "les votes demandent un sac opaque"),
    ("vengeance", "a turn’s tie goes to potion, then mineral, then herb",
     "une égalité de tour va à la potion"),
])
def test_every_print_guide_ends_with_play_notes(kits, game, en, fr):
    """What to deal and cut, and what was decided where the rulebook is silent: from the
    game's [guide] notes, in both languages."""
    for lang, words, head in (("en", en, "Play notes:"), ("fr", fr, "Notes de jeu\u202f:")):
        guide = kits[game, lang]["guide"]
        notes = guide[guide.index(head):]
        assert words in notes and notes.index(words) < notes.index(
            "Credits:" if lang == "en" else "Crédits\u202f:")


@pytest.mark.parametrize("game, file, second_side, what", [
    ("covenia", "cards.pdf", "Scoring", "Game aids, Set-up card"),  # the aid's back: the scoring
    ("covenia", "tokens.pdf", "Red and yellow rituals cannot target you", "Tokens"),
    ("vengeance", "cards.pdf", "Reveal everything played in the centre", "Aid cards, Set-up card"),
    ("lugvanion", "cards.pdf", "The eight characters", "Player aids"),
    ("coverta", "cards.pdf", "End, deal, variants", "Player aids"),
])
def test_without_backs_a_second_side_prints_as_a_face_of_its_own(tmp_path, game, file,
                                                                  second_side, what):
    """--flip none drops the shared backs, never what a second side says: an aid's back,
    the Shield's rule; the print guide says to glue them."""
    build(game, Options(flip="none", out=tmp_path / "kit"))
    assert second_side in flat(" ".join(page_texts(tmp_path / "kit" / file)))
    guide = (tmp_path / "kit" / "print-guide.txt").read_text()
    # (Lugvanion and Coverta list their set-up card after their aids)
    assert re.search(rf"the second sides of {what}(, [^,]+)? print as faces of their own", guide)


def test_a_mini_card_says_less_where_a_poker_card_says_it_all(tmp_path):
    """A layout may hold a shorter text for a small card (`when = "card.w < 140"`): a
    Lugvanion character at mini size names its free partisan's guild by the badge alone,
    and its objective's house rule in a few words."""
    texts = {}
    for size in ("poker", "mini-euro"):
        build("lugvanion", Options(card_size=size, only=["characters", "objectives"],
                                   out=tmp_path / size))
        texts[size] = flat(" ".join(page_texts(tmp_path / size / "cards.pdf")))
    assert "Free: 1 partisan in the Forge guild" in texts["poker"]
    assert "Free: 1 partisan on its guild" not in texts["poker"]
    assert "Free: 1 partisan on its guild" in texts["mini-euro"]
    assert "House rule: 1 gold per partisan." in texts["mini-euro"]
    assert "the rulebook gives no amount" in texts["poker"]
