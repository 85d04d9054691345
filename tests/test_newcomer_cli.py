"""A newcomer's first commands: a command group named alone shows its help (exit 0);
fixed-choice options take any case (`--paper A4`, as the README writes it) and a wrong
one lists the choices in one line; a card list saved by a French or German spreadsheet
program (semicolons, decimal commas) reads as its program meant; `--changed-since` with
nothing changed leaves the kit whole."""

import csv
import json

import click
import pytest

from companion.files import spreadsheet
from companion.cli import cli as root


def groups(command=root, path=()) -> list[tuple[str, ...]]:
    """Every command group's words: (), ("score",), ("coverta",)..."""
    if not isinstance(command, click.Group):
        return []
    found = [path]
    with click.Context(command) as ctx:
        for name in command.list_commands(ctx):
            found += groups(command.get_command(ctx, name), (*path, name))
    return found


GROUPS = groups()


@pytest.mark.parametrize("words", GROUPS, ids=lambda w: " ".join(("companion", *w)))
def test_a_group_named_alone_prints_its_help_and_exits_0(cli, words):
    assert {("score",), ("coverta",), ("lugvanion",), ("vengeance",)} <= set(GROUPS)
    r = cli(*words)
    assert r.code == 0, r.err
    assert r.out.startswith("Usage: companion") and "\nCommands:\n" in r.out
    assert "\\x0a" not in r.out + r.err and r.err == ""


# ---- fixed choices, in any case --------------------------------------------------------

def test_build_takes_its_choices_in_any_case_and_writes_them_as_named(cli, tmp_path):
    r = cli("build", "Covenia", "--paper", "A4", "--lang", "FR", "--flip", "Short", "--ink",
            "Saver", "--card-size", "Poker", "--only", "tokens", "--out", tmp_path / "kit")
    assert r.code == 0, r.err
    manifest = json.loads((tmp_path / "kit" / "manifest.json").read_text(encoding="utf-8"))
    assert (manifest["game"], manifest["paper"], manifest["lang"], manifest["ink"]) == (
        "covenia", "a4", "fr", "saver")
    assert manifest["files"][0]["duplex"] == "short"
    assert "A4" in (tmp_path / "kit" / "print-guide.txt").read_text(encoding="utf-8")


GAME = """[[players]]
name = "Emma"
area = { red = [1, 4, 6] }
hand = {}
[[players]]
name = "Laurence"
area = { red = [5] }
hand = {}
"""


def test_score_and_the_vote_take_their_choices_in_any_case(cli, tmp_path):
    (tmp_path / "game.toml").write_text(GAME, encoding="utf-8")
    r = cli("score", "covenia", tmp_path / "game.toml", "--lang", "FR", "--pdf",
            tmp_path / "s.pdf", "--paper", "Letter")
    assert r.code == 0 and (tmp_path / "s.pdf").exists(), r.err
    r = cli("lugvanion", "odds", "red=4", "blue=4", "--tie-rule", "REDRAW")
    assert r.code == 0 and "tie rule: redraw" in r.out, r.err


def test_export_takes_its_format_and_shop_in_any_case(cli, tmp_path):
    r = cli("export", "covenia", "PNG", "--shop", "TGC", "--only", "temple", "--out",
            tmp_path / "png")
    assert r.code == 0, r.err
    assert json.loads((tmp_path / "png" / "manifest.json").read_text())["format"] == "png"


def command(*path: str) -> click.Command:
    cmd = root
    for name in path:
        with click.Context(cmd) as ctx:
            cmd = cmd.get_command(ctx, name)
    return cmd


