"""`companion playtest`'s report (issue 34): the findings worded (`words.py`, from
companion/layouts/playtest.toml, en and fr) and the PDF drawn (`plots.py`, vector plots
with reportlab.graphics; `report.py`, the A4 pages). Every figure comes from
companion.rules.playtest; the history is read by companion.files.plays."""
