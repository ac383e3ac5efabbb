"""Renames, unwraps and table edits that issue 39's part C accepts where
the rewriter refused them before: each rule's accepted cases (whole input
and in small chunks: the output must not depend on chunking, and must
reparse to the DOM edit: the oracle's check) and the near cases it must
still refuse."""
import pytest

from lexpy.rewriter import Rewriter, RewriteError, rewrite
from tests.rewriter.oracle import check


def _rewrite(data, selector, edit, chunk=None):
    rw = Rewriter().on(selector, element=edit)
    if chunk is None:
        return rewrite(data, rw)
    raw = data.encode()
    return (b"".join(rw.feed(raw[i:i + chunk]) for i in range(0, len(raw), chunk))
            + rw.close()).decode()


def _index(data, name, scripting=False):
    """The index of the first <name> among the elements a `*` handler sees
    (the oracle's `indexes`)."""
    names = []
    rewrite(data, Rewriter(scripting=scripting).on(
        "*", element=lambda e: names.append(e.tag_name)))
    return names.index(name)


def _accepted(data, name, operation, chunked=False, scripting=False):
    """check() on the first <name> alone: whether the operation on it was
    accepted (and, accepted, reparses to the DOM edit)."""
    figures = check(data, scripting, operation, chunked=chunked,
                    indexes=[_index(data, name, scripting)])
    assert not figures.mismatches, figures.mismatches[0]
    assert figures.tried == 1
    return figures.accepted == 1


def _rename(element):
    element.tag_name = "abbr"


# -- plaintext: its text is written escaped, as the new element's --------

@pytest.mark.parametrize("chunk", [None, 1, 3])
def test_plaintext_renamed_keeps_its_text_as_text(chunk):
    out = _rewrite("<div>a<plaintext>b<i>&amp;</plaintext>", "plaintext", _rename, chunk)
    assert out == "<div>a<abbr>&#98;&lt;i&gt;&amp;amp;&lt;/plaintext&gt;</abbr>"


@pytest.mark.parametrize("chunk", [None, 2])
def test_plaintext_unwrapped_keeps_its_text_as_text(chunk):
    out = _rewrite("<div>a<plaintext><b>x", "plaintext",
                   lambda e: e.remove_and_keep_content(), chunk)
    assert out == "<div>a&#60;b&gt;x"


@pytest.mark.parametrize("data", ["<plaintext>\x00filler\x00text\x00",
                                  "<plaintext></plaintext>",
                                  "<!DOCTYPE html><div><plaintext>a&amp;<b>c",
                                  "<p>a</p><plaintext>\n<p>"])
@pytest.mark.parametrize("operation", ["rename", "remove_and_keep_content"])
@pytest.mark.parametrize("chunked", [False, True])
def test_plaintext_edits_reparse_to_the_dom_edit(data, operation, chunked):
    assert _accepted(data, "plaintext", operation, chunked)


@pytest.mark.parametrize("data", [
    "<p>a<plaintext>b",                    # its start tag closed the <p>
    "<table><td><plaintext></plaintext>",  # in a table cell: text of a table's
    "<!doctype html><html><noscript><plaintext></plaintext>"])
def test_plaintext_edits_still_refused(data):
    for operation in ("rename", "remove_and_keep_content"):
        assert not _accepted(data, "plaintext", operation)


def test_plaintext_renamed_with_content_after_is_refused():
    def edit(element):
        element.tag_name = "abbr"
        element.after("x")
    with pytest.raises(RewriteError):
        _rewrite("<plaintext>a", "plaintext", edit)
