"""Edges of scoring from the table's phones (issue 15), against a real uvicorn on
127.0.0.1 and, where many examples are needed, the app in-process:
- a player's name is one name however it is typed (NFC, trimmed), and invisible control
  or format characters in a name are refused naming the field, in every place a name is
  taken (POST players, Covenia's path and body, Coverta's hands and first steal);
- undoing a Coverta round that is not there is a 409, and a round's Idempotency-Key whose
  round was undone is told so, never answered as if the round stood;
- history.csv carries Lugvanion's guilds won and Governor, in stable columns;
- why Covenia's entries do not score yet, and why a Coverta round or a Vengeance turn is
  refused, comes as a code and params, worded on the phone in its language
  (companion/layouts/phone.toml), French typography included."""

import ast
import csv
import io
import re
import unicodedata
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from hypothesis import assume, given, settings, strategies as st
from playwright.sync_api import expect

from companion.web import look
from companion.web.games import history, player_name
from companion.web.errors import WebError
from tests.test_serve_phone_page import browser  # noqa: F401
from tests.test_serve_scoring_api import put, round_, server  # noqa: F401
from tests.test_serve_scoring_page import open_game
from tests.web import Server

ROOT = Path(__file__).resolve().parent.parent
CHLOE = "Chlo\u00e9"  # precomposed
CHLOE_NFD = "Chloe\u0301"  # e + combining acute
assert CHLOE != CHLOE_NFD and unicodedata.normalize("NFC", CHLOE_NFD) == CHLOE

# Zero-width characters, bidi controls, a soft hyphen, a BOM, a bell: Cc or Cf.
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u202a", "\u202b",
             "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069",
             "\u00ad", "\x07", "\x1b", "\U000e0001"]


def entries(server) -> list[str]:  # noqa: F811
    return [e["name"] for e in httpx.get(server.api("covenia")).json()["entries"]]


# ---- 1. names -------------------------------------------------------------------------

def test_a_name_typed_precomposed_or_decomposed_is_one_player_in_every_game(server):  # noqa: F811
    first = httpx.post(server.api("players"), json={"name": CHLOE})
    assert first.status_code == 200 and first.json()["added"] is True
    again = httpx.post(server.api("players"), json={"name": f"  {CHLOE_NFD}\t"})
    assert again.json()["player"] == CHLOE and again.json()["added"] is False
    assert httpx.get(server.api("players")).json()["players"].count(CHLOE) == 1
    # Covenia: her entry under the decomposed path is the precomposed name's entry.
    assert put(server, quote(CHLOE_NFD), {"area": {"red": [1]}}).status_code == 200
    assert put(server, quote(CHLOE), {"area": {"red": [2]}}).status_code == 200
    assert put(server, quote(CHLOE), {"name": CHLOE_NFD, "area": {"red": [3]}}).status_code == 200
    assert entries(server) == [CHLOE]
    assert httpx.delete(server.api(f"covenia/players/{quote(CHLOE_NFD)}")).status_code == 200
    assert entries(server) == []
    # Coverta: the first round names her precomposed, the next decomposed: one player.
    assert round_(server, {"hands": {CHLOE: 0, "Bo": 3}}, "n1").status_code == 200
    r = round_(server, {"hands": {CHLOE_NFD: 2, "Bo": 1}, "first_steal": CHLOE_NFD}, "n2")
    assert r.status_code == 200, r.text
    assert r.json()["totals"] == {CHLOE: -1, "Bo": 3}
    two = round_(server, {"hands": {CHLOE: 1, CHLOE_NFD: 2, "Bo": 1}}, "n3")
    assert two.status_code == 400 and two.json()["error"].startswith("hands: ")


