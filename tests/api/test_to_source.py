"""Lossless output (node.to_source(), issue 37): an untouched document
parsed with positions=True writes its input back byte for byte (every
tree-construction case, every corpus page, str and bytes); after random
edits (hypothesis: set and remove attributes, insert, remove and move
nodes, set text) the output parses to the same tree as the standard's
serialization of the edited DOM does, and the input before the first
edited node is unchanged. Without positions: ValueError.
"""
import re

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

import lexpy
from tests.conformance import data
from tests.corpus.test_corpus import PAGES

CASES = [case for case in list(data.tree_cases()) + list(data.house_tree_cases())
         if not case.scripted]
DOCUMENT_CASES = [case for case in CASES if case.fragment_context is None]


def parse_case(case, document):
    if case.fragment_context is not None:
        context, namespace = case.context_and_namespace()
        return lexpy.parse_fragment(document, context, namespace=namespace,
                                    scripting=case.scripting, positions=True)
    return lexpy.parse(document, scripting=case.scripting, positions=True)


@pytest.mark.parametrize("kind", ["str", "bytes"])
@pytest.mark.parametrize("case", DOCUMENT_CASES, ids=[case.id for case in DOCUMENT_CASES])
def test_untouched_case_is_its_input(case, kind):
    document = case.data if kind == "str" else case.data.encode("utf-8")
    assert parse_case(case, document).to_source() == document


@pytest.mark.parametrize("path", PAGES, ids=[p.name for p in PAGES])
def test_untouched_page_is_its_input(path):
    page = path.read_bytes()
    doc = lexpy.parse(page, positions=True)
    assert doc.to_source() == page
    assert doc.to_source(encoding="unicode") == doc.to_source(encoding="utf-8").decode("utf-8")


def test_without_positions_is_a_value_error():
    with pytest.raises(ValueError, match="positions=True"):
        lexpy.parse("<p>x").to_source()
    with pytest.raises(ValueError, match="positions=True"):
        lexpy.parse("<p>x").body.to_source()
    with pytest.raises(ValueError, match="positions=True"):
        lexpy.parse_fragment("<p>x", "div").to_source()
    with pytest.raises(ValueError, match="positions=True"):
        lexpy.Document().to_source()
    with pytest.raises(TypeError, match="encoding"):
        lexpy.parse("<p>x", positions=True).to_source(encoding=8)


def test_an_attribute_set_changes_only_its_tag():
    text = "<!doctype html><P CLASS='a'>x &amp; y<br/>\n<p  id=b>z</p>"
    doc = lexpy.parse(text, positions=True)
    doc.query_selector("#b").set_attribute("title", "t")
    # (the end of the first p, which the parser implied, is written out)
    assert doc.to_source() == "<!doctype html><P CLASS='a'>x &amp; y<br/>\n</p>" \
        '<p id="b" title="t">z</p>'
    doc = lexpy.parse(text.encode("utf-8"), positions=True)
    doc.query_selector("br").remove()
    out = doc.to_source()
    assert out.startswith(b"<!doctype html><P CLASS='a'>x &amp; y")
    assert b"<br/>" not in out and out.endswith(b"<p  id=b>z</p>")


def test_an_implied_body_keeps_what_implied_it():
    # (a stray </body> in "after head" mode implied the body the title is in)
    text = "<!doctype html></body><title>X</title>"
    doc = lexpy.parse(text, positions=True)
    doc.head.set_attribute("id", "<")
    out = doc.to_source()
    assert out.startswith('<!doctype html><head id="&lt;"></head>')
    assert lexpy.dump(lexpy.parse(out)) == lexpy.dump(doc)
    doc = lexpy.parse(text, positions=True)
    doc.query_selector("title").first_child.data = "Y"
    out = doc.to_source()
    assert out.startswith("<!doctype html></body><title>")
    assert lexpy.dump(lexpy.parse(out)) == lexpy.dump(doc)


