"""The swap list between two printings of a kit: per component, which printed cards to
pull from the deck and which to put in, worked out from the two manifests' card lists
alone (each card's component, name and face digests). Pure: lists in, a plan out; the
build writes it (swap-list.txt, the manifest's `swap`) and the errata sheet draws it.

A card is known by its name (its id before a copy's "-2", "-3"); its copies are matched
by their faces: a copy whose front and back are the same in both printings stays in the
deck, every other old copy is removed and every other new copy inserted. So each
component's old count, less the removed, plus the inserted, is its new count."""

import re
from collections import Counter

CHANGED, MORE, FEWER, NEW, RETIRED = "changed", "more", "fewer", "new", "retired"
_COPY = re.compile(r"-\d+$")


def name_of(card: dict) -> str:
    """A manifest card's name: its own "name", else (a manifest from before names were
    listed) its id within the component, a copy's "-2" taken off."""
    if card.get("name"):
        return card["name"]
    cid = card["id"].split("/", 1)[-1]
    return _COPY.sub("", cid)


def plan(old: list[dict], new: list[dict]) -> list[dict]:
    """A component each (in the new kit's order, then the retired components):
    {"component", "old", "new", "removed", "inserted", "cards": [{"name", "change",
    "remove", "insert", "old", "new"}]}, only the cards that change listed; "old" and
    "new" of a card are its ids in each printing, in order."""
    order = list(dict.fromkeys([c["component"] for c in new] + [c["component"] for c in old]))
    out = []
    for comp in order:
        was = [c for c in old if c["component"] == comp]
        now = [c for c in new if c["component"] == comp]
        cards = _cards(was, now)
        out.append({"component": comp, "old": len(was), "new": len(now),
                    "removed": sum(c["remove"] for c in cards),
                    "inserted": sum(c["insert"] for c in cards), "cards": cards})
    return out


def _cards(was: list[dict], now: list[dict]) -> list[dict]:
    names = list(dict.fromkeys([name_of(c) for c in now] + [name_of(c) for c in was]))
    out = []
    for name in names:
        a = [c for c in was if name_of(c) == name]
        b = [c for c in now if name_of(c) == name]
        faces_a, faces_b = Counter(map(_faces, a)), Counter(map(_faces, b))
        kept = faces_a & faces_b
        remove = sum((faces_a - kept).values())
        insert = sum((faces_b - kept).values())
        if not remove and not insert:
            continue
        change = (NEW if not a else RETIRED if not b else MORE if not remove
                  else FEWER if not insert else CHANGED)
        out.append({"name": name, "change": change, "remove": remove, "insert": insert,
                    "old": [c["id"] for c in a], "new": [c["id"] for c in b]})
    return out


def _faces(card: dict) -> tuple:
    return card.get("front"), card.get("back")


def holds(plan_: list[dict]) -> bool:
    """Each component's counts add up: old - removed + inserted = new."""
    return all(p["old"] - p["removed"] + p["inserted"] == p["new"] for p in plan_)


def lines(plan_: list[dict], titles: dict, old_version: str, new_version: str,
          words) -> list[str]:
    """The swap list as text, a component a block. `words(key, **values)` gives our words
    in the kit's language (companion/layouts/errata.toml [swap])."""
    out = []
    for p in plan_:
        if not p["cards"]:
            continue
        out.append(words("component", title=titles.get(p["component"], p["component"]),
                         old=p["old"], new=p["new"], removed=p["removed"],
                         inserted=p["inserted"], was=old_version, now=new_version))
        for c in p["cards"]:
            said = []
            if c["remove"]:
                said.append(words("remove", n=c["remove"], name=c["name"], version=old_version))
            if c["insert"]:
                said.append(words("insert", n=c["insert"], name=c["name"], version=new_version))
            out.append("  " + ", ".join(said) + words(f"why_{c['change']}"))
        out.append("")
    return out