@pytest.mark.parametrize("ch", INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_invisible_characters_in_a_name_are_refused_naming_the_field(server, ch):  # noqa: F811
    name = f"An{ch}a"
    r = httpx.post(server.api("players"), json={"name": name})
    assert r.status_code == 400 and r.json()["error"].startswith("name: "), r.text
    assert ch not in r.json()["error"]  # the line is never reordered by the name
    r = put(server, quote(name), {"area": {"red": [1]}})
    assert r.status_code == 400 and r.json()["error"].startswith("name: ")
    r = round_(server, {"hands": {name: 0, "Bo": 3}}, f"i{ord(ch)}")
    assert r.status_code == 400 and r.json()["error"].startswith("hands: ")
    r = round_(server, {"hands": {"Ana": 0, "Bo": 3}, "first_steal": f"Bo{ch}"}, f"j{ord(ch)}")
    assert r.status_code == 400 and r.json()["error"].startswith("first_steal: ")
    assert entries(server) == [] and not httpx.get(server.api("coverta")).json()["open"]
    assert name not in httpx.get(server.api("players")).json()["players"]


# Names with letters that have a decomposed form (accents, Hangul, the Ångström sign),
# lone combining marks, spaces of every kind, and any other character a person can type.
NAMES = st.lists(st.sampled_from(list("AaeEoOcCnNuU ĝ-'.")) | st.sampled_from(
    ["\u00e9", "\u00c9", "\u00e7", "\u00f1", "\u00c5", "\u1e31", "\u01c5", "\uac00",
     "\u0301", "\u0327", "\u0308", "\u1100\u1161", "\u212b", "\u00a0", "\u3000", "🎲"])
    | st.characters(blacklist_categories=("Cc", "Cf", "Cs")),
    min_size=1, max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(NAMES)
def test_any_name_and_its_nfd_form_are_the_same_name(name):
    try:
        kept = player_name(name)
    except WebError:
        assume(False)
    assert player_name(unicodedata.normalize("NFD", name)) == kept
    assert player_name(unicodedata.normalize("NFC", name)) == kept
    assert unicodedata.is_normalized("NFC", kept) and kept == kept.strip()


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from companion.web import app
    from companion.web.store import Store

    store = Store.open(tmp_path_factory.mktemp("t") / "t.sqlite3", ["forge", "port"], None,
                       None, [{"colour": "red", "name": ""}, {"colour": "blue", "name": ""}])
    with TestClient(app.create_app(store, look.load(), ["testserver"])) as c:
        c.base = f"/t/{store.token}/api"
        yield c
    store.close()


@settings(max_examples=100, deadline=None)
@given(NAMES)
def test_a_covenia_entry_under_a_name_and_under_its_nfd_form_is_one_entry(client, name):
    """Through the API: entered under one form, replaced and deleted under the other."""
    try:
        kept = player_name(name)
    except WebError:
        assume(False)
    assume(kept not in (".", ".."))  # a path segment a URL resolves away
    decomposed = unicodedata.normalize("NFD", name)
    url = f"{client.base}/covenia/players/"
    assert client.put(url + quote(name, safe=""), json={"area": {"red": [1]}}).status_code == 200
    r = client.put(url + quote(decomposed, safe=""), json={"area": {"red": [2]}})
    assert r.status_code == 200, r.text
    assert [(e["name"], e["area"]) for e in r.json()["entries"]] == [(kept, {"red": [2]})]
    assert client.delete(url + quote(decomposed, safe="")).status_code == 200
    assert client.get(f"{client.base}/covenia").json()["entries"] == []


# ---- 2. undo and idempotency keys ------------------------------------------------------

def rounds(server) -> int:  # noqa: F811
    return len(httpx.get(server.api("coverta")).json()["rounds"])


def undo(server, n):  # noqa: F811
    return httpx.delete(server.api(f"coverta/rounds/last?round={n}"), timeout=10)


def test_undoing_a_round_that_is_not_there_is_a_409_and_takes_nothing(server):  # noqa: F811
    for i in range(2):
        assert round_(server, {"hands": {"Ana": i, "Bo": 3}}, f"u{i}").status_code == 200
    r = undo(server, 5)
    assert r.status_code == 409
    assert r.json()["error"] == ("round: there is no round 5 (never entered, or already "
                                 "undone): the last round is 2")
    assert rounds(server) == 2
    assert undo(server, 2).json()["undone"] == 2
    again = undo(server, 2)  # the same tap again: nothing more is taken
    assert again.status_code == 409 and "no round 2" in again.json()["error"]
    assert rounds(server) == 1
    assert undo(server, 1).status_code == 200
    gone = undo(server, 1)
    assert gone.status_code == 409 and gone.json()["error"].endswith("no round is left")
    assert httpx.delete(server.api("coverta/rounds/last")).status_code == 409


def test_a_key_whose_round_was_undone_is_told_so_never_answered_as_if_it_stood(tmp_path):
    data = tmp_path / "t.sqlite3"
    one = {"hands": {"Ana": 0, "Bo": 3}}
    two = {"hands": {"Ana": 2, "Bo": 1}, "first_steal": "Bo"}
    s = Server(data).start()
    try:
        assert round_(s, one, "k1").json()["round"] == 1
        assert round_(s, two, "k2").json()["round"] == 2
        assert undo(s, 2).status_code == 200
        late = round_(s, two, "k2")  # a late copy of the undone round's tap
        assert late.status_code == 409
        assert late.json()["error"] == ("Idempotency-Key: round 2 sent with this key was "
                                        "undone since: enter it again if it counts")
        assert rounds(s) == 1
        other = {"hands": {"Ana": 5, "Bo": 0}}
        assert round_(s, other, "k3").json()["round"] == 2  # another round 2
        assert round_(s, two, "k2").status_code == 409  # never claims the new round 2
        kept = round_(s, one, "k1")  # a round still in force: its first answer
        assert kept.status_code == 200 and kept.json()["round"] == 1
        assert rounds(s) == 2
    finally:
        s.stop()
    s = Server(data).start()  # the mark is in the table file
    try:
        assert round_(s, two, "k2").status_code == 409
        assert undo(s, 2).status_code == 200 and undo(s, 1).status_code == 200
        assert round_(s, one, "k1").status_code == 409  # the last round undone too
        assert round_(s, other, "k3").status_code == 409
        assert not httpx.get(s.api("coverta")).json()["open"]
    finally:
        s.stop()


# ---- 3. history.csv -----------------------------------------------------------------------

def test_history_csv_has_lugvanion_guilds_won_and_the_governor(tmp_path):
    s = Server(tmp_path / "t.sqlite3", "--players", "red=Ana,blue=Bo,green,yellow").start()
    try:
        rigged = {"red": 8, "blue": 0, "green": 0, "yellow": 0}
        for guild in ("jewellery", "forge"):
            assert s.draw(guild, rigged).json()["winner"] == "red"
        assert httpx.post(s.api("lugvanion/close"), json={}).status_code == 200
        round_(s, {"hands": {"Ana": 0, "Bo": 3}}, "h1").raise_for_status()
        httpx.post(s.api("coverta/close"), json={}).raise_for_status()
        r = httpx.get(s.api("history.csv"))
    finally:
        s.stop()
    assert r.status_code == 200
    # the eight columns, then what a play records, then a column per category, then each
    # player's running total after each round of a game scored in rounds (issue 53)
    assert r.text.splitlines()[0] == (
        "id,date,game,player,score,won,guilds,governor,version,seat,faction,minutes,"
        "score:forge,score:jewellery,score:herbalism,score:academy,score:round1,round:1")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    got = [(x["game"], x["player"], x["score"], x["won"], x["guilds"], x["governor"],
            x["seat"], x["faction"], x["score:forge"], x["score:round1"]) for x in rows]
    assert got == [  # the table's guild order; an unnamed colour has no seat
        ("lugvanion", "Ana", "2", "1", "forge jewellery", "1", "1", "", "1", ""),
        ("lugvanion", "Bo", "0", "0", "", "0", "2", "", "0", ""),
        ("lugvanion", "green", "0", "0", "", "0", "", "", "0", ""),
        ("lugvanion", "yellow", "0", "0", "", "0", "", "", "0", ""),
        ("coverta", "Ana", "-1", "1", "", "", "1", "", "", "-1"),
        ("coverta", "Bo", "3", "0", "", "", "2", "", "", "3")]
    for column in history.CSV_FIELDS:  # each column documented
        assert re.search(rf"\b{column}:", history.__doc__), column


# ---- 4. why the entries do not score yet, in the phone's language ---------------------------

TEXTS = look.load().texts


def phone_words(why: dict, lang: str) -> str:
    """What games.js's why() makes of {code, params} (clans in the page's language)."""
    words = TEXTS["why_" + why["code"].replace(".", "_")][lang]
    params = dict(why["params"])
    if "clan" in params:
        params["clan"] = TEXTS["clan_" + params["clan"]][lang].lower()
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m.group(1)]), words)