def test_an_implied_end_implied_again_is_not_written():
    text = "<!doctype html><p>foo<article>bar<p>baz"
    doc = lexpy.parse(text, positions=True)
    doc.query_selector_all("p")[1].set_attribute("id", "<")
    out = doc.to_source()
    assert out.startswith("<!doctype html><p>foo<article>bar<p ")
    assert lexpy.dump(lexpy.parse(out)) == lexpy.dump(doc)
    # (a formatting element's implied end is written: it is reconstructed)
    text = "<!doctype html><p><b>x</p>y<i id=a>z"
    doc = lexpy.parse(text, positions=True)
    doc.query_selector("#a").set_attribute("x", "1")
    out = doc.to_source()
    assert out.startswith("<!doctype html><p><b>x</b></p>")
    assert lexpy.dump(lexpy.parse(out)) == lexpy.dump(doc)


SAFE_TEXT = st.text(alphabet="ab <&>\"'\n\u00e9", min_size=1, max_size=6)
NAMES = ["span", "div", "b", "i", "p", "em", "table", "td", "li", "a"]


def sourced_parent(node, roots=False):
    """node when it and its ancestors come from the input (with `roots`:
    but html, head and body, which the parser implies, when the edit
    changes no children of theirs), else None: the tags of an element the
    parser made are written around the nodes an edit touches."""
    if node.source is None:
        return None
    parent = node.parent_node
    while parent is not None and parent.node_type == 1:
        if parent.source is None and not (
                roots and parent.local_name in ("html", "head", "body")
                and parent.namespace_uri == "http://www.w3.org/1999/xhtml"):
            return None
        parent = parent.parent_node
    return node


def input_order(root):
    """The input offsets of the start tags, nodes and end tags of a tree, in
    tree order."""
    out = []
    stack = [(root, False)]
    while stack:
        node, leaving = stack.pop()
        if leaving:
            if node.end_source is not None:
                out.append(node.end_source.start)
            continue
        if node.source is not None:
            out.append(node.source.start)
        if node.node_type == 1:
            stack.append((node, True))
        stack.extend((child, False) for child in reversed(list(node.child_nodes)))
    return out


def all_nodes(root):
    stack = [root]
    out = []
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.child_nodes)
    return out


def edit(doc, draw):
    """One random edit; returns the node it touched (or None); a node whose
    parent the parser implied is returned as None too (its parent's tags
    may be written), as is one the edit moved."""
    nodes = [n for n in all_nodes(doc) if n.node_type != 9]
    elements = [n for n in nodes if n.node_type == 1]
    if not nodes:
        return None
    kind = draw(st.sampled_from(["set", "remove_attribute", "remove", "insert",
                                 "move", "text"]))
    if kind == "set" and elements:
        element = draw(st.sampled_from(elements))
        element.set_attribute(draw(st.sampled_from(["id", "class", "x", "data-q"])),
                              draw(SAFE_TEXT))
        return sourced_parent(element, roots=True)
    if kind == "remove_attribute" and elements:
        element = draw(st.sampled_from(elements))
        names = list(element.attributes.keys())
        if names:
            element.remove_attribute(draw(st.sampled_from(names)))
            return sourced_parent(element, roots=True)
        return None
    if kind == "remove":
        node = draw(st.sampled_from(nodes))
        if node.parent_node is not None and node.parent_node.node_type != 9:
            touched = sourced_parent(node)
            node.parent_node.remove_child(node)
            return touched
        return None
    if kind == "insert" and elements:
        parent = draw(st.sampled_from(elements))
        if draw(st.booleans()):
            new = doc.create_element(draw(st.sampled_from(NAMES)))
            new.append_child(doc.create_text_node(draw(SAFE_TEXT)))
        else:
            new = doc.create_text_node(draw(SAFE_TEXT))
        children = list(parent.child_nodes)
        reference = draw(st.sampled_from(children)) if children and draw(st.booleans()) \
            else None
        parent.insert_before(new, reference)
        return sourced_parent(parent)
    if kind == "move" and elements:
        node = draw(st.sampled_from(nodes))
        parent = draw(st.sampled_from(elements))
        touched = [sourced_parent(node), sourced_parent(parent)]
        try:
            parent.append_child(node)
        except ValueError:
            return None
        return None if None in touched else min(touched, key=lambda n: n.source.start)
    if kind == "text":
        texts = [n for n in nodes if n.node_type == 3]
        if texts:
            node = draw(st.sampled_from(texts))
            touched = sourced_parent(node)
            node.data = draw(SAFE_TEXT)
            return touched
    return None


FORMATTING = {"a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small",
              "strike", "strong", "tt", "u"}


