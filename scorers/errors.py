"""The scorers' one error type: what is wrong, and the field at fault."""


class ScoreError(ValueError):
    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(self.line())

    def line(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message
