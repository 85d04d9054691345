"""`--strict` over every game, both languages and every card size the kits offer (issue
23): poker, bridge, euro and tarot as they are; the mini sizes say less where a card
holds too much (an aid on two or three cards, shorter texts where `when = "card.w <
140"`). A text that breaks a limit fails here, naming game, face, field and language."""

import pytest

from companion.kit import Options, build
from tests.conftest import GAMES

SIZES = ("poker", "bridge", "euro", "tarot", "mini-euro", "mini-usa")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", GAMES)
def test_strict_builds_every_game_in_both_languages_at_every_size(tmp_path, game, lang, size):
    build(game, Options(lang=lang, card_size=size, strict=True, out=tmp_path / "kit"))
