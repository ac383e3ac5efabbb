"""The public entry points: parse, parse_fragment, Parser; their argument
checks, the closed parser, str/bytes mixing, collected errors and the
buffered-bytes introspection."""
import pytest

import lexpy
from lexpy import ParseError, Parser
from tests.helpers import fed, random_chunks


def test_parse_str_and_bytes_give_the_same_tree():
    text = "<!DOCTYPE html><title>é</title><p>a&amp;b<!--c--></p>"
    utf8 = text.encode()
    assert lexpy.dump(lexpy.parse(text)) == lexpy.dump(lexpy.parse(utf8, encoding="utf-8"))
    assert lexpy.dump(lexpy.parse(text)) == lexpy.dump(
        lexpy.parse(b"\xef\xbb\xbf" + utf8))                          # a BOM
    assert lexpy.dump(lexpy.parse(bytearray(utf8))) == \
        lexpy.dump(lexpy.parse(memoryview(utf8))) == lexpy.dump(lexpy.parse(utf8))


def test_parse_returns_a_document_with_its_properties():
    doc = lexpy.parse("<!DOCTYPE html><html lang=en><head><title>t</title>"
                      "<body><p>x")
    assert isinstance(doc, lexpy.Document)
    assert doc.document_element.local_name == "html"
    assert doc.head.local_name == "head" and doc.body.local_name == "body"
    assert doc.doctype.name == "html"
    assert doc.quirks_mode == "no-quirks"
    assert doc.errors == []
    assert isinstance(doc.encoding, str)


def test_parse_fragment_in_contexts():
    fragment = lexpy.parse_fragment("<td>x</td><p>y", "tr")
    assert isinstance(fragment, lexpy.DocumentFragment)
    assert [n.local_name for n in fragment.children] == ["td", "p"]  # foster-parented
    assert lexpy.parse_fragment("<b>x", "title").to_html() == "&lt;b&gt;x"
    svg = lexpy.parse_fragment("<path/><foreignObject><p>", "svg", namespace="svg")
    assert [n.namespace_uri for n in svg.children] == ["http://www.w3.org/2000/svg"] * 2
    table = lexpy.parse("<table><tbody></table>").get_elements_by_tag_name("tbody")[0]
    assert lexpy.parse_fragment("<tr><td>1", table).to_html() == \
        "<tr><td>1</td></tr>"
    assert lexpy.parse_fragment(b"<i>\xc3\xa9</i>").to_html() == "<i>é</i>"


def test_collect_errors_gives_parse_errors():
    doc = lexpy.parse("<p>\x00</p></div>", collect_errors=True)
    assert all(isinstance(e, ParseError) for e in doc.errors)
    codes = [e.code for e in doc.errors]
    assert codes[0] == "missing-doctype"
    assert "unexpected-null-character" in codes
    error = doc.errors[codes.index("unexpected-null-character")]
    assert (error.line, error.column) == (1, 4)
    assert error.message == "Unexpected null character"
    assert str(error) == "1:4: unexpected-null-character"
    assert error == ParseError("unexpected-null-character", 1, 4)
    assert lexpy.parse("<p>\x00</p></div>").errors == []


def test_error_count_is_the_length_of_errors_read_or_not():
    for source in ("<p>\x00</p></div>", "<!DOCTYPE html><p>x", b"<td>\xff</b>"):
        unread = lexpy.parse(source, collect_errors=True)
        count = unread.error_count          # before errors is first read
        read = lexpy.parse(source, collect_errors=True)
        assert count == len(read.errors) == read.error_count == len(unread.errors)
        assert unread.errors == read.errors and unread.errors is unread.errors
    assert lexpy.parse("<p>\x00", collect_errors=True).error_count > 0
    assert lexpy.parse("<p>\x00").error_count == 0
    assert lexpy.Document().error_count == 0


def test_collect_errors_for_fragments():
    fragment = lexpy.parse_fragment("</x>", "div", collect_errors=True)
    assert [e.code for e in fragment.owner_document.errors]


def test_parser_feed_and_close():
    parser = Parser()
    assert not parser.closed
    for piece in ["<p>a", "b</", "p><!-", "-c-->"]:
        parser.feed(piece)
    doc = parser.close()
    assert parser.closed
    assert parser.close() is doc
    assert doc.body.inner_html == "<p>ab</p><!--c-->"


def test_parser_feed_after_close_raises():
    parser = Parser()
    parser.feed("x")
    parser.close()
    with pytest.raises(ValueError, match="closed"):
        parser.feed("y")
    with pytest.raises(ValueError, match="closed"):
        parser.feed(b"y")


