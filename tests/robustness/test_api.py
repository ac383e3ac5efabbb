"""Bad input at the API: wrong types, closed parsers, unknown encodings and
invalid fragment contexts raise TypeError, ValueError or LookupError with a
clear message; markup, however broken, never raises."""
import array
import codecs

import pytest
from hypothesis import given, settings, strategies as st

import lexpy

ALLOWED = (TypeError, ValueError, LookupError)


@pytest.mark.parametrize("data", [None, 1, 1.5, [], ["<p>"], {"a": 1}, object(),
                                  lexpy.parse("<p>")])
def test_data_of_a_wrong_type_is_a_type_error(data):
    with pytest.raises(TypeError, match="str or bytes"):
        lexpy.parse(data)
    with pytest.raises(TypeError, match="str or bytes"):
        lexpy.parse_fragment(data)
    with pytest.raises(TypeError, match="str or bytes"):
        lexpy.Parser().feed(data)


@pytest.mark.parametrize("data", [bytearray(b"<p>x"), memoryview(b"<p>x"),
                                  memoryview(b"<p>xyz")[::2],
                                  memoryview(array.array("i", [0x3C, 0x70]))])
def test_byte_like_data_parses(data):
    assert lexpy.dump(lexpy.parse(data)) == lexpy.dump(lexpy.parse(bytes(data)))


@pytest.mark.parametrize("option", ["scripting", "processing_instructions",
                                    "collect_errors"])
@pytest.mark.parametrize("value", [None, 0, 1, "yes"])
def test_flags_must_be_bools(option, value):
    with pytest.raises(TypeError, match=option):
        lexpy.parse("x", **{option: value})
    with pytest.raises(TypeError, match=option):
        lexpy.Parser(**{option: value})


def test_unknown_keywords_are_type_errors():
    with pytest.raises(TypeError):
        lexpy.parse("x", bogus=1)
    with pytest.raises(TypeError):
        lexpy.Parser(bogus=1)
    with pytest.raises(TypeError):
        lexpy.parse_fragment("x", "div", bogus=1)


@pytest.mark.parametrize("label", ["bogus", "", " ", "utf-8x", "\x00", "\ud800",
                                   "utf-7", "UTF-7", "utf-32", "utf-32le",
                                   # Python codecs that are not text encodings
                                   "rot13", "base64", "hex", "uu", "zlib", "bz2",
                                   "quopri"])
def test_unknown_encodings_are_lookup_errors(label):
    for data in (b"<p>x", "<p>x"):
        with pytest.raises(LookupError, match="encoding"):
            lexpy.parse(data, encoding=label)
    with pytest.raises(LookupError, match="encoding"):
        lexpy.Parser(encoding=label)


@pytest.mark.parametrize("label", [1, b"utf-8", ["utf-8"], codecs.lookup("utf-8")])
def test_encoding_of_a_wrong_type_is_a_type_error(label):
    with pytest.raises(TypeError, match="encoding"):
        lexpy.parse(b"x", encoding=label)


def test_a_closed_parser_refuses_more_input():
    parser = lexpy.Parser()
    parser.feed("<p>x")
    document = parser.close()
    with pytest.raises(ValueError, match="closed"):
        parser.feed("y")
    assert parser.close() is document      # close() again: the same result


def test_str_and_bytes_do_not_mix_in_one_parse():
    parser = lexpy.Parser()
    parser.feed("<p>")
    with pytest.raises(TypeError, match="mix"):
        parser.feed(b"x")
    parser = lexpy.Parser()
    parser.feed(b"<p>")
    with pytest.raises(TypeError, match="mix"):
        parser.feed("x")


@pytest.mark.parametrize("context, error", [
    ("", ValueError), (None, TypeError), (1, TypeError), (b"div", TypeError),
    ("\ud800", ValueError),
])
def test_invalid_fragment_contexts(context, error):
    with pytest.raises(error):
        lexpy.parse_fragment("x", context)


