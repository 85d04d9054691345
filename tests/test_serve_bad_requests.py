"""No request gives a 500: a bad one gets 400 naming its field. Two found by hand
(a superscript digit, 2,000 nested brackets) against the real server, then any query
string and any body (hypothesis) against the app in this process."""

import asyncio
import json
import re
from urllib.parse import quote

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.web import app, look, store
from tests.web import BAG, Server

COLOURS = list(BAG)
GUILDS = ["forge", "jewellery", "herbalism", "academy"]
FIELD = re.compile(r"^(body|guild|bag|bag\.[a-z]+|id|Idempotency-Key|Content-Type|tie_rule): \S")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("bad") / "t.sqlite3").start()
    yield s
    s.stop()


@pytest.mark.parametrize("query", ["red=%C2%B2", "red=%D9%A3&blue=5", "red=+3&blue=5",
                                   "red=3%20&blue=5", "red=-1&blue=9",
                                   "red=99999999999999999999999&blue=1", "red=", "red=0x3"])
def test_odds_with_a_count_that_is_not_ascii_digits_is_400(server, query):
    r = httpx.get(f"{server.api('odds')}?{query}")
    assert r.status_code == 400
    assert r.json()["error"].startswith(("bag.red: must be a whole number from 0 to 8",
                                         "bag.blue: must be a whole number from 0 to 8"))


@pytest.mark.parametrize("body", [b"[" * 2000 + b"]" * 2000,
                                  b'{"guild": "forge", "bag": ' + b"[" * 1500 + b"]" * 1500 + b"}"],
                         ids=["brackets", "inside-a-draw"])
@pytest.mark.parametrize("call", ["draw", "undo"])
def test_deeply_nested_json_is_400(server, body, call):
    r = httpx.post(server.api(call), content=body,
                   headers={"Content-Type": "application/json", "Idempotency-Key": "deep"})
    assert r.status_code == 400 and r.json()["error"] == "body: nested too deeply"


class Client:
    """The app in this process, over httpx's ASGI transport (no server, no sockets)."""

    def __init__(self, the_app, token: str):
        self.app, self.token = the_app, token

    def request(self, method: str, url: str, **kwargs) -> httpx.Response:
        async def go():
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
                return await c.request(method, url, **kwargs)
        return asyncio.run(go())


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    the_look = look.load()
    table = store.Store.open(tmp_path_factory.mktemp("app") / "t.sqlite3", list(the_look.guilds),
                             None, None, [{"colour": c, "name": ""} for c in the_look.teams])
    yield Client(app.create_app(table, the_look, ["testserver"], 80), table.token)
    table.close()


def check(r) -> None:
    """200, or a refusal whose message starts with the field it is about; never a 500."""
    assert r.status_code in (200, 400, 409), (r.status_code, r.text)
    if r.status_code != 200:
        assert FIELD.match(r.json()["error"]), r.json()


counts = st.one_of(st.integers(-3, 12).map(str), st.text(max_size=6),
                   st.sampled_from(["²", "٣", "３", "08", "1e1", " 3", "3.0", "", "∞"]))
pairs = st.lists(st.tuples(st.sampled_from(COLOURS) | st.text(max_size=8), counts), max_size=6)


@settings(max_examples=300, deadline=None)
@given(pairs, st.text(max_size=30))
def test_any_query_string_is_odds_or_400_naming_the_field(client, pairs, raw):
    check(client.request("GET", f"/t/{client.token}/api/odds", params=pairs))
    # Any bytes at all: percent-escapes as they come, the rest escaped to reach the app.
    check(client.request("GET", f"/t/{client.token}/api/odds?{quote(raw, safe='=&%+;')}"))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=10)
draw_like = st.fixed_dictionaries({
    "guild": st.sampled_from(GUILDS + ["smithy"]) | json_values,
    "bag": st.dictionaries(st.sampled_from(COLOURS + ["purple"]), st.integers(-2, 9) | json_values,
                           max_size=5) | json_values})
bodies = st.one_of(
    st.binary(max_size=200),
    st.text(max_size=100).map(str.encode),
    json_values.map(lambda v: json.dumps(v).encode()),
    draw_like.map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries({"id": json_values | st.integers()}).map(
        lambda v: json.dumps(v).encode()),
    st.integers(1, 3000).map(lambda n: b"[" * n + b"]" * n),
    st.integers(1, 3000).map(lambda n: b"[" * n),
    st.just(b"x" * 5000),
)
content_types = st.sampled_from(["application/json", "application/json; charset=utf-8",
                                 "text/plain; charset=application/json", "", "application/json; x",
                                 "application/json; charset=utf-16"])


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["draw", "undo"]), bodies, content_types,
       st.text(max_size=3) | st.just("k"))
def test_any_body_is_taken_or_400_naming_the_field(client, call, body, content_type, key):
    headers = {"Content-Type": content_type} if content_type else {}
    if key.isascii() and key.isprintable():
        headers["Idempotency-Key"] = key
    check(client.request("POST", f"/t/{client.token}/api/{call}", content=body, headers=headers))
