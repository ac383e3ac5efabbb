"""One Parser used from two threads at once.

TreeConstruction releases the GIL while it tokenizes and builds; a second
thread that entered the same parse meanwhile would free or grow the
tokenizer's and the tree builder's memory under the first one (a crash).
Every method that uses them claims the parse first (with the GIL held) and
a second thread gets RuntimeError; the thread that owns the parse finishes
it as if it had been alone.
"""
import threading

import pytest

import lexpy

# Big enough that its parse takes far longer than the other thread's tries.
BIG = (b"<!DOCTYPE html><title>t</title>"
       + b"<div class=a><p>some <b>text</b> &amp; more<table><tr><td>x</td></tr></table></div>"
       * 60000)


def _race(parser, feed_big, intrude):
    """Thread A feeds BIG; thread B waits until A is inside the parse (a
    harmless probe is refused), then calls `intrude` while A still is.
    Returns what B saw."""
    started = threading.Event()
    done = threading.Event()
    seen = []

    def owner():
        started.set()
        try:
            feed_big()
        finally:
            done.set()

    def other():
        started.wait()
        while not done.is_set():
            try:
                parser.buffered_bytes
            except RuntimeError:
                break
        else:
            seen.append("the owner finished before the other thread got in")
            return
        try:
            intrude()
        except RuntimeError as error:
            seen.append(error)
        else:
            seen.append(None)

    a = threading.Thread(target=owner)
    b = threading.Thread(target=other)
    b.start()
    a.start()
    a.join()
    b.join()
    return seen


@pytest.mark.parametrize("intrusion", ["feed", "close", "buffered"])
def test_a_second_thread_gets_runtime_error_and_the_owner_its_document(intrusion):
    parser = lexpy.Parser()
    intrude = {
        "feed": lambda: parser.feed(b"<p>intruder"),
        "close": parser.close,
        "buffered": lambda: parser.buffered_bytes,
    }[intrusion]
    seen = _race(parser, lambda: parser.feed(BIG), intrude)
    assert len(seen) == 1 and isinstance(seen[0], lexpy.ParserBusyError), seen
    assert isinstance(seen[0], RuntimeError)
    assert "already parsing" in str(seen[0])
    document = parser.close()
    assert document.to_html() == lexpy.parse(BIG).to_html()


def test_str_feed_is_guarded_too():
    parser = lexpy.Parser()
    text = BIG.decode("ascii") + "\u00e9"       # not ASCII: the encoder runs too
    seen = _race(parser, lambda: parser.feed(text), lambda: parser.feed("<p>x"))
    assert len(seen) == 1 and isinstance(seen[0], lexpy.ParserBusyError), seen
    assert isinstance(seen[0], RuntimeError)
    assert parser.close().to_html() == lexpy.parse(text).to_html()


def test_close_in_one_thread_while_another_closes():
    """The owner's close() (the end of input, a long tail) against another
    thread's feed: RuntimeError, and the document is the owner's."""
    parser = lexpy.Parser()
    parser.feed(BIG[:100])
    tail = BIG[100:]
    # The tail held in the incoming buffer would be short; feed it whole,
    # then race close() against a feed.
    results = {}

    def owner():
        parser.feed(tail)
        results["document"] = parser.close()

    seen = _race(parser, owner, lambda: parser.feed(b"<p>intruder"))
    assert len(seen) == 1 and isinstance(seen[0], lexpy.ParserBusyError), seen
    assert isinstance(seen[0], RuntimeError)
    assert results["document"].to_html() == lexpy.parse(BIG).to_html()


def test_the_parser_is_usable_again_after_a_refused_call():
    parser = lexpy.Parser()
    seen = _race(parser, lambda: parser.feed(BIG[:len(BIG) // 2]),
                 lambda: parser.feed(b"<p>intruder"))
    assert isinstance(seen[0], RuntimeError), seen
    parser.feed(BIG[len(BIG) // 2:])
    assert parser.close().to_html() == lexpy.parse(BIG).to_html()
