"""What the kits say, read back from the built PDFs and guides in both languages: rule
fixes, one full aid per player, French typography and no internal references."""

import re

import pytest

from tests.conftest import GAMES
from tests.pdfs import page_texts

NNBSP = "\u202f"


def text_of(kits, game, lang, paper="a4"):
    out, manifest = kits(game, paper, lang)
    pages = [t for f in manifest["files"] for t in page_texts(out / f["path"])]
    return "\n".join(pages), (out / "print-guide.txt").read_text(encoding="utf-8")


def flat(s: str) -> str:
    return re.sub(r"\s+", " ", s.replace(NNBSP, " "))


@pytest.mark.parametrize("lang,first,gate,win,lose", [
    ("en", "Each vengeance you activate for the first time: draw 1 incantation",
     "(2 with that gate ability)", "wins at once", "every witch loses at the end of that turn"),
    ("fr", "Chaque vengeance activée pour la première fois : piochez 1 incantation",
     "(2 avec la capacité de porte)", "gagne aussitôt",
     "toutes les sorcières perdent à la fin du tour"),
])
def test_vengeance_aid_draws_an_incantation_per_first_vengeance_and_times_the_end(
        kits, lang, first, gate, win, lose):
    text = flat(text_of(kits, "vengeance", lang)[0])
    for words in (first, gate, win):
        assert text.count(words) == 4, words  # on each of the four aids
    assert text.count(lose) == 4 + 3  # and on each of the three demons' chains
    assert "Your first vengeance" not in text and "Votre première vengeance" not in text


@pytest.mark.parametrize("game,lang,front,back", [
    ("covenia", "en", "A round", "Scoring"), ("covenia", "fr", "Un tour", "Décompte"),
    ("vengeance", "en", "A TURN", "RESOLUTION"), ("vengeance", "fr", "UN TOUR", "RÉSOLUTION"),
])
def test_every_player_gets_the_same_full_two_sided_aid(kits, game, lang, front, back):
    out, manifest = kits(game, "a4", lang)
    counts = {c["id"]: c["count"] for f in manifest["files"] for c in f["components"]}
    assert counts["aids"] == 4
    pages = page_texts(out / "cards.pdf")
    aid_sheets = [i for i, t in enumerate(pages) if re.search(rf"^{front}$", t, re.M)]
    assert aid_sheets, front
    fronts = sum(len(re.findall(rf"^{front}$", pages[i], re.M)) for i in aid_sheets)
    backs = sum(len(re.findall(rf"^{back}$", pages[i + 1], re.M)) for i in aid_sheets)
    assert fronts == backs == 4  # each aid: the turn on its front, the scoring behind it


@pytest.mark.parametrize("lang,revote,resume,tie", [
    ("en", "A guild already held can be voted again", "Play resumes left of the player who",
     "put the 8 back in the bag and draw 5 afresh"),
    ("fr", "Une guilde déjà remportée peut être remise au vote",
     "Le jeu reprend à gauche du joueur qui a déclenché le vote",
     "remettez les 8 dans le sac et tirez-en 5 à nouveau"),
])
def test_lugvanion_aid_says_guilds_change_hands_where_play_resumes_and_the_tie(
        kits, lang, revote, resume, tie):
    text = flat(text_of(kits, "lugvanion", lang)[0])
    for words in (revote, resume, tie):
        assert text.count(words) == 4, words
    assert "retirez-en 5" not in text


@pytest.mark.parametrize("lang,joker,keep,filled", [
    ("en", "JOKER · Set aside in the standard deal; shuffled in for the 3-card deal.",
     "Your card must have the same parity as the last card laid.", "filled"),
    ("fr", "JOKER · Mise de côté dans la donne normale ; mélangée pour la donne à 3 cartes.",
     "Votre carte doit avoir la même parité que la dernière carte posée.", "rempli"),
])
def test_coverta_jokers_print_their_text_and_rules_read_plainly(kits, lang, joker, keep, filled):
    text = flat(text_of(kits, "coverta", lang)[0])
    assert text.count(joker) == 2 and text.count(keep) == 1 and filled in text
    assert "plein" not in text and "reprendre celle" not in text


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_internal_reference_is_printed(kits, game, lang):
    for s in text_of(kits, game, lang):
        assert "RULINGS" not in s


@pytest.mark.parametrize("game", GAMES)
def test_french_punctuation_never_starts_a_line_and_hugs_a_narrow_space(kits, game):
    pdf, guide = text_of(kits, game, "fr")
    for s in (pdf, guide):
        assert not re.search(r"^[ \t]*[:;!?»]", s, re.M), re.search(r"^.*\n[ \t]*[:;!?»].*", s, re.M)
        assert not re.search(r"[ \u00a0][:;!?»]|«[ \u00a0]", s)
    assert f"{NNBSP}:" in pdf


def test_french_kits_say_vous_not_tu(kits):
    text = flat(text_of(kits, "covenia", "fr")[0])
    for tu in ("Échange une", "Prends ", "Pose une", "Pioche une"):
        assert tu not in text
    assert "Prenez la plus petite ou la plus grande carte d’une adversaire" in text


def test_english_guild_texts_say_in_the_guild(kits):
    text = flat(text_of(kits, "lugvanion", "en")[0])
    assert "1 partisan in the Jewellery" in text and "on the Jewellery" not in text


@pytest.mark.parametrize("lang,measure,tokens", [
    ("en", "poker, 63.5 × 88.9 mm", "Tokens: 38 × 38 mm"),
    ("fr", "poker, 63,5 × 88,9 mm", f"Jetons{NNBSP}: 38 × 38 mm"),
])
def test_the_print_guide_gives_sizes_once_in_the_language_s_own_numbers(kits, lang, measure,
                                                                        tokens):
    guide = text_of(kits, "covenia", lang)[1]
    assert measure in guide and tokens in guide
    assert "38x38mm" not in guide and "(1 pages)" not in guide


def test_the_build_summary_counts_one_page_in_the_singular(tmp_path, cli):
    r = cli("build", "coverta", "--only", "scoresheet", "--out", tmp_path / "o")
    assert r.code == 0 and "(1 page)" in r.out and "(1 pages)" not in r.out, r.out
