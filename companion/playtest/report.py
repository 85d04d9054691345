"""The playtest report: A4 pages in our fonts, written aside and renamed into place
(companion.files.atomic). Page 1: the game, the plays counted, the findings in words
and the win rates by seat and by faction; from page 2: the score spread per category,
the winning margin and the game's length, each version beside the last, the versions
table and the credits. The blocks are measured first, then set on pages, so every page
says "page n of N"."""

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from reportlab.graphics import renderPDF
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4

from companion.draw import text as drawn
from companion.files.atomic import replaced
from companion.playtest import plots
from companion.playtest.words import pct, sentence, text, version_name
from companion.rules.playtest import ALL, LINES
from companion.press import fonts
from companion.press.pdf import open_canvas

MARGIN = 48.0
FOOTER = 24.0
PLOT_H = 150.0


@dataclass
class Game:
    """What the report says of the game: its name, its credits, its categories' and
    factions' names (by id; an id not named shows as it is), its colours."""
    name: str
    credits: str = ""
    categories: dict | None = None
    factions: dict | None = None
    accent: str = "#1D6F8C"
    ink: str = "#1F2A33"
    players: tuple | None = None  # the least and the most players ([game] players)


@dataclass
class Block:
    height: float
    draw: Callable  # (canvas, x, top, width) -> None
    new_page: bool = False  # starts a page
    keep: bool = False  # kept on a page with the next block


def _colour(value: str, default: str):
    try:
        return colors.HexColor(value)
    except (ValueError, TypeError, AttributeError):
        return colors.HexColor(default)


def _paragraph(s: str, size: float, role: str = "regular", colour=None,
               width: float = A4[0] - 2 * MARGIN, indent: float = 0.0, bullet: str = "",
               after: float = 4.0) -> Block:
    s = fonts.printable(s)
    lines = drawn.wrap(s, role, size, width - indent)
    lead = size * 1.3

    def draw(c, x, top, w):
        c.setFillColor(colour or plots.INK)
        c.setFont(fonts.font(role), size)
        y = top - size
        if bullet:
            c.drawString(x, y, bullet)
        for ln in lines:
            c.drawString(x + indent, y, ln)
            y -= lead

    return Block(len(lines) * lead + after, draw)


def _space(h: float) -> Block:
    return Block(h, lambda c, x, top, w: None)


def _drawing(d) -> Block:
    return Block(d.height + 6, lambda c, x, top, w: renderPDF.draw(d, c, x, top - d.height))


def _rule(colour) -> Block:
    def draw(c, x, top, w):
        c.setStrokeColor(colour)
        c.setLineWidth(2)
        c.line(x, top - 4, x + w, top - 4)
    return Block(12, draw)


def _plot(title: str, legend: str, d, accent) -> list[Block]:
    out = [_paragraph(title, 11.5, "bold", accent, after=2),
           *([_paragraph(legend, 7.5, colour=plots.MUTED, after=3)] if legend else []),
           _drawing(d), _space(8)]
    for b in out[:-2]:
        b.keep = True
    return out


def _side_by_side(cols: list[tuple[str, object]], legend: str, accent) -> list[Block]:
    """Plots in columns, each under its title, a legend above them all."""
    gap = 18.0
    height = max(d.height for _, d in cols)

    def draw(c, x, top, w):
        colw = (w - gap * (len(cols) - 1)) / len(cols)
        for i, (title, d) in enumerate(cols):
            cx = x + i * (colw + gap)
            c.setFillColor(accent)
            c.setFont(fonts.font("bold"), 11)
            lines = drawn.wrap(fonts.printable(title), "bold", 11, colw)
            for k, ln in enumerate(lines[:2]):
                c.drawString(cx, top - 11 - 13 * k, ln)
            renderPDF.draw(d, c, cx, top - 30 - d.height)

    out = [_keep(_paragraph(legend, 7.5, colour=plots.MUTED, after=3)),
           Block(height + 36, draw), _space(6)]
    return out


