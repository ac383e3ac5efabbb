"""Lossless output (node.to_source(), issue 37): an untouched document
parsed with positions=True writes its input back byte for byte (every
tree-construction case, every corpus page, str and bytes); after random
edits (hypothesis: set and remove attributes, insert, remove and move
nodes, set text, rename) the output parses to the same tree as the
standard's serialization of the edited DOM does, and the input outside the
edited nodes' spans (defined below, at edit()) is unchanged and in order,
but where to_source() reports a wider rewritten region its reparse needed
(the narrower writing parses to another tree). Without positions:
ValueError. Longer seeded runs: see test_seeded_random_edits.
"""
import bisect
import random
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
    # (the end of the first p, which the parser implied, stays implied)
    assert doc.to_source() == "<!doctype html><P CLASS='a'>x &amp; y<br/>\n" \
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
    # (a formatting element left open is reconstructed from the same input:
    # only the edited start tag is rewritten)
    text = "<!doctype html><p><b>x</p>y<i id=a>z"
    doc = lexpy.parse(text, positions=True)
    doc.query_selector("#a").set_attribute("x", "1")
    out = doc.to_source()
    assert out == text.replace("<i id=a>", doc.query_selector("#a").to_html()[:-len("z</i>")])
    assert lexpy.dump(lexpy.parse(out)) == lexpy.dump(doc)


SAFE_ALPHABET = "ab <&>\"'\n\u00e9"
SAFE_TEXT = st.text(alphabet=SAFE_ALPHABET, min_size=1, max_size=6)
NAMES = ["span", "div", "b", "i", "p", "em", "table", "td", "li", "a"]


def all_nodes(root):
    """root and every node under it (a template's contents included)."""
    stack = [root]
    out = []
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.child_nodes)
        if node.node_type == 1 and node.local_name == "template" \
                and node.namespace_uri == "http://www.w3.org/1999/xhtml":
            stack.extend(node.content.child_nodes)
    return out


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


# The edited nodes' spans: what an edit lets to_source() rewrite, as
# ranges of the input (node.source's offsets). A node's extent is the input
# its subtree came from (from the first start to the last end of its own
# source, its end tag's and its descendants'). An element's content region
# is the input between its start tag and its end tag; where the parser
# implied the end, from its start tag to the next input a node came from
# (the input that implied the end), but for the whitespace before that; for an
# element the parser made (an implied html, head or body, a reconstructed
# formatting element), from the end of the input before its extent to the
# start of the input after it (but for the whitespace at either end); a
# foreign element the input closed at its start tag ("<x/>"): with its start
# tag; an element the parser made with no input in it: from the end of its
# previous sibling's input to the next input (but for the whitespace at
# either end), or
# where it has none, from the end of the input before its next sibling's to
# that (but for whitespace). Where
# that region holds the input of nodes outside the element
# (foster-parented text, nodes the adoption agency moved), or the element has
# no input, its parent's content region instead, and so on up to the
# Document (or the fragment): the whole input. Where a child's input is
# after the element's end tag (a head's child after </head>, a body's after
# </body>: the parser put it in the element all the same), the region
# reaches over the end tag to the end of the children's input (the same
# rule: where that holds other nodes' input, the parent's).
#   - set or remove an attribute: the element's start tag (an element the
#     parser made: its extent, whose start its start tag is written at);
#   - set a text's data: the text's own input (where it holds the input of
#     other nodes: its parent's content region);
#   - insert, remove or move a node, rename an element (the API renames by
#     replace_child: a remove and an insert): the content region of the
#     parent it leaves and of the parent it goes to.
# Everything outside them is kept byte for byte and in order, but where the
# narrower writing would parse to another tree: there to_source() rewrites
# a wider region, the smallest that parses back (its reparse check), and
# says so (the ranges of to_source_edits()). The narrower writing
# (narrow_writing) is the input with these spans replaced by what the
# standard's serialization writes for their nodes now; the test parses it
# wherever the first writing (to_source_edits(checked=False)) or the final
# one reaches beyond the spans, and fails where it parses back (a needless
# widening), and where the final one reaches further than the first, it
# parses the first as well (to_source widens only where that differs).


def extent(node):
    low = high = None
    for each in all_nodes(node):
        spans = [each.source]
        if each.node_type == 1:
            spans.append(each.end_source)
        for span in spans:
            if span is not None:
                low = span.start if low is None else min(low, span.start)
                high = span.end if high is None else max(high, span.end)
    return None if low is None else (low, high)


class Input:
    """The input and where the pieces of input of the current tree start
    and end (for the content regions)."""

    def __init__(self, document, doc):
        self.document = document
        self.starts = []
        self.ends = []
        for node in all_nodes(doc):
            for span in (node.source, node.end_source if node.node_type == 1 else None):
                if span is not None:
                    self.starts.append(span.start)
                    self.ends.append(span.end)
        self.starts.sort()
        self.ends.sort()
        self.space = "\t\n\x0c\r " if isinstance(document, str) else b"\t\n\x0c\r "

    def blank(self, start, end):
        return not self.document[start:end].strip(
            "\t\n\x0c\r " if isinstance(self.document, str) else b"\t\n\x0c\r ")

    def after(self, offset):
        """The start of the next input after offset, before the whitespace
        in front of it."""
        index = bisect.bisect_left(self.starts, offset)
        following = self.starts[index] if index < len(self.starts) else len(self.document)
        between = self.document[offset:following]
        return following - (len(between) - len(between.rstrip(self.space)))

    def before(self, offset):
        """The end of the input before offset, past the whitespace after it."""
        index = bisect.bisect_right(self.ends, offset) - 1
        previous = self.ends[index] if index >= 0 else 0
        between = self.document[previous:offset]
        return previous + len(between) - len(between.lstrip(self.space))


def parent(node):
    """The parent, a template's for the nodes of its contents."""
    up = node.parent_node
    if up is not None and up.node_type == 11 and up.host is not None:
        return up.host
    return up


def own_starts(node):
    """The starts of the input of node's subtree but node's own tags."""
    out = []
    for each in all_nodes(node):
        if each is node:
            continue
        for span in (each.source, each.end_source if each.node_type == 1 else None):
            if span is not None:
                out.append(span.start)
    return out


def closed_by_its_tag(node, document):
    """A foreign element the input closed at its start tag ("<x/>")."""
    return node.node_type == 1 and node.end_source is None \
        and node.namespace_uri != "http://www.w3.org/1999/xhtml" \
        and document[node.source.start:node.source.end].endswith(
            "/>" if isinstance(document, str) else b"/>")


def after_its_end_tag(node):
    """Whether a child's input is after the element's end tag (the parser
    put it in the element all the same: "after head" and "after body"
    insertion modes)."""
    if node.node_type != 1 or node.end_source is None:
        return False
    return any(child.source is not None and child.source.start >= node.end_source.end
               for child in node.child_nodes)


class Region(tuple):
    """An edited node's span: (low, high), with the node whose writing
    replaces it (narrow_writing) and what of it: "tag" (its start tag),
    "data" (a text's or comment's), "content" (its children), "outer" (the
    whole node: an element the parser made), "document" (the whole)."""

    def __new__(cls, low, high, node, kind):
        region = tuple.__new__(cls, (low, high))
        region.node = node
        region.kind = kind
        return region


