"""Every line of the full-size kit printed at a smaller card size too: the coverage check.

A mini card says less (an aid on two cards, a shorter text where `when = "card.w < 140"`),
never nothing. A build at a card size narrower or shorter than poker (the default, the size
the games are written for) lays the kit out again at poker on a scratch canvas and compares
what the two print, field by field: the data key each text names (`field`, as the
text-limit reports say it), a list's line by its number (`aid.front[6]`). Each field the
poker cards print must be printed at the smaller size, with as many different words as at
poker (a demon's three types, each character's power), or be carried by a
text that the game file declares in its `[carries]` table, a field printed at smaller sizes
and the poker field (or list of fields) it stands for:

    [carries]
    "texts.artifact_order_short" = "texts.artifact_order"   # a shorter text for it
    "setup.back[3]" = ["aid.front[0]"]                        # said on another card

Any other is reported like a text that breaks the text limits (a warning; an error under
--strict), with its words and the poker face that prints it. A build with
--changed-since prints part of the kit: it is not checked.

What it costs is kept: a game whose layout never reads the card's size (no game code of
its own, no `card.w` or `card.h` anywhere in its file) prints the same words at every size,
and is not laid out again; each poker face's measures are kept under the face's digest
(the complete resolved input it draws, the face engine's own), in the watching process
and in the cache folder, so only a face that changed is drawn again on the scratch canvas."""

import hashlib
import io

import msgspec

from companion.draw import art
from companion.engine import bind
from companion.files import kept
from companion.press import presets
from companion.files.data import Fields
from companion.text import fit

FULL = "poker"  # the size the full version is written for (the build's default)
TABLE = "carries"
UNNAMED = {"stamp"}  # the version stamp: the same words at every size


def smaller(card: tuple[float, float], full: tuple[float, float]) -> bool:
    """A card narrower or shorter than the full size says less: it is checked."""
    return card[0] < full[0] - 0.01 or card[1] < full[1] - 0.01


def declared(data: Fields) -> dict[str, list[str]]:
    """The game file's [carries]: {a field printed at smaller sizes: the full-size fields
    it carries}; a value is a field or a list of them."""
    if TABLE not in data.table:
        return {}
    table = data.sub(TABLE)
    out = {}
    for short, full in table.table.items():
        names = [full] if isinstance(full, str) else full
        if not isinstance(names, list) or not names or \
                not all(isinstance(n, str) and n for n in names):
            raise table.error(short, "must name the full-size field it carries, or a list "
                                     'of them ("texts.artifact_order")')
        out[short] = list(names)
    return out


def _texts(measures) -> dict[str, dict[str, tuple[str, str]]]:
    """{field: {its words, folded: (the words, the face printing them)}}, in printing order."""
    out: dict[str, dict[str, tuple[str, str]]] = {}
    for m in measures:
        if m.exempt or m.field in UNNAMED:
            continue
        out.setdefault(m.field, {}).setdefault(_fold(m.text), (m.text, m.face))
    return out


def _fold(s: str) -> str:
    return " ".join(s.split()).casefold()


def reads_size(table) -> bool:
    """Whether a game file's layout may read the card's size: `card.w` or `card.h` in any
    of its strings (a condition, a text, a length), at any depth."""
    stack = [table]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if bind.CARD_W in v or bind.CARD_H in v:
                return True
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
    return False


FOLDER = "coverage"  # each poker face's measures, in the cache folder (companion.files.kept)