def _name(names: dict | None, key) -> str:
    return str((names or {}).get(key, key))


def blocks(s: dict, game: Game, source: str, lang: str) -> list[Block]:
    accent = _colour(game.accent, "#1D6F8C")
    width = A4[0] - 2 * MARGIN
    out = [_paragraph(text("report", "title", lang, game=game.name), 20, "bold", after=2),
           _rule(accent)]
    if s.get("version") == ALL:
        counted = text("report", "counted", lang, plays=s["plays"], file=source)
    else:
        counted = text("report", "counted_version", lang, plays=s["plays"],
                       version=version_name(s["version"], lang),
                       all=sum(v["plays"] for v in s["versions"].values()), file=source)
    out += [_paragraph(counted, 10, after=10),
            _keep(_paragraph(text("report", "findings", lang), 13, "bold", accent, after=4))]
    for line in LINES:  # findings, then the rest, then what may be luck: each apart
        said = [f for f in s["findings"] if f.get("line", "note") == line]
        if not said:
            continue
        out.append(_keep(_paragraph(text("report", "line_" + line, lang), 10.5, "bold",
                                    after=3)))
        out += [_paragraph(sentence(f, lang, game.categories, game.factions), 10,
                           indent=12, bullet="•", after=5) for f in said]
    how = text("report", "how", lang, checks=s["checks"]) if s["checks"] else \
        text("report", "how_none", lang)
    out += [_paragraph(how, 8, colour=plots.MUTED, after=10)]
    legend = text("plot", "legend", lang)

    def seat_label(k):
        return text("plot", "seat", lang, seat=k)

    half = (width - 18) / 2
    charts = []
    by = s.get("by_players") or {}
    for players, g in (by.items() if len(by) > 1 else []):
        seats = {seat_label(k): v for k, v in g["seats"].items()}
        charts.append((text("plot", "seats_players", lang, players=players, plays=g["plays"]),
                       plots.rate_chart(list(seats), [""], _one(seats), _w(seats, half), PLOT_H)))
    if len(by) <= 1 and s["seats"]:
        seats = {seat_label(k): v for k, v in s["seats"].items()}
        charts.append((text("plot", "seats", lang),
                       plots.rate_chart(list(seats), [""], _one(seats), _w(seats, half), PLOT_H)))
    if s["factions"]:
        named = {_name(game.factions, k): v for k, v in s["factions"].items()}
        charts.append((text("plot", "factions", lang),
                       plots.rate_chart(list(named), [""], _one(named), _w(named, half), PLOT_H)))
    out += _in_pairs(charts, half, legend, accent)
    out += _means(s, lang, width, accent)
    out += _deciders(s, game, lang, width, accent)
    out += _arc(s, lang, width, half, accent)
    # From page 2: spreads, margins, lengths, versions.
    cats = [(_name(game.categories, k), q) for k, q in s["scores"].items()]
    cats.append((text("plot", "total", lang), s.get("totals")))
    first = _rows_plot(text("plot", "scores", lang), text("plot", "scores_legend", lang), cats,
                       lambda rows: plots.box_chart(rows, width, max(60.0, 22.0 * len(rows)
                                                                     + 16), lang=lang), accent)
    first[0].new_page = True
    out += first
    versions = s["versions"]
    names = [version_name(v, lang) for v in versions]
    everything = text("report", "all", lang)
    for key, title in (("margin", "margin"), ("minutes", "minutes")):
        rows = [(n, v[key]) for n, v in zip(names, versions.values())]
        if len(rows) > 1 and s.get("version") == ALL:  # else s[key] is one version's
            rows.append((everything, s[key]))
        if not any(q for _, q in rows):
            out += [_paragraph(text("plot", title, lang), 11.5, "bold", accent, after=2),
                    _paragraph(text("plot", "nothing", lang), 9, colour=plots.MUTED, after=10)]
            continue
        out += _rows_plot(text("plot", title, lang), "", rows, lambda rows: plots.box_chart(
            rows, width, max(50.0, 22.0 * len(rows) + 16), lang=lang), accent)
    out += [_keep(_paragraph(text("plot", "versions", lang), 13, "bold", accent, after=6))]
    shown = list(versions)[-4:]  # the last four versions, each beside the one before
    series = [version_name(v, lang) for v in shown]
    seat_keys = sorted({k for v in shown for k in versions[v]["seats"]}, key=int)
    seat_labels = [seat_label(k) for k in seat_keys]
    charts = []
    counts = sorted({int(n) for v in shown for n in versions[v].get("by_players", {})})
    for n in counts if len(counts) > 1 else []:  # seats by player count, version by version
        keys = sorted({k for v in shown for k in versions[v]["by_players"].get(str(n), {})
                       .get("seats", {})}, key=int)
        labels = [seat_label(k) for k in keys]

        def cell(g, ser, n=n, keys=keys, labels=labels):
            group = versions[shown[series.index(ser)]]["by_players"].get(str(n))
            return group["seats"].get(keys[labels.index(g)]) if group else None
        charts.append((text("plot", "versions_seats_players", lang, players=n),
                       plots.rate_chart(labels, series, cell, _w(labels, half), PLOT_H)))
    if seat_keys and len(counts) <= 1:
        charts.append((text("plot", "versions_seats", lang), plots.rate_chart(
            seat_labels, series, lambda g, ser: versions[shown[series.index(ser)]]["seats"].get(
                seat_keys[seat_labels.index(g)]), _w(seat_labels, half), PLOT_H)))
    faction_keys = sorted({k for v in shown for k in versions[v]["factions"]})
    if faction_keys:
        labels = [_name(game.factions, k) for k in faction_keys]
        charts.append((text("plot", "versions_factions", lang), plots.rate_chart(
            labels, series, lambda g, ser: versions[shown[series.index(ser)]]["factions"].get(
                faction_keys[labels.index(g)]), _w(labels, half), PLOT_H)))
    out += _in_pairs(charts, half, legend, accent)
    out += _table(versions, lang, width)
    out += [_space(10), _paragraph(text("report", "credits", lang), 11.5, "bold", accent,
                                   after=2)]
    if game.credits:
        out.append(_paragraph(game.credits, 9, after=4))
    out.append(_paragraph(text("report", "made", lang), 8, colour=plots.MUTED))
    return out


