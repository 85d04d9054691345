"""Every line of the poker cards on some card at a smaller size (issue 31): a build under
poker size lays the kit out at poker too and reports each field printed there that none
of its own cards prints, nor carries by the game file's `[carries]` table
(companion/engine/coverage.py). A warning; with --strict, the build fails."""

import pytest

from companion.files import paths
from companion.errors import CompanionError
from companion.kit import Options, build

VENGEANCE = (paths.LAYOUTS / "vengeance.toml").read_text(encoding="utf-8")

# A game of our own: a card whose mini version says its text shorter, and a rules card
# whose mini version shows LINES of its list and SUITS of its three suits.
GAME = """\
[game]
id = "tides"
name = "Tides"
credits = { en = "Tides: a test game.", fr = "Tides : un jeu d’essai." }
ink = "#222222"
paper = "#FAF6EE"
CARRIES
[[cards]]
id = "otter"
text = { en = "Steal a card from a rival.", fr = "Volez une carte à une rivale." }
short = { en = "Steal a card.", fr = "Volez une carte." }

[rules]
lines = [
  { en = "Draw two cards.", fr = "Piochez deux cartes." },
  { en = "Play one card.", fr = "Jouez une carte." },
  { en = "Discard down to five.", fr = "Défaussez jusqu’à cinq." },
]
suits = [{ name = "Shell" }, { name = "Wave" }, { name = "Pearl" }]

[components.cards]
kind = "creature"
cards = "cards"

[components.rules]
kind = "rules"
cards = ["rules"]

[kinds.creature]
[[kinds.creature.elements]]
type = "textblock"
x = 0.12
w = 0.76
text = "{text}"
y = 0.3
h = 0.4
size = 0.06
field = "cards.text"
when = "card.w >= 140"
[[kinds.creature.elements]]
type = "textblock"
x = 0.12
w = 0.76
text = "{short}"
y = 0.3
h = 0.4
size = 0.06
field = "cards.short"
when = "card.w < 140"

[kinds.rules]
[[kinds.rules.elements]]
type = "bullets"
x = 0.12
w = 0.76
lines = "{lines}"
y = 0.1
h = 0.4
size = 0.06
field = "rules.lines"
mark = "ink"
when = "card.w >= 140"
[[kinds.rules.elements]]
type = "bullets"
x = 0.12
w = 0.76
lines = "{lines}"
y = 0.1
h = 0.4
size = 0.06
field = "rules.lines"
mark = "ink"
count = LINES
when = "card.w < 140"
[[kinds.rules.elements]]
type = "text"
repeat = "suits"
step = { y = 0.1 }
text = "{item.name}"
y = 0.6
size = 0.06
field = "rules.suits"
when = "card.w >= 140"
[[kinds.rules.elements]]
type = "text"
repeat = "suits"
count = SUITS
step = { y = 0.1 }
text = "{item.name}"
y = 0.6
size = 0.06
field = "rules.suits"
when = "card.w < 140"
"""


def tides(tmp_path, carries="", lines=3, suits=3):
    path = tmp_path / "tides.toml"
    path.write_text(GAME.replace("CARRIES", carries).replace("LINES", str(lines))
                    .replace("SUITS", str(suits)), encoding="utf-8")
    return path


def warnings(tmp_path, data, game="vengeance", **options) -> list[str]:
    said: list[str] = []
    build(game if game == "vengeance" else str(data),
          Options(data=data if game == "vengeance" else None, out=tmp_path / "kit", **options),
          warn=said.append)
    return [w for w in said if "printed at poker" in w]


def test_a_shorter_text_undeclared_is_reported_at_mini_size_and_declared_is_not(tmp_path):
    bare = tides(tmp_path)
    said = warnings(tmp_path, bare, game="tides", card_size="mini-euro")
    assert len(said) == 1, said
    assert "tides · cards 1 front · cards.text · en: printed at poker, on no mini-euro card" \
        in said[0] and "[carries]" in said[0] and "(“Steal a card from a rival.”)" in said[0]
    with pytest.raises(CompanionError, match=r"cards\.text"):
        build(str(bare), Options(card_size="mini-usa", lang="fr", strict=True,
                                 out=tmp_path / "strict"))
    declared = tides(tmp_path, carries='\n[carries]\n"cards.short" = "cards.text"\n')
    assert warnings(tmp_path, declared, game="tides", card_size="mini-euro") == []
    build(str(declared), Options(card_size="mini-usa", lang="fr", strict=True,
                                 out=tmp_path / "strict"))
    for size in ("poker", "tarot"):  # the full size and larger are not checked
        assert warnings(tmp_path, bare, game="tides", card_size=size) == []