def content_region(node, doc, document):
    places = Input(document, doc)
    while node is not None and node.node_type not in (9, 11):
        region = None
        if node.source is not None:
            if node.end_source is not None:
                region = (node.source.end, node.end_source.start)
            else:
                region = (node.source.end, max(node.source.end,
                                               places.after(extent(node)[1])))
                if closed_by_its_tag(node, document):
                    region = (node.source.start, region[1])
        elif extent(node) is not None:
            region = extent(node)
            region = (places.before(region[0]), places.after(region[1]))
        elif node.node_type == 1:
            sibling = node.previous_sibling
            while sibling is not None and extent(sibling) is None:
                sibling = sibling.previous_sibling
            if sibling is not None:
                low = extent(sibling)[1]
                high = places.after(low)
                between = document[low:high]
                region = (low + len(between) - len(between.lstrip(places.space)), high)
            else:
                sibling = node.next_sibling
                while sibling is not None and extent(sibling) is None:
                    sibling = sibling.next_sibling
                if sibling is not None:
                    high = extent(sibling)[0]
                    region = (places.before(high), high)
        if region is not None:
            # (where the region holds the input of nodes outside node's
            # subtree: foster-parented text, nodes the adoption agency
            # moved, or a child's input is after node's end tag: a head's
            # child after </head>, a body's after </body>, its parent's
            # instead)
            low, high = region
            own = own_starts(node)
            if after_its_end_tag(node):
                # (a child's input after node's end tag: the region reaches
                # over the end tag to the end of its children's input,
                # where no other node's input lies between)
                high = max([high] + [extent(child)[1] for child in node.child_nodes
                                     if extent(child) is not None])
                own.append(node.end_source.start)
            inside = bisect.bisect_left(places.starts, high) \
                - bisect.bisect_left(places.starts, low)
            if inside == sum(1 for start in own if low <= start < high):
                whole = node.source is None or low == node.source.start
                return Region(low, high, node, "outer" if whole else "content")
        node = parent(node)
    return Region(0, len(document), doc, "document")


def own_region(node, doc, document):
    """An element's start tag, a text's (comment's) input; for an element
    the parser made, its extent; for a node without input (or a text whose
    input holds other nodes'), its parent's content region."""
    places = Input(document, doc)
    if node.source is not None:
        inside = bisect.bisect_left(places.starts, node.source.end) \
            - bisect.bisect_left(places.starts, node.source.start)
        if node.node_type == 1 or inside == 1:
            return Region(node.source.start, node.source.end, node,
                          "tag" if node.node_type == 1 else "data")
    elif node.node_type == 1 and extent(node) is not None:
        return Region(*extent(node), node, "outer")
    return content_region(node if node.node_type == 1 and node.source is None
                          else parent(node), doc, document)


def choose(draw, items):
    """One of items: drawn by hypothesis, or picked by a random.Random."""
    if isinstance(draw, random.Random):
        return draw.choice(list(items))
    return draw(st.sampled_from(items))


def coin(draw):
    return draw.random() < 0.5 if isinstance(draw, random.Random) else draw(st.booleans())


def words(draw):
    if isinstance(draw, random.Random):
        return "".join(draw.choice(SAFE_ALPHABET) for _ in range(draw.randint(1, 6)))
    return draw(SAFE_TEXT)


def edit(doc, draw, document):
    """One random edit; returns the edited nodes' spans (input ranges, see
    above): [] where no edit was made."""
    nodes = [n for n in all_nodes(doc) if n.node_type != 9]
    elements = [n for n in nodes if n.node_type == 1]
    if not nodes:
        return []
    kind = choose(draw, (["set", "remove_attribute", "remove", "insert",
                                 "move", "text", "rename"]))
    if kind == "set" and elements:
        element = choose(draw, (elements))
        region = own_region(element, doc, document)
        element.set_attribute(choose(draw, (["id", "class", "x", "data-q"])),
                              words(draw))
        return [region]
    if kind == "remove_attribute" and elements:
        element = choose(draw, (elements))
        names = list(element.attributes.keys())
        if names:
            region = own_region(element, doc, document)
            element.remove_attribute(choose(draw, (names)))
            return [region]
        return []
    if kind == "remove":
        node = choose(draw, (nodes))
        if node.parent_node is not None and node.parent_node.node_type != 9:
            region = content_region(node.parent_node, doc, document)
            node.parent_node.remove_child(node)
            return [region]
        return []
    if kind == "insert" and elements:
        parent = choose(draw, (elements))
        if coin(draw):
            new = doc.create_element(choose(draw, (NAMES)))
            new.append_child(doc.create_text_node(words(draw)))
        else:
            new = doc.create_text_node(words(draw))
        children = list(parent.child_nodes)
        reference = choose(draw, (children)) if children and coin(draw) \
            else None
        region = content_region(parent, doc, document)
        parent.insert_before(new, reference)
        return [region]
    if kind == "move" and elements:
        node = choose(draw, (nodes))
        parent = choose(draw, (elements))
        regions = [content_region(node.parent_node, doc, document), content_region(parent, doc, document)]
        try:
            parent.append_child(node)
        except ValueError:
            return []
        return regions
    if kind == "rename" and elements:
        element = choose(draw, (elements))
        parent = element.parent_node
        if parent is None or parent.node_type == 9:
            return []
        region = content_region(parent, doc, document)
        new = doc.create_element(choose(draw, (NAMES)))
        for name, value in element.attributes.items():
            new.set_attribute(name, value)
        for child in list(element.child_nodes):
            new.append_child(child)
        parent.replace_child(new, element)
        return [region]
    if kind == "text":
        texts = [n for n in nodes if n.node_type == 3]
        if texts:
            node = choose(draw, (texts))
            region = own_region(node, doc, document)
            node.data = words(draw)
            return [region]
    return []


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
    document, doc, the edited nodes' spans, to_source(), the edited tree's
    dump), or not at all (hypothesis' assume) where the edited tree is not
    one HTML can give (the standard's serialization parses back to it, but
    for the DOCTYPE identifiers it does not write, and up to adjacent text
    nodes, which every parse merges): not a <p> in a <p>, a document
    without a body, ..."""
    case = draw(st.sampled_from(SAMPLE))
    kind = draw(st.sampled_from(["str", "bytes"]))
    document = case.data if kind == "str" else case.data.encode("utf-8")
    doc = parse_case(case, document)
    regions = []
    for _ in range(draw(st.integers(1, 4))):
        regions.extend(edit(doc, draw, document))
    out = doc.to_source()
    standard = doc.to_html()
    expected = as_parsed(doc)
    assume(without_identifiers(lexpy.dump(lexpy.parse(standard, scripting=case.scripting)))
           == without_identifiers(expected))
    return case, document, doc, regions, out, expected


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.data())
def test_random_edits_reparse_to_the_edited_tree(draw_data):
    case, _, doc, _, _, expected = random_edit(draw_data.draw)
    out = doc.to_source(encoding="unicode")
    # (<template for> patching may itself leave adjacent text nodes)
    assert as_parsed(lexpy.parse(out, scripting=case.scripting)) == expected, (case.data, out)


def applied(document, edits):
    """The input with each edit's range replaced by its text."""
    out = []
    position = 0
    for start, end, text in edits:
        assert position <= start <= end <= len(document), edits
        out.append(document[position:start])
        out.append(text)
        position = end
    out.append(document[position:])
    return document[:0].join(out)


def merged(regions):
    out = []
    for start, end in sorted(regions):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def outside(edits, regions):
    """The edits whose range is not inside one of the (merged) regions."""
    regions = merged(regions)
    return [(start, end, text) for start, end, text in edits
            if not any(low <= start and end <= high for low, high in regions)]


def region_text(region, doc, document):
    """What the standard's serialization writes for a region now (see
    Region), "" for a node no longer in the tree."""
    node = region.node
    if region.kind == "document":
        return node.to_html()
    if not doc.contains(node) and not any(
            template.content.contains(node) for template in doc.query_selector_all("template")):
        return ""
    if region.kind == "tag":
        tag = node.clone_node(False).to_html()
        if closed_by_its_tag(node, document) and not node.has_child_nodes():
            return tag          # (its start tag "<x/>" is the whole element)
        end = "</%s>" % (node.local_name if node.namespace_uri in (
            "http://www.w3.org/1999/xhtml", "http://www.w3.org/2000/svg",
            "http://www.w3.org/1998/Math/MathML") else node.tag_name)
        assert tag.endswith(end) or node.namespace_uri == "http://www.w3.org/1999/xhtml", tag
        return tag[:-len(end)] if tag.endswith(end) else tag
    if region.kind == "content":
        children = node.content.child_nodes if node.node_type == 1 \
            and node.local_name == "template" \
            and node.namespace_uri == "http://www.w3.org/1999/xhtml" else node.child_nodes
        return "".join(child.to_html() for child in children)
    return node.to_html()


RANKS = {"document": 0, "outer": 1, "content": 2, "tag": 3, "data": 4}


def narrow_writing(document, doc, regions):
    """The narrower writing the edited nodes' spans allow: the input with
    each region replaced by what the standard's serialization writes for
    its node now. A region inside a node's content (or the whole
    node's) is in that one's writing: its node is in that node's subtree,
    or no more there (moved: written where it went, whose parent's content
    is a region too; removed: written nowhere); regions that overlap where
    one's node holds the other's are one, their union, in the holder's
    writing. None where regions overlap otherwise, where a region is
    inside a node's whose subtree has not its node (and no other node's
    region that holds it writes it: the narrower writing would leave it
    out), or two insert at one point (in which order?)."""
    def holds(outer, node):
        if outer.kind == "document":
            return True
        while node is not None:
            if node is outer.node:
                return True
            node = parent(node)
        return False

    containers = ("document", "outer", "content")

    def written_elsewhere(node):
        # (a node no more in the tree, written nowhere, or in another
        # container region's node: moved there, written in its writing)
        return not any(root.contains(node) for root in [doc] + [
            template.content for template in doc.query_selector_all("template")]) \
            or any(other.kind in containers and holds(other, node) for other in regions)

    kept = []
    for region in sorted(regions, key=lambda r: (r[0], -r[1], RANKS[r.kind])):
        low, high = region
        if not kept or low >= kept[-1][1] and not low == high == kept[-1][0] == kept[-1][1]:
            kept.append(region)
            continue
        last = kept[-1]
        if high > last[1]:
            # (overlapping: where one's node holds the other's -- the
            # content of an element whose end the end of the input implied
            # reaches past its ancestor's extent -- the union, in the
            # holder's writing)
            if last.kind in containers and holds(last, region.node):
                kept[-1] = Region(last[0], high, last.node, last.kind)
                continue
            if region.kind in containers and holds(region, last.node):
                kept[-1] = Region(last[0], high, region.node, region.kind)
                continue
            return None                         # (overlapping)
        if last[0] < low < last[1] or low < high:
            # (inside: in its writing, or no more there)
            if last.kind in containers and (holds(last, region.node) or written_elsewhere(
                    region.node)) or tuple(last) == tuple(region) and last.node is region.node:
                continue
            return None
        # (an insertion point at last's start, or both at one point)
        if last.kind in containers and holds(last, region.node) or last.node is region.node:
            continue
        if low == high == last[0] < last[1]:
            kept.insert(len(kept) - 1, region)
            continue
        return None
    edits = []
    for region in kept:
        text = region_text(region, doc, document)
        edits.append((region[0], region[1], text if isinstance(document, str)
                      else text.encode("utf-8")))
    return applied(document, edits)



def reparsed_writing(doc, **options):
    """`doc.to_source()` and the edited DOM's dump, after checking that the
    writing reparses (with `options`) to that dump."""
    out = doc.to_source()
    expected = as_parsed(doc)
    assert as_parsed(lexpy.parse(out, **options)) == expected, out
    return out, expected

def check_kept(case, document, doc, regions, out, expected):
    """The bytes outside the edited nodes' spans are unchanged: to_source()
    is the input with the ranges of to_source_edits() replaced; the first
    writing's ranges lie in the edited nodes' spans; where the final ranges
    reach further, the first writing's output parses to another tree.
    Returns (input bytes kept, input bytes)."""
    edits = doc.to_source_edits()
    assert applied(document, edits) == out, (document, edits)
    first = doc.to_source_edits(checked=False)
    if outside(first, regions) or outside(edits, regions):
        # (a writing that goes further than the edited nodes' spans: only
        # where the narrower writing -- those spans written by the
        # standard's algorithm, the rest kept -- parses to another tree)
        narrow = narrow_writing(document, doc, regions)
        if narrow is None:
            # (spans that interleave, neither node holding the other --
            # clones the adoption agency made from input that interleaves,
            # or two insertions at one point -- have no narrower writing
            # of the standard's: the first writing lies in the spans, and
            # the final one is checked against it below)
            assert not outside(first, regions), \
                ("needless widening", document, regions, first, edits)
        else:
            assert as_parsed(lexpy.parse(narrow, scripting=case.scripting)) != expected, \
                ("needless widening", document, regions, first, edits, narrow)
    if outside(edits, regions) and edits != first:
        widened = lexpy.parse(applied(document, first), scripting=case.scripting)
        assert as_parsed(widened) != expected, ("needless widening", document, regions,
                                                edits)
    return len(document) - sum(end - start for start, end, _ in edits), len(document)


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.data())
def test_random_edits_keep_the_input_outside_the_edited_spans(draw_data):
    check_kept(*random_edit(draw_data.draw))


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


