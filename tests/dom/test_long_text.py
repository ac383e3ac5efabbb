"""Long texts (text_content, to_html, dump: DECODE_LONG bytes and more;
the GIL released from DECODE_WITHOUT_GIL) are decoded into their str by
lexpy's own UTF-8 reader: the str must be the one Python's decoder makes,
of the same kind (1, 2 or 4 bytes a character), for every kind of text."""
import random

import pytest

import lexpy

SAMPLES = {
    "ascii": "plain text, <escaped> & more ",
    "latin-1": "caf\xe9 na\xefve \xa0\xff ",
    "bmp": "\u0100 \u20ac \u4e2d\u6587 \uffff ",
    "astral": "\U0001F600 \U00010000 \U0010FFFF ",
    "surrogate": "lone \ud800 and \udfff ",
}


@pytest.mark.parametrize("kind", sorted(SAMPLES))
@pytest.mark.parametrize("size", [4095, 4096, 20000, 4 * 1024 * 1024 + 7])
def test_long_text_content_is_python_s_str(kind, size):
    rng = random.Random(size)
    pieces = [SAMPLES["ascii"]] + [SAMPLES[kind]] * (kind != "ascii")
    text = "".join(rng.choice(pieces) for _ in range(size // 10))[:size]
    doc = lexpy.Document()
    p = doc.create_element("p")
    p.append(text[: size // 2], doc.create_element("b"), text[size // 2:])
    assert p.text_content == text
    # the same kind as Python's own str (equality depends on it)
    assert p.text_content.encode("utf-8", "surrogatepass").decode(
        "utf-8", "surrogatepass") == p.text_content
    assert hash(p.text_content) == hash(text)
    assert p.inner_html.count("<b></b>") == 1


def test_long_text_with_every_boundary_of_a_word():
    # a multi-byte character at every offset of the 8-byte words read at once
    for offset in range(16):
        text = "a" * offset + "\xe9\u20ac\U0001F600" + "z" * 5000
        doc = lexpy.Document()
        p = doc.create_element("p")
        p.append(text)
        assert p.text_content == text


def test_long_text_mixed_at_random_offsets():
    # Multi-byte characters of every length at random places, between Text
    # nodes of random lengths (short ones included): the decoders widen a
    # 16-byte block and move on by its ASCII prefix, the measure counts
    # 16 bytes a step, then 8, then one.
    rng = random.Random(7)
    alphabet = "abc xyz\n" * 8 + "\xe9\xa0\xff\u0100\u20ac\u4e2d\uffff\U0001F600\U0010FFFF\ud800"
    for _ in range(40):
        doc = lexpy.Document()
        p = doc.create_element("p")
        pieces = []
        for _ in range(rng.randrange(1, 60)):
            piece = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 400)))
            pieces.append(piece)
            p.append(piece, doc.create_element("i"))
        text = "".join(pieces)
        assert p.text_content == text
        assert len(p.text_content) == len(text)