def test_why_covenia_does_not_score_comes_as_a_code_with_params(server):  # noqa: F811
    put(server, "Ana", {"area": {"red": [2]}}).raise_for_status()
    state = httpx.get(server.api("covenia")).json()
    assert state["problem"] == "players: Covenia is for 2 to 4 players, not 1"  # the CLI's
    assert state["why"] == {"code": "covenia.players_count", "params": {"n": 1}}
    assert phone_words(state["why"], "fr") == "Covenia se joue de 2 à 4 joueurs, pas 1"
    # Two players, no decks chosen (deck A): a card in play twice.
    put(server, "Bo", {"area": {"red": [1]}, "hand": {"red": [2]}}).raise_for_status()
    state = httpx.get(server.api("covenia")).json()
    assert state["why"] == {"code": "covenia.too_many_copies", "params": {
        "player": "Bo", "clan": "red", "value": 2, "decks": "A", "copies": 1}}
    assert phone_words(state["why"], "fr") == (
        "Bo\u202f: rouge 2 est en jeu plus souvent que ne le permettent les paquets A "
        "(au plus 1)")
    assert httpx.put(server.api("covenia/decks"), json={"decks": "AB"}).status_code == 200
    state = httpx.get(server.api("covenia")).json()  # two players take one deck (issue 42)
    assert state["why"] == {"code": "covenia.decks_for_players",
                            "params": {"value": '"AB"', "n": 2}}
    assert phone_words(state["why"], "fr") == (
        "paquets \"AB\" impossibles à 2 joueurs\u202f: à 2, un seul paquet (A ou B)\u202f; "
        "à 3 ou 4, les deux (AB)")
    put(server, "Cy", {"area": {"green": [4]}}).raise_for_status()
    assert httpx.get(server.api("covenia")).json()["why"] is None


