"""lexpy.rewrite_stream: a Rewriter run over the streams users have
(issue 39 point 7): an iterable of bytes chunks (a generator, a file
opened in binary mode, a list) gives a generator of output chunks; an
async iterable (an ASGI body, an async HTTP client's byte stream) gives
an async generator. Only the public API of lexpy.Rewriter is used
(feed/close), so the output is what feed()/close() return, chunk by
chunk: each output chunk is ready as soon as the input chunk that
completed it has been read (the lag is the unfinished token).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, AsyncIterable, AsyncIterator, Iterable, Iterator, Union, overload

if TYPE_CHECKING:
    from lexpy.rewriter import Rewriter

__all__ = ["rewrite_stream"]

Chunk = Union[bytes, bytearray, memoryview]


@overload
def rewrite_stream(chunks: AsyncIterable[Chunk], rewriter: "Rewriter") -> AsyncIterator[bytes]: ...


@overload
def rewrite_stream(chunks: Iterable[Chunk], rewriter: "Rewriter") -> Iterator[bytes]: ...


def rewrite_stream(chunks: Union[Iterable[Chunk], AsyncIterable[Chunk]],
                   rewriter: "Rewriter") -> Union[Iterator[bytes], AsyncIterator[bytes]]:
    """Rewrite a stream of bytes chunks with `rewriter` (its handlers
    registered, nothing fed yet): a generator of the non-empty output
    chunks for an iterable, an async generator for an async iterable.
    The rewriter is closed when the input ends; a handler's exception
    propagates from the iteration. Nothing is read before the first
    output chunk is asked for. A rewriter made with `sink=` sends its
    output there, and the generator yields nothing."""
    if hasattr(chunks, "__aiter__"):
        return _rewrite_async(chunks, rewriter)     # type: ignore[arg-type]
    if hasattr(chunks, "__iter__"):
        if isinstance(chunks, (str, bytes, bytearray, memoryview)):
            raise TypeError("rewrite_stream takes an iterable of bytes chunks, not %s "
                            "(use lexpy.rewrite for a whole input)" % type(chunks).__name__)
        return _rewrite_sync(chunks, rewriter)
    raise TypeError("rewrite_stream takes an iterable or an async iterable of bytes, not %s"
                    % type(chunks).__name__)


def _check(chunk: object) -> Chunk:
    if not isinstance(chunk, (bytes, bytearray, memoryview)):
        raise TypeError("rewrite_stream: a chunk must be bytes, not %s" % type(chunk).__name__)
    return chunk


def _rewrite_sync(chunks: Iterable[Chunk], rewriter: "Rewriter") -> Iterator[bytes]:
    for chunk in chunks:
        out = rewriter.feed(_check(chunk))
        if out:
            yield out
    out = rewriter.close()
    if out:
        yield out


async def _rewrite_async(chunks: AsyncIterable[Chunk], rewriter: "Rewriter") -> AsyncIterator[bytes]:
    async for chunk in chunks:
        out = rewriter.feed(_check(chunk))
        if out:
            yield out
    out = rewriter.close()
    if out:
        yield out
