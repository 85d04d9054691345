"""What a build does once rather than at every card or sheet (issue 36): the garbage
collector passes seldom, its imported objects set aside (6% of a 2,000-card build), and
is left as it was found (a watching process, or a test session building many kits,
collects as before); the calibration bar is written once a side of a PDF."""

import gc

from companion import kit


def test_a_build_sets_the_collector_aside_and_gives_it_back(tmp_path, monkeypatch, cli):
    seen = []
    real = kit.build

    def build(*args, **kw):
        seen.append((gc.get_freeze_count() > 0, gc.get_threshold()[0]))
        return real(*args, **kw)
    monkeypatch.setattr(kit, "build", build)
    before = gc.get_threshold()
    r = cli("build", "covenia", "--only", "cards", "--out", tmp_path / "kit")
    assert r.code == 0, r.err
    assert seen == [(True, 1_000_000)]
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_the_calibration_bar_is_written_once_a_side_and_printed_on_every_sheet(tmp_path,
                                                                               monkeypatch):
    """The bar and its caption, the same on every sheet: drawn once for the fronts and
    once for the backs of a PDF, put back on every other sheet, where it still prints."""
    import pypdfium2 as pdfium

    from companion.draw import print_sheets

    drawn = []
    real = print_sheets.text.line
    monkeypatch.setattr(print_sheets.text, "line", lambda c, s, *a, **k: (
        drawn.append(s) if "bar must measure" in s else None) or real(c, s, *a, **k))
    kit.build("covenia", kit.Options(only=["cards"], out=tmp_path / "kit"))
    captions = drawn
    pdf = pdfium.PdfDocument(tmp_path / "kit" / "cards.pdf")
    assert len(pdf) > 10 and len(captions) == 2, captions
    for page in pdf:
        assert captions[0] in page.get_textpage().get_text_range()