def _means(s: dict, lang: str, width: float, accent) -> list[Block]:
    """Each seat's mean total with its 95% interval, player count by player count."""
    by = s.get("by_players") or {}
    rows = [(text("plot", "seat_players", lang, players=n, seat=k) if len(by) > 1 else
             text("plot", "seat", lang, seat=k), r["score"])
            for n, g in by.items() for k, r in g["seats"].items() if r.get("score")]
    if not rows:
        return []
    return _rows_plot(text("plot", "means", lang), text("plot", "means_legend", lang), rows,
                      lambda rows: plots.interval_chart(rows, "mean", width,
                                                        18.0 * len(rows) + 18, lang), accent)


def _deciders(s: dict, game: Game, lang: str, width: float, accent) -> list[Block]:
    """Each category: the winners' mean figure minus the others', with its interval."""
    rows = [(_name(game.categories, d["category"]), d) for d in s.get("deciders") or []]
    if not rows:
        return []
    return _rows_plot(text("plot", "deciders", lang), text("plot", "deciders_legend", lang),
                      rows, lambda rows: plots.interval_chart(
                          rows, "difference", width, 18.0 * len(rows) + 18, lang, zero=True),
                      accent)


COMEBACK_ROUNDS = 4  # the comeback chart's rounds: the first four (a bar each)


