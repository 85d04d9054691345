"""Issue 42, the kits: each decision taken where a rulebook is silent is printed as a house
rule where players read it and listed in the print guide; the rules a fresh reader missed
are printed; French reads as French. Read back with pdftotext from the built kits."""

import re
import subprocess

import pytest

from tests import needs


def pdftotext(pdf, *args: str) -> str:
    return subprocess.run([needs.tool("pdftotext"), *args, str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout


def flat(text: str) -> str:
    """One plain space for each run of spaces, narrow no-break spaces and line ends."""
    return re.sub(r"[\s\u202f\u00a0]+", " ", text)


def printed(kits, game, lang, file="cards.pdf") -> str:
    out, _ = kits(game, "a4", lang)
    return flat(pdftotext(out / file))


def guide(kits, game, lang) -> str:
    out, _ = kits(game, "a4", lang)
    return flat((out / "print-guide.txt").read_text(encoding="utf-8"))


# ---- Coverta -------------------------------------------------------------------------

# The pass itself (RULINGS V7): tests/test_printed_rules_reread.py, at poker and mini size.


@pytest.mark.parametrize("lang, decided", [
    ("en", ["after “pass”, whoever has worked out your rules may lay a card in your row until "
            "you have counted aloud to 5",
            "a row found faulty when its owner runs out of cards brings the usual penalties "
            "and play goes on",
            "a card marked with a token still counts as the last card laid for the next one"]),
    ("fr", ["après « je passe », qui a déduit vos consignes peut poser une carte dans votre "
            "rangée tant que vous n’avez pas compté à voix haute jusqu’à 5",
            "une rangée fautive quand son joueur n’a plus de cartes entraîne les pénalités "
            "habituelles et le jeu continue",
            "une carte marquée d’un jeton compte toujours comme la dernière carte posée pour "
            "la suivante"]),
])
def test_coverta_guide_lists_each_decision_under_decided_where_it_is_silent(kits, lang,
                                                                             decided):
    text = guide(kits, "coverta", lang)
    silent = text.index("Decided where it is silent" if lang == "en"
                        else "Tranché là où elle se tait")
    for line in decided:
        assert text.index(line) > silent, line


@pytest.mark.parametrize("lang, marked", [
    ("en", "A marked card is not checked again. House rule: it still counts as the last card "
           "laid for the next one."),
    ("fr", "Une carte marquée n’est plus vérifiée. Règle maison : elle compte toujours comme la "
           "dernière carte posée pour la suivante."),
])
def test_coverta_set_up_card_labels_the_marked_card_rule_a_house_rule(kits, lang, marked):
    assert marked in printed(kits, "coverta", lang)


@pytest.mark.parametrize("lang, end, reveal", [
    ("en", "End of a round: out of cards, reveal your rules; the table checks your row, marked "
           "cards excepted. Clean: the round ends and you win it. A fault (house rule): its "
           "penalties, and play goes on.",
     "Once one of your rule cards is shown, your earlier cards are checked against it, marked "
     "ones excepted."),
    ("fr", "Fin de manche : sans cartes, révélez vos consignes ; la table vérifie votre rangée, "
           "sauf les cartes marquées. Sans faute : la manche s’arrête et vous la gagnez. Une "
           "faute (règle maison) : ses pénalités, et le jeu continue.",
     "Dès qu’une de vos consignes est montrée, vos cartes déjà posées sont vérifiées selon "
     "elle, sauf les cartes marquées."),
])
def test_coverta_aid_says_what_follows_the_check_and_when_a_rule_card_checks_your_row(
        kits, lang, end, reveal):
    text = printed(kits, "coverta", lang)
    assert end in text and reveal in text


@pytest.mark.parametrize("lang, gone, now", [
    ("fr", "par quiconque", "par rapport à la dernière carte posée, quelle que soit sa rangée"),
    ("fr", "chaque pioche révèle", "qui doit piocher révèle à la place une consigne non "
                                   "distribuée"),
    ("en", "each draw reveals a spare rule", "whoever must draw reveals a spare rule card "
                                             "instead"),
])
def test_coverta_aid_reads_as_its_language(kits, lang, gone, now):
    text = printed(kits, "coverta", lang)
    assert gone not in text and now in text


@pytest.mark.parametrize("lang, heads, total, rounds", [
    ("en", ["cards in hand", "minus the lowest hand", "bonus", "points"], "Total", "Round"),
    ("fr", ["cartes en main", "moins la plus petite main", "bonus", "points"], "Total", "Manche"),
])
def test_coverta_score_sheet_names_its_columns_and_ends_on_a_total_row(kits, lang, heads,
                                                                       total, rounds):
    out, _ = kits("coverta", "a4", lang)
    layout = pdftotext(out / "scoresheet.pdf", "-layout")
    lines = [flat(line).strip() for line in layout.splitlines() if line.strip()]
    labels = [line.split(" ")[0] + (" " + line.split(" ")[1] if line.startswith(rounds) else "")
              for line in lines]
    # a row a round, 1 to 8, then the Total row under the last
    assert labels.index(f"{rounds} 8") < labels.index(total)
    assert [lb for lb in labels if lb.startswith(rounds + " ")] == [f"{rounds} {k}"
                                                                    for k in range(1, 9)]
    assert column_heads(out / "scoresheet.pdf", rounds) == heads * 5  # five players
    words = flat(pdftotext(out / "scoresheet.pdf"))
    note = {"en": "Add the points in the Total row: lowest total wins.",
            "fr": "Additionnez les points sur la ligne Total : le plus petit total gagne."}
    assert note[lang] in words


def column_heads(pdf, rounds: str) -> list[str]:
    """The words between the note and the first round's row, a column at a time from left
    to right: each column's lines (a centred text wrapped) read top to bottom."""
    html = pdftotext(pdf, "-bbox")
    words = [(float(x0), float(y0), float(x1), w) for x0, y0, x1, w in re.findall(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>',
        html)]
    first = min(y for x0, y, x1, w in words if w == rounds)
    top = max(y for x0, y, x1, w in words if x0 < 37 and y < first)  # the note's last line
    pieces: list[list] = []  # the words of a line that stand together: one column's
    for x0, y, x1, w in sorted((x0, y, x1, w) for x0, y, x1, w in words if top < y < first):
        near = [p for p in pieces if abs(p[1] - y) < 1 and 0 <= x0 - p[2] < 4]
        if near:
            near[0][2], near[0][3] = x1, near[0][3] + " " + w
        else:
            pieces.append([x0, y, x1, w])
    columns: list[list] = []
    for x0, y, x1, w in sorted(pieces, key=lambda p: ((p[0] + p[2]) / 2, p[1])):
        centre = (x0 + x1) / 2
        if columns and centre - columns[-1][-1][0] < 6:
            columns[-1].append((centre, y, w))
        else:
            columns.append([(centre, y, w)])
    return [" ".join(w for _, y, w in sorted(col, key=lambda t: t[1])) for col in columns]


# ---- Lugvanion -----------------------------------------------------------------------

@pytest.mark.parametrize("lang, home, gone", [
    ("en", "House rule: the 8 partisans go back to their owners.", "Partisans go home"),
    ("fr", "Règle maison : chacun reprend ses partisans.", "dessus ; chacun reprend"),
])
def test_lugvanion_aid_labels_the_partisans_return_a_house_rule(kits, lang, home, gone):
    text = printed(kits, "lugvanion", lang)
    assert home in text and gone not in text


@pytest.mark.parametrize("lang, note", [
    ("en", "House rule: the rulebook gives no amount here; we use 1 gold per "
           "partisan of yours."),
    ("fr", "Règle maison : 1 or par partisan de votre couleur (la règle ne donne pas de "
           "montant)."),
])
def test_lugvanion_objectives_label_yours_only_a_house_rule(kits, lang, note):
    assert printed(kits, "lugvanion", lang).count(note) == 12  # every objective card


@pytest.mark.parametrize("lang, decided", [
    ("en", ["1 gold per partisan of yours in that guild, your own colour only",
            "after a vote the 8 partisans go back to their owners",
            "Each is printed as a house rule."]),
    ("fr", ["1 or par partisan de votre couleur sur la guilde (les autres couleurs ne "
            "comptent pas)",
            "après un vote, chacun reprend ses partisans",
            "Chacun est imprimé comme règle maison."]),
])
def test_lugvanion_guide_lists_each_house_rule(kits, lang, decided):
    text = guide(kits, "lugvanion", lang)
    for line in decided:
        assert line in text, line


@pytest.mark.parametrize("lang, laid", [
    ("en", "A character, laid face up before you: in play, open to attack, until an objective "
           "or the Bard takes it back."),
    ("fr", "Un personnage, joué face visible devant vous : en jeu et attaquable jusqu’à ce "
           "qu’un objectif ou le Barde le reprenne."),
])
def test_lugvanion_aid_says_where_a_character_lies_and_until_when(kits, lang, laid):
    assert laid in printed(kits, "lugvanion", lang)


def test_lugvanion_french_says_sur_la_forge_not_en_forge(kits):
    text = printed(kits, "lugvanion", "fr")
    for guild in ("Forge", "Joaillerie", "Herboristerie", "Académie"):
        assert f"en {guild}" not in text and f"guilde {guild}" not in text, guild
    for on in ("sur la Forge", "sur la Joaillerie", "sur l’Herboristerie", "sur l’Académie"):
        assert f"Gratuit : 1 partisan {on}" in text, on
        assert f"par partisan de votre couleur {on}." in text, on


# ---- Vengeance -----------------------------------------------------------------------

@pytest.mark.parametrize("lang, step, spells, gone", [
    ("en", "III. Resolve (see the back). The winning type decides the demon’s action and its "
           "move, given by the card it leaves (house rule).",
     "their spells, announced even if they act at turn’s end (a part whose pile is empty is "
     "lost; discards leave the game, the target witch picks them; artifacts and incantations "
     "are not ritual objects; a card worth 3 counts as one when removed)", None),
    ("fr", "III. Résolvez (voir au dos). Le type gagnant fixe l’action et le déplacement du "
           "démon, lu sur sa carte de départ (règle maison).",
     "leurs sortilèges, annoncés même s’ils agissent en fin de tour (pioche vide : cette "
     "partie du sortilège est perdue ; les défausses quittent la partie, au choix de la "
     "sorcière visée ; artéfacts et incantations ne sont pas des objets rituels ; retirée, "
     "une carte qui en vaut 3 compte pour une)", "qui l’a la marque"),
])
def test_vengeance_aid_gives_the_demon_s_action_and_the_spells_general_rules(kits, lang, step,
                                                                            spells, gone):
    text = printed(kits, "vengeance", lang)
    assert step in text and spells in text
    if gone:
        assert gone not in text and "chaque sorcière concernée la marque et le démon perd une chaîne" in text


# ---- Covenia -------------------------------------------------------------------------

@pytest.mark.parametrize("lang, shield, gone", [
    ("en", "whoever has just suffered a red or yellow ritual takes it, and is spared both "
           "while she holds it.", "its holder is spared both"),
    ("fr", "la joueuse qui vient de subir un rituel rouge ou jaune le prend et n’en subit plus "
           "tant qu’elle le garde.", "qui l’a y échappe"),
])
def test_covenia_shield_line_reads_naturally(kits, lang, shield, gone):
    text = printed(kits, "covenia", lang)
    assert shield in text and gone not in text
