"""Source positions (lexpy.parse(positions=True), issue 37): for every
tree-construction case and every corpus page, whole and fed in chunks, as
str and as bytes, every node's `source` slices to the input that made it:

- an element's start-tag span starts with "<" and its name, its end tag's
  with "</" and its name;
- a text node's span reads as its data where no character reference, CR
  or U+0000 is in it (text the parser gathered from several places --
  foster parenting -- holds its data in order);
- a comment's starts with "<", a DOCTYPE's with "<!";
- an attribute's name span reads as its name, its value span as its value
  (same exceptions);
- line and column count the input's lines (CR, LF, CRLF) and code points;
- offsets never pass the input's end; fed in chunks, every span is the
  one of the whole input.

Positions off, nodes have no source.
"""
import bisect
import codecs
import random
import re

import pytest

import lexpy
from tests.conformance import data, runners
from tests.helpers import random_chunks
from tests.corpus.test_corpus import PAGES

CASES = (list(data.tree_cases()) + list(data.house_tree_cases())
         + list(data.extra_tree_cases()))
HTML = "http://www.w3.org/1999/xhtml"


def nodes_of(root):
    """Every node under root in tree order, template contents included (no
    recursion)."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        children = list(node.child_nodes)
        if node.node_type == 1 and node.local_name == "template" \
                and node.namespace_uri == HTML:
            children = list(node.content.child_nodes) + children
        stack.extend(reversed(children))


class Reader:
    """The input as the spans count it: code points of a str, bytes in
    their own encoding (decoded to check). Lines and columns are checked
    against the input's text (str, UTF-8 and windows-1252 bytes)."""

    def __init__(self, original, encoding):
        self.original = original
        self.text = isinstance(original, str)
        self.lines = None
        if self.text:
            text = original
            self.code_point = None
        else:
            # Python's codecs read UTF-8 and windows-1252 as the standard
            # does except for windows-1252's five undefined bytes
            # (replaced: never in a name or a tag's first characters).
            self.codec = codecs.lookup(encoding).name if encoding else "utf-8"
            text = None
            if self.codec == "cp1252":
                text = original.decode("cp1252", "replace")
                self.code_point = list(range(len(original) + 1))
            elif self.codec == "utf-8":
                try:
                    text = original.decode("utf-8")
                except UnicodeDecodeError:
                    text = None         # (U+FFFD counts: not checked)
                else:
                    counts, count = [], 0
                    for byte in original:
                        counts.append(count)
                        if byte & 0xC0 != 0x80:
                            count += 1
                    counts.append(count)
                    self.code_point = counts
            if text is not None and text.startswith("\ufeff"):
                text = text[1:]
                self.code_point = [max(0, c - 1) for c in self.code_point]
        if text is not None:
            starts = [0] + [m.end() for m in re.finditer("\r\n|\r|\n", text)]
            self.lines = starts

    def slice(self, start, end):
        piece = self.original[start:end]
        if self.text:
            return piece
        return piece.decode(self.codec, "replace")

    def line_column(self, offset):
        if self.code_point is not None:
            offset = self.code_point[offset]
        line = bisect.bisect_right(self.lines, offset)
        return line, offset - self.lines[line - 1] + 1

    def check_line_column(self, span):
        if self.lines is None:
            return
        assert (span.line, span.column) == self.line_column(span.start), span
        assert (span.end_line, span.end_column) == self.line_column(span.end), span


def is_subsequence(small, big):
    iterator = iter(big)
    return all(c in iterator for c in small)


def check_span(reader, span):
    assert 0 <= span.start <= span.end <= len(reader.original), span
    reader.check_line_column(span)


def check_tree(root, original, encoding=None, scripted=False):
    """The properties above for every node under root (with `scripted`,
    values a script may have set are not compared); returns how many
    nodes had a source."""
    reader = Reader(original, encoding)
    counted = 0
    for node in nodes_of(root):
        span = node.source
        if node.node_type in (9, 11):
            assert span is None
            continue
        if span is None:
            continue
        counted += 1
        check_span(reader, span)
        raw = reader.slice(span.start, span.end)
        kind = node.node_type
        if kind == 1:
            name = node.local_name.lower()
            written = raw[1:1 + len(name)].lower()
            # (<image> makes an img; </br> a br: the token they came from)
            assert raw.startswith("<") and (
                written == name or (name == "img" and raw[1:6].lower() == "image")
                or (name == "br" and raw[:4].lower() == "</br")), (raw, name)
            end = node.end_source
            if end is not None:
                check_span(reader, end)
                closing = reader.slice(end.start, end.end)
                assert end.start >= span.end
                assert closing.startswith("</") and \
                    closing[2:2 + len(name)].lower() == name, (closing, name)
            for attr_name, attr_value in node.attributes.items():
                found = node.attribute_source(attr_name)
                if found is None:
                    continue    # an attribute a later <html>/<body> tag added
                name_span, value_span = found
                check_span(reader, name_span)
                assert span.start < name_span.start <= name_span.end <= span.end
                assert reader.slice(name_span.start, name_span.end).lower() == \
                    attr_name.lower()
                if value_span is None:
                    assert attr_value == ""
                    continue
                check_span(reader, value_span)
                value = reader.slice(value_span.start, value_span.end)
                if not scripted and not any(c in value for c in "&\r\x00\ufffd"):
                    assert value == attr_value, (value, attr_value)
        elif kind == 3:
            assert span.start < span.end
            if not scripted and not any(c in raw for c in "&\r\x00\ufffd"):
                # (gathered: foster-parented, or the characters a
                # frameset drops in between)
                gathered = "<" in raw or getattr(node.parent_node, "local_name", None) in ("frameset", "html")
                assert raw == node.data or (gathered and is_subsequence(node.data, raw)), \
                    (raw, node.data)
        elif kind in (7, 8):
            assert raw.startswith("<"), raw
        elif kind == 10:
            assert raw[:2].lower() == "<!", raw
    return counted


