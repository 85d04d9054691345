"""Card lists from spreadsheets (CSV, XLSX, ODS) give the same kit as the inline TOML, and
every mistake in a sheet is named by file, tab, row and column."""

import tomllib

import pytest
import tomlkit

from companion.files import paths, spreadsheet
from tests import sheetfiles

LISTS = [("covenia", "clans", "cards"), ("lugvanion", "characters", "characters"),
         ("coverta", "cards", "numbers"), ("vengeance", "witches", "witches")]


def bundled(game: str) -> dict:
    return tomllib.loads(paths.layout(f"{game}.toml").read_text(encoding="utf-8"))


def data_with_sheet(tmp_path, game, key, ext, rows=None, tab="cards"):
    data = bundled(game)
    sheetfiles.write(tmp_path / f"{key}.{ext}", rows or sheetfiles.table(data[key]), tab)
    data[key] = {"spreadsheet": f"{key}.{ext}"} | ({"tab": tab} if ext != "csv" else {})
    (tmp_path / f"{game}.toml").write_text(tomlkit.dumps(data), encoding="utf-8")
    return tmp_path / f"{game}.toml"


@pytest.fixture(scope="module")
def default_kits(tmp_path_factory):
    from tests.conftest import build_kit

    out = {}
    for game, _, part in LISTS:
        folder = tmp_path_factory.mktemp(f"default-{game}")
        build_kit(game, folder, "--only", part)
        out[game] = folder
    return out


@pytest.mark.parametrize("ext", ["csv", "xlsx", "ods"])
@pytest.mark.parametrize("game,key,part", LISTS)
def test_a_list_in_a_spreadsheet_builds_the_very_same_pdfs(default_kits, tmp_path, cli, game,
                                                            key, part, ext):
    data = data_with_sheet(tmp_path, game, key, ext)
    r = cli("build", game, "--only", part, "--data", data, "--out", tmp_path / "kit")
    assert r.code == 0, r.err
    for pdf in default_kits[game].glob("*.pdf"):
        assert (tmp_path / "kit" / pdf.name).read_bytes() == pdf.read_bytes(), pdf.name


def test_dotted_headers_fill_nested_fields_and_whole_numbers_read_as_integers(tmp_path):
    sheetfiles.write(tmp_path / "t.xlsx", [["id", "name.en", "name.fr", "n", "x"],
                                            ["a", "Red", "Rouge", 7, 2.5]])
    rows = spreadsheet.read({"spreadsheet": "t.xlsx"}, tmp_path, "d.toml", "list")
    assert rows == [{"id": "a", "name": {"en": "Red", "fr": "Rouge"}, "n": 7, "x": 2.5}]
    assert type(rows[0]["n"]) is int


def test_a_qty_column_repeats_its_row(tmp_path):
    sheetfiles.write(tmp_path / "t.csv", [["type", "qty"], ["a", 3], ["b", ""], ["c", 0]])
    rows = spreadsheet.read({"spreadsheet": "t.csv"}, tmp_path, "d.toml", "list")
    assert [r["type"] for r in rows] == ["a", "a", "a", "b"]


def one_line_error(r, *parts):
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
    for p in parts:
        assert p in r.err, (p, r.err)


@pytest.mark.parametrize("ext", ["csv", "xlsx", "ods"])
def test_an_unknown_header_is_named_with_its_column(tmp_path, cli, ext):
    rows = sheetfiles.table(bundled("covenia")["clans"])
    col = rows[0].index("symbol")
    rows[0][col] = "simbol"  # a typo
    data = data_with_sheet(tmp_path, "covenia", "clans", ext, rows)
    r = cli("build", "covenia", "--only", "cards", "--data", data, "--out", tmp_path / "o")
    one_line_error(r, f"clans.{ext}", f"column {'ABCDEFGH'[col]}", "unknown header \"simbol\"")
    assert not (tmp_path / "o").exists()


def test_a_missing_required_column_is_named(tmp_path, cli):
    rows = [r[:1] + r[2:] for r in sheetfiles.table(bundled("covenia")["clans"])]  # no colour
    data = data_with_sheet(tmp_path, "covenia", "clans", "xlsx", rows)
    r = cli("build", "covenia", "--only", "cards", "--data", data, "--out", tmp_path / "o")
    one_line_error(r, "clans.xlsx", "no column for colour")


@pytest.mark.parametrize("ext", ["csv", "xlsx", "ods"])
def test_a_bad_colour_is_named_by_file_tab_row_and_column(tmp_path, cli, ext):
    rows = sheetfiles.table(bundled("covenia")["clans"])
    col = rows[0].index("colour")
    rows[3][col] = "greenish"
    data = data_with_sheet(tmp_path, "covenia", "clans", ext, rows)
    r = cli("build", "covenia", "--only", "cards", "--data", data, "--out", tmp_path / "o")
    tab = ", tab cards" if ext != "csv" else ""
    one_line_error(r, f"clans.{ext}{tab}, row 4", f"column {'ABCDEFGH'[col]} (colour)",
                   "\"greenish\"")


@pytest.mark.parametrize("value", ["#FFF0", "#12345", "#C0392B80", "C0392B", "#GGGGGG"])
def test_a_colour_is_six_or_three_hex_digits_nothing_else(tmp_path, cli, value):
    rows = sheetfiles.table(bundled("covenia")["clans"])
    rows[3][rows[0].index("colour")] = value
    data = data_with_sheet(tmp_path, "covenia", "clans", "csv", rows)
    r = cli("build", "covenia", "--only", "cards", "--data", data, "--out", tmp_path / "o")
    one_line_error(r, "clans.csv, row 4", "(colour)", "is not a colour")


