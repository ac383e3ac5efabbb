"""A tokenizer that stops on its own (out of memory: status -1) must not
pass for a finished parse: the document would be silently truncated.

lexpy.driver._testing.fail_tokenizer_after(construction, n) makes the
tokenizer stop with the status of its out-of-memory path after n more tokens
(a token callback installed only by that test hook).
"""
import pytest

import lexpy
from lexpy.driver.driver import TreeConstruction
from tests.helpers import require_test_build

driver_testing = require_test_build("lexpy.driver._testing")

DOC = b"<!DOCTYPE html><p>one<b>two</b><i>three</i>" + b"<p>more" * 50


def _construction():
    return TreeConstruction(True, True, False)


def test_feed_raises_memory_error():
    construction = _construction()
    driver_testing.fail_tokenizer_after(construction, 3)
    with pytest.raises(MemoryError):
        construction.feed(DOC)


def test_feed_text_raises_memory_error():
    construction = _construction()
    driver_testing.fail_tokenizer_after(construction, 3)
    with pytest.raises(MemoryError):
        construction.feed_text(DOC.decode("ascii") + "\u00e9")


def test_finish_raises_memory_error():
    construction = _construction()
    driver_testing.fail_tokenizer_after(construction, 0)
    construction.feed(b"<p")                  # no token yet: held back
    with pytest.raises(MemoryError):
        construction.finish()


@pytest.mark.parametrize("mode", ["parse_bytes", "feed", "feed_bytes"])
def test_a_fault_at_every_token_raises_or_the_document_is_whole(mode):
    """Whichever token the tokenizer stops at (the end-of-file one too),
    the parse raises MemoryError; once the countdown outlasts the tokens,
    the document is whole."""
    expected = lexpy.parse(DOC).to_html()
    outcomes = []
    for tokens in range(200):
        construction = _construction()
        if mode != "feed":
            construction.set_byte_input(-1, -1, mode == "feed_bytes")
        driver_testing.fail_tokenizer_after(construction, tokens)
        try:
            if mode == "parse_bytes":
                document = construction.parse_bytes(DOC)
            else:
                if mode == "feed":
                    construction.feed(DOC)
                else:
                    construction.feed_bytes(DOC)
                document = construction.finish()
        except MemoryError:
            outcomes.append(False)
        else:
            assert document.to_html() == expected, tokens
            outcomes.append(True)
    first_whole = outcomes.index(True)
    assert first_whole > 100                  # one token a tag at least
    assert not any(outcomes[:first_whole]) and all(outcomes[first_whole:])


def test_parser_feed_raises_memory_error():
    parser = lexpy.Parser()
    driver_testing.fail_tokenizer_after(parser._construction, 2)
    with pytest.raises(MemoryError):
        parser.feed(DOC)
        parser.close()


@pytest.mark.parametrize("mode", ["feed", "parse_bytes"])
def test_an_unreached_fault_changes_nothing(mode):
    """The hook itself hands every token on: with a countdown never reached
    the document is the usual one."""
    construction = _construction()
    if mode == "parse_bytes":
        construction.set_byte_input(-1, -1, False)
        driver_testing.fail_tokenizer_after(construction, 10 ** 6)
        document = construction.parse_bytes(DOC)
    else:
        driver_testing.fail_tokenizer_after(construction, 10 ** 6)
        construction.feed(DOC)
        document = construction.finish()
    assert document.to_html() == lexpy.parse(DOC).to_html()


@pytest.mark.parametrize("call", [
    lambda c: c.feed(b"<p>x"),
    lambda c: c.feed_text("<p>x"),
    lambda c: c.finish(),
    lambda c: c.buffered(),
])
def test_a_parse_whose_restart_ran_out_of_memory_refuses_to_go_on(call):
    # A <meta> re-parse makes a new tokenizer and tree builder; when that
    # fails, a later call must raise, not use the pointers that are gone.
    construction = _construction()
    driver_testing.lose_parse_state(construction)
    with pytest.raises(ValueError, match="cannot go on"):
        call(construction)