@pytest.mark.parametrize("first, second", [("a", b"b"), (b"a", "b"),
                                           (bytearray(b"a"), "b")])
def test_parser_rejects_mixing_str_and_bytes(first, second):
    parser = Parser()
    parser.feed(first)
    with pytest.raises(TypeError, match="cannot mix str and bytes"):
        parser.feed(second)
    parser.feed(first)              # the parse goes on
    assert parser.close().body.text_content == "aa"


def test_parser_with_a_context_parses_a_fragment():
    fragment = fed(["<option>a<opt", "ion>b"], context="select")
    assert [n.local_name for n in fragment.children] == ["option", "option"]


def test_empty_input():
    assert lexpy.dump(lexpy.parse("")) == "| <html>\n|   <head>\n|   <body>"
    assert lexpy.dump(lexpy.parse(b"")) == lexpy.dump(lexpy.parse(""))
    assert Parser().close().document_element.local_name == "html"
    assert lexpy.parse_fragment("").child_nodes == []


@pytest.mark.parametrize("call, error, message", [
    (lambda: lexpy.parse(None), TypeError, "data must be str or bytes, not NoneType"),
    (lambda: lexpy.parse(12), TypeError, "data must be str or bytes, not int"),
    (lambda: lexpy.parse(["<p>"]), TypeError, "not list"),
    (lambda: lexpy.parse("x", scripting=1), TypeError, "scripting must be a bool"),
    (lambda: lexpy.parse("x", collect_errors="yes"), TypeError, "collect_errors"),
    (lambda: lexpy.parse("x", processing_instructions=None), TypeError,
     "processing_instructions"),
    (lambda: lexpy.parse(b"x", encoding=5), TypeError, "encoding must be a str"),
    (lambda: lexpy.parse(b"x", encoding="no-such-label"), LookupError,
     "no-such-label"),
    (lambda: lexpy.parse("x", bogus=True), TypeError, "bogus"),
    (lambda: lexpy.parse_fragment("x", 3), TypeError,
     "context must be a str .* or an Element"),
    (lambda: lexpy.parse_fragment("x", ""), ValueError, "needs a name"),
    (lambda: lexpy.parse_fragment("x", "td", namespace="xml"), ValueError,
     "unknown namespace 'xml'"),
    (lambda: lexpy.parse_fragment("x", "td", namespace=1), TypeError,
     "namespace must be a str or None"),
    (lambda: lexpy.parse_fragment(None, "td"), TypeError, "data must be str or bytes"),
    (lambda: lexpy.parse_fragment("x", lexpy.parse("x").body.first_child),
     TypeError, "context must be"),            # a Text node
    (lambda: Parser().feed(None), TypeError, "chunk must be str or bytes"),
    (lambda: Parser(encoding="nope"), LookupError, "nope"),
    (lambda: Parser(namespace="x"), ValueError, "no context"),
    (lambda: Parser(context="td", namespace="x"), ValueError, "unknown namespace"),
    (lambda: Parser(context=1.5), TypeError, "context must be"),
    (lambda: Parser("x"), TypeError, "positional"),
])
def test_bad_arguments_raise_clear_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_bad_markup_never_raises():
    nasty = ["<", "</", "<!", "<!--", "<?", "&", "&#", "&#x", "&#1114112;",
             "<![CDATA[", "<svg><![CDATA[", "\x00", "\r", "\ud800", "<a b='",
             "<table><tr><td><table>", "</html></body><p>", "<math><mi><svg><desc>"]
    for text in nasty:
        lexpy.parse(text, collect_errors=True)
        lexpy.parse(text.encode("utf-8", "surrogatepass"), collect_errors=True)
        lexpy.parse_fragment(text, "td", collect_errors=True)
    lexpy.parse(bytes(range(256)) * 4)


def test_buffered_bytes_is_read_only_and_tracks_the_unfinished_token():
    parser = Parser()
    assert parser.buffered_bytes == 0
    parser.feed("<p>text ")
    assert parser.buffered_bytes == 0              # text is passed on at once
    parser.feed("<a href='" + "x" * 1000)          # an unfinished tag is kept
    assert parser.buffered_bytes >= 1000
    parser.feed("'>done")
    assert parser.buffered_bytes == 0
    parser.feed("&am")                             # may become &amp;
    assert parser.buffered_bytes == 3
    with pytest.raises(AttributeError):
        parser.buffered_bytes = 0
    parser.close()
    assert parser.buffered_bytes == 0