PAPERS, WORDS, TIES = ("a4", "letter"), ("en", "fr"), ("extra", "redraw")
# (command, its arguments with a choice in capitals, the parameter, what the command gets,
# a wrong value's whole line, the choices the error lists). A serve line has --qr-pdf: its
# paper is checked before a server starts, whatever the version.
CHOICES = [
    (("build",), ["covenia", "--paper", "A4"], "paper", "a4",
     ["build", "covenia", "--paper", "B5"], PAPERS),
    (("build",), ["covenia", "--flip", "Short"], "flip", "short",
     ["build", "covenia", "--flip", "sideways"], ("long", "short", "none")),
    (("build",), ["covenia", "--ink", "Saver"], "ink", "saver",
     ["build", "covenia", "--ink", "heavy"], ("normal", "saver")),
    (("build",), ["covenia", "--card-size", "EURO"], "card_size", "euro",
     ["build", "covenia", "--card-size", "jumbo"], ("poker", "bridge", "euro", "tarot")),
    (("build",), ["covenia", "--lang", "FR"], "lang", "fr",
     ["build", "covenia", "--lang", "french"], WORDS),
    (("build",), ["Covenia"], "game", "covenia",
     ["build", "covenant"], ("covenia", "lugvanion", "coverta", "vengeance")),
    (("export",), ["covenia", "PNG"], "format", "png",
     ["export", "covenia", "pdf"], ("cards-pdf", "png", "tts", "preview")),
    (("export",), ["covenia", "png", "--shop", "TGC"], "shop", "tgc",
     ["export", "covenia", "png", "--shop", "kinkos"], ("tgc", "mpc")),
    (("score", "covenia"), ["--lang", "FR"], "lang", "fr",
     ["score", "covenia", "--lang", "de", "game.toml"], WORDS),
    (("score", "covenia"), ["--paper", "Letter"], "paper", "letter",
     ["score", "covenia", "game.toml", "--pdf", "s.pdf", "--paper", "B5"], PAPERS),
    (("serve",), ["--paper", "LETTER"], "paper", "letter",
     ["serve", "--qr-pdf", "qr.pdf", "--paper", "B5"], PAPERS),
    (("serve",), ["--lang", "FR"], "lang", "fr",
     ["serve", "--qr-pdf", "qr.pdf", "--lang", "de"], WORDS),
    (("serve",), ["--tie-rule", "Redraw"], "tie_rule", "redraw",
     ["serve", "--qr-pdf", "qr.pdf", "--tie-rule", "coin"], TIES),
    (("lugvanion", "odds"), ["--tie-rule", "REDRAW"], "tie_rule", "redraw",
     ["lugvanion", "odds", "red=4", "blue=4", "--tie-rule", "coin"], TIES),
    (("init",), ["covenia", "--spreadsheets", "XLSX"], "spreadsheets", "xlsx",
     ["init", "covenia", "--spreadsheets", "ods"], ("csv", "xlsx")),
]


@pytest.mark.parametrize("path,args,param,named,wrong,choices", CHOICES,
                         ids=[" ".join((*c[0], *c[1])) for c in CHOICES])
def test_a_choice_is_taken_in_any_case_and_a_wrong_one_is_one_line_listing_them(
        cli, tmp_path, monkeypatch, path, args, param, named, wrong, choices):
    with command(*path).make_context(" ".join(path), list(args)) as ctx:
        assert ctx.params[param] == named
    monkeypatch.chdir(tmp_path)
    r = cli(*wrong)
    assert r.code == 2 and r.out == ""
    assert len(r.err.strip().splitlines()) == 1, r.err
    assert all(c in r.err for c in choices), r.err
    assert list(tmp_path.iterdir()) == []  # nothing written


@pytest.mark.parametrize("option,value", [("--paper", "LETTER"), ("--flip", "NONE"),
                                          ("--ink", "NORMAL"), ("--card-size", "EURO"),
                                          ("--lang", "Fr")])
def test_each_build_choice_in_capitals_builds_the_kit_it_names(cli, tmp_path, option, value):
    r = cli("build", "covenia", option, value, "--only", "temple", "--out", tmp_path / "k")
    assert r.code == 0, r.err
    manifest = json.loads((tmp_path / "k" / "manifest.json").read_text(encoding="utf-8"))
    got = {"--paper": manifest["paper"], "--lang": manifest["lang"], "--ink": manifest["ink"],
           "--flip": manifest["files"][0]["duplex"],
           "--card-size": manifest["files"][0]["card_size"]}[option]
    assert got == value.lower()


