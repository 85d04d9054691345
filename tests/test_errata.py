"""A new printing: `build --changed-since OLD/manifest.json` writes errata.pdf (each changed
card's old face beside its new one, its words struck and underlined), swap-list.txt and
the manifest's `swap`, whose counts add up to both decks. The diff logic (words, swap) is
pure and checked alone first."""

import csv
import json
import re
import subprocess

import pytest
from hypothesis import given, strategies as st

from companion.files import paths
from companion.kit import swap
from companion.text import changes
from tests import needs


# --- the pure parts --------------------------------------------------------------------

def test_words_removed_and_added_are_marked_the_kept_are_not():
    marked = changes.words("keep it with another shell.", "keep it with a bigger shell.")
    assert [w for m, w in marked if m == changes.REMOVED] == ["another"]
    assert [w for m, w in marked if m == changes.ADDED] == ["a", "bigger"]
    assert [w for m, w in marked if m != changes.ADDED] == "keep it with another shell.".split()
    assert [w for m, w in marked if m != changes.REMOVED] == "keep it with a bigger shell.".split()


@given(st.lists(st.sampled_from("ab cd ef gh.".split()), max_size=12),
       st.lists(st.sampled_from("ab cd ef gh. ij".split()), max_size=12))
def test_words_give_back_both_texts(old, new):
    marked = changes.words(" ".join(old), " ".join(new))
    assert [w for m, w in marked if m != changes.ADDED] == old
    assert [w for m, w in marked if m != changes.REMOVED] == new


def test_fields_lists_only_the_fields_that_differ():
    diff = changes.fields({"title": "Ember", "text": "Burn one.", "points": 2},
                          {"title": "Ember", "text": "Burn two.", "points": "2"})
    assert [name for name, _ in diff] == ["text"]


def card(comp, cid, front, name=None):
    return {"id": f"{comp}/{cid}", "component": comp, "front": front, "back": "b",
            **({"name": name} if name else {})}


def test_swap_plan_names_changed_more_fewer_new_and_retired():
    old = [card("c", "ember", "e1"), card("c", "ember-2", "e1"), card("c", "ash", "a"),
           card("c", "coal", "k"), card("c", "coal-2", "k"), card("c", "gone", "g"),
           card("c", "moss", "m")]
    new = [card("c", "ember", "e2"), card("c", "ember-2", "e2"), card("c", "ember-3", "e2"),
           card("c", "ash", "a"), card("c", "coal", "k"), card("c", "fresh", "f"),
           card("c", "moss", "m"), card("c", "moss-2", "m")]
    (p,) = swap.plan(old, new)
    by = {c["name"]: (c["change"], c["remove"], c["insert"]) for c in p["cards"]}
    assert by == {"ember": ("changed", 2, 3), "coal": ("fewer", 1, 0), "gone": ("retired", 1, 0),
                  "fresh": ("new", 0, 1), "moss": ("more", 0, 1)}
    assert (p["old"], p["removed"], p["inserted"], p["new"]) == (7, 4, 5, 8)
    assert swap.holds([p])


def test_swap_lines_say_remove_and_insert_with_each_version():
    plan = swap.plan([card("c", "ember", "e1", "ember")] * 1,
                     [card("c", "ember", "e2", "ember")])
    text = swap.lines(plan, {"c": "Cards"}, "0.3", "0.4",
                      lambda key, **kw: {"component": "{title}", "remove": "remove {n} × {name} "
                                         "({version})", "insert": "insert {n} × {name} "
                                         "({version})"}.get(key, "").format(**kw))
    assert text[1] == "  remove 1 × ember (0.3), insert 1 × ember (0.4)"


cards_ = st.lists(st.tuples(st.sampled_from("xyz"), st.sampled_from("abcd"),
                            st.sampled_from("12")), max_size=14)


@given(cards_, cards_)
def test_swap_counts_add_up_to_both_decks(old, new):
    def listed(items):
        return [card(comp, f"{name}-{n}", face, name) for n, (comp, name, face)
                in enumerate(items)]
    plan = swap.plan(listed(old), listed(new))
    assert swap.holds(plan)
    assert sum(p["old"] for p in plan) == len(old) and sum(p["new"] for p in plan) == len(new)


# --- a designer's game, 0.3 then 0.4 ----------------------------------------------------

