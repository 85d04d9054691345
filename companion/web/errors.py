"""The web layer's one error type: an HTTP status and a message that names the field; a
code and params ("why") that a phone words in its own language (companion/layouts/phone.toml,
"why_" + the code with "_" for "."), for a scorer's refusal and for every refusal a phone
meets in play (a stale entry, a round or a draw already made); and, for a conflict, what
the table holds instead ("extra": the entry, round or draw a phone then shows)."""


class WebError(Exception):
    def __init__(self, status: int, field: str, message: str, why: dict | None = None,
                 extra: dict | None = None):
        self.status, self.field, self.message, self.why = status, field, message, why
        self.extra = extra or {}
        super().__init__(self.text())

    def text(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message

    def body(self) -> dict:
        return {"error": self.text(), **({"why": self.why} if self.why else {}), **self.extra}


def why_of(e) -> dict | None:
    """A scorer's ScoreError as the phone's "why": its code and params, or None."""
    return {"code": e.code, "params": e.params} if getattr(e, "code", None) else None


def coded(code: str, **params) -> dict:
    """A web refusal's "why": its code ("web.NAME") and params."""
    return {"code": f"web.{code}", "params": params}


def unwritable(e: Exception) -> WebError:
    """The table file refused a change (SQLite's error: a full disk, a read-only file):
    503, the change not made, and why."""
    reason = str(e) or type(e).__name__
    full = "full" in reason.lower()
    return WebError(503, "table", f"cannot write the table file ({reason}): nothing was "
                                  + ("changed; free some disk space, then try again" if full
                                     else "changed; see the server's terminal"),
                    coded("disk_full" if full else "table_unwritable", reason=reason))
