"""`companion export GAME preview`: a contact sheet per component, each distinct face once
with its id and count, small enough for a web page."""

import pytest
from PIL import Image

from companion import export


@pytest.fixture(scope="module")
def previews(tmp_path_factory):
    out = tmp_path_factory.mktemp("preview") / "covenia-preview"
    return out, export.export("covenia", "preview", export.Options(out=out))


def test_one_contact_sheet_per_component_small_enough_for_a_web_page(previews):
    out, manifest = previews
    assert sorted(p.name for p in out.glob("*.png")) == sorted(
        f"{c['id']}.png" for c in manifest["components"])
    for comp in manifest["components"]:
        image = Image.open(out / comp["path"])
        assert image.size == tuple(comp["size_px"])
        assert image.width <= 1280
        assert (out / comp["path"]).stat().st_size < 400_000


def test_each_distinct_face_once_with_its_count(previews):
    out, manifest = previews
    comps = {c["id"]: c for c in manifest["components"]}
    clans = comps["clan-cards"]["faces"]
    assert len(clans) == 101  # 100 fronts and the back they share
    assert clans[-1] == {"label": "back", "count": 100}
    assert {f["count"] for f in clans[:-1]} == {1}
    assert comps["aids"]["faces"] == [{"label": "aid", "count": 4}, {"label": "back", "count": 4}]
    assert [f["label"] for f in comps["tokens"]["faces"]] == ["first-player", "shield",
                                                                 "first-player back", "shield back"]


def test_a_face_on_both_sides_of_a_card_counts_its_cards_once(tmp_path):
    manifest = export.export("lugvanion", "preview", export.Options(out=tmp_path / "l",
                                                                     only=["tokens"]))
    partisans = next(c for c in manifest["components"] if c["id"] == "partisans")
    assert sum(f["count"] for f in partisans["faces"]) == partisans["cards"]


def test_the_sheet_shows_the_faces_not_an_empty_page(previews):
    out, manifest = previews
    image = Image.open(out / "temple.png").convert("RGB")
    colours = image.getcolors(maxcolors=1 << 16)
    assert colours and len(colours) > 20  # card art and labels, not a blank page