def test_contexts_that_are_not_elements_are_type_errors():
    document = lexpy.parse("<p>x")
    text = document.body.first_child.first_child
    for context in (document, text, lexpy.parse_fragment("y"), document.doctype):
        with pytest.raises(TypeError, match="context"):
            lexpy.parse_fragment("x", context)


@pytest.mark.parametrize("namespace, error", [
    ("bogus", ValueError), ("", ValueError), ("HTML5", ValueError),
    (1, TypeError), (b"html", TypeError)])
def test_invalid_fragment_namespaces(namespace, error):
    with pytest.raises(error, match="namespace"):
        lexpy.parse_fragment("x", "div", namespace=namespace)


def test_odd_context_names_are_unknown_elements():
    """Any element name names an element (unknown ones are
    HTMLUnknownElement); a string no element can be named (whitespace,
    '/', '>', NUL, a namespace prefix) is a ValueError."""
    for name in ("x" * 10000, "DIV", "svg", "a:b", "\u00e9", "<div"):
        assert lexpy.dump(lexpy.parse_fragment("<p>x", name)).startswith("| <p>")
    for name in ("a b", "<div>", "\x00", "svg path", "svg:path"):
        with pytest.raises(ValueError, match="context"):
            lexpy.parse_fragment("<p>x", name)


@pytest.mark.parametrize("call", [
    lambda: lexpy.dump(None), lambda: lexpy.dump("x"), lambda: lexpy.serialize(None),
    lambda: lexpy.serialize("<p>"), lambda: lexpy.dom.Node(), lambda: lexpy.dom.Element()])
def test_dom_entry_points_check_their_arguments(call):
    with pytest.raises(TypeError):
        call()


@pytest.mark.parametrize("options, error", [
    ({"bogus": 1}, TypeError), ({"quote_char": "x"}, ValueError),
    ({"quote_attr_values": "bogus"}, ValueError), ({"encoding": 1}, TypeError)])
def test_serializer_options_are_checked(options, error):
    with pytest.raises(error):
        lexpy.serialize(lexpy.parse("<p>"), **options)


# Any markup: no exception at all.

CONTEXT_NAMES = ["body", "td", "tr", "table", "select", "template", "html", "title",
                 "textarea", "script", "style", "plaintext", "frameset", "svg",
                 "math", "foreignObject", "annotation-xml", "x", "a:b"]
LABELS = [None, "utf-8", "windows-1252", "utf-16le", "utf-16be", "shift_jis",
          "iso-2022-jp", "gb18030", "big5", "euc-kr", "euc-jp", "koi8-r"]


@settings(max_examples=300, deadline=None)
@given(data=st.one_of(st.binary(max_size=300), st.text(max_size=300)),
       context=st.one_of(st.none(), st.sampled_from(CONTEXT_NAMES)),
       namespace=st.sampled_from(["html", "svg", "math"]),
       label=st.sampled_from(LABELS),
       scripting=st.booleans(),
       chunk=st.integers(1, 50))
def test_any_input_parses_without_an_exception(data, context, namespace, label,
                                               scripting, chunk):
    encoding = label if isinstance(data, bytes) else None
    if context is None:
        node = lexpy.parse(data, encoding=encoding, scripting=scripting,
                           collect_errors=True)
        parser = lexpy.Parser(encoding=encoding, scripting=scripting)
    else:
        node = lexpy.parse_fragment(data, context, namespace=namespace, encoding=encoding,
                                    scripting=scripting, collect_errors=True)
        parser = lexpy.Parser(encoding=encoding, scripting=scripting, context=context,
                              namespace=namespace)
    for i in range(0, len(data), chunk):
        parser.feed(data[i:i + chunk])
    chunked = parser.close()
    assert lexpy.dump(chunked) == lexpy.dump(node)
    node.to_html()
    lexpy.serialize(node)