def test_a_long_comment_is_not_held_whole():
    parser = Parser()
    parser.feed("<!--")
    for _ in range(100):
        parser.feed("comment text -- with dashes\r")
        assert parser.buffered_bytes <= 3      # "--" or a CR may still matter
    parser.feed("\n-->")
    doc = parser.close()
    assert doc.first_child.data == ("comment text -- with dashes\n" * 100)


@pytest.mark.parametrize("split", range(1, 12))
def test_comment_pieces_keep_crlf_nul_and_utf8(split):
    data = "<!--a\r\nb\x00é€😀-->".encode("utf-8")
    pieces = fed([data[:split + 4], data[split + 4:]], encoding="utf-8")
    whole = lexpy.parse(data, encoding="utf-8")
    assert lexpy.dump(pieces) == lexpy.dump(whole)
    assert whole.first_child.data == "a\nb\ufffdé€😀"


# -- Fragment contexts ---------------------------------------------------------

@pytest.mark.parametrize("context, message", [
    ("", "needs a name"),
    (" ", "not an element name"),
    ("td ", "not an element name"),
    ("t d", "not an element name"),
    ("\ttd", "not an element name"),
    ("a/b", "not an element name"),
    ("a>", "not an element name"),
    ("a\x00", "not an element name"),
    ("svg path", "context='path', namespace='svg'"),
    ("math mi", "context='mi', namespace='math'"),
    ("svg:path", "context='path', namespace='svg'"),
    ("xlink:href", "namespace='xlink'"),
    ("a\ud800", "lone surrogate"),
])
def test_bad_context_names_raise_value_error(context, message):
    with pytest.raises(ValueError, match=message.replace("(", "\\(")):
        lexpy.parse_fragment("x", context)
    with pytest.raises(ValueError, match=message):
        Parser(context=context)


@pytest.mark.parametrize("context", [None, 3, b"td", ["td"]])
def test_contexts_of_other_types_raise_type_error(context):
    with pytest.raises(TypeError, match="context must be"):
        lexpy.parse_fragment("x", context)


def test_context_names_are_ascii_lowercased_in_html_only():
    assert lexpy.parse_fragment("<td>x", "TR").to_html() == "<td>x</td>"
    # (str.lower() would make U+0130 two code points; the name stays.)
    assert lexpy.parse_fragment("<b>x", "\u0130x").to_html() == "<b>x</b>"
    svg = lexpy.parse_fragment("<path/>", "foreignObject", namespace="svg")
    assert svg.first_child.local_name == "path"      # HTML content: not adjusted
    assert lexpy.parse_fragment("<path/>", "svg", namespace="svg") \
        .first_child.namespace_uri == "http://www.w3.org/2000/svg"


def test_namespace_goes_with_a_context_only():
    element = lexpy.parse("<svg></svg>").body.first_child
    assert lexpy.parse_fragment("<path/>", element).first_child.namespace_uri == \
        "http://www.w3.org/2000/svg"
    assert lexpy.parse_fragment("<path/>", element, namespace="svg").first_child \
        .namespace_uri == "http://www.w3.org/2000/svg"        # the Element's own
    for other in ("html", "math"):
        with pytest.raises(ValueError, match="not the namespace of the context Element"):
            lexpy.parse_fragment("x", element, namespace=other)
    with pytest.raises(ValueError, match="no context"):
        Parser(namespace="svg")
    with pytest.raises(ValueError, match="no context"):
        Parser(namespace="html")
    assert lexpy.parse_fragment("<b>", "td", namespace=None).to_html() == "<b></b>"


# -- Encodings of fragments ----------------------------------------------------

def test_fragment_bytes_go_through_the_input_byte_stream():
    # As a document's bytes: a BOM wins over the caller's encoding, the
    # encoding's decoder is the Encoding Standard's, and the fragment's
    # document names the encoding; no <meta> changes it.
    assert lexpy.parse_fragment(b"\xef\xbb\xbf<b>\xc3\xa9", "div",
                                encoding="koi8-r").to_html() == "<b>\u00e9</b>"
    utf16 = lexpy.parse_fragment("<b>\u00e9".encode("utf-16"), "div")
    assert utf16.to_html() == "<b>\u00e9</b>"
    assert utf16.owner_document.encoding == "UTF-16LE"
    koi8 = lexpy.parse_fragment(b"<meta charset=utf-8><b>\xc1", "head",
                                encoding="koi8-r")
    assert koi8.owner_document.encoding == "KOI8-R"
    assert koi8.to_html() == '<meta charset="utf-8"><b>%s</b>' % b"\xc1".decode("koi8_r")
    for chunk in (1, 2, 3):
        fragment = fed(random_chunks(b"\xef\xbb\xbf<b>\xc3\xa9\xe2\x82\xac", 1, chunk),
                       context="div")
        assert fragment.to_html() == "<b>\u00e9\u20ac</b>"


