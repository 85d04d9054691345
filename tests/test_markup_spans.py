"""Issue 35's mixed type: a span `[words](colour=red size=1.4 font=bold)` in any text
changes the colour, size or font of its words (a Markdown link's shape, beside **bold**,
*italic* and :icon:); its words may hold that markup too. A line holding a larger span
stands lower; the text-limit report measures a text at its smallest span's size. A wrong
span is refused in one line naming it; a text without one prints as it always did."""

import re

import pytest

from companion.errors import CompanionError
from companion.engine import markup
from tests.test_layout_engine import drawn, one, px


def _sizes(ops: str) -> list[float]:
    return [float(v) for v in re.findall(r" (\d+(?:\.\d+)?) Tf", ops)]


def test_a_span_prints_its_words_in_its_colour_size_and_font():
    ops, im = drawn(one(type="text", text="Deal [HUGE](colour=red size=2 font=bold) ok",
                        x=0.05, y=0.5, size=0.08, align="left"), "k", {})
    assert sorted(set(_sizes(ops))) == [16.0, 32.0], ops  # 0.08 of 200, and twice that
    assert "1 0 0 rg" in ops  # red, for the span alone
    reds = [(x, y) for x in range(200) for y in range(100, 160)
            if px(im, x, y)[0] > 200 and px(im, x, y)[1] < 80]
    assert reds and min(x for x, _ in reds) > 40, "the span's words only, after 'Deal '"


def test_a_spans_words_take_bold_italic_and_icons():
    (paragraph,) = markup.runs("[**Rare** *now* :coin:](colour=gold)")
    assert [(r.text, r.bold, r.italic, r.icon, r.colour) for r in paragraph] == [
        ("Rare", True, False, False, "gold"), ("now", False, True, False, "gold"),
        ("coin", False, False, True, "gold")]


def test_a_line_holding_a_larger_span_stands_lower_in_a_block():
    def baselines(text):
        ops, _ = drawn(one(type="textblock", text=text, x=0.05, y=0.1, w=0.9, h=0.8,
                           size=0.06, align="left"), "k", {})
        return [float(m) for m in re.findall(r"1 0 0 1 \S+ (\S+) cm", ops)]
    plain = baselines("**a** b\n**c** d")
    spanned = baselines("**a** [b](size=2)\n**c** d")
    assert spanned[0] < plain[0]  # the first line drops by the span's extra height
    assert plain[0] - spanned[0] == pytest.approx(0.06 * 200, abs=0.01)


@pytest.mark.parametrize("text,words", [
    ("[a](size=3)", "span (size=3): size=3 is not a number from 0.5 to 2"),
    ("[a](size=big)", "size=big is not a number"),
    ("[a](size=nan)", "size=nan is not a number"),
    ("[a](font=script)", "span (font=script): font=script is no font role"),
    ("[a](colour=nosuch)", "nosuch"),
    ("[a](colour=red weight=9)", "'weight=9' is not colour=, size= or font="),
])
def test_a_wrong_span_is_refused_in_one_line(text, words):
    with pytest.raises(CompanionError) as e:
        drawn(one(type="text", text=text), "k", {})
    assert words in str(e.value) and "\n" not in str(e.value), str(e.value)


@pytest.mark.parametrize("text", ["see [1](http://example.org)", "[x] (colour=red)",
                                  "a [b]", "plain"])
def test_what_is_no_span_prints_as_it_is(text):
    assert not markup.has_markup(text)
    assert markup.plain_text(text) == text


def test_the_fit_report_measures_a_text_at_its_smallest_span(cli, starter, tmp_path):
    text = starter.read_text(encoding="utf-8")
    text = text.replace('text = "{text}"', 'text = "{text} [small print](size=0.5)"', 1)
    starter.write_text(text, encoding="utf-8")
    r = cli("build", str(starter), "--out", str(tmp_path / "kit"))
    assert r.code == 0, r.err
    assert "under the 6 pt floor" in r.err and "small print" in r.err, r.err