def without_identifiers(dump):
    return re.sub(r"<!DOCTYPE ([^ >]*)[^>\n]*>", r"<!DOCTYPE \1>", dump)


# Every document case: foster parenting, attributes a later <html> or
# <body> tag merges, implied tags, raw text (script, style, plaintext),
# templates, framesets, SVG and MathML, the adoption agency's restructuring
# and <selectedcontent> included (where the output of the nodes' own input
# would parse otherwise, to_source() writes the smallest enclosing region
# that parses back by the standard's algorithm).
SAMPLE = DOCUMENT_CASES


def as_parsed(doc):
    """The dump of the tree a parse can make of doc: adjacent text nodes as
    one, empty ones gone (the DOM's normalize(), on a copy)."""
    copy = doc.clone_node(True)
    copy.normalize()
    return lexpy.dump(copy)


def random_edit(draw):
    """A corpus case, parsed with positions, after 1-4 random edits: (case,
    document, doc, touched nodes, to_source(), the edited tree's dump), or
    not at all (hypothesis' assume) where the edited tree is not one HTML
    can give (the standard's serialization parses back to it, but for the
    DOCTYPE identifiers it does not write, and up to adjacent text nodes,
    which every parse merges): not a <p> in a <p>, a document without a
    body, ..."""
    case = draw(st.sampled_from(SAMPLE))
    kind = draw(st.sampled_from(["str", "bytes"]))
    document = case.data if kind == "str" else case.data.encode("utf-8")
    doc = parse_case(case, document)
    touched = []
    for _ in range(draw(st.integers(1, 4))):
        touched.append(edit(doc, draw))
    out = doc.to_source(encoding="unicode")
    standard = doc.to_html()
    expected = as_parsed(doc)
    assume(without_identifiers(lexpy.dump(lexpy.parse(standard, scripting=case.scripting)))
           == without_identifiers(expected))
    return case, kind, document, touched, out, expected


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.data())
def test_random_edits_reparse_to_the_edited_tree(draw_data):
    case, _, _, _, out, expected = random_edit(draw_data.draw)
    # (<template for> patching may itself leave adjacent text nodes)
    assert as_parsed(lexpy.parse(out, scripting=case.scripting)) == expected, (case.data, out)


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.data())
def test_random_edits_keep_the_input_before_the_first_edit(draw_data):
    case, kind, document, touched, out, _ = random_edit(draw_data.draw)
    # The input before the first node an edit touched is kept (but the
    # whitespace the parser dropped right before it).
    # (Where the tree has its nodes in input order: foster parenting and
    # the adoption agency put them elsewhere, and the output follows the tree.)
    # (And where no node was dropped: a <frameset> start tag in "in body"
    # insertion mode removes the body with what the input put in it; nor
    # made: the adoption agency algorithm and the reconstruction of the
    # active formatting elements make formatting elements without input.)
    starts = [n.source.start for n in touched if n is not None]
    original = parse_case(case, document)
    in_order = input_order(original)
    frameset = original.body is not None and original.body.local_name == "frameset"
    made = any(n.node_type == 1 and n.source is None and n.local_name in FORMATTING
               for n in all_nodes(original))
    if len(starts) == len(touched) and kind == "str" and in_order == sorted(in_order) \
            and not frameset and not made:
        kept = document[:min(starts)].rstrip("\t\n\x0c\r ")
        assert out[:len(kept)] == kept


def single_edits(document, scripting):
    """Every edit of one kind on one node of a small document, each on a
    fresh parse: set an attribute, remove an attribute, remove a node, set
    a text's data, insert a text or an element at each place of each
    element, rename (set_attribute on a renamed clone is the rename the API
    has: a node moved instead). Yields the edited documents."""
    def fresh():
        return lexpy.parse(document, scripting=scripting, positions=True)

    count = len(all_nodes(fresh()))
    for index in range(count):
        for kind in ("set", "remove_attribute", "remove", "text", "insert_text",
                     "insert_element", "move_last"):
            doc = fresh()
            node = [n for n in all_nodes(doc)][index]
            if kind == "set" and node.node_type == 1:
                node.set_attribute("id", "<x>")
            elif kind == "remove_attribute" and node.node_type == 1 and node.attributes:
                node.remove_attribute(list(node.attributes.keys())[0])
            elif kind == "remove" and node.node_type != 9 \
                    and node.parent_node is not None and node.parent_node.node_type != 9:
                node.parent_node.remove_child(node)
            elif kind == "text" and node.node_type == 3:
                node.data = "b <"
            elif kind in ("insert_text", "insert_element") and node.node_type == 1:
                for position in range(len(node.child_nodes) + 1):
                    doc = fresh()
                    parent = [n for n in all_nodes(doc)][index]
                    new = doc.create_text_node("t") if kind == "insert_text" \
                        else doc.create_element("span")
                    children = list(parent.child_nodes)
                    parent.insert_before(new, children[position]
                                         if position < len(children) else None)
                    yield doc
                continue
            elif kind == "move_last" and node.node_type not in (9, 10) \
                    and node.parent_node is not None and node.parent_node.node_type == 1:
                body = doc.body
                if body is None or node.contains(body):
                    continue
                body.append_child(node)
            else:
                continue
            yield doc


