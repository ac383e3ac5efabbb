"""lexpy.rewrite_stream (issue 39 point 7): a Rewriter over an iterable
and an async iterable of bytes chunks; the output equals the whole-input
rewrite, arrives chunk by chunk (lazily), and errors propagate."""
import asyncio

import pytest

import lexpy
from lexpy.rewriter import Rewriter, rewrite, rewrite_stream
from tests.conformance import data

PAGE = sorted(data.corpus_dir().glob("*.html"))[0]


def _links():
    return Rewriter(encoding="utf-8").on(
        "a[href]", element=lambda e: e.set_attribute("href", "#" + e.get_attribute("href")))


def _chunks(raw, size):
    return [raw[i:i + size] for i in range(0, len(raw), size)]


def test_exported_from_lexpy():
    assert lexpy.rewrite_stream is rewrite_stream
    assert "rewrite_stream" in lexpy.__all__


def test_iterable_gives_the_whole_rewrite():
    raw = PAGE.read_bytes()
    expected = rewrite(raw, _links())
    assert expected != raw      # the page has links: the test can fail
    out = list(rewrite_stream(iter(_chunks(raw, 4096)), _links()))
    assert b"".join(out) == expected
    assert len(out) > 1 and all(out)


def test_iterable_is_lazy():
    # Nothing is read before the first output chunk is asked for, and an
    # output chunk comes as soon as the input chunk that completes it.
    read = []

    def source():
        for chunk in (b"<p>one <a href=x>l</a>", b" two", b"<b>three"):
            read.append(chunk)
            yield chunk

    stream = rewrite_stream(source(), _links())
    assert read == []
    assert next(stream) == b'<p>one <a href="#x">l</a>'
    assert len(read) == 1
    assert b"".join(stream) == b" two<b>three"


def test_async_iterable_gives_the_whole_rewrite():
    raw = PAGE.read_bytes()
    expected = rewrite(raw, _links())

    async def source():
        for chunk in _chunks(raw, 4096):
            await asyncio.sleep(0)
            yield chunk

    async def collect():
        stream = rewrite_stream(source(), _links())
        assert hasattr(stream, "__anext__")
        return [chunk async for chunk in stream]

    out = asyncio.run(collect())
    assert b"".join(out) == expected and len(out) > 1


def test_handler_exception_propagates_from_the_iteration():
    def boom(element):
        raise KeyError("boom")

    rw = Rewriter(encoding="utf-8").on("b", element=boom)
    stream = rewrite_stream([b"<p>a", b"<b>x</b>"], rw)
    assert next(stream) == b"<p>a"
    with pytest.raises(KeyError):
        next(stream)
    with pytest.raises(ValueError, match="KeyError"):
        rw.feed(b"more")

    async def source():
        yield b"<b>x"

    async def drain():
        rw = Rewriter(encoding="utf-8").on("b", element=boom)
        return [c async for c in rewrite_stream(source(), rw)]

    with pytest.raises(KeyError):
        asyncio.run(drain())


@pytest.mark.parametrize("bad", [b"<p>x", "<p>x", 42])
def test_wrong_input_types(bad):
    with pytest.raises(TypeError):
        rewrite_stream(bad, Rewriter())


def test_str_chunks_are_refused():
    with pytest.raises(TypeError, match="bytes"):
        list(rewrite_stream(["<p>x"], Rewriter()))
