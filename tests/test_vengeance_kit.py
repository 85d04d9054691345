"""The Vengeance prototype kit (issue 7): G2's counts, symbols, and visible placeholders."""

import re
import tomllib

from companion.files import paths
from companion.draw import symbols
from tests.pdfs import page_texts

DATA = tomllib.loads((paths.LAYOUTS / "vengeance.toml").read_text())
G2 = {"witches": 6, "demons": 3, "spells": 6, "gates": 8, "objects": 66, "transitory": 18,
      "artifacts": 13, "incantations": 13, "solo": 6, "aids": 4}
TOKENS = {"vengeance": 16, "gate": 16, "chain": 3, "demon": 1}


def count_lines(text, word):
    return len(re.findall(rf"^\s*{re.escape(word)}\s*$", text, re.M))


def test_manifest_counts_equal_rulings_g2(kits):
    _, m = kits("vengeance")
    counts = {c["id"]: c["count"] for f in m["files"] for c in f["components"]}
    # and the kit's own set-up card (issue 31), beyond the box's contents
    assert counts == {**G2, "tokens": sum(TOKENS.values()), "setup": 1}
    assert {t["id"]: t["count"] for t in DATA["tokens"]["items"]} == TOKENS
    assert {t["id"]: (t["ritual"], t["transitory"]) for t in DATA["types"]} == {
        "herb": (26, 7), "mineral": (22, 6), "potion": (18, 5)}


def test_each_object_type_has_its_own_symbol_and_name_on_every_object_card(kits):
    out, _ = kits("vengeance")
    text = "\n".join(page_texts(out / "cards.pdf"))
    assert len({t["symbol"] for t in DATA["types"]}) == 3
    for t in DATA["types"]:
        assert t["symbol"] in symbols.SYMBOLS
        assert count_lines(text, t["name"]["en"].upper()) == t["ritual"] + t["transitory"]


def test_artifacts_and_incantations_are_numbered_1_to_13(kits):
    out, _ = kits("vengeance")
    text = "\n".join(page_texts(out / "cards.pdf"))
    assert count_lines(text, "ARTIFACT") == 13 and count_lines(text, "INCANTATION") == 13
    for n in range(1, 14):
        assert len(re.findall(rf"^\s*{n}\s*$", text, re.M)) >= 4  # two corners on each card


def test_the_five_named_witches_and_their_epithets_are_printed(kits):
    out, _ = kits("vengeance", "letter", "fr")
    text = "\n".join(page_texts(out / "cards.pdf"))
    for name, epithet in [("HAJNALKA", "Ombre imprévisible"), ("MYOSOTIS", "Sentinelle sauvage"),
                          ("THYLANE", "Enfant cruelle"), ("VIRÁG", "Recluse entomophage"),
                          ("ZINNIA", "Gitane florentine")]:
        assert name in text and epithet in text


def placeholder_count():
    n = 0
    for w in DATA["witches"]:
        n += sum(isinstance(v, dict) and "placeholder" in v for v in w.values())
    n += 6 * DATA["spells"]["count_per_witch"]  # every spell text is to come
    n += DATA["demons"]["count"] * (1 + len(DATA["types"]))  # a name and one action per type
    n += DATA["gates"]["count"] * 5  # kind, requires, next, a Gate's passive and arrival
    n -= "kind_first" in DATA["gates"]  # but card I's kind: a Gate (the set-up says so)
    n += DATA["solo"]["count"]
    return n


def test_every_placeholder_is_visibly_marked_on_its_card(kits):
    out, _ = kits("vengeance")
    text = "\n".join(page_texts(out / "cards.pdf"))
    assert count_lines(text, "TO COME") == placeholder_count()


def test_placeholders_are_listed_in_the_print_guide(kits):
    out, _ = kits("vengeance")
    guide = (out / "print-guide.txt").read_text()
    assert "Placeholders to fill in:" in guide
    assert "Sixth witch: name to come" in guide
    assert "Vengeance & Gate: 8: Objects required: to come" in guide
    assert "Solo cards: Solo mode card: to come (× 6)" in guide


def test_a_designer_fills_a_placeholder_and_it_is_no_longer_marked(tmp_path, cli):
    d = (paths.LAYOUTS / "vengeance.toml").read_text().replace(
        'text = { placeholder = { en = "Solo mode card: to come", fr = "Carte du mode solo : à venir" } }',
        'text = { en = "The demon plays first.", fr = "Le démon joue en premier." }')
    (tmp_path / "v.toml").write_text(d)
    r = cli("build", "vengeance", "--data", tmp_path / "v.toml", "--only", "solo",
            "--out", tmp_path / "o")
    assert r.code == 0, r.err
    text = "\n".join(page_texts(tmp_path / "o" / "cards.pdf"))
    assert "The demon plays first." in text and "TO COME" not in text
    assert "Placeholders" not in (tmp_path / "o" / "print-guide.txt").read_text()


def test_ritual_objects_have_violet_backs_and_transitory_ones_golden(kits):
    g = DATA["game"]
    assert g["violet_back"].lower() == "#4b2a63" and g["golden_back"].lower() == "#b8912f"
    out, _ = kits("vengeance")
    from pypdf import PdfReader
    names = set()
    for page in PdfReader(out / "cards.pdf").pages[1::2]:
        names |= set((page["/Resources"].get("/XObject") or {}).keys())
    assert {"/FormXob.back-ritual", "/FormXob.back-transitory"} <= names
