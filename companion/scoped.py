"""A context variable holding a value within a block: `with Scoped(var, value) as v:`.
A class, not a generator's context manager: a card face opens half a dozen of these, and
a generator's costs three times as much (issue 41: the 2,000-card build)."""

from contextvars import ContextVar


class Scoped:
    __slots__ = ("_var", "_value", "_token")

    def __init__(self, var: ContextVar, value):
        self._var, self._value = var, value

    def __enter__(self):
        self._token = self._var.set(self._value)
        return self._value

    def __exit__(self, *exc) -> None:
        self._var.reset(self._token)