def spans_of(root):
    result = []
    for node in nodes_of(root):
        result.append((node.node_type, node.source,
                       node.end_source if node.node_type == 1 else None))
    return result


def parse_case(case, document, chunks=None):
    options = {"scripting": case.scripting, "positions": True}
    if case.fragment_context is not None:
        options["context"], options["namespace"] = case.context_and_namespace()
    elif case.scripted:
        options["on_script"] = runners.script_runner(True)
    parser = lexpy.Parser(**options)
    for chunk in (chunks if chunks is not None else [document]):
        parser.feed(chunk)
    return parser.close()


def encoding_of(result):
    doc = result if isinstance(result, lexpy.Document) else result.owner_document
    return doc.encoding


@pytest.mark.parametrize("kind", ["str", "bytes"])
@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_tree_case_positions(case, kind):
    document = case.data if kind == "str" else case.data.encode("utf-8")
    whole = parse_case(case, document)
    # (the same tree as without positions)
    assert lexpy.dump(whole) == lexpy.dump(runners.parse_for_tree_case(case, document))
    check_tree(whole, document, encoding_of(whole) if kind == "bytes" else None,
               case.scripted)
    expected = spans_of(whole)
    for seed in (1, 2):
        chunks = random_chunks(document, seed, 1 + 3 * seed)
        assert spans_of(parse_case(case, document, chunks)) == expected, seed


@pytest.mark.parametrize("path", PAGES, ids=[p.name for p in PAGES])
def test_corpus_page_positions(path):
    page = path.read_bytes()
    whole = lexpy.parse(page, positions=True)
    counted = check_tree(whole, page, whole.encoding)
    assert counted > 0
    expected = spans_of(whole)
    parser = lexpy.Parser(positions=True)
    for chunk in random_chunks(page, hash(path.name) & 0xFFFF, 4096):
        parser.feed(chunk)
    assert spans_of(parser.close()) == expected
    if whole.encoding == "UTF-8":
        # As str: code point offsets, the same tree.
        text = page.decode("utf-8", "replace")
        if text.startswith("\ufeff"):
            text = text[1:]
        check_tree(lexpy.parse(text, positions=True), text)


def test_off_by_default():
    doc = lexpy.parse("<p class=a>x</p><!--c-->")
    for node in nodes_of(doc):
        assert node.source is None
    p = doc.query_selector("p")
    assert p.end_source is None and p.attribute_source("class") is None


def test_spans_of_a_small_document():
    text = '<!DOCTYPE html>\n<p class="a" id=x>Hi\r\n<b>b</b></p>'
    doc = lexpy.parse(text, positions=True)
    p = doc.query_selector("p")
    assert p.source == lexpy.SourceSpan(16, 34, 2, 1, 2, 19)
    assert text[p.end_source.start:p.end_source.end] == "</p>"
    name, value = p.attribute_source("class")
    assert text[name.start:name.end] == "class" and text[value.start:value.end] == "a"
    name, value = p.attribute_source("ID")
    assert text[value.start:value.end] == "x"
    b = doc.query_selector("b")
    assert (b.source.line, b.source.column) == (3, 1)
    assert doc.doctype.source == lexpy.SourceSpan(0, 15, 1, 1, 1, 16)
    # implied elements have none
    assert doc.document_element.source is None and doc.body.source is None
    # API-made nodes have none; moved nodes keep theirs
    made = doc.create_element("i")
    assert made.source is None
    doc.body.append_child(b)
    assert b.source.start == text.index("<b>")


def test_implied_and_reconstructed_have_none():
    text = "<p><b>1<p>2</b>3"
    doc = lexpy.parse(text, positions=True)
    bs = doc.query_selector_all("b")
    assert bs[0].source.start == 3
    assert bs[1].source is None            # the reconstructed clone


def test_non_ascii_str_counts_code_points():
    text = "<p>\u00e9\U0001F600<i>x</i>"
    doc = lexpy.parse(text, positions=True)
    i = doc.query_selector("i")
    assert i.source.start == text.index("<i>")
    assert i.source.column == text.index("<i>") + 1
    encoded = text.encode("utf-8")
    doc = lexpy.parse(encoded, positions=True)
    assert doc.query_selector("i").source.start == encoded.index(b"<i>")


