"""Findings of the review of the merged rewriter (issue 39) on text,
comment and document-end edits.

A comment edited by a document comment handler inside an <option> or
<optgroup>: the edit holds output back until the select ends
(Rewriter._hold_for_select), and only the stack events release it; the
document comment handlers did not ask for them, so the held output (the
whole rest of the document) was lost at close."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import _normalized_dump
from tests.rewriter.test_adoption_edits import rewrite_in_chunks

CHUNKS = [None, 1, 7]


def _remove_comments(data, chunk):
    rw = Rewriter().on_document(comments=lambda comment: comment.remove())
    return rewrite_in_chunks(data, rw, chunk)


def _dom_without_comments(data):
    doc = lexpy.parse(data)
    stack = [doc]
    while stack:
        node = stack.pop()
        for child in list(node.child_nodes):
            if child.node_type == 8:
                child.remove()
            else:
                stack.append(child)
        if getattr(node, "local_name", None) == "template":
            stack.append(node.content)
    return _normalized_dump(doc)


COMMENTS_IN_OPTIONS = [
    "<p>before<select><option>y<!--d--></option></select><p>after",
    "<select><optgroup><!--c--><option>y</select>",
    "<table><td><select><option>x<!--c--></table>",
    "<select><option>x<!--c--></select><p>after<!--e-->",
]


@pytest.mark.parametrize("data", COMMENTS_IN_OPTIONS)
@pytest.mark.parametrize("chunk", CHUNKS)
def test_a_comment_removed_in_an_option_keeps_the_rest(data, chunk):
    out = _remove_comments(data, chunk)
    assert "<!--" not in out
    assert _normalized_dump(lexpy.parse(out)) == _dom_without_comments(data)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_a_comment_removed_in_an_option_before_selectedcontent_is_refused(chunk):
    data = "<select><option>x<!--c--></option><selectedcontent></selectedcontent></select>"
    with pytest.raises(RewriteError, match="selectedcontent"):
        _remove_comments(data, chunk)