def _arc(s: dict, lang: str, width: float, half: float, accent) -> list[Block]:
    """The arc of a game on a page of its own: its figures in words, how often the
    leader after each round wins, and the comeback curve."""
    a = s.get("arc")
    if not a:
        return []
    from companion.playtest.words import count, scope

    def num(v) -> str:
        return plots._num(v, lang)

    said = [text("arc", "counted", lang, games=count(a["games"], lang),
                 scope=scope(s["version"], lang)),
            text("arc", "changes", lang, mean=num(a["lead_changes"]["mean"]), each=", ".join(
                text("arc", "changes_each", lang, n=k, games=v)
                for k, v in a["lead_changes"]["games"].items()))]
    if a["led_for_good"]:
        said.append(text("arc", "good", lang, each=", ".join(
            text("arc", "good_each", lang, round=k, games=v)
            for k, v in a["led_for_good"].items())))
    sp = a["spread"]
    if sp["last"] and sp["second"]:
        sign = "\u202f%" if lang == "fr" else "%"

        def q(x, share=False):
            f = (lambda v: pct(v) + sign) if share else num
            return f"{f(x['median'])} ({f(x['q1'])}–{f(x['q3'])})" if x else "–"
        said.append(text("arc", "spread", lang, last=q(sp["last"]), second=q(sp["second"]),
                         last_share=q(sp["last_share"], True),
                         second_share=q(sp["second_share"], True)))
    if a["minutes"]:
        said.append(text("arc", "minutes", lang, each="; ".join(
            text("arc", "minutes_each", lang, players=k, median=num(m["median"]),
                 q1=num(m["q1"]), q3=num(m["q3"])) for k, m in a["minutes"].items())))
    head = _paragraph(text("arc", "title", lang), 13, "bold", accent, after=6)
    head.new_page = True
    out = [_keep(head), *(_paragraph(x, 9.5, indent=12, bullet="•", after=4) for x in said),
           _space(6)]
    rounds = {text("arc", "round", lang, round=r["round"]): r for r in a["leader_wins"]}
    out += _plot(text("arc", "leader", lang), text("arc", "leader_legend", lang),
                 plots.rate_chart(list(rounds), [""], _one(rounds), width, PLOT_H), accent)
    backs = [c for c in a["comeback"] if c["round"] <= COMEBACK_ROUNDS]
    if backs:
        bands = sorted({tuple(c["behind_by"]) for c in backs},
                       key=lambda b: b[0])

        def band(b):
            lo, hi = b
            return text("arc", "band", lang, low=num(lo), high=num(hi)) if hi is not None \
                else text("arc", "band_open", lang, low=num(lo))
        labels = [band(b) for b in bands]
        series = [text("arc", "round", lang, round=r)
                  for r in sorted({c["round"] for c in backs})]
        cells = {(band(tuple(c["behind_by"])), text("arc", "round", lang, round=c["round"])): c
                 for c in backs}
        out += _plot(text("arc", "comeback", lang), text("arc", "comeback_legend", lang),
                     plots.rate_chart(labels, series, lambda g, ser: cells.get((g, ser)),
                                      width, PLOT_H + 20), accent)
    return out


ROWS_A_DRAWING = 24  # a chart of more rows is drawn in parts, each within a page


def _rows_plot(title: str, legend: str, rows: list, draw, accent) -> list[Block]:
    """A chart of a row per item (a category, a version, a seat) under its title, drawn
    ROWS_A_DRAWING rows at a time so that a long one runs on to the next page."""
    parts = [rows[i:i + ROWS_A_DRAWING] for i in range(0, len(rows), ROWS_A_DRAWING)] or [[]]
    out = _plot(title, legend, draw(parts[0]), accent)
    for part in parts[1:]:
        out[-1:-1] = [_drawing(draw(part))]
    return out


WIDE = 10  # a rate chart of more groups (seats, factions) takes the page's width


def _w(groups, half: float) -> float:
    return half if len(groups) <= WIDE else A4[0] - 2 * MARGIN


def _in_pairs(charts: list, half: float, legend: str, accent) -> list[Block]:
    """Charts two by two side by side; a wide one alone."""
    out, pending = [], []
    for chart in charts:
        if chart[1].width > half:
            out += _side_by_side([chart], legend, accent)
            continue
        pending.append(chart)
        if len(pending) == 2:
            out += _side_by_side(pending, legend, accent)
            pending = []
    if pending:
        out += _side_by_side([pending[0], ("", plots.Drawing(half, 1))], legend, accent)
    return out