class _Page:
    fragment_context = None
    scripting = True

    def __init__(self, data):
        self.data = data


@pytest.mark.parametrize("path", PAGES, ids=[p.name for p in PAGES])
def test_random_edits_of_a_page_keep_the_input_outside_the_edited_spans(path):
    # (1-4 random edits of each page, seeded by its name: the check of
    # check_kept, on real pages; tools' longer runs use other seeds)
    page = path.read_bytes()
    pick = random.Random(path.name)
    for _ in range(8):
        # (edits that make a tree HTML cannot give -- a <p> put in a <p>,
        # a <td> out of a table -- are drawn again)
        doc = lexpy.parse(page, positions=True)
        regions = []
        for _ in range(pick.randint(1, 4)):
            regions.extend(edit(doc, pick, page))
        if representable(doc, True):
            break
    else:
        pytest.xfail("the edited tree is not one the standard's serialization "
                     "gives back (HTML Standard, 13.3 Serializing HTML fragments: "
                     "\"the output may not parse back\")")
    expected = as_parsed(doc)
    out = doc.to_source()
    assert as_parsed(lexpy.parse(doc.to_source(encoding="unicode"))) == expected
    check_kept(_Page(page), page, doc, regions, out, expected)


@pytest.mark.parametrize("text", [
    # (a) elements whose end the parser implied keep it implied: an HTML
    # element named like a foreign one closed by </div>, a p closed by a
    # div, an li by an li
    "<!doctype html><div><g:plusone/>x</div><p id=e>y</p>",
    "<!doctype html><p>a<div id=e>b</div>",
    "<!doctype html><ul><li>1<li id=e>2</ul>",
    "<!doctype html><p><b>x</p>y<i id=e>z",
    # (b) an html or body start tag a later tag gave attributes is kept (the
    # later tag still is in the output, and gives them again)
    "<!doctype html><body a=1><p>x<body b=2><p id=e>y",
    "<html a=1><p id=e>x</p><html b=2>",
])
def test_only_the_edited_tag_is_rewritten(text):
    for document in (text, text.encode("utf-8")):
        doc = lexpy.parse(document, positions=True)
        element = doc.get_element_by_id("e")
        element.set_attribute("class", "k")
        tag = element.to_html()[:element.to_html().index(">") + 1]
        start, end = element.source.start, element.source.end
        tag = tag if isinstance(document, str) else tag.encode("utf-8")
        assert doc.to_source_edits() == [(start, end, tag)]
        assert doc.to_source() == document[:start] + tag + document[end:]
        assert lexpy.dump(lexpy.parse(doc.to_source())) == lexpy.dump(doc)


# Longer runs. The random checks above run in CI on fixed examples; a longer
# run draws others, one pytest item per seed (so that failures are counted,
# not only the first), each seed drawing a case or a page and 1-4 edits with
# random.Random(seed) -- a failure names its seed, which replays it:
#   LEXPY_TO_SOURCE_SEEDS=20000 LEXPY_TO_SOURCE_PAGE_SEEDS=2000 \
#       python -m pytest tests/api/test_to_source.py -q -k seeded
# runs seeds 0..19999 over the tree-construction cases and 0..1999 over the
# corpus pages (LEXPY_TO_SOURCE_SEED_START=S starts both at S). Without them:
# 40 and 10 seeds, so that CI runs the runner too.
import os  # noqa: E402

