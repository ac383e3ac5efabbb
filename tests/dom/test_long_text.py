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
