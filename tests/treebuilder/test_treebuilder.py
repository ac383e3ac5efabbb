"""Unit tests of the tree builder's data structures and algorithms, through
small documents whose trees the standard fixes: the stack of open elements
and its scopes, the list of active formatting elements (markers, Noah's
Ark, reconstruction), the adoption agency algorithm, text handling, and
the Python entry points (arguments, errors, incremental feeding).
"""
import pytest

import lexpy


def body(html, **options):
    """The dump of the body's children, each line without the body's
    indentation."""
    lines = lexpy.dump(lexpy.parse("<!DOCTYPE html><body>" + html, **options)).split("\n")
    start = lines.index("|   <body>") + 1
    return "\n".join("| " + line[6:] for line in lines[start:])


def tree(*lines):
    return "\n".join("| " + line for line in lines)


# ---------------------------------------------------------------------------
# The stack of open elements: scopes
# ---------------------------------------------------------------------------

def test_button_scope_bounds_closing_a_p():
    # <div> closes a p in button scope; a button in between hides it.
    assert body("<p>a<div>b") == tree('<p>', '  "a"', '<div>', '  "b"')
    assert body("<p><button><div>x") == tree(
        '<p>', '  <button>', '    <div>', '      "x"')


def test_list_item_scope_bounds_li_end_tag():
    # </li> finds no li in list item scope when an ol/ul is in between:
    # it is ignored, and the text stays in the inner list.
    assert body("<li><ul></li>x") == tree('<li>', '  <ul>', '    "x"')


def test_table_scope_lets_a_td_end_tag_through_other_elements():
    # </td> closes the cell and the <b> in it (cleared up to the cell's
    # marker, so not reopened); the text after it is foster-parented.
    assert body("<table><tr><td><b>x</td>y") == tree(
        '"y"', '<table>', '  <tbody>', '    <tr>', '      <td>', '        <b>',
        '          "x"')


def test_default_scope_stops_at_a_table():
    # </div> inside a table cell: the div outside the table is not in scope.
    assert body("<div><table><tr><td></div>x") == tree(
        '<div>', '  <table>', '    <tbody>', '      <tr>', '        <td>',
        '          "x"')


def test_special_element_stops_any_other_end_tag():
    # </span> looks down the stack, meets the special <div> first: ignored.
    assert body("<span><div></span>x") == tree('<span>', '  <div>', '    "x"')


# ---------------------------------------------------------------------------
# The list of active formatting elements
# ---------------------------------------------------------------------------

def test_reconstruction_reopens_formatting_elements():
    assert body("<b><i>a<p>b") == tree(
        '<b>', '  <i>', '    "a"', '    <p>', '      "b"')
    assert body("<p><b>a</p>b") == tree(
        '<p>', '  <b>', '    "a"', '<b>', '  "b"')


def test_noahs_ark_keeps_three_equal_elements():
    # Four equal <b class=x> closed by </p>: only three are reopened.
    got = body('<p><b class=x><b class=x><b class=x><b class=x>a</p>y')
    assert got.count('<b>') == 4 + 3
    # Different attributes are not equal: all four are reopened.
    got = body('<p><b class=x><b class=y><b class=x><b class=x>a</p>y')
    assert got.count('<b>') == 4 + 4


def test_a_marker_stops_reconstruction():
    # A cell inserts a marker: the <b> outside the table is not reopened
    # inside it.
    assert body("<b><table><tr><td>x") == tree(
        '<b>', '  <table>', '    <tbody>', '      <tr>', '        <td>',
        '          "x"')


# ---------------------------------------------------------------------------
# The adoption agency algorithm
# ---------------------------------------------------------------------------

def test_adoption_agency_moves_the_furthest_block():
    assert body("<a>1<p>2</a>3") == tree(
        '<a>', '  "1"', '<p>', '  <a>', '    "2"', '  "3"')


def test_adoption_agency_without_furthest_block_pops():
    assert body("<b>1<i>2</b>3") == tree(
        '<b>', '  "1"', '  <i>', '    "2"', '<i>', '  "3"')


def test_adoption_agency_inner_loop_drops_formatting_elements_after_three():
    # Step 4.3: past three inner loop rounds a formatting element leaves
    # the list, so only the nearest three are cloned under the block.
    # u, s and i are cloned around the moved div; b, the fourth, is not.
    got = body("<a><b><i><s><u><div>x</a>")
    assert got.count("<u>") == 2 and got.count("<s>") == 2 and got.count("<i>") == 2
    assert got.count("<b>") == 1


def test_adoption_agency_outer_loop_is_bounded():
    # Many misnested blocks under one formatting element: at most eight
    # rounds, and the parse ends.
    html = "<b>" + "<div>" * 20 + "</b>" + "x"
    assert "x" in body(html)


# ---------------------------------------------------------------------------
# Character tokens
# ---------------------------------------------------------------------------

def test_text_is_appended_to_the_previous_text_node():
    assert body("a<!---->b") == tree('"a"', '<!--  -->', '"b"')
    assert body("a&amp;b") == tree('"a&b"')


def test_null_is_dropped_in_body_and_replaced_in_foreign_content():
    assert body("a\x00b") == tree('"ab"')
    assert body("<svg>a\x00b") == tree('<svg svg>', '  "a\ufffdb"')


def test_leading_newline_after_pre_is_dropped_once():
    def pre_text(html):
        return lexpy.parse(html).body.first_child.first_child.data
    assert pre_text("<pre>\n\nx</pre>") == "\nx"
    assert pre_text("<pre>\r\n\r\nx</pre>") == "\nx"
    assert pre_text("<pre>&#10;x</pre>") == "x"