@pytest.mark.parametrize("encoding", ["windows-1252", "utf-16le", "utf-16be", "shift_jis",
                                      "euc-jp", "gb18030", "big5", "euc-kr", "iso-2022-jp",
                                      "koi8-r"])
def test_legacy_encodings_give_offsets_into_the_original_bytes(encoding):
    text = "<p title=\"\u00e9t\u00e9\">caf\u00e9 \u65e5\u672c</p><i>x</i>"
    if encoding in ("shift_jis", "euc-jp", "big5", "euc-kr", "iso-2022-jp"):
        text = "<p title=\"\u65e5a\">\u65e5\u672c x\u672c</p><i>x</i>"
    elif encoding == "koi8-r":
        text = "<p title=\"\u0436\">\u0436\u0436</p><i>x</i>"
    elif encoding in ("windows-1252",):
        text = "<p title=\"\u00e9t\u00e9\">caf\u00e9</p><i>x</i>"
    original = text.encode(encoding)
    doc = lexpy.parse(original, encoding=encoding, positions=True)
    i = doc.query_selector("i")
    p = doc.query_selector("p")
    assert original[i.source.start:i.source.end].decode(encoding) == "<i>"
    assert original[i.end_source.start:i.end_source.end].decode(encoding) == "</i>"
    text_node = p.first_child
    assert original[text_node.source.start:text_node.source.end].decode(encoding) == \
        text_node.data
    name, value = p.attribute_source("title")
    assert original[value.start:value.end].decode(encoding) == p.get_attribute("title")
    assert i.source.column == text.index("<i>") + 1


def test_bom_and_meta_redecode_count_in_the_original():
    body = "<meta charset=windows-1252><p>caf\u00e9</p>" + " " * 2000 + "<i>x</i>"
    original = body.encode("windows-1252")
    doc = lexpy.parse(original, positions=True)
    i = doc.query_selector("i")
    assert original[i.source.start:i.source.end] == b"<i>"
    late = ("<p>caf\u0436</p>" + "x" * 1500 + "<meta charset=koi8-r><i>\u0436</i>")
    original = late.encode("koi8-r")
    doc = lexpy.parse(original, positions=True)
    assert doc.encoding == "KOI8-R"
    i = doc.query_selector("i")
    assert original[i.source.start:i.source.end] == b"<i>"
    assert original[i.first_child.source.start:i.first_child.source.end].decode("koi8-r") \
        == "\u0436"
    bom = codecs.BOM_UTF8 + "<p>\u00e9</p><i>x</i>".encode("utf-8")
    doc = lexpy.parse(bom, positions=True)
    i = doc.query_selector("i")
    assert bom[i.source.start:i.source.end] == b"<i>" and i.source.column == 9
    bom16 = codecs.BOM_UTF16_LE + "<p>\u00e9</p><i>x</i>".encode("utf-16le")
    doc = lexpy.parse(bom16, positions=True)
    i = doc.query_selector("i")
    assert bom16[i.source.start:i.source.end].decode("utf-16le") == "<i>"


def test_invalid_bytes_nuls_and_split_crlf():
    original = b"<p>a\xff\xfeb\x00c\r\n\r\nd</p>\r<i>\xc3</i>\xe2\x82"
    for chunks in ([original], [original[:i] for i in range(1)] + [original],
                   [original[i:i + 1] for i in range(len(original))]):
        parser = lexpy.Parser(positions=True)
        for chunk in chunks:
            if chunk:
                parser.feed(chunk)
        doc = parser.close()
        i = doc.query_selector("i")
        assert original[i.source.start:i.source.end] == b"<i>"
        assert (i.source.line, i.source.column) == (4, 1)
        for node in nodes_of(doc):
            if node.source is not None:
                assert node.source.end <= len(original)
        last = doc.body.last_child
        assert last.source.end == len(original)


def test_fragment_offsets_count_in_the_fragment():
    fragment = lexpy.parse_fragment("<td>a</td><td id=q>b", "tr", positions=True)
    cells = list(fragment.child_nodes)
    assert cells[1].source.start == 10
    name, value = cells[1].attribute_source("id")
    assert (value.start, value.end) == (17, 18)


def test_written_text_has_none():
    def on_script(script, writer):
        writer.write("<b>written</b>")
    text = "<script>x</script><i>after</i>"
    doc = lexpy.parse(text, positions=True, on_script=on_script)
    b = doc.query_selector("b")
    i = doc.query_selector("i")
    assert b.source is None
    assert text[i.source.start:i.source.end] == "<i>"
    assert text[i.end_source.start:i.end_source.end] == "</i>"


def test_str_chunked_with_astral_characters():
    rng = random.Random(5)
    text = "".join(rng.choice(["<p>", "\U0001F600", "\r\n", "a", "&amp;", "</p>", "\u00e9"])
                   for _ in range(400))
    whole = lexpy.parse(text, positions=True)
    check_tree(whole, text)
    parser = lexpy.Parser(positions=True)
    for chunk in random_chunks(text, 3, 7):
        parser.feed(chunk)
    assert spans_of(parser.close()) == spans_of(whole)
