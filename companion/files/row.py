"""A row read from a spreadsheet: its fields and where each came from. Apart from
spreadsheet.py, so that the data loader knows a row without loading the readers."""


class Row(dict):
    """A row's fields, with where it was read: `where` ("cards.xlsx, tab Clans, row 3")
    and `columns` (field -> column letter, nested fields in their own Row)."""

    where: str = ""
    columns: dict

    def column(self, key: str) -> str:
        return self.columns.get(key, "?")