def test_an_entry_refused_comes_with_its_code_for_the_phone_to_word(server):  # noqa: F811
    r = put(server, "Ana", {"area": {"red": [5, 3]}})
    assert r.status_code == 400
    assert "area.red: a column rises strictly" in r.json()["error"]  # the CLI's words
    why = r.json()["why"]
    assert why["code"] == "covenia.column_falls"
    assert {"value": 3, "after": 5}.items() <= why["params"].items()
    assert phone_words(why, "fr").endswith("3 après 5)"), phone_words(why, "fr")
    other = httpx.post(server.api("players"), json={"name": ""})  # not a scorer's: no code
    assert other.status_code == 400 and "why" not in other.json()


def score_errors(module: str) -> list[ast.Call]:
    tree = ast.parse((ROOT / "companion" / "rules" / f"{module}.py").read_text(encoding="utf-8"))
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call)
            and getattr(n.func, "id", None) == "ScoreError"]


# Each scorer a phone calls, the least number of its errors, and the params a caller adds
# to an error after it is raised (companion.rules.covenia.check_players names the player and clan
# of an error inside her entry).
SCORERS = [("covenia", 16, {"player", "clan"}), ("coverta", 22, set()), ("vengeance", 6, set()),
           ("scoring", 13, set())]


@pytest.mark.parametrize(("module", "least", "added"), SCORERS, ids=[m for m, *_ in SCORERS])
def test_every_score_error_has_a_code_worded_in_english_and_french(module, least, added):
    calls = score_errors(module)
    assert len(calls) >= least
    codes = set()
    for call in calls:
        assert len(call.args) >= 3 and isinstance(call.args[2], ast.Constant), ast.unparse(call)
        code = call.args[2].value
        assert isinstance(code, str) and code.startswith(f"{module}."), code
        codes.add(code)
        if len(call.args) > 3:
            assert isinstance(call.args[3], ast.Dict), ast.unparse(call)
            assert all(isinstance(k, ast.Constant) for k in call.args[3].keys), ast.unparse(call)
        params = {k.value for k in call.args[3].keys} if len(call.args) > 3 else set()
        words = TEXTS.get("why_" + code.replace(".", "_"))
        assert words and set(words) == {"en", "fr"}, code
        for lang, text in words.items():
            # Every field is a param given at this raise, or one a caller adds.
            assert set(re.findall(r"\{(\w+)\}", text)) <= params | added, (code, lang)
        fr = words["fr"]
        assert not re.search(r"[ \u00a0][:;!?»]|«[ \u00a0]", fr), fr  # narrow no-break
        assert "'" not in fr and '"' not in fr, fr  # ’ and « »
    assert len(codes) == len(calls)  # one code, one meaning


def test_a_coverta_round_refused_comes_with_its_code_worded_in_french(server):  # noqa: F811
    # A round names the players; its hand counts are 0 to 39 (a deck of 40, one turned up).
    r = round_(server, {"hands": {"Ana": 2, "Bo": 40}}, "bad-count")
    assert r.status_code == 400
    assert r.json()["error"].startswith("rounds[0].hands.Bo: 40 is not a hand count")  # CLI's
    why = r.json()["why"]
    assert why == {"code": "coverta.not_a_hand_count",
                   "params": {"player": "Bo", "value": "40", "most": 39}}
    assert phone_words(why, "fr") == ("Bo\u202f: 40 n’est pas un nombre de cartes en main "
                                      "(0 à 39)")
    assert phone_words(why, "en") == "Bo: 40 is not a hand count (0 to 39)"
    r = round_(server, {"hands": {"Ana": 2, "Bo": "abc"}}, "bad-word")
    assert r.status_code == 400
    assert phone_words(r.json()["why"], "fr") == (
        'Bo\u202f: "abc" n’est pas un nombre de cartes en main (0 à 39)')
    # Once the players are named, a missing count and a stranger as first steal.
    assert round_(server, {"hands": {"Ana": 2, "Bo": 3}}, "good").status_code == 200
    r = round_(server, {"hands": {"Ana": 2}}, "missing")
    assert r.status_code == 400 and r.json()["why"]["code"] == "coverta.hand_count_missing"
    assert phone_words(r.json()["why"], "fr") == (
        "il manque le nombre de cartes en main de Bo\u202f: chaque joueur en a un")
    r = round_(server, {"hands": {"Ana": 2, "Bo": 3}, "first_steal": "Zed"}, "stranger")
    assert r.status_code == 400 and r.json()["why"]["code"] == "coverta.steal_not_a_player"
    assert phone_words(r.json()["why"], "fr") == (
        'premier à jouer à la place d’un autre\u202f: "Zed" ne fait pas partie des joueurs')
    # Only the good round was kept.
    assert httpx.get(server.api("coverta/score")).json()["totals"] == {"Ana": 0, "Bo": 1}


