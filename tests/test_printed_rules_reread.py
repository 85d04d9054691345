"""Issue 55, the rules texts: what a fresh reader found, read back from the built kits with
pdftotext in English and French. Coverta's pass ends in a draw (RULINGS V7); every house
rule of Covenia (C4, C8), of Coverta's memo (V3) and of Vengeance's step III is labelled
where players read it and listed in the print guide; the mini cards say what they mean;
the French reads as French; a designer's tie-break is elided and said alike on the pad and
by `companion score`."""

import re
import subprocess

import pytest

from tests import needs
from tests.conftest import build_kit


def flat(text: str) -> str:
    """One plain space for each run of spaces, narrow no-break spaces and line ends."""
    return re.sub(r"[\s\u202f\u00a0]+", " ", text)


def pdftotext(pdf) -> str:
    return flat(subprocess.run([needs.tool("pdftotext"), str(pdf), "-"], capture_output=True,
                               text=True, check=True).stdout)


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    """kit(game, lang, size="poker") -> its folder, each built once for this module."""
    cache: dict = {}

    def get(game: str, lang: str, size: str = "poker"):
        if (game, lang, size) not in cache:
            out = tmp_path_factory.mktemp(f"{game}-{lang}-{size}")
            build_kit(game, out, "--lang", lang, "--card-size", size)
            cache[game, lang, size] = out
        return cache[game, lang, size]
    return get


def printed(kit, game, lang, file="cards.pdf", size="poker") -> str:
    return pdftotext(kit(game, lang, size) / file)


def guide(kit, game, lang, size="poker") -> str:
    return flat((kit(game, lang, size) / "print-guide.txt").read_text(encoding="utf-8"))


def after(text: str, head: str) -> str:
    """The text from `head` on (it must be there)."""
    return text[text.index(head):]


# ---- Coverta: the pass ends in a draw (RULINGS V7) -------------------------------------

PASS = {
    "en": "Say “pass”. Whoever has worked out your rules may lay a card in your row (house "
          "rule: until you have counted aloud to 5; the first card down counts). If nobody "
          "does, draw 1 card (empty deck: reveal a spare rule card).",
    "fr": "Annoncez « je passe ». Qui a déduit vos consignes peut jouer à votre place (règle "
          "maison : tant que vous n’avez pas compté jusqu’à 5 ; la première carte posée "
          "compte). Sinon, piochez 1 carte (pioche vide : révélez une consigne "
          "non distribuée).",
}
NO_DRAW = {"en": "you draw nothing", "fr": "vous ne piochez pas"}


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", ["poker", "mini-usa"])
def test_coverta_pass_leads_to_a_draw_when_nobody_plays_in_your_row(kit, lang, size):
    text = printed(kit, "coverta", lang, size=size)
    assert PASS[lang] in text
    assert NO_DRAW[lang] not in text


@pytest.mark.parametrize("lang, silent, decided, gone", [
    ("en", "Decided where it is silent",
     ["after “pass”, whoever has worked out your rules may lay a card in your row until you "
      "have counted aloud to 5 (the first card down counts), and if nobody does you draw 1 "
      "card (empty deck: reveal a spare rule card)"],
     "you draw nothing"),
    ("fr", "Tranché là où elle se tait",
     ["après « je passe », qui a déduit vos consignes peut poser une carte dans votre rangée "
      "tant que vous n’avez pas compté à voix haute jusqu’à 5 (la première carte posée "
      "compte), et si personne ne le fait, vous piochez 1 carte (pioche vide : révélez une "
      "consigne non distribuée)"],
     "on ne pioche pas"),
])
def test_coverta_guide_lists_the_pass_as_decided(kit, lang, silent, decided, gone):
    text = guide(kit, "coverta", lang)
    for line in decided:
        assert line in after(text, silent), line
    assert gone not in text


# ---- Coverta: the memo's sides and jokers are ours (V3); the deck list is the kit's own --

@pytest.mark.parametrize("lang, memo", [
    ("en", "House rule: these sides; jokers: the background rules."),
    ("fr", "Règle maison : ces colonnes ; jokers : les consignes de fond."),
])
@pytest.mark.parametrize("size", ["poker", "mini-usa"])
def test_coverta_memo_labels_its_sides_and_jokers_a_house_rule(kit, lang, memo, size):
    assert printed(kit, "coverta", lang, size=size).count(memo) == 2  # both memo cards


@pytest.mark.parametrize("lang, listed, own", [
    ("en", "which rules sit on the memo’s left side (number) and right side (symbol), and that "
           "the two background rules are the jokers",
     "The 40-card list itself is the kit’s own and printed on no card"),
    ("fr", "quelles consignes figurent à gauche (le chiffre) et à droite (le symbole) de "
           "l’aide-mémo, et que les deux consignes de fond sont les jokers",
     "La liste des 40 cartes est propre à ce kit et ne figure sur aucune carte"),
])
def test_coverta_guide_lists_the_memo_and_says_the_deck_list_is_the_kit_s_own(kit, lang,
                                                                              listed, own):
    text = guide(kit, "coverta", lang)
    assert listed in text and own in text