SEED_START = int(os.environ.get("LEXPY_TO_SOURCE_SEED_START", "0"))
CASE_SEEDS = range(SEED_START, SEED_START + int(os.environ.get("LEXPY_TO_SOURCE_SEEDS", "40")))
PAGE_SEEDS = range(SEED_START, SEED_START + int(
    os.environ.get("LEXPY_TO_SOURCE_PAGE_SEEDS", "10")))


def seeded_edit(seed, pages):
    """random_edit's draw with random.Random(seed): a case (with `pages`, a
    corpus page), str or bytes (pages: bytes), 1-4 edits; drawn again (up to
    20 times) where the edited tree is not one HTML can give. Returns
    random_edit's tuple, or None where no draw gave one."""
    pick = random.Random("%s:%d" % ("page" if pages else "case", seed))
    for _ in range(20):
        if pages:
            case = _Page(pick.choice(PAGES).read_bytes())
            document = case.data
        else:
            case = pick.choice(SAMPLE)
            document = case.data if pick.random() < 0.5 else case.data.encode("utf-8")
        doc = parse_case(case, document)
        regions = []
        for _ in range(pick.randint(1, 4)):
            regions.extend(edit(doc, pick, document))
        expected = as_parsed(doc)
        if without_identifiers(lexpy.dump(lexpy.parse(doc.to_html(), scripting=case.scripting))) \
                == without_identifiers(expected):
            return case, document, doc, regions, doc.to_source(), expected
    return None


@pytest.mark.parametrize("seed,pages", [(seed, False) for seed in CASE_SEEDS]
                         + [(seed, True) for seed in PAGE_SEEDS],
                         ids=["case-%d" % seed for seed in CASE_SEEDS]
                         + ["page-%d" % seed for seed in PAGE_SEEDS])
def test_seeded_random_edits(seed, pages):
    drawn = seeded_edit(seed, pages)
    if drawn is None:
        pytest.xfail("no edited tree drawn was one the standard's serialization gives "
                     "back (HTML Standard, 13.3 Serializing HTML fragments)")
    case, document, doc, regions, out, expected = drawn
    assert as_parsed(lexpy.parse(doc.to_source(encoding="unicode"),
                                 scripting=case.scripting)) == expected, (document, out)
    check_kept(case, document, doc, regions, out, expected)


def test_characters_the_encoding_has_not():
    # (windows-1252 output: a character reference in text and attribute
    # values; U+FFFD as U+0000 in a comment, a DOCTYPE, a processing
    # instruction and raw text, which have no character references and
    # whose tokenizer states make U+FFFD of U+0000; any other character
    # there: UnicodeEncodeError, no output in the encoding parses back)
    src = b"<!doctype html><meta charset=windows-1252><p title=x>a\xe9<!--x-->" \
        b"<script>1</script><style>s</style><textarea>t</textarea>"
    doc = lexpy.parse(src, positions=True)
    p = doc.query_selector("p")
    comment = p.child_nodes[1]
    comment.data = "a\ufffdb"
    doc.query_selector("script").first_child.data = "x\ufffd"
    doc.query_selector("style").first_child.data = "\ufffd"
    doc.query_selector("textarea").first_child.data = "\u4e2d\ufffd"
    p.set_attribute("title", "\ufffd\u4e2d")
    p.first_child.data = "\u4e2d\ufffd\u00e9"
    out = doc.to_source()
    assert b"<!--a\x00b-->" in out and b"<script>x\x00</script>" in out
    assert b'title="&#65533;&#20013;">&#20013;&#65533;\xe9' in out
    assert lexpy.dump(lexpy.parse(out)) == lexpy.dump(doc)
    assert applied(src, doc.to_source_edits()) == out
    # (an element's own output: by its parse in its parent's context)
    own = p.to_source(encoding="windows-1252")
    assert b"<!--a\x00b-->" in own and b"&#20013;&#65533;" in own
    assert lexpy.dump(lexpy.parse_fragment(own.decode("cp1252"), "body")) \
        == lexpy.dump(lexpy.parse_fragment(p.to_html(), "body"))
    # an untouched document written in another encoding
    untouched = lexpy.parse("<!DOCTYPE html><!--\ufffd--><p \u4e2d=1>\ufffd", positions=True)
    with pytest.raises(UnicodeEncodeError, match="U\\+4E2D .*attribute name"):
        untouched.to_source(encoding="windows-1252")
    untouched = lexpy.parse("<!DOCTYPE html\ufffd><!--\ufffd--><p a='\u4e2d'>\ufffd"
                            "<script>\ufffd</script>", positions=True)
    out = untouched.to_source(encoding="windows-1252")
    assert out == b"<!DOCTYPE html\x00><!--\x00--><p a='&#20013;'>&#65533;" \
        b"<script>\x00</script>"
    assert lexpy.dump(lexpy.parse(out, encoding="windows-1252")) == lexpy.dump(untouched)
    # what no output in the encoding gives: an error naming the place
    comment.data = "\u4e2d"
    with pytest.raises(UnicodeEncodeError, match="U\\+4E2D .*a comment"):
        doc.to_source()
    with pytest.raises(UnicodeEncodeError, match="a comment"):
        doc.to_source_edits()
    # (str output has them all)
    assert lexpy.dump(lexpy.parse(doc.to_source(encoding="unicode"))) == lexpy.dump(doc)


def check_edited_as_str_and_bytes(document, edit_it, representable_=True):
    """Parse `document` as str and as bytes with positions, edit it with
    edit_it(doc, given) -> the edited spans' regions, and check to_source():
    it reparses to the edited tree, and keeps the input outside the spans."""
    for given in (document, document.encode("utf-8")):
        doc = lexpy.parse(given, positions=True)
        regions = edit_it(doc, given)
        expected = as_parsed(doc)
        if representable_:
            assert representable(doc, True)
        out = doc.to_source()
        assert as_parsed(lexpy.parse(out)) == expected, out
        check_kept(_Page(given), given, doc, regions, out, expected)


# Regions worked out from the parsed tree (not the edited one): a node the
# API moved keeps its input where it was, so the element it went to has
# the region the parser gave it (an implied head: none, at the body's
# start; a math element: up to the p the input ends it with) and the
# element it left keeps the input it moved out of; a node moved within an
# element's subtree stays in its region; an element's implied end is
# where the next input of the parse is, not past the nodes of its parent's
# changed content.
def _moved(selector, target, first_child=False):
    def move(doc, document):
        node = doc.query_selector(selector)
        if first_child:
            node = node.first_child
        to = target(doc)
        regions = [content_region(node.parent_node, doc, document),
                   content_region(to, doc, document)]
        to.append_child(node)
        return regions
    return move


def _into_meta_then_body(doc, document):
    meta = doc.query_selector("meta")
    text = doc.create_text_node("x")
    regions = [content_region(meta, doc, document)]
    meta.append_child(text)
    regions += [content_region(meta, doc, document), content_region(doc.body, doc, document)]
    doc.body.append_child(text)
    return regions


@pytest.mark.parametrize("document,edit_it", [
    ("<body><template><td></td></template>", _moved("template", lambda doc: doc.head)),
    ("<!DOCTYPE html><body></body></html><math><mi>foo</mi><mi>bar</mi><p>baz",
     _moved("p", lambda doc: doc.query_selector("math"), True)),
    ("<b>A<cite>B<div>C</b>D", _moved("cite", lambda doc: doc.query_selector("b"), True)),
    ("<!DOCTYPE html><svg><g>foo</g><g id=m>bar</g></svg><p>x",
     _moved("#m", lambda doc: doc.query_selector("svg"))),
    ("<head></p><meta><p>", _into_meta_then_body),
])
def test_regions_are_the_parsed_trees(document, edit_it):
    check_edited_as_str_and_bytes(document, edit_it)