def _version(game, version):
    """The game file with `[game] version = VERSION`."""
    text = re.sub(r'(?m)^version = ".*"\n', "", game.read_text(encoding="utf-8"))
    game.write_text(text.replace("[game]\n", f'[game]\nversion = "{version}"\n', 1),
                    encoding="utf-8")


def _revise(cards_csv):
    rows = list(csv.DictReader(cards_csv.open(encoding="utf-8")))
    fields = list(rows[0])
    by = {r["title"]: r for r in rows}
    by["Hermit Crab"]["text"] = "Moves house when it grows: keep it with a bigger shell."
    by["Sea Star"]["text"] = "Regrows what it loses, slowly."
    by["Limpet"]["qty"] = "4"  # 3 before
    rows.remove(by["Storm"])
    rows.append({**dict.fromkeys(fields, ""), "kind": "creature", "title": "Kelp Crab",
                 "text": "Hides in the kelp.", "qty": "2", "points": "2", "icon": "wave"})
    with cards_csv.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)


def manifest(folder):
    return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))


def test_a_designers_next_version_has_errata_and_a_swap_list(starter, cli, tmp_path):
    pdftotext = needs.tool("pdftotext")
    _version(starter, "0.3")
    assert cli("build", starter, "--out", tmp_path / "v03").code == 0
    _revise(starter.parent / "cards.csv")
    _version(starter, "0.4")
    r = cli("build", starter, "--out", tmp_path / "v04",
            "--changed-since", tmp_path / "v03" / "manifest.json")
    assert r.code == 0, r.err
    assert "errata.pdf, swap-list.txt" in r.out
    old, new = manifest(tmp_path / "v03"), manifest(tmp_path / "v04")
    plan = new["swap"]["components"]
    # the counts add up to both manifests, component by component
    for p in plan:
        was = sum(c["component"] == p["component"] for c in old["cards"])
        now = sum(c["component"] == p["component"] for c in new["cards"])
        assert (p["old"], p["new"]) == (was, now)
        assert p["old"] - p["removed"] + p["inserted"] == p["new"]
    (cards,) = [p for p in plan if p["component"] == "cards"]
    by = {c["name"]: (c["change"], c["remove"], c["insert"]) for c in cards["cards"]}
    assert by == {"hermit-crab": ("changed", 2, 2), "sea-star": ("changed", 2, 2),
                  "limpet": ("more", 0, 1), "kelp-crab": ("new", 0, 2),
                  "storm": ("retired", 1, 0)}
    # what the reprint printed is what the swap list inserts
    printed = sum(c["count"] for f in new["files"] for c in f["components"])
    assert printed == sum(p["inserted"] for p in plan) == 7
    listed = (tmp_path / "v04" / "swap-list.txt").read_text(encoding="utf-8")
    assert "remove 2 × hermit-crab (0.3), insert 2 × hermit-crab (0.4)" in listed
    assert "remove 1 × storm (0.3) (retired)" in listed
    assert "insert 2 × kelp-crab (0.4) (new card)" in listed
    assert "insert 1 × limpet (0.4) (more copies)" in listed
    # errata.pdf: a cover, a page per changed card with both texts, then new, retired
    pages = subprocess.run([pdftotext, "-layout", str(tmp_path / "v04" / "errata.pdf"), "-"],
                           capture_output=True, text=True, check=True).stdout.split("\f")
    pages = [p for p in pages if p.strip()]
    assert "2 cards changed, 1 new, 1 retired" in pages[0]
    changed = [p for p in pages if "Changed:" in p]
    assert len(changed) == 2
    crab, = [p for p in changed if "hermit-crab" in p]
    flat = " ".join(crab.split())
    assert "keep it with another a bigger shell." in flat  # the old words, then the new
    assert "Printed in 0.3" in flat and "Now, 0.4" in flat
    assert any("New cards" in p and "Kelp Crab" in p for p in pages)
    assert any("Retired cards" in p and "storm" in p for p in pages)


def test_the_swap_list_is_in_the_kits_language(starter, cli, tmp_path):
    _version(starter, "0.3")
    assert cli("build", starter, "--out", tmp_path / "v03", "--lang", "fr").code == 0
    _revise(starter.parent / "cards.csv")
    _version(starter, "0.4")
    assert cli("build", starter, "--out", tmp_path / "v04", "--lang", "fr",
               "--changed-since", tmp_path / "v03" / "manifest.json").code == 0
    listed = (tmp_path / "v04" / "swap-list.txt").read_text(encoding="utf-8")
    assert "retirer 2 × hermit-crab (0.3), ajouter 2 × hermit-crab (0.4)" in listed