# ---- Covenia: C4 and C8 labelled on the aid and the score book, listed in the guide -----

@pytest.mark.parametrize("lang, aid, book", [
    ("en", ["Yellow: cards × lowest card in hand (house rule: empty hand 0).",
            "Highest total wins; house rule: a tie shares the win."],
     ["cards × lowest card in hand (house rule: empty hand 0)",
      "highest wins; house rule: a tie shares the win"]),
    ("fr", ["Jaune : cartes × plus petite carte en main (règle maison : main vide 0).",
            "Le plus haut total gagne ; règle maison : à égalité, victoire partagée."],
     ["cartes × plus petite en main (règle maison : main vide 0)",
      "victoire au plus haut (règle maison : partagée si égalité)"]),
])
@pytest.mark.parametrize("size", ["poker", "mini-usa"])
def test_covenia_labels_the_empty_hand_and_the_shared_win_house_rules(kit, lang, aid, book,
                                                                      size):
    cards = printed(kit, "covenia", lang, size=size)
    for line in aid:
        assert cards.count(line) == 4, line  # every aid
    scorebook = printed(kit, "covenia", lang, "scorebook.pdf", size)
    for line in book:
        assert line in scorebook, line
    assert "(empty hand: 0)" not in cards + scorebook
    assert "(main vide : 0)" not in cards + scorebook


@pytest.mark.parametrize("lang, silent, both", [
    ("en", "Decided where the rulebook is silent",
     "an empty hand scores 0 for yellow; tied totals share the win. Each is printed as a "
     "house rule on the aid and in the score book."),
    ("fr", "Tranché là où la règle se tait",
     "une main vide rapporte 0 au jaune ; des totaux égaux partagent la victoire. Chacune est "
     "imprimée comme règle maison sur l’aide et dans le carnet de score."),
])
def test_covenia_guide_lists_the_empty_hand_under_decided_where_silent(kit, lang, silent, both):
    assert both in after(guide(kit, "covenia", lang), silent)


# ---- Vengeance: step III as the rulebook says it; three missing lines ------------------

@pytest.mark.parametrize("lang, lines, gone", [
    ("en", ["III. Resolve (see the back). The winning type decides the demon’s action and its "
            "move, given by the card it leaves (house rule).",
            "If the winning type activates the card reached (house rule)",
            "all at once, in no order (the quickest gets a pile’s last card)",
            "their spells, announced even if they act at turn’s end",
            "the demon token on Gate I (card I is a Gate)."],
     "then moves to the position the card it stands on gives"),
    ("fr", ["III. Résolvez (voir au dos). Le type gagnant fixe l’action et le déplacement du "
            "démon, lu sur sa carte de départ (règle maison).",
            "Si le type gagnant active la carte d’arrivée (règle maison)",
            "toutes en même temps, sans ordre (à la plus rapide la dernière carte d’une pile)",
            "leurs sortilèges, annoncés même s’ils agissent en fin de tour",
            "le jeton Démon sur la Porte I (la carte I est une Porte)."],
     "va où l’envoie la carte qu’il occupe"),
])
def test_vengeance_aid_step_three_and_the_missing_lines(kit, lang, lines, gone):
    text = printed(kit, "vengeance", lang)
    for line in lines:
        assert line in text, line
    assert gone not in text


@pytest.mark.parametrize("lang, gate, placeholder", [
    ("en", "Gate", "Vengeance or Gate: to come"), ("fr", "Porte", "Vengeance ou Porte : à venir")])
@pytest.mark.parametrize("size", ["poker", "mini-usa"])
def test_vengeance_card_one_prints_gate_and_the_other_seven_stay_to_come(kit, lang, gate,
                                                                         placeholder, size):
    text = printed(kit, "vengeance", lang, size=size)
    assert text.count(placeholder) == 7
    assert re.search(rf"\b{gate}\b", text.replace(placeholder, ""))
    guide_text = guide(kit, "vengeance", lang, size)
    assert guide_text.count(placeholder) == 7  # the print guide lists the seven still to come


@pytest.mark.parametrize("lang, decided", [
    ("en", ["there is no playing order (the quickest hand gets the last card of a pile)",
            "a spell is announced when revealed, even one that acts at the end of the turn",
            "card I is a Gate, since the set-up puts the demon on Gate I",
            "Decided where the rulebook is ambiguous: the card the demon leaves gives its next "
            "position, and the card it reaches is the one the winning type may activate."]),
    ("fr", ["personne ne joue avant l’autre (la main la plus rapide prend la dernière carte "
            "d’une pile)",
            "un sortilège s’annonce quand il est dévoilé, même s’il agit en fin de tour",
            "la carte I est une Porte, puisque la mise en place y pose le démon",
            "Tranché là où la règle est ambiguë : la carte que le démon quitte indique sa "
            "prochaine position, et c’est la carte où il arrive que le type gagnant peut "
            "activer."]),
])
def test_vengeance_guide_lists_what_it_decided(kit, lang, decided):
    text = guide(kit, "vengeance", lang)
    for line in decided:
        assert line in text, line