# Where the writing of whole elements is what parses back (an edited
# implied html or body, a clone the adoption agency made), the input after
# every node's input -- tags the parser ignored at the end of the input --
# is kept after it where the reparse allows, not dropped.
def _set_on(*pick):
    def edit_them(doc, document):
        regions = []
        for choose_node in pick:
            node = choose_node(doc)
            regions.append(own_region(node, doc, document))
            if node.node_type == 1:
                node.set_attribute("x", "<")
            else:
                node.data = " "
        return regions
    return edit_them


def _emptied_first_b(doc, document):
    regions = _set_on(lambda doc: doc.body)(doc, document)
    b = doc.query_selector("b")
    regions.append(content_region(b, doc, document))
    b.remove_child(b.first_child)
    return regions


@pytest.mark.parametrize("document,edit_it", [
    ("<DIV> abc <B> def <I> ghi <P> jkl </B>",
     _set_on(lambda doc: doc.body, lambda doc: doc.query_selector_all("i")[1])),
    ("<svg>\x00a</svg><frameset>",
     _set_on(lambda doc: doc.document_element, lambda doc: doc.query_selector("svg").first_child)),
    ("<b><em><foo><foo><aside></b></em>", _emptied_first_b),
    ("<!doctype html><style><!--...<style><!--...--!></style>--></style>",
     _set_on(lambda doc: doc.document_element, lambda doc: doc.body.first_child)),
])
def test_ignored_tags_at_the_end_are_kept(document, edit_it):
    check_edited_as_str_and_bytes(document, edit_it)


# A clone of a formatting element the active formatting elements
# reconstructed (foster-parented text after a cell) whose content the API
# changed: written with its tags (the tag runs the adoption agency where
# the input left the element open), within the clone's own input.
def _into_clone(doc, document):
    clone = doc.query_selector_all("a")[1]
    regions = [content_region(clone, doc, document)]
    paragraph = doc.create_element("p")
    paragraph.append_child(doc.create_text_node("n"))
    clone.insert_before(paragraph, clone.first_child)
    return regions


@pytest.mark.parametrize("document,edit_it", [
    ("<table><a>1<td>2</td>3</table>", _into_clone),
])
def test_a_reconstructed_clone_is_written_with_its_tags(document, edit_it):
    check_edited_as_str_and_bytes(document, edit_it)


# The whitespace an element whose end the parser implied had as its last
# child, which the API removed: in the element's region (its content as
# parsed), not kept (the reparse would put it back).
def _removed_whitespace(doc, document):
    colgroup = doc.query_selector("colgroup")
    regions = [content_region(colgroup, doc, document)]
    colgroup.remove_child(colgroup.first_child)
    regions.append(own_region(doc.head, doc, document))
    doc.head.set_attribute("id", ">")
    return regions


def test_whitespace_the_api_removed_is_in_the_region():
    document = "<table><colgroup> foo</colgroup></table>"
    check_edited_as_str_and_bytes(document, _removed_whitespace)


# A child the parser put in an element after its end tag (a head's after
# </head>, a body's after </body>): the element's content region reaches
# over the end tag to it (the edited nodes' spans, defined above).
def _style_after_head(doc, document):
    style = doc.query_selector("style, plaintext")
    regions = [own_region(style, doc, document)]
    style.set_attribute("id", "a")
    regions.append(content_region(style.parent_node, doc, document))
    style.remove()
    return regions


@pytest.mark.parametrize("document", [
    "<head></head><style></style>",
    "<!doctype html><body></body><plaintext></plaintext>",
])
def test_a_child_after_the_end_tag_is_in_its_elements_region(document):
    check_edited_as_str_and_bytes(document, _style_after_head, representable_=False)

# <template for> (declarative out-of-order streaming, whatwg/html#11818): a
# <template for> whose markers were found is never inserted; its content
# goes into the markers' parent, and its end tag removes the markers, so no
# node came from its tags nor from the markers. Where the content of the
# element it patched is rewritten, its markers are not in the output: the
# template's start tag and content are left out (its nodes are written in
# that content), its end tag, which the parser ignores, kept.
PATCHED = '<!DOCTYPE html><div>a<?marker name="m">c</div><template for="m">b</template>'


def patched_edits():
    """(name, edit) pairs: each edits the document of PATCHED in place and
    returns the edited nodes' spans (see edit())."""
    def append_text(doc, document):
        div = doc.query_selector("div")
        region = content_region(div, doc, document)
        div.append_child(doc.create_text_node("<y>"))
        return [region]

    def remove_patched(doc, document):
        # (the text the template patched in, merged with "a": removed)
        div = doc.query_selector("div")
        region = content_region(div, doc, document)
        div.remove_child(div.first_child)
        return [region]

    def set_patched_text(doc, document):
        text = doc.query_selector("div").first_child
        region = own_region(text, doc, document)
        text.data = "z"
        return [region]

    def body_attribute_then_append(doc, document):
        # (the body's span, the parser made it, reaches the template's
        # content: its end tag stays as it was)
        region = own_region(doc.body, doc, document)
        doc.body.set_attribute("x", "1")
        return [region] + append_text(doc, document)

    return [("append", append_text), ("remove", remove_patched),
            ("text", set_patched_text), ("body", body_attribute_then_append)]


@pytest.mark.parametrize("kind", ["str", "bytes"])
@pytest.mark.parametrize("name", [name for name, _ in patched_edits()])
def test_a_patching_template_whose_target_is_rewritten_is_left_out(name, kind):
    document = PATCHED if kind == "str" else PATCHED.encode("utf-8")
    doc = lexpy.parse(document, positions=True)
    regions = dict(patched_edits())[name](doc, document)
    out, expected = reparsed_writing(doc)
    template = "<template" if kind == "str" else b"<template"
    end = "</template>" if kind == "str" else b"</template>"
    assert template not in out and out.endswith(end), out
    check_kept(_Page(document), document, doc, regions, out, expected)
    # (the first writing, unchecked, is already the output)
    assert applied(document, doc.to_source_edits(checked=False)) == out


def test_a_patching_template_whose_target_is_untouched_is_kept():
    doc = lexpy.parse(PATCHED + "<p>q</p>", positions=True)
    doc.query_selector("p").set_attribute("id", "k")
    out = doc.to_source()
    assert out == PATCHED + '<p id="k">q</p>'
    assert as_parsed(lexpy.parse(out)) == as_parsed(doc)


def test_chained_patching_templates_are_left_out_together():
    # (the first template puts a marker the second one finds: both go,
    # the end tag at the end of the second's content, of the li the API
    # replaced, kept with its own)
    document = ('<!DOCTYPE html><ul><?marker name="l"></ul><template for="l"><li>1</li>'
                '<?marker name="l"></template><template for="l"><li>2</li></template>')
    doc = lexpy.parse(document, positions=True)
    ul = doc.query_selector("ul")
    regions = [content_region(ul, doc, document)]
    second = ul.child_nodes[1]
    em = doc.create_element("em")
    em.append_child(second.first_child)
    ul.replace_child(em, second)
    out, expected = reparsed_writing(doc)
    assert "<template" not in out and out.endswith("</li></template>"), out
    check_kept(_Page(document), document, doc, regions, out, expected)


# Edited nodes' spans that overlap, where one's node holds the other's: the
# content of a script whose end the end of the input implied ("</script "
# at the end: no end tag) reaches past the extent of the head it is in. The
# narrower writing is their union in the holder's writing (narrow_writing).
def test_overlapping_spans_of_nested_nodes_are_one():
    for document in ("<script><!--<script --></script ", b"<script><!--<script --></script "):
        doc = lexpy.parse(document, positions=True)
        script = doc.query_selector("script")
        regions = [own_region(doc.head, doc, document)]
        doc.head.set_attribute("class", "k")
        regions.append(content_region(script, doc, document))
        script.insert_before(doc.create_text_node("x"), script.first_child)
        assert tuple(regions[1])[1] > tuple(regions[0])[1]      # (they overlap)
        narrow = narrow_writing(document, doc, regions)
        assert narrow is not None
        expected = as_parsed(doc)
        out = doc.to_source()
        assert as_parsed(lexpy.parse(out)) == expected, out
        check_kept(_Page(document), document, doc, regions, out, expected)


