"""Memory held between feeds is bounded by the unfinished token plus the
document, not by the input so far: 100 MB fed in 64 KiB chunks, mostly one
long text run and one long comment, keeps the parser's own buffer small."""
import pytest

import lexpy

MB = 1024 * 1024
CHUNK = 64 * 1024

HEAD = b"<!DOCTYPE html><title>big</title><p>"
TEXT = b"Lorem ipsum &amp; dolor sit \xc3\xa9t\xc3\xa9 \xe2\x82\xac\r\n"
MIDDLE = b"</p><!--"
COMMENT = b"a comment -- with dashes <! and \xf0\x9f\x98\x80\r\n"
TAIL = b"--><p>end"


def _stream(text_repeats, comment_repeats):
    """The document's bytes, in order, in pieces of any size."""
    yield HEAD
    block = TEXT * 4096
    for _ in range(text_repeats // 4096):
        yield block
    yield TEXT * (text_repeats % 4096)
    yield MIDDLE
    block = COMMENT * 4096
    for _ in range(comment_repeats // 4096):
        yield block
    yield COMMENT * (comment_repeats % 4096)
    yield TAIL


def _chunks(pieces, size):
    """Cut a stream of pieces into chunks of exactly `size` bytes (the last
    one shorter): the cuts fall inside UTF-8 sequences, CRLFs, '&amp;',
    '-->' and the like."""
    pending = bytearray()
    for piece in pieces:
        pending += piece
        while len(pending) >= size:
            yield bytes(pending[:size])
            del pending[:size]
    if pending:
        yield bytes(pending)


@pytest.mark.parametrize("kind", ["bytes", "str"])
def test_100_mb_in_64_kib_chunks_keeps_the_buffer_small(kind):
    text_repeats = 50 * MB // len(TEXT)
    comment_repeats = 50 * MB // len(COMMENT)
    parser = lexpy.Parser(encoding="utf-8") if kind == "bytes" else lexpy.Parser()
    fed = 0
    most_held = 0
    largest_buffer = 0
    carry = b""
    for chunk in _chunks(_stream(text_repeats, comment_repeats), CHUNK):
        if kind == "str":
            # Cut the str at the same places (carrying a split character).
            chunk = carry + chunk
            text = chunk.decode("utf-8", "ignore")
            carry = chunk[len(text.encode("utf-8")):]
            chunk = text
        parser.feed(chunk)
        fed += len(chunk)
        most_held = max(most_held, parser.buffered_bytes)
        largest_buffer = max(largest_buffer, parser._construction.buffered()[1])
    assert fed > 100 * MB * 0.99 if kind == "bytes" else fed > 90 * MB
    # The unsettled tail only: a split character, a CR, "&am", "--".
    assert most_held <= 16, most_held
    # Memory: the tokenizer's buffer (64 KiB at most when it holds little)
    # and the decoder's output buffer for one chunk (up to 3 bytes of UTF-8
    # per input byte), whatever the input so far.
    assert largest_buffer <= 64 * 1024 + 4 * CHUNK, largest_buffer
    doc = parser.close()
    first, comment, last = doc.body.child_nodes
    text = first.text_content
    expected = TEXT.decode("utf-8").replace("\r\n", "\n").replace("&amp;", "&")
    assert len(text) == len(expected) * text_repeats
    assert text[:len(expected) * 3] == expected * 3
    assert text[-len(expected) * 3:] == expected * 3
    data = comment.data
    expected = COMMENT.decode("utf-8").replace("\r\n", "\n")
    assert len(data) == len(expected) * comment_repeats
    assert data[:len(expected) * 3] == expected * 3
    assert data[-len(expected) * 3:] == expected * 3
    assert last.outer_html == "<p>end</p>"


def test_the_buffer_gives_back_memory_after_a_long_token():
    parser = lexpy.Parser()
    parser.feed("<p title='")
    for _ in range(64):
        parser.feed("x" * CHUNK)          # one 4 MiB attribute value: kept
    assert parser.buffered_bytes >= 64 * CHUNK
    parser.feed("'>after")
    parser.feed("<p>more")
    assert parser.buffered_bytes == 0
    assert parser._construction.buffered()[1] <= 64 * 1024
    doc = parser.close()
    assert len(doc.body.first_child.get_attribute("title")) == 64 * CHUNK