def _keep(b: Block) -> Block:
    b.keep = True
    return b


def _one(values: dict):
    return lambda g, series: values.get(g)


def _table(versions: dict, lang: str, width: float) -> list[Block]:
    head = [text("table", k, lang) for k in ("version", "plays", "seat1", "margin", "minutes")]
    rows = []
    for v, f in versions.items():
        seat1 = f["seats"].get("1")
        by = {n: g["seats"]["1"] for n, g in (f.get("by_players") or {}).items()
              if "1" in g["seats"]}
        if len(by) > 1:  # seat 1 at each player count: pooled, it would mix their even rates
            said = " · ".join(text("table", "seat1_players", lang, rate=pct(r["rate"]),
                                   players=n) for n, r in by.items())
        else:
            said = f"{pct(seat1['rate'])} % ({pct(seat1['low'])}–{pct(seat1['high'])})" \
                .replace(" %", "\u202f%" if lang == "fr" else "%") if seat1 else "–"
        rows.append([version_name(v, lang), str(f["plays"]), said,
                     plots._num(f["margin"]["median"], lang) if f["margin"] else "–",
                     plots._num(f["minutes"]["median"], lang) if f["minutes"] else "–"])
    cols = [0.22, 0.13, 0.29, 0.18, 0.18]
    lead = 15.0
    # in parts of 40 rows, each under the header: a long table runs on to the next page
    return [_table_part(head, rows[i:i + 40], cols, lead) for i in range(0, len(rows), 40)]


def _table_part(head: list[str], rows: list[list[str]], cols: list[float],
                lead: float) -> Block:
    def draw(c, x, top, w):
        y = top - 11
        for i, row in enumerate([head, *rows]):
            c.setFont(fonts.font("bold" if i == 0 else "regular"), 9)
            c.setFillColor(plots.INK)
            cx = x
            for cell, frac in zip(row, cols):
                c.drawString(cx, y, fonts.printable(cell))
                cx += frac * w
            if i == 0:
                c.setStrokeColor(plots.GRID)
                c.setLineWidth(0.7)
                c.line(x, y - 4, x + w, y - 4)
            y -= lead

    return Block(lead * (len(rows) + 1) + 6, draw)


def pages(items: list[Block]) -> list[list[Block]]:
    """The blocks set on pages: a block kept with the next (a heading, a legend) starts a
    page with it when both would not fit."""
    room = A4[1] - 2 * MARGIN - FOOTER
    out: list[list[Block]] = [[]]
    used = 0.0
    for i, b in enumerate(items):
        need, j = b.height, i
        while items[j].keep and j + 1 < len(items):
            j += 1
            need += items[j].height
        if out[-1] and (b.new_page or used + need > room):
            out.append([])
            used = 0.0
        out[-1].append(b)
        used += b.height
    return out


def write(path: Path, summary: dict, game: Game, source: str, lang: str) -> int:
    """The report at `path` (written aside, then renamed); returns its page count."""
    laid = pages(blocks(summary, game, source, lang))
    title = text("report", "title", lang, game=game.name)
    with replaced(Path(path)) as tmp:
        c = open_canvas(tmp, A4, fonts.printable(title), fonts.printable(game.credits))
        for n, page in enumerate(laid, 1):
            top = A4[1] - MARGIN
            for b in page:
                b.draw(c, MARGIN, top, A4[0] - 2 * MARGIN)
                top -= b.height
            c.setFont(fonts.font("regular"), 7.5)
            c.setFillColor(plots.MUTED)
            c.drawCentredString(A4[0] / 2, MARGIN / 2, fonts.printable(text(
                "report", "page", lang, game=game.name, n=n, total=len(laid))))
            c.showPage()
        c.save()
    return len(laid)