def test_a_patching_template_in_another_is_left_out_with_it():
    # (the inner template patches the range the outer one put in: both go,
    # in one piece of input, the outer's end tag kept)
    document = ('<!DOCTYPE html><div><?start name="a">old<?end></div>'
                '<template for="a">x<template for="a">y</template>z</template>')
    for kind in (str, bytes):
        text = document if kind is str else document.encode("utf-8")
        doc = lexpy.parse(text, positions=True)
        div = doc.query_selector("div")
        regions = [content_region(div, doc, text)]
        div.append_child(doc.create_text_node("w"))
        out, expected = reparsed_writing(doc)
        assert out.count(kind("</template>", *(("utf-8",) if kind is bytes else ()))) == 1
        assert kind("<template", *(("utf-8",) if kind is bytes else ())) not in out
        check_kept(_Page(text), text, doc, regions, out, expected)


def test_a_patching_template_the_end_of_the_input_ended_is_kept():
    # (no end tag: its markers stay in the tree, the rewritten content
    # writes them, and the template, kept, finds them again)
    document = ('<!DOCTYPE html><section><?start name="p">Old content<?end></section>'
                '<template for="p">New content')
    doc = lexpy.parse(document, positions=True)
    section = doc.query_selector("section")
    regions = [content_region(section, doc, document)]
    section.insert_before(doc.create_text_node("w"), section.first_child)
    out, expected = reparsed_writing(doc)
    assert out.endswith('<template for="p">New content'), out
    check_kept(_Page(document), document, doc, regions, out, expected)


def test_a_patching_template_at_the_start_of_a_rewritten_body_keeps_its_start_tag():
    # (the body's content region reaches to the first node's input, past
    # the start tag of a template that patched the head: where the head's
    # nodes from it are kept, the start tag is written again there)
    document = ('<!DOCTYPE html><head><?marker name="t"></head><body><template for="t">'
                '<title>New</title><meta name="a"></template>')
    doc = lexpy.parse(document, positions=True)
    regions = [content_region(doc.body, doc, document)]
    doc.body.append_child(doc.create_element("p"))
    out, expected = reparsed_writing(doc)
    assert '<template for="t"><title>New</title>' in out, out
    check_kept(_Page(document), document, doc, regions, out, expected)


def test_a_removed_texts_trailing_whitespace_is_in_its_elements_region():
    # (an element whose end the next input implied -- <i> here, ended by
    # <p> and the adoption agency -- whose text the API replaced: the
    # text's whitespace before the next input was in the element, and is
    # in its content region; the first writing, narrow, parses back)
    document = '<div> abc <b> def <i> ghi <p> jkl </b> mno </i> pqr </p> stu'
    doc = lexpy.parse(document, positions=True)
    i = doc.query_selector("i")
    regions = [content_region(i, doc, document)]
    for child in list(i.child_nodes):
        child.remove()
    i.append_child(doc.create_element("em"))
    out, expected = reparsed_writing(doc)
    assert doc.to_source_edits() == doc.to_source_edits(checked=False) \
        == [(21, 26, "<em></em>")], doc.to_source_edits()
    check_kept(_Page(document), document, doc, regions, out, expected)


def test_interleaved_spans_of_clones_are_checked_against_the_first_writing():
    # (the adoption agency's clone of <b> after the foster-parented <i>
    # holds "e", whose input is inside the span of the <b> in the <i>:
    # neither node holds the other, no narrower writing of the standard's
    # is defined; the first writing lies in the spans and parses to
    # another tree, so the final one may reach further)
    document = b'<!doctype html><table><i>a<div>b<tr>c<b>d</i>e'
    doc = lexpy.parse(document, positions=True)
    inner, clone = doc.query_selector_all("b")
    assert inner.parent_node.local_name == "i" and clone.parent_node is doc.body
    regions = [own_region(inner.first_child, doc, document)]
    inner.first_child.data = "<a"
    regions += [content_region(clone, doc, document), content_region(inner, doc, document)]
    inner.append_child(clone.first_child)
    assert narrow_writing(document, doc, regions) is None
    out, expected = reparsed_writing(doc)
    first = doc.to_source_edits(checked=False)
    assert not outside(first, regions) and outside(doc.to_source_edits(), regions)
    check_kept(_Page(document), document, doc, regions, out, expected)


def test_input_kept_between_an_insertion_and_a_removal_is_not_an_edit():
    # (the checked writing rewrites the html's content: an implied head
    # the API moved is written, the whitespace after </html> the parser
    # put in the body is gone; "<body></body></html>" between is input
    # kept, not in an edit over the three)
    document = b'<html><body></body></html>\n   <!-- Hi there -->'
    doc = lexpy.parse(document, positions=True)
    text = doc.body.first_child
    regions = [own_region(text, doc, document),
               content_region(doc.document_element, doc, document)]
    text.remove()
    head = doc.head
    head.remove()
    doc.document_element.insert_before(head, doc.body)
    out, expected = reparsed_writing(doc)
    assert doc.to_source_edits() == [(6, 6, b"<head></head>"), (26, 30, b"")], \
        doc.to_source_edits()
    check_kept(_Page(document), document, doc, regions, out, expected)


def test_an_element_the_end_of_the_input_ended_has_no_end_tag_written():
    # (the whole tree walked again -- the head given attributes, a foreign
    # element's content removed: "<div>" after it would go into the
    # template -- the last <div>, which the end of the input ended, is
    # ended by it again: no "</div>" past the edited spans)
    document = b'<template><svg><foo><template><foreignObject><div></template><div>'
    doc = lexpy.parse(document, positions=True, scripting=True)
    foo = doc.head.first_child.content.first_child.first_child
    assert foo.local_name == "foo"
    regions = [content_region(foo, doc, document), own_region(doc.head, doc, document)]
    for child in list(foo.child_nodes):
        child.remove()
    doc.head.set_attribute("class", "x")
    out, expected = reparsed_writing(doc, scripting=True)
    assert out.endswith(b"<div>") and b"</div>" not in out, out
    check_kept(_Page(document), document, doc, regions, out, expected)


def test_a_child_moved_in_and_taken_out_again_leaves_no_input_in_its_region():
    # (the tr moved into the implied head and out of it again: its input
    # was never the head's, so the head's region stays at the start and
    # the implied tbody it left keeps the input; writing "<head></head>"
    # in the tbody's span instead, the parser drops it in the table and
    # the tbody is gone)
    document = b'<table><tr><div>'
    doc = lexpy.parse(document, positions=True)
    tr = doc.query_selector("tr")
    regions = [content_region(tr.parent_node, doc, document),
               content_region(doc.head, doc, document)]
    doc.head.append_child(tr)
    regions.append(content_region(doc.head, doc, document))
    tr.remove()
    out, expected = reparsed_writing(doc)
    assert doc.to_source_edits(checked=False) == doc.to_source_edits() \
        == [(0, 0, b"<head></head>"), (7, 11, b"<tbody></tbody>")], doc.to_source_edits()
    check_kept(_Page(document), document, doc, regions, out, expected)


@pytest.mark.parametrize("document,pick", [
    # (a text moved from the clone of <i> to the clone of <a> after it:
    # the two clones' content regions cross, "</i>" in both; their parent,
    # the clone of <b>, holds them both)
    (b'<!doctype html><table><i>a<b>b<div>c<a>d</i>e</b>f',
     lambda doc: (doc.query_selector("div > b > i").first_child,
                  doc.query_selector("div > b > a"))),
    # (a text moved from the reconstructed <font> to the <a> after it,
    # siblings in the body: their regions cross at "<a></font>"; the run
    # of the two is rewritten, not the whole body)
    (b'<table><tr><font><table></table>\n</p>\n<a></font><font></a>\nz',
     lambda doc: (doc.body.child_nodes[3].child_nodes[2],
                  doc.body.child_nodes[4])),
])
def test_crossing_regions_of_clones_are_their_nearest_common_writing(document, pick):
    # (where the content regions of two edited clones cross, neither
    # holding the other, the first writing rewrites the run of siblings
    # that holds them, or their nearest common ancestor's content, inside
    # the edited spans: not the whole tree walked)
    doc = lexpy.parse(document, positions=True)
    node, to = pick(doc)
    regions = [content_region(node.parent_node, doc, document),
               content_region(to, doc, document)]
    to.append_child(node)
    assert narrow_writing(document, doc, regions) is None
    out, expected = reparsed_writing(doc)
    assert not outside(doc.to_source_edits(checked=False), regions), \
        doc.to_source_edits(checked=False)
    check_kept(_Page(document), document, doc, regions, out, expected)