# --- the four games ---------------------------------------------------------------------

FOUR = [  # (game, words in its file, the same words edited, a changed card, old, new word)
    ("covenia", "Draw a card: lay it or keep it", "Draw one: lay it or keep it",
     "purple-1A", "card:", "one:"),
    ("lugvanion", "in the Forge guild", "in the Smithy guild", "red-foreman", "Forge",
     "Smithy"),
    ("vengeance", "Wild Sentinel", "Wild Warden", "myosotis", "Sentinel", "Warden"),
    ("coverta", 'symbol_colour = { en = "Symbol colour"', 'symbol_colour = { en = "Symbol hue"',
     "symbol_colour-keep", "colour", "hue"),
]


@pytest.mark.parametrize("game, old, new, name, gone, added", FOUR, ids=[g[0] for g in FOUR])
def test_each_of_the_four_games_has_errata_and_a_swap_list(game, old, new, name, gone, added,
                                                           cli, tmp_path):
    pdftotext = needs.tool("pdftotext")
    assert cli("build", game, "--out", tmp_path / "one").code == 0
    text = paths.layout(f"{game}.toml").read_text(encoding="utf-8")
    assert old in text
    (tmp_path / "edited.toml").write_text(text.replace(old, new, 1), encoding="utf-8")
    r = cli("build", game, "--data", tmp_path / "edited.toml", "--out", tmp_path / "two",
            "--changed-since", tmp_path / "one" / "manifest.json")
    assert r.code == 0, r.err
    m = manifest(tmp_path / "two")
    assert swap.holds(m["swap"]["components"])
    changed = [c["name"] for p in m["swap"]["components"] for c in p["cards"]]
    printed = sum(c["count"] for f in m["files"] for c in f["components"])
    assert name in changed and printed == sum(p["inserted"] for p in m["swap"]["components"])
    pages = subprocess.run([pdftotext, str(tmp_path / "two" / "errata.pdf"), "-"],
                           capture_output=True, text=True, check=True).stdout.split("\f")
    assert len([p for p in pages if "Changed:" in p]) == len(changed)
    (page,) = [p for p in pages if f"Changed: {name}\n" in p]
    assert gone in page and added in page
    assert f"insert 1 × {name} (this printing)" in (tmp_path / "two" / "swap-list.txt").read_text(
        encoding="utf-8")


def test_a_card_retired_alone_gives_errata_and_a_swap_list_and_no_cards(starter, cli,
                                                                       tmp_path):
    _version(starter, "0.3")
    assert cli("build", starter, "--out", tmp_path / "v03").code == 0
    cards = starter.parent / "cards.csv"
    cards.write_text("".join(line for line in cards.read_text(encoding="utf-8")
                             .splitlines(keepends=True) if not line.startswith("tide,Storm")),
                     encoding="utf-8")
    r = cli("build", starter, "--out", tmp_path / "v04",
            "--changed-since", tmp_path / "v03" / "manifest.json")
    assert r.code == 0, r.err
    assert "nothing to reprint" not in r.out and "errata.pdf, swap-list.txt" in r.out
    listed = (tmp_path / "v04" / "swap-list.txt").read_text(encoding="utf-8")
    assert "Cards: 15 cards (0.3) - 1 removed + 0 inserted = 14 cards (0.3)" in listed
    assert "remove 1 × storm (0.3) (retired)" in listed
    assert not (tmp_path / "v04" / "cards.pdf").exists()


def test_an_old_face_lying_turned_on_its_sheet_is_shown_upright(starter, cli, tmp_path):
    from pypdf import PdfReader

    _version(starter, "0.3")  # bridge cards lie turned on an A4 sheet
    assert cli("build", starter, "--card-size", "bridge", "--out", tmp_path / "v03").code == 0
    old = manifest(tmp_path / "v03")
    assert {c["place"]["turn"] for c in old["cards"] if "place" in c} == {90}
    _revise(starter.parent / "cards.csv")
    _version(starter, "0.4")
    assert cli("build", starter, "--card-size", "bridge", "--out", tmp_path / "v04",
               "--changed-since", tmp_path / "v03" / "manifest.json").code == 0
    page = PdfReader(tmp_path / "v04" / "errata.pdf").pages[1]  # the first changed card
    (face,) = page.images
    w, h = face.image.size
    assert h > w  # upright, as the card is
