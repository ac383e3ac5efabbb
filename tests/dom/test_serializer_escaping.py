"""The serializer's escaping (the standard's "escaping a string", written
16 bytes at a time: lexpy/dom/escape.h) against a plain transcription of
the rule, on strings whose special characters fall on every position
around the 16-byte boundaries, and on random strings (hypothesis)."""
import itertools

from hypothesis import given, settings, strategies as st

import lexpy

SPECIALS = ["&", "<", ">", '"', "\u00a0", "\u0080", "\u00bf", "é", "€", "x"]


def escape(text, attribute_mode):
    # https://html.spec.whatwg.org/multipage/parsing.html#escapingString
    text = text.replace("&", "&amp;").replace("\u00a0", "&nbsp;")
    if attribute_mode:
        text = text.replace('"', "&quot;")
    return text.replace("<", "&lt;").replace(">", "&gt;")


def serialized(text):
    doc = lexpy.Document()
    p = doc.create_element("p")
    p.set_attribute("title", text)
    p.append_child(doc.create_text_node(text))
    return p.to_html()


def expected(text):
    return '<p title="%s">%s</p>' % (escape(text, True), escape(text, False))


def test_special_characters_at_every_position_near_the_block_boundaries():
    for length, special in itertools.product(list(range(1, 41)) + [47, 48, 49], SPECIALS):
        for position in range(length):
            text = "a" * position + special + "b" * (length - position - 1)
            assert serialized(text) == expected(text), (length, position, special)


def test_two_special_characters_in_short_strings():
    # The last 4 to 15 bytes are read as two overlapping pieces: a special
    # character in either piece, or in both, or in the overlap.
    for length in range(2, 20):
        for first, second in itertools.combinations(range(length), 2):
            for a, b in (("&", "<"), ("\u00a0", '"'), ("\u0080", ">"), ("€", "&")):
                text = "".join(a if k == first else b if k == second else "x"
                               for k in range(length))
                assert serialized(text) == expected(text), (length, first, second, a, b)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(SPECIALS + ["a", " ", "\n"]), max_size=80))
def test_random_strings(text):
    assert serialized(text) == expected(text)