def test_a_vengeance_turn_refused_comes_with_its_code_worded_in_french(server):  # noqa: F811
    def resolve(body):
        r = httpx.post(server.api("vengeance/resolve"), json=body, timeout=10)
        assert r.status_code == 400, r.text
        return r.json()

    answer = resolve({"potion": 2, "artifacts": ["12:potionx"]})
    assert answer["error"] == ('artifact: artifact 12 removes "potionx": unknown type '
                               "(use herb, mineral, potion)")  # the CLI's words
    assert answer["why"] == {"code": "vengeance.artifact_unknown_type",
                             "params": {"number": "12", "value": '"potionx"'}}
    assert phone_words(answer["why"], "fr") == (
        'artefact 12\u202f: "potionx" n’est pas un type (herbe, minéral, potion)')
    answer = resolve({"herb": -1})
    assert answer["why"] == {"code": "vengeance.not_a_count",
                             "params": {"type": "herb", "value": "-1"}}
    assert phone_words(answer["why"], "fr") == (
        "-1 n’est pas un nombre d’objets (un nombre entier, 0 ou plus)")
    answer = resolve({"mineral": 29})
    assert phone_words(answer["why"], "fr") == (
        "29 objets d’un même type\u202f: le jeu n’en compte que 28 (rituels et transitoires)")
    answer = resolve({"potion": 1, "incantations": [7, 7]})
    assert phone_words(answer["why"], "fr") == (
        "la carte 7 est jouée deux fois (il n’y en a qu’une de chaque numéro)")
    answer = resolve({"potion": 1, "artifacts": ["4:mineral", "12:"]})  # not NUMBER:TYPE
    assert answer["error"].startswith("artifacts[1]: ")
    assert answer["why"]["code"] == "vengeance.not_an_artifact"
    assert phone_words(answer["why"], "fr") == (
        '"12:" n’est pas NUMÉRO:TYPE (par exemple 12:potion)')


def test_the_french_phone_says_why_there_is_no_score_in_french(browser, tmp_path):  # noqa: F811
    s = Server(tmp_path / "t.sqlite3", "--name", "table.lan").start()
    try:
        put(s, "Ana", {"area": {"red": [2]}}).raise_for_status()
        page = open_game(browser, s, "Covenia", locale="fr-FR")
        line = page.locator("#game-covenia p.help", has_text="Pas encore de score")
        expect(line).to_have_text(
            "Pas encore de score\u202f: Covenia se joue de 2 à 4 joueurs, pas 1")
        put(s, "Bo", {"area": {"yellow": [3]}, "hand": {"red": [2]}}).raise_for_status()
        expect(line).to_have_text("Pas encore de score\u202f: Bo\u202f: rouge 2 est en jeu "
                                  "plus souvent que ne le permettent les paquets A (au plus 1)")
        assert page.problems == []
    finally:
        s.stop()


@pytest.mark.parametrize("name", ["Ana 👨\u200d👩\u200d👧", "Bo 🏴\U000e0067\U000e0062\U000e0073"
                                  "\U000e0063\U000e0074\U000e007f", "🧙\u200d♀\ufe0f Cy"])
def test_an_emoji_s_own_joiners_and_tags_are_kept_in_a_name(name):
    from companion.web.games import player_name

    assert player_name(name) == name


@pytest.mark.parametrize("name", ["An\u200da", "\u200d🎲", "Bo\U000e0067", "🎲\u200d"])
def test_a_joiner_or_tag_outside_an_emoji_is_still_refused(name):
    from companion.web.errors import WebError
    from companion.web.games import player_name

    with pytest.raises(WebError):
        player_name(name)
