"""The findings of companion.rules.playtest as sentences, in the report's words
(companion/layouts/playtest.toml; French typography applied by Fields.text). Every
finding says which version's plays it comes from."""

from functools import cache

from companion.files import paths
from companion.files.data import Fields, load_toml


@cache
def words() -> Fields:
    path = paths.LAYOUTS / "playtest.toml"
    return Fields(load_toml(path), str(path), english=True)


def text(section: str, key: str, lang: str, **values) -> str:
    return words().sub(section).text(key, lang).format(**values)


def pct(x: float) -> str:
    """A rate as a whole percent: 0.45 -> "45"."""
    return f"{100 * x:.0f}"


def count(n: int, lang: str) -> str:
    """A whole number with its thousands apart: 12,500 (en), 12 500 (fr, narrow space)."""
    s = f"{n:,}"
    return s.replace(",", "\u202f") if lang == "fr" else s


def version_name(v: str, lang: str) -> str:
    return v if v else text("report", "none", lang)


def scope(version: str, lang: str) -> str:
    """Whose plays a line judges: "Version 0.2", "All versions", "Version not recorded"."""
    from companion.rules.playtest import ALL

    if version == ALL:
        return text("scope", "all", lang)
    return text("scope", "version", lang, version=version) if version else \
        text("scope", "none", lang)


def _one_place(x: float, lang: str) -> str:
    """A figure to one decimal, its minus a minus sign: 9.0, \u22121.5 (fr: 9,0)."""
    s = f"{x:.1f}".replace("-", "\u2212")
    return s.replace(".", ",") if lang == "fr" else s


def decimal(x: float, lang: str) -> str:
    """A figure to one decimal: 1.2 (fr: 1,2)."""
    return _one_place(x, lang)


def _signed(x: float, lang: str) -> str:
    return ("+" if x > 0 else "") + _one_place(x, lang)


ODDS = (20, 50, 100, 1_000, 10_000)  # "fewer than 1 report in N", N the largest that holds


def odds(chance: float) -> int:
    """A finding's Holm-adjusted p as the plain "1 report in N": the largest N of ODDS
    with chance under 1 / N (20 for every finding)."""
    return max([n for n in ODDS if chance < 1 / n] or [ODDS[0]])


def sentence(f: dict, lang: str, categories: dict | None = None,
             factions: dict | None = None) -> str:
    """One line in words; a finding ends saying it is one, and how rarely luck makes
    it."""
    said = _said(f, lang, categories, factions)
    if f.get("line") == "finding":
        said += " " + text("finding", "chance", lang, n=count(odds(f["chance"]), lang))
    if f.get("skill_adjusted"):
        said += " " + _skill(f, lang)
    return said


def _skill(f: dict, lang: str) -> str:
    """Whether a seat's or faction's finding holds once player strength is counted."""
    a = f["skill_adjusted"]
    what = "seat" if f["kind"].startswith("seat") else "faction"
    if not a.get("apart", True):
        return text("finding", f"skill_{what}_together", lang)
    return text("finding", "skill_holds" if a["holds"] else "skill_flips", lang,
                odds=_two(a["odds"], lang), low=_two(a["low"], lang),
                high=_two(a["high"], lang), what=text("finding", "skill_" + what, lang),
                what_of=text("finding", "skill_" + what, lang),
                who=text("finding", f"skill_{what}_who", lang))


def _two(x: float, lang: str) -> str:
    """Odds to two decimals (fr: 1,25)."""
    s = f"{x:.2f}"
    return s.replace(".", ",") if lang == "fr" else s


def _said(f: dict, lang: str, categories: dict | None = None,
          factions: dict | None = None) -> str:
    """One line in words; `categories` and `factions` name ids (an id not named shows
    as it is)."""
    kind = f["kind"]
    where = scope(f.get("version", ""), lang)
    faction = str((factions or {}).get(f.get("faction"), f.get("faction", "")))
    if kind == "too_few":
        key = "too_few_players" if "players" in f else "too_few"
        return text("finding", key, lang, scope=where, plays=f["plays"], least=f["least"],
                    players=f.get("players", ""))
    if kind in ("seat", "faction"):
        return text("finding", kind, lang, scope=where, seat=f.get("seat", ""),
                    faction=faction, players=f.get("players", ""), rate=pct(f["rate"]),
                    low=pct(f["low"]), high=pct(f["high"]), even=pct(f["even"]),
                    plays=f["plays"])
    if kind in ("seat_score", "faction_score"):
        return text("finding", kind, lang, scope=where, seat=f.get("seat", ""),
                    faction=faction, players=f.get("players", ""),
                    mean=_one_place(f["mean"], lang), others=_one_place(f["others"], lang),
                    difference=_signed(f["difference"], lang), low=_signed(f["low"], lang),
                    high=_signed(f["high"], lang), plays=f["plays"])
    if kind == "outside":
        counts = ", ".join(text("finding", "outside_each", lang, players=k, plays=v)
                           for k, v in f["counts"].items())
        return text("finding", kind, lang, scope=scope("all", lang), plays=f["plays"],
                    counts=counts, least=f["least"], most=f["most"])
    if kind in ("arc_runaway", "no_runaway"):
        from companion.rules.arc import RUNAWAY

        return text("finding", kind, lang, scope=where, rate=pct(f["rate"]),
                    even=pct(f["even"]), bound=pct(f["bound"]), margin=pct(RUNAWAY),
                    low=pct(f["low"]), high=pct(f["high"]), plays=f["plays"])
    if kind == "no_seat":
        return text("finding", kind, lang, scope=where, players=f["players"],
                    plays=f["plays"], even=pct(f["even"]))
    if kind in ("no_faction", "no_decider"):
        return text("finding", kind, lang, scope=where, plays=f["plays"])
    if kind in ("gap_seat", "gap_faction"):
        more = text("finding", "over" if f["over"] else "about", lang,
                    n=count(f["more"], lang))
        return text("finding", kind, lang, scope=where, seat=f.get("seat", ""),
                    faction=faction, players=f.get("players", ""), rate=pct(f["rate"]),
                    even=pct(f["even"]), more=more)
    if kind == "deciders":
        said = [text("finding", "decider", lang,
                     category=str((categories or {}).get(d["category"], d["category"])),
                     difference=_signed(d["difference"], lang), low=_one_place(d["low"], lang),
                     high=_one_place(d["high"], lang))
                for d in f["separating"]]
        return text("finding", kind, lang, scope=where, categories="; ".join(said)
                    if lang == "en" else "\u202f; ".join(said), plays=f["plays"])
    if kind in ("version_seat", "version_faction"):
        was, now = f["was"], f["now"]
        verdict = ("fixed" if was["direction"] and not now["direction"] else
                   "still" if was["direction"] else "new")
        said = text("finding", verdict, lang)
        return text("finding", kind, lang, seat=f.get("seat", ""), faction=faction,
                    players=f.get("players", ""), last=version_name(f["last"], lang),
                    before=version_name(f["before"], lang), now=pct(now["rate"]),
                    now_low=pct(now["low"]), now_high=pct(now["high"]), was=pct(was["rate"]),
                    was_low=pct(was["low"]), was_high=pct(was["high"]),
                    even=pct(now["even"]), verdict=said, plays=f["plays"],
                    plays_before=f["plays_before"])
    raise ValueError(kind)


def sentences(summary: dict, lang: str, categories: dict | None = None,
              factions: dict | None = None) -> list[str]:
    return [sentence(f, lang, categories, factions) for f in summary["findings"]]