def representable(doc, scripting):
    """Whether the edited tree is one HTML can give: the standard's
    serialization parses back to it (but for the DOCTYPE identifiers, and
    up to adjacent text nodes)."""
    return without_identifiers(lexpy.dump(lexpy.parse(doc.to_html(), scripting=scripting))) \
        == without_identifiers(as_parsed(doc))


# The cases random edits broke before (foster parenting: tests7.dat:12,
# tests7.dat:32, tests15.dat:12; an <html> tag's attributes merged into the
# html element: tests2.dat:54, noscript01.dat:2; a comment after </body>:
# webkit01.dat:27), a self-closing MathML element given children, and one
# case of each family the random edits once left out.
REGRESSIONS = [
    ("<!doctype html><table><style> <tr>x </style> </table>", True),
    ("A<table><tr> B</tr> B</table>", False),
    ("<!doctype html><div><table><a>foo</a> <tr><td>bar</td> </tr></table></div>", False),
    ('<!DOCTYPE html>X</body><html id="x">', True),
    ('<head><noscript><html class="foo"><!--foo--></noscript>', False),
    ("<html><body></body>\n   <!-- Hi there --></html>", True),
    ("<!DOCTYPE html><body><math><mi/><mo />x</math><svg><path /></svg>", True),
    ("<!doctype html><script>a</script><p>x<script>b<!--<script></script>--></script>", True),
    ("<!doctype html><template><td>x</td></template><p>y", True),
    ("<!doctype html><p>a<plaintext>b</p>", True),
    ("<!doctype html><frameset><frame></frameset> <noframes>x</noframes>", True),
    ("<!doctype html><a><div><style></style><address><a>", True),
    ("<!doctype html><b>1<p>2</b>3</p>", True),
    ("<!doctype html><select><option selected>A<b>x</b></option></select>"
     "<button><selectedcontent></selectedcontent></button>", True),
    ("<!doctype html><body a=1><body b=2><p>x", True),
]


@pytest.mark.parametrize("document,scripting", REGRESSIONS,
                         ids=[str(i) for i in range(len(REGRESSIONS))])
def test_every_single_edit_reparses_to_the_edited_tree(document, scripting):
    checked = 0
    for doc in single_edits(document, scripting):
        if not representable(doc, scripting):
            continue
        out = doc.to_source()
        assert lexpy.dump(lexpy.parse(out, scripting=scripting)) == as_parsed(doc), \
            (document, out)
        checked += 1
    assert checked > 0


def test_adjacent_texts_reparse_as_one():
    # (removing the element between two texts leaves two text nodes, which
    # no serialization keeps apart: the check compares the merged text)
    text = "<!doctype html><p>a<b>x</b>c</p><div id=d>y</div>"
    doc = lexpy.parse(text, positions=True)
    doc.query_selector("b").remove()
    doc.query_selector("#d").set_attribute("class", "k")
    out = doc.to_source()
    assert out == '<!doctype html><p>ac</p><div id="d" class="k">y</div>'
    assert lexpy.dump(lexpy.parse(out)) == as_parsed(doc)


def test_a_tree_html_cannot_give_keeps_the_first_output():
    # (a <p> in a <p>: no output parses back to it; the edit is written as
    # the standard's algorithm writes it, the rest as the input was)
    text = "<!doctype html><P>a</P><div>b</div>"
    doc = lexpy.parse(text, positions=True)
    doc.query_selector("p").append_child(doc.create_element("p"))
    out = doc.to_source()
    assert out == "<!doctype html><P>a<p></p></P><div>b</div>"


