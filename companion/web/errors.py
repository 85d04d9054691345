"""The web layer's one error type: an HTTP status and a message that names the field."""


class WebError(Exception):
    def __init__(self, status: int, field: str, message: str):
        self.status, self.field, self.message = status, field, message
        super().__init__(self.text())

    def text(self) -> str:
        return f"{self.field}: {self.message}"