# ---- The mini cards --------------------------------------------------------------------

@pytest.mark.parametrize("lang, lines, gone", [
    ("en", ["House rule: 1 gold per partisan.", "per partisan of your colour in the",
            "Tithe: 1 gold to the copied character’s circle"],
     ["your own, 1 gold each", "to the copied circle"]),
    ("fr", ["Règle maison : 1 or par partisan.", "par partisan de votre couleur",
            "Dîme : 1 or au cercle du personnage copié"],
     ["1 or chacun, à vous", "au cercle du copié", "partisan à vous"]),
])
def test_lugvanion_mini_cards_keep_their_sense(kit, lang, lines, gone):
    text = printed(kit, "lugvanion", lang, size="mini-usa")
    for line in lines:
        assert line in text, line
    for line in gone:
        assert line not in text, line


@pytest.mark.parametrize("lang, sets, plural", [
    ("en", "five are printed: one card each, or a set of three on mini cards",
     "1 × Set-up cards"),
    ("fr", "cinq sont imprimées : une carte chacune, ou un jeu de trois en cartes mini",
     "1 × Cartes de mise en place"),
])
def test_mini_guides_say_aid_sets_and_no_plural_with_one(kit, lang, sets, plural):
    assert sets in guide(kit, "coverta", lang, "mini-usa")
    for game in ("vengeance", "coverta", "covenia", "lugvanion"):
        assert plural not in guide(kit, game, lang, "mini-usa"), game


# ---- French that reads as French -------------------------------------------------------

@pytest.mark.parametrize("game, file, gone, now", [
    ("coverta", "cards.pdf", ["ALTERNER", "GARDER", "Impossible ou pas envie",
                              "au lieu de passer, on pioche"],
     ["ALTERNANCE", "MAINTIEN", "Voler le tour : au lieu d’annoncer « je passe », vous "
                                "piochez."]),
    ("covenia", "cards.pdf", ["2+ en main", "autant que votre colonne la plus courte",
                              "égalité aussi"],
     ["Prenez la plus petite ou la plus grande carte d’une adversaire (au moins 2 en main)",
      "soit la hauteur de votre plus courte colonne"]),
    ("covenia", "scorebook.pdf", ["le plus (ex aequo aussi)"],
     ["en tête (même ex aequo) : 7 × cartes"]),
    ("lugvanion", "cards.pdf", ["tout juste", "revotée", "partisan à vous", "recopie",
                                "qui l’a lancé"],
     ["Une guilde déjà remportée peut être remise au vote",
      "à gauche du joueur qui a déclenché le vote", "par partisan de votre couleur"]),
    ("vengeance", "cards.pdf", ["une partie dont la pile est vide est perdue"],
     ["pioche vide : cette partie du sortilège est perdue"]),
])
def test_french_lines_read_as_french(kit, game, file, gone, now):
    text = printed(kit, game, "fr", file)
    for line in gone:
        assert line not in text, line
    for line in now:
        assert line in text, line


def test_coverta_check_names_a_rule_in_the_rulebook_s_words(tmp_path, cli):
    row = tmp_path / "row.toml"
    row.write_text('start = "C12"\nplays = [ { card = "C07", row = "Ana" } ]\n'
                   'rules = { Ana = ["keep:parity", "alternate:shape"] }\n')
    r = cli("coverta", "check", row, "--lang", "fr")
    assert r.code == 0, r.err
    assert "Parité (maintien)" in r.out and "garder" not in r.out


# ---- A designer's tie-break: elided, and said alike by the pad and `companion score` ----

EELS = ('name = "Gems"', 'name = { en = "Eels", fr = "Anguilles" }')


@pytest.fixture
def eels(tmp_path, cli, monkeypatch):
    """Issue 33's gemfall, its tie-break category named Anguilles in French."""
    from tests import gemfall

    monkeypatch.chdir(tmp_path)
    path = gemfall.make(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace(*EELS), encoding="utf-8")
    (tmp_path / "scores.toml").write_text(gemfall.scores_toml(gemfall.PLAYERS), encoding="utf-8")
    return path


@pytest.mark.parametrize("lang, rule, gone", [
    ("fr", "Égalité : le plus d’Anguilles l’emporte ; sinon, victoire partagée",
     "le plus de Anguilles"),
    ("en", "Tie: the most Eels wins; still tied, the win is shared", "a tie shares the win"),
])
def test_a_designer_tie_break_is_elided_and_said_alike_on_the_pad_and_the_cli(eels, cli, tmp_path,
                                                                             lang, rule, gone):
    out = tmp_path / f"kit-{lang}"
    r = cli("build", str(eels), "--out", str(out), "--lang", lang, "--strict")
    assert r.code == 0, r.err
    pad = pdftotext(out / "scorepad.pdf")
    assert rule in pad and gone not in pad
    r = cli("score", str(eels), "scores.toml", "--lang", lang)
    assert r.code == 0, r.err
    head = flat(r.out.splitlines()[0])
    assert rule in head and gone not in head, head
