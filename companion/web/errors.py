"""The web layer's one error type: an HTTP status and a message that names the field, and
for a scorer's refusal its code and params ("why"), which a phone words in its own
language (layouts/phone.toml, "why_" + the code)."""


class WebError(Exception):
    def __init__(self, status: int, field: str, message: str, why: dict | None = None):
        self.status, self.field, self.message, self.why = status, field, message, why
        super().__init__(self.text())

    def text(self) -> str:
        return f"{self.field}: {self.message}"

    def body(self) -> dict:
        return {"error": self.text()} | ({"why": self.why} if self.why else {})


def why_of(e) -> dict | None:
    """A scorer's ScoreError as the phone's "why": its code and params, or None."""
    return {"code": e.code, "params": e.params} if getattr(e, "code", None) else None
