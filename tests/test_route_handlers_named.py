"""Issue 56: a route's handler is a function a reader can find by its name (a module's
function or a named method of a table's class: `PhoneTable.draw`, covenia's
`Table.put_player`), not a closure nested in a 200-line `routes()` or `create_app()`.
Every route of the app is held to it, the games' and the table's own."""

import pytest

from companion.web import app, look
from companion.web.store import Store


@pytest.fixture(scope="module")
def routes(tmp_path_factory):
    the_look = look.load()
    store = Store.open(tmp_path_factory.mktemp("routes") / "t.sqlite3", list(the_look.guilds),
                       None, None, [{"colour": c, "name": ""} for c in the_look.teams])
    try:
        yield app.create_app(store, the_look, ["testserver"], 80).routes
    finally:
        store.close()


def test_each_route_of_the_app_is_a_named_handler_not_a_nested_closure(routes):
    nested = [(r.path, r.endpoint.__qualname__) for r in routes
              if {"<locals>", "<lambda>"} & set(r.endpoint.__qualname__.split("."))]
    assert not nested


@pytest.mark.parametrize("prefix", ["/t/{token}", "/api/draw", "/api/events", "/static/",
                                    "/api/covenia", "/api/coverta", "/api/games",
                                    "/api/lugvanion", "/api/vengeance", "/api/history",
                                    "/api/players", "/api/playtest"])
def test_the_table_and_every_game_have_routes_to_check(routes, prefix):
    assert any(prefix in r.path for r in routes), prefix
