"""parse(str) makes the UTF-8 the tokenizer reads itself, without the GIL
(TreeConstruction.feed_text; lexpy.encoding's utf8_encode_code_points), from
each of the three storage widths of a Python str: the tree is the one of the
str's UTF-8 bytes, with each lone surrogate (which UTF-8 cannot hold) read
as U+FFFD."""
import re

from hypothesis import given, settings, strategies as st

import lexpy
from lexpy.driver.driver import TreeConstruction

# Code points from each width class (one byte: ASCII and Latin-1; two
# bytes: BMP, surrogates; four bytes: astral), and markup.
PIECES = ["a", "<p>", "&amp;", "\x00", "\r\n", " ", "\u00e9", "\u00ff", "\u0100",
          "\u2014", "\ufeff", "\ud800", "\udfff", "\U0001f600", "\U0010ffff"]


def expected(text):
    # The same bytes given to the tree construction as UTF-8 (parse(bytes)
    # would take a leading U+FEFF for a byte order mark; in a str it is a
    # character).
    construction = TreeConstruction(True, True, False)
    construction.feed(re.sub("[\ud800-\udfff]", "\ufffd", text).encode("utf-8"))
    return lexpy.dump(construction.finish())


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=60).map("".join))
def test_str_gives_the_tree_of_its_utf8(text):
    assert lexpy.dump(lexpy.parse(text)) == expected(text)


def test_long_runs_of_each_width():
    for filler in ("a", "\u00e9", "\u2014", "\U0001f600"):
        for length in (7, 8, 9, 15, 16, 17, 100):
            text = "<p title='%s'>%s</p>" % (filler * length, filler * length)
            assert lexpy.dump(lexpy.parse(text)) == expected(text), (filler, length)