def test_a_list_line_and_a_repeat_item_left_out_at_mini_size_are_each_reported(tmp_path):
    path = tides(tmp_path, '\n[carries]\n"cards.short" = "cards.text"\n', lines=2, suits=2)
    assert warnings(tmp_path, path, game="tides", card_size="poker") == []
    said = warnings(tmp_path, path, game="tides", card_size="mini-usa")
    assert len(said) == 2, said
    assert "rules.lines[2]" in said[0] and "“Discard down to five.”" in said[0]
    assert "· rules.suits ·" in said[1] and "“Pearl”" in said[1]


def test_a_carries_value_that_names_no_field_is_one_line_naming_it(tmp_path, cli):
    path = tides(tmp_path, carries='\n[carries]\n"cards.short" = 3\n')
    r = cli("build", str(path), "--out", str(tmp_path / "kit"))
    assert r.code == 2 and "carries.cards.short" in r.err and "full-size field" in r.err, r.err
    assert len(r.err.strip().splitlines()) == 1


# ---- Vengeance's mini aid ------------------------------------------------------------

# The mini turn aid as it was: its back starts at line 3 and inherits the front's
# `lines_shown = 3`, so the gates' line (6) printed on no card and nothing said so.
NOW_FRONT = ('fields = { side = "front", title = "{front_title} 1/2", lines = "{front}", '
             'first = 1, lines_shown = 3, resolution = "{resolution_card}" }')
NOW_BACK = ('back = { each = true, kind = "aid", fields = { side = "front", title = '
            '"{front_title} 2/2", lines = "{front}", first = 4, lines_shown = 3 } }')
BEFORE_FRONT = NOW_FRONT.replace("first = 1", "first = 0")
BEFORE_BACK = NOW_BACK.replace("first = 4, lines_shown = 3", "first = 3")


def vengeance(tmp_path, text):
    path = tmp_path / "vengeance.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("lang, words", [
    ("en", "Gates, kept once gained: one more herb, potion or artifact when you draw that"),
    ("fr", "Portes, acquises pour la partie\u202f: une herbe, une potion ou un artéfact de plus"),
])
@pytest.mark.parametrize("size", ["mini-euro", "mini-usa"])
def test_the_mini_aid_as_it_was_is_reported_for_its_gates_line(tmp_path, lang, words, size):
    assert VENGEANCE.count(NOW_FRONT) == 1 and VENGEANCE.count(NOW_BACK) == 1
    before = vengeance(tmp_path, VENGEANCE.replace(NOW_FRONT, BEFORE_FRONT)
                       .replace(NOW_BACK, BEFORE_BACK))
    said = warnings(tmp_path, before, card_size=size, lang=lang, only=["aids", "setup"])
    assert len(said) == 1, said
    assert f"· aid.front[6] · {lang}: printed at poker, on no {size} card" in said[0]
    assert words[:37] in said[0]
    with pytest.raises(CompanionError, match=r"aid\.front\[6\]"):
        build("vengeance", Options(data=before, card_size=size, lang=lang, strict=True,
                                   only=["aids", "setup"], out=tmp_path / "strict"))


def test_vengeance_mini_aid_and_set_up_cards_carry_every_poker_line(tmp_path):
    for size in ("mini-euro", "mini-usa"):
        for lang in ("en", "fr"):
            assert warnings(tmp_path, None, card_size=size, lang=lang,
                            only=["aids", "setup"]) == []


def test_a_mini_line_whose_declaration_is_taken_out_is_reported(tmp_path):
    line = '"texts.artifact_order_short" = "texts.artifact_order"\n'
    assert VENGEANCE.count(line) == 1
    path = vengeance(tmp_path, VENGEANCE.replace(line, ""))
    said = warnings(tmp_path, path, card_size="mini-euro", only=["artifacts"])
    assert len(said) == 1 and "· texts.artifact_order · en:" in said[0] and \
        "(“Higher numbers act first. Empty centr...”)" in said[0], said
    assert warnings(tmp_path, path, card_size="poker", only=["artifacts"]) == []


