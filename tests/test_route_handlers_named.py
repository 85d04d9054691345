"""Issue 56: a route's handler is a function a reader can find by its name (a module's
function or a named method of a game's table), not a closure nested in a 200-line
`routes()`. Pinned for the games whose routes have been written so; the others follow."""

import pytest

from companion.web import app, look
from companion.web.store import Store

NAMED = ("/api/covenia",)  # the route prefixes held to it


@pytest.fixture(scope="module")
def routes(tmp_path_factory):
    the_look = look.load()
    store = Store.open(tmp_path_factory.mktemp("routes") / "t.sqlite3", list(the_look.guilds),
                       None, None, [{"colour": c, "name": ""} for c in the_look.teams])
    try:
        yield app.create_app(store, the_look, ["testserver"], 80).routes
    finally:
        store.close()


@pytest.mark.parametrize("prefix", NAMED)
def test_each_route_of_a_game_is_a_named_handler_not_a_nested_closure(routes, prefix):
    mine = [r for r in routes if prefix in getattr(r, "path", "")]
    assert mine, prefix
    for route in mine:
        name = route.endpoint.__qualname__
        assert "<locals>" not in name and "<lambda>" not in name, (route.path, name)
