"""The findings of companion.rules.playtest as sentences, in the report's words
(companion/layouts/playtest.toml; French typography applied by Fields.text)."""

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


def version_name(v: str, lang: str) -> str:
    return v if v else text("report", "none", lang)


def sentence(f: dict, lang: str) -> str:
    """One finding in words."""
    kind = f["kind"]
    if kind == "too_few":
        key = "too_few_players" if "players" in f else "too_few"
        return text("finding", key, lang, plays=f["plays"], least=f["least"],
                    players=f.get("players", ""))
    if kind in ("seat", "faction"):
        return text("finding", kind, lang, seat=f.get("seat", ""), faction=f.get("faction", ""),
                    players=f.get("players", ""), rate=pct(f["rate"]), low=pct(f["low"]),
                    high=pct(f["high"]), even=pct(f["even"]), plays=f["plays"])
    if kind == "no_seat":
        return text("finding", kind, lang, players=f["players"], plays=f["plays"],
                    even=pct(f["even"]))
    if kind == "no_faction":
        return text("finding", kind, lang, plays=f["plays"])
    if kind in ("version_seat", "version_faction"):
        was, now = f["was"], f["now"]
        verdict = ("fixed" if was["direction"] and not now["direction"] else
                   "still" if was["direction"] else "new")
        said = text("finding", verdict, lang)
        return text("finding", kind, lang, seat=f.get("seat", ""),
                    faction=f.get("faction", ""), last=version_name(f["last"], lang),
                    before=version_name(f["before"], lang), now=pct(now["rate"]),
                    now_low=pct(now["low"]), now_high=pct(now["high"]), was=pct(was["rate"]),
                    was_low=pct(was["low"]), was_high=pct(was["high"]),
                    even=pct(now["even"]), verdict=said, plays=f["plays"])
    raise ValueError(kind)


def sentences(summary: dict, lang: str) -> list[str]:
    return [sentence(f, lang) for f in summary["findings"]]