def test_a_moved_subtree_adjoins_its_new_parent_only_with_its_adjoining_input():
    # (a span the API made holds the <b> moved out of the p, whose input
    # follows the p's start tag, and the <marquee> moved out of the div's
    # clone of b, after the div's start tag: only the <b>'s input was in
    # the p's region, not the <div> up to the marquee's; the p's content
    # is rewritten, not the body's)
    document = '<p><b><div><marquee></p></b></div>'
    doc = lexpy.parse(document, positions=True)
    p = doc.query_selector("p")
    b = p.first_child
    span = doc.create_element("span")
    span.append_child(doc.create_text_node("x"))
    regions = [content_region(p, doc, document)]
    p.insert_before(span, b)
    regions += [content_region(p, doc, document), content_region(span, doc, document)]
    span.append_child(b)
    marquee = doc.query_selector("marquee")
    regions += [content_region(marquee.parent_node, doc, document),
                content_region(span, doc, document)]
    span.append_child(marquee)
    out, expected = reparsed_writing(doc)
    assert doc.to_source_edits() == [
        (3, 6, "<span>x<b></b><marquee><p></p></marquee></span>"), (11, 34, "<b></b>")], \
        doc.to_source_edits()
    check_kept(_Page(document), document, doc, regions, out, expected)


def test_end_tags_after_an_implied_end_are_kept_after_the_rewritten_content():
    # (the th's end is implied by "</tr>", input no node came from, which
    # is in the th's content region; rewriting the region without it, the
    # comment after it would go into the th: "</tr>" is kept in place)
    document = b'<table><th><i>please!</tr><!--X-->'
    doc = lexpy.parse(document, positions=True)
    th = doc.query_selector("th")
    i = th.first_child
    regions = [content_region(th, doc, document)]
    em = doc.create_element("em")
    em.append_child(i.first_child)
    th.replace_child(em, i)
    out, expected = reparsed_writing(doc)
    assert doc.to_source_edits() == [(11, 21, b"<em>please!</em>")], doc.to_source_edits()
    check_kept(_Page(document), document, doc, regions, out, expected)


def test_input_taken_out_of_a_clone_in_a_removed_clone_stays_in_its_parents_region():
    # (renaming the reconstructed <i> moves "X" out of it -- the clone keeps
    # the input of the children taken out of it -- and replaces it in the
    # reconstructed <b>: that input was in the <b> too, whose rewritten
    # content is written over it; not "X" kept after it as well)
    document = '<p><b><i><p>X'
    doc = lexpy.parse(document, positions=True)
    i = doc.query_selector("p + p i")
    regions = [content_region(i.parent_node, doc, document)]
    em = doc.create_element("em")
    em.append_child(i.first_child)
    i.parent_node.replace_child(em, i)
    out, expected = reparsed_writing(doc)
    assert doc.to_source_edits(checked=False) == [(12, 13, "<em>X</em>")], \
        doc.to_source_edits(checked=False)
    check_kept(_Page(document), document, doc, regions, out, expected)


def test_one_region_of_two_unrelated_nodes_writes_both():
    # (the foster-parented select's content and the implied tbody's, both
    # emptied, are one region, from the end of the select's start tag to
    # the end of the input: the tbody, which nothing implies any more, is
    # written there after the select's content, not dropped as inside it)
    document = b'<!doctype html><table><select>X<tr>'
    doc = lexpy.parse(document, positions=True)
    select, tr = doc.query_selector("select"), doc.query_selector("tr")
    regions = [content_region(select, doc, document)]
    select.first_child.remove()
    regions.append(content_region(tr.parent_node, doc, document))
    tr.remove()
    out, expected = reparsed_writing(doc)
    assert doc.to_source_edits(checked=False) == doc.to_source_edits() \
        == [(30, 35, b"<tbody></tbody>")], doc.to_source_edits()
    check_kept(_Page(document), document, doc, regions, out, expected)


def test_two_edits_in_one_ancestors_region_write_it_once():
    # (the implied head's attributes and the implied body's children
    # changed: both regions are the html element's content, written once;
    # they are one region of one node, not of two nodes neither holds)
    document = b'<!DOCTYPE html> <!DOCTYPE html>'
    doc = lexpy.parse(document, positions=True)
    regions = [own_region(doc.head, doc, document)]
    doc.head.set_attribute("x", "y")
    regions.append(content_region(doc.body, doc, document))
    doc.body.append_child(doc.create_text_node("ab"))
    out, expected = reparsed_writing(doc)
    first = doc.to_source_edits(checked=False)
    assert len(first) == 1 and first[0][2].count(b"<head") == 1, first
    check_kept(_Page(document), document, doc, regions, out, expected)


def test_moved_input_in_a_child_the_parser_made_adjoins_its_parents_content():
    # (the text after </div> is moved into the p that "</p>" made in the
    # marquee -- a child with no input as parsed: the marquee's content
    # region reaches over the text's input, written once by it; not the
    # region ending before that input, kept in place as well)
    document = '<p><b><div><marquee></p></b></div>X'
    doc = lexpy.parse(document, positions=True)
    marquee = doc.query_selector("marquee")
    p, text = marquee.child_nodes
    regions = [content_region(marquee, doc, document), content_region(p, doc, document)]
    p.append_child(text)
    out, expected = reparsed_writing(doc)
    assert doc.to_source_edits(checked=False) == doc.to_source_edits() \
        == [(20, 20, "<p>X"), (24, 35, "")], doc.to_source_edits()
    check_kept(_Page(document), document, doc, regions, out, expected)


def test_the_input_taken_out_of_an_implied_element_bounds_the_regions_beside_it():
    # (the tr removed from the implied tbody, its input "<tr>" is the
    # tbody's content still: the foster-parented i's content region ends
    # before it and the clone of the i's begins after it, as they did; not
    # two regions over "<tr>" that cross, rewriting the whole body)
    document = "<!doctype html><table><i>a<div>b<tr>c<b>d</i>e"
    doc = lexpy.parse(document, positions=True)
    i = doc.query_selector("body > i")
    regions = [content_region(i, doc, document)]
    i.first_child.remove()
    tr = doc.query_selector("tr")
    regions.append(content_region(tr.parent_node, doc, document))
    tr.remove()
    clone = doc.query_selector("body > i + i")
    regions.append(content_region(clone, doc, document))
    clone.insert_before(doc.create_text_node(" z"), clone.child_nodes[1])
    b = clone.query_selector("b")
    regions.append(content_region(b, doc, document))
    b.first_child.remove()
    out, expected = reparsed_writing(doc)
    # (the emptied b's content region without "</i>", which ended the
    # clone: kept after it, the retry of end tags kept)
    assert doc.to_source_edits() == [
        (25, 26, ""), (32, 36, "<tbody></tbody>"), (37, 37, " z"), (40, 41, "")], \
        doc.to_source_edits()
    check_kept(_Page(document), document, doc, regions, out, expected)


def test_an_end_written_before_new_content_keeps_the_end_tags_after_it():
    # (a div appended to the th, whose end and its i's "</tr>" implied:
    # "</i>" is written before the div, "</tr>" kept after it -- both
    # retries at once; either alone puts the div or the comment in the
    # wrong element, and the whole table was rewritten)
    document = b"<table><th><i>please!</tr><!--X-->"
    doc = lexpy.parse(document, positions=True)
    th = doc.query_selector("th")
    regions = [content_region(th, doc, document)]
    div = doc.create_element("div")
    div.append_child(doc.create_text_node("x"))
    th.append_child(div)
    out, expected = reparsed_writing(doc)
    assert doc.to_source_edits() == [(21, 21, b"</i><div>x</div>")], doc.to_source_edits()
    check_kept(_Page(document), document, doc, regions, out, expected)