# ---- CSV from a French or German spreadsheet program ----------------------------------

FRENCH = ('\ufeffid;name;weight;text\r\n'
          'a1;"Étoile de mer";"2,5";"Mange, puis dort; longtemps"\r\n'
          'a2;Crabe;3;"Pince, et ""repince"""\r\n'
          'a3;"Oursin";"-0,75";Pique\r\n')


def read_csv(tmp_path, text: str, name: str = "cards.csv"):
    (tmp_path / name).write_text(text, encoding="utf-8", newline="")
    return spreadsheet.read({"spreadsheet": name}, tmp_path, "game.toml", "cards")


def test_a_french_csv_reads_with_semicolons_and_decimal_commas(tmp_path):
    rows = read_csv(tmp_path, FRENCH)
    assert [dict(r) for r in rows] == [
        {"id": "a1", "name": "Étoile de mer", "weight": 2.5,
         "text": "Mange, puis dort; longtemps"},
        {"id": "a2", "name": "Crabe", "weight": 3, "text": 'Pince, et "repince"'},
        {"id": "a3", "name": "Oursin", "weight": -0.75, "text": "Pique"}]


@pytest.mark.parametrize("text,header", [
    ('"name, en";"name, fr";qty\nSea;Mer;1\n', ["name, en", "name, fr", "qty"]),
    ("name\ttext\tqty\nSea\tWet, salty\t1\n", ["name", "text", "qty"]),
    ("sep=|\nname|text\nSea|Wet\n", ["name", "text"]),
])
def test_the_separator_is_the_one_the_header_row_uses(tmp_path, text, header):
    rows = read_csv(tmp_path, text)
    assert rows and all(set(r) == set(header) - {"qty"} for r in rows)


def test_a_semicolon_in_a_cell_is_no_separator_but_one_in_the_header_row_is(tmp_path):
    comma = read_csv(tmp_path, 'name,text\nSea,"a; b; c"\n', "comma.csv")
    single = read_csv(tmp_path, "name\nSea; the deep\n", "single.csv")
    semicolon = read_csv(tmp_path, '"name, en";text\nSea;"a, b"\n', "semicolon.csv")
    assert [dict(r) for r in comma] == [{"name": "Sea", "text": "a; b; c"}]
    assert [dict(r) for r in single] == [{"name": "Sea; the deep"}]
    assert [dict(r) for r in semicolon] == [{"name, en": "Sea", "text": "a, b"}]


def test_a_game_whose_card_list_was_saved_with_semicolons_builds_as_with_commas(
        starter, cli, tmp_path):
    cards = starter.parent / "cards.csv"
    r = cli("build", starter, "--only", "cards", "--out", tmp_path / "commas")
    assert r.code == 0, r.err
    with cards.open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    with cards.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f, delimiter=";", quoting=csv.QUOTE_NONNUMERIC).writerows(rows)
    assert cards.read_text(encoding="utf-8").startswith('"kind";"title";')
    r = cli("build", starter, "--only", "cards", "--out", tmp_path / "semicolons")
    assert r.code == 0, r.err

    def digests(folder):
        return json.loads((folder / "manifest.json").read_text())["cards"]
    assert digests(tmp_path / "semicolons") == digests(tmp_path / "commas")


# ---- --changed-since with nothing changed ----------------------------------------------

