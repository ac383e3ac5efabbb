"""Markup content (html=True) is written as it is, and the parser reads it
where the output puts it, with the elements open there: the rewriter
keeps it only where that gives the DOM edit (the content's fragment parse
in the element it goes into) and leaves the parser's state as it found
it (lexpy/rewriter/__init__.py, _markup_kept). Markup that opens what it
does not close, closes what it did not open, or whose elements close or
move what is open there raises RewriteError before anything is written."""
import pytest

import lexpy
from lexpy.rewriter import Rewriter, RewriteError, rewrite
from tests.rewriter.oracle import _content_parent, _fragment_nodes
from tests.rewriter.test_adoption_edits import rewrite_in_chunks


def _edit(data, selector, operation, markup):
    """The rewriter's output (whole and in 3-byte chunks, which must agree)
    and the DOM edit's tree, dumped."""
    def handler(element):
        getattr(element, operation)(markup, html=True)
    outputs = {rewrite_in_chunks(data, Rewriter(encoding="utf-8").on(selector, element=handler),
                                 chunk) for chunk in (None, 3)}
    assert len(outputs) == 1, outputs
    doc = lexpy.parse(data)
    element = doc.query_selector(selector)
    if operation in ("before", "after"):
        nodes = _fragment_nodes(markup, element.parent_node, True)
        if operation == "before":
            for node in nodes:
                element.before(node)
        else:
            for node in reversed(nodes):
                element.after(node)
    else:
        holder = _content_parent(element)
        nodes = _fragment_nodes(markup, element, True)
        if operation == "append":
            for node in nodes:
                holder.append(node)
        else:
            for node in reversed(nodes):
                holder.prepend(node)
    return outputs.pop(), lexpy.dump(doc)


REFUSED = [
    ("<p>a</p>y", "p", "append", "<b>x"),                      # a formatting element left open
    ("<div>a</div>y", "div", "after", "<b>x"),
    ("<div>a</div>y", "div", "append", "</div>"),              # closes what it did not open
    ("<div>a</div>y", "div", "append", "<!--x"),               # ends inside a token
    ("<div>a</div>y", "div", "append", "<script>x"),
    ("<div>a</div>y", "div", "append", "<textarea>"),
    ("<div>a</div>y", "div", "append", "<plaintext>"),
    ("<div>a</div>y", "div", "append", "<span"),
    ("<p>a<span>b</span></p>", "span", "before", "<div>x</div>"),   # closes the open p
    ("<p>a<span>b</span></p>", "span", "append", "<h1>x</h1>"),
    ("<ul><li>a</li></ul>", "li", "append", "<li>x</li>"),          # closes the open li
    ("<svg><foreignObject></foreignObject></svg>x", "foreignObject", "append", "<div>d"),
    ("<table><tr><td>a</td></tr></table>", "td", "append", "<td>x</td>"),
    # a formatting element left on the list of active formatting elements:
    # text after the content is reconstructed into it
    ("<div id=h>tail</div>", "div", "prepend", "<p><b>x</p>"),
    ("<div id=h>tail</div>", "div", "before", "<p><b>x</p>"),
    # the form element pointer, which the probe does not have
    ("<div><form></div><span>x</span>", "span", "prepend", "<form><input></form>"),
    ("<div id=h></div><form><input></form>", "div", "prepend", "<div><form></div>"),
    # inside elements the parser moved out of their table, whose insertion
    # modes still read what is written there
    ("<table><div id=h>a</div></table>", "div", "prepend", "<table></table>"),
    ("<table><select id=h><option>a</select></table>", "select", "prepend", "<td>"),
    ("<table><div><span>a</span></div></table>", "span", "append", "<td>x</td>"),
]


@pytest.mark.parametrize("data,selector,operation,markup", REFUSED)
def test_markup_the_parser_would_not_keep_is_refused(data, selector, operation, markup):
    def handler(element):
        with pytest.raises(RewriteError, match="insert markup|markup"):
            getattr(element, operation)(markup, html=True)
    rw = Rewriter().on(selector, element=handler)
    assert rewrite(data, rw) == data      # refused before anything was written


ACCEPTED = [
    ("<div>a</div>y", "div", "append",
     "<b>x</b><!-- c --><table><tr><td>1</td></tr></table><script>var a='</p>'</script>"),
    ("<ul><li>a</li></ul>", "ul", "append", "<li>x</li>"),
    ("<ul><li>a</li></ul>", "li", "append", "<ul><li>x</li></ul>"),
    ("<p>a<span>b</span></p>", "span", "append", "<em>x</em><br><img src=i>"),
    ("<title>t</title><p>x</p>", "p", "after", "<div class=banner><p>hi</p></div>"),
    ("<svg><foreignObject></foreignObject></svg>x", "foreignObject", "append", "<div>d</div>"),
    ("<svg><foreignObject><div>a</div></foreignObject></svg>", "div", "after",
     "<svg><path d='M0'/></svg>"),
    ("<div>a</div>y", "div", "append", "<i>x</i></span>"),    # the parser ignores it here too
    ("<table><tr><td>a</td></tr></table>", "td", "append", "<table><tr><td>x</td></tr></table>"),
    ("<div>a</div>", "div", "prepend", "<textarea>\nx</textarea>"),
    ("<div id=h>tail</div>", "div", "prepend", "<p><b>x</b></p>"),
    ("<table><div id=h>a</div><tr><td>1</td></tr></table>", "div", "before", "<span>M</span>"),
    ("<table><div id=h>a</div><tr><td>1</td></tr></table>", "div", "append", "<span>M</span>"),
]


@pytest.mark.parametrize("data,selector,operation,markup", ACCEPTED)
def test_markup_the_parser_keeps_is_written_and_reparses_to_the_dom_edit(
        data, selector, operation, markup):
    output, expected = _edit(data, selector, operation, markup)
    assert markup in output
    assert lexpy.dump(lexpy.parse(output)) == expected
