"""Content written at the end of input where the parser would reconstruct
active formatting elements first (Rewriter._eof_unlist): end tags for
those entries, the last first, take them off the list (the adoption agency
algorithm finds each entry, its element not open, and does nothing else),
and nothing after the end of input would reconstruct them. The current
node being an HTML element of such a name that is not on the list (the end
tag would pop it), or a second element's content at the same end of input,
stays refused."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError
from tests.rewriter.oracle import TEXT, MARKUP, _normalized_dump
from tests.rewriter.test_adoption_edits import rewrite_in_chunks


def _edit(data, name, operation, content, html, chunk=None, nth=0):
    seen = [0]

    def handler(element):
        if element.local_name == name and not element.removed:
            if seen[0] == nth:
                getattr(element, operation)(content, html=html)
            seen[0] += 1
    rw = Rewriter(scripting=False).on(name, element=handler)
    return rewrite_in_chunks(data, rw, chunk)


def _dom(data, name, operation, content, html, nth=0):
    doc = lexpy.parse(data, scripting=False)
    element = doc.query_selector_all(name)[nth]
    nodes = [content] if not html else list(
        lexpy.parse_fragment(content, name if operation == "append" else
                             element.parent_node.local_name).child_nodes)
    for node in nodes:
        if operation == "append":
            element.append(node)
        else:
            element.parent_node.append(node) if element.next_sibling is None \
                else element.parent_node.insert_before(node, element.next_sibling)
    return _normalized_dump(doc)


ACCEPTED = [
    # (input, element, operation)
    ("<table><a>1<td>2</td>3</table>", "body", "append"),
    ("<p><b id=B>1</p>", "body", "append"),
    ("<div><b><p>1</div>", "body", "append"),
    ("<div><p><i>1<b>2</p>", "div", "append"),
    ("<div><p><i>1<b>2</p>", "div", "after"),
]


@pytest.mark.parametrize("data,name,operation", ACCEPTED)
@pytest.mark.parametrize("html", [False, True])
@pytest.mark.parametrize("chunk", [None, 1, 3])
def test_content_at_the_end_of_input_takes_the_entries_off(data, name, operation, html,
                                                           chunk):
    content = MARKUP if html else TEXT
    out = _edit(data, name, operation, content, html, chunk)
    assert _normalized_dump(lexpy.parse(out, scripting=False)) == \
        _dom(data, name, operation, content, html)
    assert out.startswith(data)     # (the input passes through; tags follow it)
    assert "</" in out[len(data):]


def test_the_end_tags_come_last_first():
    out = _edit("<div><p><i>1<b>2</p>", "div", "append", "X", False)
    assert out == "<div><p><i>1<b>2</p></b></i>X"


def test_a_current_node_of_the_name_not_listed_is_refused():
    # The first <b>, which the content goes into, is not on the list
    # (Noah's Ark took it off when the fourth was pushed) and the others,
    # closed by </p>, are: </b> would pop it instead of taking an entry off.
    data = "<b><p><b><b><b></p>"
    with pytest.raises(RewriteError, match="reconstructed formatting elements"):
        _edit(data, "b", "append", "X", False)


def test_content_before_the_end_of_input_takes_another_way():
    # (Input follows: the entries are reconstructed for it, where start
    # tags make the copies: _unlist_for_copies, test_unlist_copies.py. An
    # end tag that takes the entry off the input's list before that stays
    # refused.)
    out = _edit("<p>1<s>2<b>3</p>4</s>5</b>", "p", "append", "X", False)
    assert out == "<p>1<s>2<b>3</b></s>X</p><s><b>4</s>5</b>"
    with pytest.raises(RewriteError, match="reconstructs formatting elements"):
        _edit("<b id=a><p><b id=b></p></b>TEST", "p", "append", "X", False)