# (where text is foster-parented: "in table" insertion mode)
TABLE_ROWS = ("table", "tbody", "thead", "tfoot", "tr")


def light_edit(doc):
    """An attribute set on the body's first element, the first text in an
    element of the body (not a table's) changed, the tenth element of the body removed;
    returns the first node edited."""
    elements = doc.body.query_selector_all("*")
    first = doc.body.first_element_child
    first.set_attribute("data-edited", "1")
    for element in elements:
        if element.first_child is not None and element.first_child.node_type == 3 \
                and element.local_name not in TABLE_ROWS:
            element.first_child.data += " edited"
            break
    if len(elements) >= 10:
        elements[9].remove()
    return first


@pytest.mark.parametrize("path", PAGES, ids=[p.name for p in PAGES])
def test_a_lightly_edited_page_reparses_to_its_tree(path):
    page = path.read_bytes()
    doc = lexpy.parse(page, positions=True)
    first = light_edit(doc)
    if not representable(doc, True):
        pytest.xfail("the page's tree is not one the standard's serialization "
                     "gives back (HTML Standard, 13.3 Serializing HTML fragments: "
                     "\"the output may not parse back\")")
    out = doc.to_source()
    assert lexpy.dump(lexpy.parse(out)) == as_parsed(doc)
    # The input before the first edit is kept where the tree has the nodes
    # in input order and the html and body elements have the attributes of
    # their start tags (else the output follows the tree, and writes the
    # start tag of an element a later tag gave attributes).
    in_order = input_order(lexpy.parse(page, positions=True))
    own = [element for element in (doc.document_element, doc.body)
           if element is not None and element.source is not None]
    if in_order == sorted(in_order) and all(
            element.attribute_source(name) is not None
            for element in own for name in element.attributes.keys()):
        assert out[:first.source.start] == page[:first.source.start]


@pytest.mark.parametrize("document,context", [
    ("<tr><td>a</td></tr> <tr><td>b", "tbody"),
    ("x<table><tr> y</tr></table>z", "div"),
    ("<b>1<p>2</b>3", "body"),
])
def test_every_single_edit_of_a_fragment_reparses_to_its_tree(document, context):
    def fresh():
        return lexpy.parse_fragment(document, context, positions=True)

    checked = 0
    for index in range(len(all_nodes(fresh()))):
        for kind in ("set", "remove", "text"):
            fragment = fresh()
            node = all_nodes(fragment)[index]
            if kind == "set" and node.node_type == 1:
                node.set_attribute("id", "<x>")
            elif kind == "remove" and node.parent_node is not None:
                node.parent_node.remove_child(node)
            elif kind == "text" and node.node_type == 3:
                node.data = "b <"
            else:
                continue
            standard = lexpy.parse_fragment(fragment.to_html(), context)
            if lexpy.dump(standard) != as_parsed(fragment):
                continue
            out = fragment.to_source()
            assert lexpy.dump(lexpy.parse_fragment(out, context)) == as_parsed(fragment), \
                (document, out)
            checked += 1
    assert checked > 3


@pytest.mark.parametrize("text,selector,tail", [
    # whitespace after </body> and </html> goes into the body's last text
    ("<!doctype html><html><body><p id=e>x</p>\r\n  </body>\r\n</html>\r\n", "#e",
     "</p>\r\n  </body>\r\n</html>\r\n"),
    # a stray </p> made an empty p
    ("<!doctype html><p id=e>x</p><div>a</p>\n<b>y</b></div>", "#e", "<div>a</p>\n<b>y</b></div>"),
    # a tbody implied by its first tr
    ("<!doctype html><p id=e>x</p><table>\n<tr><td>a</td></tr>\n</table>", "#e",
     "</p><table>\n<tr><td>a</td></tr>\n</table>"),
])
def test_the_input_after_an_edit_is_kept(text, selector, tail):
    for document in (text, text.encode("utf-8")):
        doc = lexpy.parse(document, positions=True)
        doc.query_selector(selector).set_attribute("class", "k")
        out = doc.to_source(encoding="unicode")
        assert out.endswith(tail), out
        assert lexpy.dump(lexpy.parse(out)) == lexpy.dump(doc)