def test_a_short_colour_reads_as_css_does():
    from companion.draw.colour import parse

    assert parse("#FFF").rgb() == (1.0, 1.0, 1.0)  # white, not reportlab's blue
    assert parse("#c0392b").hexval() == parse("#C0392B").hexval()


@pytest.mark.parametrize("edit,column,words", [
    (lambda rows: [r + [2 if i == 1 else ("qty" if i == 0 else 1)] for i, r in enumerate(rows)],
     "qty", "qty 2"),
    (lambda rows: rows + [rows[1]], "id", "id \"red\" again")])
def test_a_list_of_card_families_never_repeats_one(tmp_path, cli, edit, column, words):
    rows = edit(sheetfiles.table(bundled("covenia")["clans"]))
    col = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[rows[0].index(column)]
    data = data_with_sheet(tmp_path, "covenia", "clans", "csv", rows)
    r = cli("build", "covenia", "--only", "cards", "--data", data, "--out", tmp_path / "o")
    one_line_error(r, "clans.csv, row", f"column {col}", words)


@pytest.mark.parametrize("field", ["symbol", "name.en"])
def test_a_blank_cell_is_named_by_its_own_column(tmp_path, cli, field):
    rows = sheetfiles.table(bundled("covenia")["clans"])
    col = rows[0].index(field)
    rows[4][col] = ""
    data = data_with_sheet(tmp_path, "covenia", "clans", "csv", rows)
    r = cli("build", "covenia", "--only", "cards", "--data", data, "--out", tmp_path / "o")
    one_line_error(r, "clans.csv, row 5", f"column {'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[col]} ")


def test_a_symbol_that_does_not_exist_is_named_with_row_and_column(tmp_path, cli):
    rows = sheetfiles.table(bundled("covenia")["clans"])
    col = rows[0].index("symbol")
    rows[2][col] = "unicorn"
    data = data_with_sheet(tmp_path, "covenia", "clans", "csv", rows)
    r = cli("build", "covenia", "--only", "cards", "--data", data, "--out", tmp_path / "o")
    one_line_error(r, "clans.csv, row 3", f"column {'ABCDEFGH'[col]} (symbol)",
                   "unknown symbol \"unicorn\"")


def test_a_missing_tab_lists_the_tabs(tmp_path, cli):
    data = data_with_sheet(tmp_path, "covenia", "clans", "xlsx", tab="Clans")
    text = data.read_text(encoding="utf-8").replace('tab = "Clans"', 'tab = "Clan"')
    data.write_text(text, encoding="utf-8")
    r = cli("build", "covenia", "--only", "cards", "--data", data, "--out", tmp_path / "o")
    one_line_error(r, "clans.xlsx", "no tab \"Clan\" (tabs: Clans)")


@pytest.mark.parametrize("content", [b"not a zip", b"PK\x03\x04broken"])
def test_a_damaged_workbook_is_one_line(tmp_path, cli, content):
    data = data_with_sheet(tmp_path, "covenia", "clans", "xlsx")
    (tmp_path / "clans.xlsx").write_bytes(content)
    r = cli("build", "covenia", "--only", "cards", "--data", data, "--out", tmp_path / "o")
    one_line_error(r, "clans.xlsx", "cannot read")


def test_a_text_cell_stays_text_and_a_csv_number_with_a_leading_zero_is_an_id(tmp_path):
    sheetfiles.write(tmp_path / "t.xlsx", [["name", "n"], ["2024", 2024]])  # text, number
    assert spreadsheet.read({"spreadsheet": "t.xlsx"}, tmp_path, "d.toml", "list") == [
        {"name": "2024", "n": 2024}]
    (tmp_path / "t.csv").write_text("id,n,x\n007,12,-3.5\n", encoding="utf-8")
    assert spreadsheet.read({"spreadsheet": "t.csv"}, tmp_path, "d.toml", "list") == [
        {"id": "007", "n": 12, "x": -3.5}]


@pytest.mark.parametrize("ext", ["csv", "xlsx", "ods"])
def test_a_value_right_of_the_last_header_is_named_not_dropped(tmp_path, cli, ext):
    rows = sheetfiles.table(bundled("covenia")["clans"])
    width = len(rows[0])
    rows[2] = rows[2] + [None, "stray"]  # two columns past the header row's end
    data = data_with_sheet(tmp_path, "covenia", "clans", ext, rows)
    r = cli("build", "covenia", "--only", "cards", "--data", data, "--out", tmp_path / "o")
    tab = ", tab cards" if ext != "csv" else ""
    one_line_error(r, f"clans.{ext}{tab}", f"column {spreadsheet.letter(width + 1)}",
                   "has values but no name in the header row")
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("typo, near", [("art_fitt", "art_fit"), ("colr", "colour")])
def test_a_misspelt_key_in_an_inline_list_is_refused_with_a_suggestion(tmp_path, cli, typo,
                                                                      near):
    text = paths.layout("covenia.toml").read_text(encoding="utf-8")
    text = text.replace('id = "red"\n', f'id = "red"\n{typo} = "contain"\n', 1)
    (tmp_path / "covenia.toml").write_text(text, encoding="utf-8")
    r = cli("build", "covenia", "--data", tmp_path / "covenia.toml", "--out", tmp_path / "o")
    one_line_error(r, "covenia.toml", f"clans[0].{typo}", f"did you mean {near}?")
    assert not (tmp_path / "o").exists()