def test_default_encoding_of_fragment_bytes_works():
    assert lexpy.parse_fragment(b"<b>\xe9", "div").to_html() == "<b>\ufffd</b>"
    latin = lexpy.parse_fragment(b"<b>\xe9", "div", default_encoding="latin1")
    assert latin.to_html() == "<b>\u00e9</b>"
    assert latin.owner_document.encoding == "windows-1252"
    # `encoding` wins over it, a BOM over both.
    assert lexpy.parse_fragment(b"<b>\xc1", "div", encoding="koi8-r",
                                default_encoding="latin1").to_html() == \
        "<b>%s</b>" % b"\xc1".decode("koi8_r")
    assert fed([b"<b>\xe9"], context="div", default_encoding="latin1").to_html() \
        == "<b>\u00e9</b>"
    with pytest.raises(LookupError, match="nope"):
        Parser(context="div", default_encoding="nope")


# -- close() -------------------------------------------------------------------

class _FailingFinish:
    """A tree construction whose finishing runs out of memory once."""

    def __init__(self, construction, fail=True):
        self._construction = construction
        self.fail = fail

    def __getattr__(self, name):
        return getattr(self._construction, name)

    def finish(self):
        if self.fail:
            self.fail = False
            raise MemoryError()
        return self._construction.finish()


def test_a_failing_close_leaves_the_parser_broken_not_half_closed():
    parser = Parser()
    parser.feed("<p>x")
    parser._construction = _FailingFinish(parser._construction)
    with pytest.raises(MemoryError):
        parser.close()
    assert not parser.closed
    # The second close does not return a half-built tree: it says why.
    with pytest.raises(ValueError, match="close\\(\\) failed \\(MemoryError"):
        parser.close()
    with pytest.raises(ValueError, match="broken"):
        parser.feed("y")
    assert not parser.closed


def test_a_second_close_returns_the_same_document():
    parser = Parser()
    parser.feed(b"<p>x")
    document = parser.close()
    assert parser.close() is document and parser.closed
    fragment_parser = Parser(context="td")
    fragment = fragment_parser.close()
    assert fragment_parser.close() is fragment


# -- Parse results ---------------------------------------------------------------

@pytest.mark.parametrize("value", [1, 0, None, "yes", 1.0])
def test_document_scripting_must_be_a_bool(value):
    with pytest.raises(TypeError, match="scripting must be a bool"):
        lexpy.Document(scripting=value)
    assert lexpy.Document().scripting is False
    assert lexpy.Document(scripting=True).scripting is True


@pytest.mark.parametrize("name, value", [("encoding", "junk"), ("errors", []),
                                         ("scripting", False)])
def test_parse_results_are_read_only(name, value):
    # The parse sets them, in C; a user cannot make a Document claim another
    # encoding, other errors or another scripting flag than its parse had.
    for document in (lexpy.parse(b"<p>\xe9", collect_errors=True),
                     lexpy.parse_fragment("<td>", "tr").owner_document,
                     lexpy.Document()):
        before = getattr(document, name)
        with pytest.raises(AttributeError, match="'%s'.* not writable" % name):
            setattr(document, name, value)
        assert getattr(document, name) == before


def test_parse_results_are_set_by_the_parse():
    document = lexpy.parse(b"<p>\xe9", collect_errors=True)
    assert document.encoding == "windows-1252" and document.scripting is True
    assert [error.code for error in document.errors] == ["missing-doctype"]
    assert all(isinstance(error, ParseError) for error in document.errors)
    assert lexpy.parse("<p>", scripting=False).scripting is False
    assert lexpy.parse("<p>").errors == []


# -- Exports -------------------------------------------------------------------

def test_the_exceptions_are_exported():
    from lexpy.dom import options_serializer
    names = ["HierarchyRequestError", "InvalidCharacterError", "NamespaceError",
             "NotFoundError", "NotSupportedError", "SerializerError"]
    for name in names:
        assert name in lexpy.__all__
        assert issubclass(getattr(lexpy, name), ValueError)
    assert lexpy.SerializerError is options_serializer.SerializerError
    assert lexpy.HierarchyRequestError is lexpy.dom.HierarchyRequestError
    doc = lexpy.parse("<p>")
    with pytest.raises(lexpy.HierarchyRequestError):
        doc.body.append_child(doc.document_element)
    with pytest.raises(lexpy.NotFoundError):
        doc.body.remove_child(doc.head)
    with pytest.raises(lexpy.SerializerError):
        lexpy.dom.serialize_tokens([["Bogus"]])