def test_the_set_up_line_of_the_aid_is_carried_by_the_set_up_cards_alone(tmp_path):
    """The mini turn aid leaves out its set-up line: without the set-up cards (or their
    declaration) it is reported."""
    said = warnings(tmp_path, None, card_size="mini-usa", only=["aids"])
    assert len(said) == 1 and "· aid.front[0] · en:" in said[0], said


# ---- what the check costs: skipped where the size is never read, kept by face digest ----

def _counting_draws(monkeypatch) -> list[str]:
    """The faces the coverage check draws on its scratch canvas, as they are drawn."""
    from companion.engine import coverage

    drawn: list[str] = []
    inside: list[bool] = []
    real_wrap, real_printed = coverage.fit.Recorder.wrap, coverage.printed

    def wrap(self, draw, label, *more):
        if inside:  # not the build's own faces
            drawn.append(label)
        return real_wrap(self, draw, label, *more)

    def printed(*args):
        inside.append(True)
        try:
            return real_printed(*args)
        finally:
            inside.pop()
    monkeypatch.setattr(coverage.fit.Recorder, "wrap", wrap)
    monkeypatch.setattr(coverage, "printed", printed)
    return drawn


def test_a_layout_that_never_reads_the_card_size_is_not_laid_out_again_at_poker(
        tmp_path, monkeypatch):
    """No `card.w` or `card.h` anywhere in the game file (and no game code): the same
    words at every size, so a mini build lays nothing out again at poker."""
    from companion.engine import coverage

    sized = tides(tmp_path)
    assert coverage.reads_size({"kinds": {"a": [{"when": "card.w < 140"}]}})
    assert coverage.reads_size({"kinds": {"a": [{"y": "0.5 * card.h"}]}})
    assert not coverage.reads_size({"kinds": {"a": [{"when": "w < 140", "text": "{cards}"}]}})
    plain = tmp_path / "plain.toml"  # the mini versions left out: nothing reads the size
    plain.write_text("\n[[kinds.".join(
        part for part in sized.read_text(encoding="utf-8").split("\n[[kinds.")
        if "card.w < 140" not in part).replace('when = "card.w >= 140"', ""),
        encoding="utf-8")
    assert "card.w" not in plain.read_text(encoding="utf-8")
    drawn = _counting_draws(monkeypatch)
    assert warnings(tmp_path, plain, game="tides", card_size="mini-euro") == []
    assert drawn == []  # skipped
    said = warnings(tmp_path, sized, game="tides", card_size="mini-euro")
    assert len(said) == 1 and drawn  # the file reads the size: checked


def test_each_poker_faces_measures_are_kept_under_its_digest_and_a_changed_face_redrawn(
        tmp_path, monkeypatch):
    """A second build draws no poker face again (their measures kept in the cache folder,
    each under the face's digest); an edited card's face alone is drawn again; the
    warnings are those of a build that kept nothing."""
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "cache"))
    path = tides(tmp_path)
    drawn = _counting_draws(monkeypatch)
    first = warnings(tmp_path, path, game="tides", card_size="mini-euro")
    poker = list(drawn)
    assert len(first) == 1 and poker
    drawn.clear()
    assert warnings(tmp_path, path, game="tides", card_size="mini-euro") == first
    assert drawn == []  # all kept
    path.write_text(path.read_text(encoding="utf-8").replace(
        "Steal a card from a rival.", "Steal two cards from a rival."), encoding="utf-8")
    drawn.clear()
    again = warnings(tmp_path, path, game="tides", card_size="mini-euro")
    assert again == [first[0].replace("Steal a card from a rival.",
                                      "Steal two cards from a rival.")]
    assert drawn == ["cards 1 front"]
    # a fresh cache: the same warnings, every face drawn
    monkeypatch.setenv("TABLE_COMPANION_CACHE", str(tmp_path / "cold"))
    drawn.clear()
    assert warnings(tmp_path, path, game="tides", card_size="mini-euro") == again
    assert sorted(drawn) == sorted(poker)