def printed(files, kept_measures: dict | None = None) -> list[fit.Measure]:
    """What the card files print, each distinct face drawn once on a scratch canvas (a
    missing picture as a placeholder: the build itself reports those). `kept_measures`:
    {a face's digest: its measures}, read for the faces found there and filled with the
    others."""
    from companion.engine.parts import CardFile
    from companion.press.pdf import open_canvas

    old = {} if kept_measures is None else dict(kept_measures)
    new: dict = {}
    # One scratch canvas for every face, each drawn in a state of its own: what is drawn
    # once per PDF (a designer's icon) is drawn once here too.
    c = open_canvas(io.BytesIO(), (1, 1), "coverage", "")
    with fit.recording(presets.text_limits()) as rec, art.logging(draft=True):
        for f in files:
            if not isinstance(f, CardFile):
                continue
            w, h = f.size
            for comp in f.components:
                seen = set()
                for n, card in enumerate(comp.cards, 1):
                    for side, face in (("front", card.front), ("back", card.back)):
                        if face is None or (face.key or id(face)) in seen:
                            continue
                        seen.add(face.key or id(face))
                        label = f"{comp.id} {face.key}" if face.key else f"{comp.id} {n} {side}"
                        digest = face.digest(w, h, 0.0) if face.digest is not None else None
                        if digest is not None and (digest in old or digest in new):
                            got = old[digest] if digest in old else new[digest]
                            new[digest] = got
                            rec.measures.extend(msgspec.convert(
                                {**m, "face": label}, fit.Measure) for m in got)
                            continue
                        start = len(rec.measures)
                        c.saveState()
                        rec.wrap(face.draw, label)(c, w, h, 0.0)
                        c.restoreState()
                        del c._code[:]  # never written: only the measures are kept
                        if digest is not None:
                            new[digest] = [msgspec.to_builtins(m)
                                           for m in rec.measures[start:]]
    if kept_measures is not None:
        kept_measures.clear()
        kept_measures.update(new)  # the faces of this build: the next one's
    return rec.measures


def _kept_printed(kit, files, code: str) -> list[fit.Measure]:
    """printed(files), each face's measures kept: in the watching process if it is one,
    else in the cache folder under our code (`code`) and the game's name and size."""
    store = kept.in_process
    if store is not None and FOLDER in store:
        return printed(files, store[FOLDER])
    key = hashlib.sha256("\0".join((code, FOLDER, kit.name, FULL)).encode()).hexdigest()
    measures = kept.read(FOLDER, key)
    measures = measures if isinstance(measures, dict) else {}
    out = printed(files, measures)
    kept.keep(FOLDER, key, measures)
    if store is not None:
        store[FOLDER] = measures
    return out


def missing(full: list[fit.Measure], small: list[fit.Measure], carries: dict[str, list[str]],
            size: str) -> list[fit.Problem]:
    """Each text of the full kit (`full`'s measures) that the smaller one (`small`'s, at
    `size`) neither prints nor carries."""
    big, little = _texts(full), _texts(small)
    carried = {f for short, names in carries.items() if short in little for f in names}
    out = []
    for field, texts in big.items():
        if field in carried:
            continue
        there = little.get(field, {})
        if len(there) >= len(texts):
            continue  # as many times over: its words may differ by size ("1/2", "see ...")
        # Each text looked for in all the smaller size's texts of the field at once (one
        # scan of their joined words, not a loop over them); NUL is in no printed text.
        joined = "\0".join(there)
        for folded, (words, face) in texts.items():
            if folded not in there and not (there and folded in joined):
                out.append(fit.Problem(
                    face, field, words,
                    f"printed at {FULL}, on no {size} card: print it, or declare in "
                    f"[{TABLE}] the text that carries it"))
    return out


def check(kit, measured: fit.Recorder, code: str = "") -> list[fit.Problem]:
    """The build's coverage problems: none at FULL or larger, nor where the layout never
    reads the card's size (`kit.by_size` false: the same words at every size); else what
    the kit laid out at FULL prints that this build (`measured`) does not. `code`: our
    code's version, what the measures kept in the cache folder are of ("": none kept)."""
    carries = declared(kit.ctx.data)  # a wrong table fails at every size
    if kit.at_size is None or not kit.by_size or \
            not smaller(kit.ctx.card, presets.card_size(FULL)):
        return []
    files = kit.at_size(FULL)
    full = _kept_printed(kit, files, code) if code else printed(files)
    return missing(full, measured.measures, carries, kit.ctx.card_name)