@pytest.mark.parametrize("document", [
    b"<html><head></head><template></template><head>",
    "<head></head><style>x</style><head><body>",
    # (the "<p>" the frameset dropped with the body: no child of the head)
    "<head></head><template></template><p><frameset>",
])
def test_a_child_taken_out_after_its_elements_end_tag_is_in_its_content(document):
    # (the template the parser put in the head after "</head>", removed:
    # its input, which no node comes from now, is the head's content with
    # the end tag, rewritten; the "<head>" the parser ignored after it is
    # kept, the html element's content is not rewritten)
    doc = lexpy.parse(document, positions=True)
    child = doc.query_selector("template, style")
    regions = [content_region(doc.head, doc, document)]
    child.remove()
    out, expected = reparsed_writing(doc)
    end = document.index(b"</head>" if isinstance(document, bytes) else "</head>")
    assert doc.to_source_edits() == [(end + len("</head>"), regions[0][1], document[:0])], \
        doc.to_source_edits()
    check_kept(_Page(document), document, doc, regions, out, expected)


def test_an_implied_element_given_attributes_is_written_whole_where_its_start_tag_is_not_enough():
    # (the implied html given an attribute, its body's text set to one
    # starting with whitespace: "<html x>" before the text would drop the
    # whitespace ("before head" mode); the retry by the standard's
    # algorithm writes the whole html element over its extent, the text,
    # not the end tag the parser ignored before it)
    document = "<!DOCTYPE html></x y>X"
    doc = lexpy.parse(document, positions=True)
    regions = [own_region(doc.document_element, doc, document)]
    doc.document_element.set_attribute("x", "1")
    text = doc.body.first_child
    regions.append(own_region(text, doc, document))
    text.data = "  a"
    out, expected = reparsed_writing(doc)
    assert doc.to_source_edits() == [
        (21, 22, '<html x="1"><head></head><body>  a</body></html>')], doc.to_source_edits()
    check_kept(_Page(document), document, doc, regions, out, expected)


@pytest.mark.parametrize("document", [
    b"<html><body></body></html>x<!-- Hi there --></html><!-- Again -->",
    b"<html><body></body></html>x<!-- Hi there --></body></html><!-- Again -->",
])
@pytest.mark.parametrize("via_html", [False, True])
def test_a_body_child_after_the_html_end_tag_taken_out_is_in_the_html_content(
        document, via_html):
    # (the text and the comment the parser put in the body after "</html>":
    # the comment taken out -- or moved into the html element and removed
    # from it -- the body's region would reach over "</html>", so the html
    # element's region reaches over its end tag to the end of its subtree's
    # input as parsed, the comment's input with it; "</html>" and the
    # comment after it, which no edit touched, are kept)
    doc = lexpy.parse(document, positions=True)
    html, comment = doc.document_element, doc.body.last_child
    regions = [content_region(doc.body, doc, document)]
    if via_html:
        html.append_child(comment)
        regions.append(content_region(html, doc, document))
    comment.remove()
    out, expected = reparsed_writing(doc)
    assert doc.to_source_edits()[-1] == (26, 44, b""), doc.to_source_edits()
    assert out.endswith(document[44:]), out
    check_kept(_Page(document), document, doc, regions, out, expected)


@pytest.mark.parametrize("document,tail", [
    ("<head></head><template></template><p><frameset>", "<p><frameset>"),
    ("<head></head><meta><style>x</style><p><frameset>", "<p><frameset>"),
])
def test_a_child_moved_within_its_elements_content_after_the_end_tag(document, tail):
    # (the template the parser put in the head after "</head>", moved to
    # the head's end: the head's region reaches over its end tag to the end
    # of its children's input, the "<p>" the frameset dropped after it
    # kept; not the whole tree walked, the "<p>" left out)
    doc = lexpy.parse(document, positions=True)
    child = doc.query_selector("template, style")
    regions = [content_region(doc.head, doc, document)]
    doc.head.append_child(child)
    regions.append(content_region(doc.head, doc, document))
    out, expected = reparsed_writing(doc)
    assert out.endswith("</head>" + tail), out
    assert not outside(doc.to_source_edits(), regions), doc.to_source_edits()
    check_kept(_Page(document), document, doc, regions, out, expected)


@pytest.mark.parametrize("document,pick", [
    # (text put at the start of the b and at the end of its clone, which
    # "</font>" made: the b's content region, up to the clone's input,
    # and the clone's, from the end of the b's, cross over "</font>")
    (b"<font><p>hello<b>cruel</font>world",
     lambda doc: (doc.query_selector("p > font > b"), doc.query_selector("p > b"))),
    # (the same, in the i and its clone, which "</b>" made)
    (b"<!doctype html><b><p><i>Bold and Italic</b> Italic</p>",
     lambda doc: (doc.query_selector("p > b > i"), doc.query_selector("p > i"))),
])
def test_crossing_regions_of_clones_over_the_end_tag_that_made_them_keep_it(document, pick):
    # (their regions overlap only in the end tag that ran the adoption
    # agency, input no node came from: the two are written one after the
    # other, the end tag kept between them, which ends the first and makes
    # the clone again; not the content of their common ancestor, the p,
    # with the clone of the font it begins in written)
    doc = lexpy.parse(document, positions=True)
    element, clone = pick(doc)
    regions = [content_region(element, doc, document), content_region(clone, doc, document)]
    em = doc.create_element("em")
    em.append_child(doc.create_text_node("a"))
    element.insert_before(em, element.first_child)
    clone.append_child(doc.create_text_node("z"))
    assert narrow_writing(document, doc, regions) is None
    out, expected = reparsed_writing(doc)
    assert doc.to_source_edits() == doc.to_source_edits(checked=False)
    assert not outside(doc.to_source_edits(), regions), doc.to_source_edits()
    check_kept(_Page(document), document, doc, regions, out, expected)


def test_content_a_template_patched_in_after_an_end_tag_keeps_the_end_tags_after_it():
    # (the template for="a" patched "before", the marker's "PATCHED" and
    # "after" into the div, after its end tag: the text set, the div's
    # region reaches over its end tag to the end of that input, the end
    # tags after it, which no node came from, kept: they end the templates)
    document = '<!DOCTYPE html><div><?start name="a">old<?end></div><template for="a">' \
        'before<?marker name="b">after<template for="b">PATCHED</template></template>'
    doc = lexpy.parse(document, positions=True)
    text = doc.query_selector("div").first_child
    regions = [own_region(text, doc, document)]
    text.data = "x<"
    out, expected = reparsed_writing(doc)
    assert out.endswith("</template></template>"), out
    check_kept(_Page(document), document, doc, regions, out, expected)


@pytest.mark.parametrize("document", [
    b"<!doctype html><svg>&#xFFFD;</svg><frameset><frame>",
    b"<div>&#32;&amp;</div><frameset></frameset>",
])
def test_the_input_after_an_emptied_elements_end_tag_is_not_its_content(document):
    # (the text removed from the svg or the div -- which let the frameset
    # in, the html element given an attribute: the frameset tags, which
    # no node came from, are not the svg's content, as a body's are after
    # "</body>": the parser puts no children of an svg or a div after its
    # end tag; the html element is written whole, the tags kept after it)
    doc = lexpy.parse(document, positions=True)
    element = doc.query_selector("svg, div")
    regions = [content_region(element, doc, document)]
    element.first_child.remove()
    regions.append(own_region(doc.document_element, doc, document))
    doc.document_element.set_attribute("x", "1")
    out, expected = reparsed_writing(doc)
    assert out.endswith(document[document.index(b"<frameset>"):]), out
    check_kept(_Page(document), document, doc, regions, out, expected)