def test_whitespace_split_in_head():
    # Whitespace stays in the head; the first other character opens body.
    doc = lexpy.dump(lexpy.parse("<head> \n x"))
    assert doc == "\n".join([
        '| <html>', '|   <head>', '|     " \n "', '|   <body>', '|     "x"'])


def test_table_text_is_foster_parented_only_when_not_whitespace():
    assert body("<table> <tr>") == tree(
        '<table>', '  " "', '  <tbody>', '    <tr>')
    assert body("<table>x<tr>") == tree(
        '"x"', '<table>', '  <tbody>', '    <tr>')


def test_character_reference_whitespace_counts_as_whitespace():
    # &#32; is a space character token: not foster-parented.
    assert body("<table>&#32;<tr>") == tree(
        '<table>', '  " "', '  <tbody>', '    <tr>')


# ---------------------------------------------------------------------------
# The Python entry points
# ---------------------------------------------------------------------------

def test_parse_accepts_str_and_bytes_alike():
    html = "<p>caf\u00e9</p>"
    utf8 = html.encode()
    assert lexpy.dump(lexpy.parse(html)) == lexpy.dump(lexpy.parse(utf8, encoding="utf-8"))
    assert lexpy.parse(utf8, encoding="utf-8").encoding == "UTF-8"
    # Nothing declares the encoding: UTF-8 autodetected, else the
    # standard's default.
    assert lexpy.parse(utf8).encoding == "UTF-8"
    assert lexpy.parse(utf8, detect_encoding=False).encoding == "windows-1252"
    assert lexpy.parse(utf8, detect_encoding=False).body.text_content == "caf\u00c3\u00a9"
    declared = b"<meta charset=utf-8>" + utf8
    assert lexpy.parse(declared).body.text_content == "caf\u00e9"


def test_invalid_utf8_becomes_replacement_characters():
    assert '"a\ufffdb"' in lexpy.dump(lexpy.parse(b"<p>a\xffb", encoding="utf-8"))


def test_bad_arguments():
    with pytest.raises(TypeError):
        lexpy.parse(42)
    with pytest.raises(TypeError):
        lexpy.parse("x", scripting="yes")
    with pytest.raises(TypeError):
        lexpy.parse_fragment("x", 3)
    with pytest.raises(ValueError):
        lexpy.parse_fragment("x", "div", namespace="xul")
    with pytest.raises(ValueError):
        lexpy.parse_fragment("x", "")
    with pytest.raises(LookupError):
        lexpy.parse(b"x", encoding="no-such-encoding")


def test_parser_feed_close():
    parser = lexpy.Parser()
    for chunk in ["<ta", "ble><t", "r><td>x</t", "able>"]:
        parser.feed(chunk)
    document = parser.close()
    assert lexpy.dump(document) == lexpy.dump(lexpy.parse("<table><tr><td>x</table>"))
    assert parser.close() is document
    with pytest.raises(ValueError):
        parser.feed("more")
    mixed = lexpy.Parser()
    mixed.feed("a")
    with pytest.raises(TypeError):
        mixed.feed(b"b")


def test_utf8_split_across_byte_chunks():
    data = "<p>\u20ac\U0001F600</p>".encode()
    parser = lexpy.Parser()
    for i in range(len(data)):
        parser.feed(data[i:i + 1])
    assert lexpy.dump(parser.close()) == lexpy.dump(lexpy.parse(data))


def test_collect_errors():
    document = lexpy.parse("<p></div>", collect_errors=True)
    codes = [error.code for error in document.errors]
    assert "missing-doctype" in codes
    assert "unexpected-end-tag" in codes
    assert all(isinstance(error, lexpy.ParseError) for error in document.errors)
    assert all(error.line >= 1 and error.column >= 1 for error in document.errors)
    assert lexpy.parse("<p></div>").errors == []


def test_scripting_flag_decides_noscript():
    on = lexpy.dump(lexpy.parse("<noscript><p>x</p></noscript>"))
    off = lexpy.dump(lexpy.parse("<noscript><p>x</p></noscript>", scripting=False))
    assert '"<p>x</p>"' in on
    assert '<p>' in off and '"<p>x</p>"' not in off


def test_processing_instructions_switch():
    assert "<?target data?>" in lexpy.dump(lexpy.parse("<?target data?>"))
    assert "<!-- ?target data? -->" in lexpy.dump(
        lexpy.parse("<?target data?>", processing_instructions=False))


def test_fragment_with_an_element_context():
    document = lexpy.parse("<form><table><tr><td id=cell></table></form>")
    cell = document.get_element_by_id("cell") if hasattr(document, "get_element_by_id") \
        else document.body.first_child.first_child.first_child.first_child.first_child
    fragment = lexpy.parse_fragment("<td>a<form>b", cell)
    # The form ancestor of the context sets the form element pointer: the
    # nested form start tag is ignored.
    assert lexpy.dump(fragment) == tree('"ab"')


def test_fragment_contexts_set_the_tokenizer_state():
    assert lexpy.dump(lexpy.parse_fragment("<b>x</b>", "title")) == tree('"<b>x</b>"')
    assert lexpy.dump(lexpy.parse_fragment("<b>x", "svg", namespace="svg")) == tree(
        '<b>', '  "x"')
    assert lexpy.dump(lexpy.parse_fragment("<path/>", "svg", namespace="svg")) == tree(
        '<svg path>')