def test_changed_since_with_nothing_changed_keeps_the_kit_whole(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("build", "covenia", "--only", "tokens,temple").code == 0
    kit = tmp_path / "output" / "covenia"
    before = {p.name: p.read_bytes() for p in kit.iterdir()}
    assert "tokens.pdf" in before
    r = cli("build", "covenia", "--only", "tokens,temple", "--changed-since",
            "output/covenia/manifest.json")
    assert r.code == 0, r.err
    assert len(r.out.strip().splitlines()) == 1 and "none of the" in r.out
    assert "changed since output/covenia/manifest.json" in r.out
    assert {p.name: p.read_bytes() for p in kit.iterdir()} == before


def test_a_reprint_goes_beside_the_kit_never_over_it(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("build", "covenia", "--only", "tokens,temple").code == 0
    kit = tmp_path / "output" / "covenia"
    before = {p.name: p.read_bytes() for p in kit.iterdir()}
    r = cli("build", "covenia", "--only", "tokens,temple", "--lang", "fr", "--changed-since",
            "output/covenia/manifest.json")
    assert r.code == 0, r.err
    assert r.out.startswith(f"covenia: {tmp_path / 'output' / 'covenia-reprint'}/ ")
    assert "cards changed since output/covenia/manifest.json" in r.out
    assert {p.name: p.read_bytes() for p in kit.iterdir()} == before  # the kit, whole
    assert json.loads((tmp_path / "output" / "covenia-reprint" / "manifest.json")
                      .read_text())["changed"]


def test_an_output_folder_that_cannot_be_written_is_named_not_its_lock_file(
        cli, tmp_path, monkeypatch):
    import os

    real = os.open

    def read_only(path, *a, **k):
        if str(path).endswith(".lock"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, *a, **k)
    monkeypatch.setattr(os, "open", read_only)
    r = cli("build", "covenia", "--only", "aids", "--out", str(tmp_path / "out" / "kit"))
    assert r.code == 2 and r.err.count("\n") == 1, r.err
    assert f"{tmp_path / 'out'}: cannot write in this folder (Permission denied)" in r.err
    assert ".lock" not in r.err


def test_bare_companion_lists_every_command_whole_on_an_80_column_terminal(monkeypatch):
    import subprocess
    import sys
    from pathlib import Path

    env = {"COLUMNS": "80", "PATH": "/usr/bin:/bin",
           "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    out = subprocess.run([sys.executable, "-m", "companion"], capture_output=True, text=True,
                         env=env).stdout
    listed = [line for line in out.splitlines() if line.startswith("  ") and
              line.split()[0] in {c for c in root.list_commands(None)}]
    assert len(listed) == len(root.list_commands(None)), out
    assert not [line for line in listed if line.rstrip().endswith("...")], listed


def test_a_game_without_credits_builds_and_its_guide_says_none(cli, starter, tmp_path):
    text = starter.read_text(encoding="utf-8")
    kept = [line for line in text.splitlines() if not line.startswith("credits")]
    assert len(kept) == len(text.splitlines()) - 1  # the starter's [game] credits, gone
    starter.write_text("\n".join(kept) + "\n", encoding="utf-8")
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 0, r.err
    guide = (tmp_path / "kit" / "print-guide.txt").read_text(encoding="utf-8")
    assert "Credits" not in guide and "a game by" not in guide


@pytest.mark.parametrize("typed, offered", [
    ("companion build co", {"covenia", "coverta"}),
    ("companion build covenia --paper L", {"letter"}),
    ("companion build covenia --card-size mini", {"mini-euro", "mini-usa"}),
    ("companion export covenia p", {"png", "preview", "pdfx"}),
])
def test_tab_completion_offers_games_papers_card_sizes_and_formats(typed, offered):
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = dict(os.environ, COMP_WORDS=typed, COMP_CWORD=str(len(typed.split()) - 1),
               _COMPANION_COMPLETE="bash_complete",
               PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    code = "import sys; sys.argv[0] = 'companion'; from companion.__main__ import main; main()"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env).stdout
    plain = {line.split(",", 1)[1] for line in out.splitlines() if line.startswith("plain,")}
    assert plain == offered, out


def test_an_install_on_python_3_10_says_which_python_it_needs(monkeypatch):
    """pip resolves an editable install's dependencies before it compares requires-python:
    the build backend says it first (.build/backend.py)."""
    import runpy
    import sys
    from pathlib import Path

    monkeypatch.setattr(sys, "version_info", (3, 10, 13, "final", 0))
    backend = Path(__file__).resolve().parents[1] / ".build" / "backend.py"
    with pytest.raises(SystemExit) as e:
        runpy.run_path(str(backend))
    assert "needs Python 3.11 or newer; this is Python 3.10" in str(e.value.code)
