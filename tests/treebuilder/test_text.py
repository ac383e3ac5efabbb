"""Text with character references is converted once, from the token's
range straight into the Text node (DESIGN.md decision 3): the tree
builder's scratch buffer is used only by a mode that must see the decoded
characters to split whitespace off (tests/data/tree-construction/
character-references-as-whitespace.dat has the trees)."""
import lexpy
from lexpy.driver.driver import TreeConstruction
from tests.helpers import require_test_build

driver_testing = require_test_build("lexpy.driver._testing")

BODY_TEXT = b"<p>x</p>" + b"<p>a &amp; b &lt; c &#169; d&nbsp;e &#x1F600;</p>\n" * 20000


def test_body_text_with_references_goes_straight_into_the_dom():
    construction = TreeConstruction(True, True, False)
    construction.feed(BODY_TEXT)
    assert driver_testing.scratch_capacity(construction) == 0
    document = construction.finish()
    assert document.body.children[1].text_content == "a & b < c \u00a9 d\u00a0e \U0001F600"
    assert document.to_html() == lexpy.parse(BODY_TEXT).to_html()


def test_a_mode_that_splits_whitespace_decodes_first():
    construction = TreeConstruction(True, True, False)
    construction.feed(b"<html>&#32;&#10;<head>")
    assert driver_testing.scratch_capacity(construction) > 0
    document = construction.finish()
    assert lexpy.dump(document) == "| <html>\n|   <head>\n|   <body>"


def test_nul_characters_around_references():
    document = lexpy.parse(b"<p>\x00&amp;\x00</p><svg>\x00&lt;</svg>")
    assert document.body.first_child.text_content == "&"
    assert document.body.last_child.text_content == "\ufffd<"


def test_frameset_ok_from_the_raw_text_when_it_can_tell():
    """A character outside any reference settles that the text is not all
    whitespace without decoding it; text made of references and whitespace
    only is decoded to tell (&#32; keeps frameset-ok, &amp; does not)."""
    construction = TreeConstruction(True, True, False)
    construction.feed(b"<div>a &amp; b</div><frameset></frameset>")
    assert driver_testing.scratch_capacity(construction) == 0
    assert lexpy.dump(construction.finish()).splitlines()[2] == "|   <body>"
    for text, frameset in ((b"&#32;&#x0A;\n", True), (b"&#32;&amp;", False),
                           (b"&#32;&#0;", False), (b"\x00&#9;", True)):
        document = lexpy.parse(b"<div>" + text + b"</div><frameset></frameset>")
        assert (document.body.local_name == "frameset") == frameset, text


def test_text_in_body_by_the_one_step_path_and_beside_it():
    """A text token "in body" becomes a new Text node at the end of the
    current node in one step (text_in_body_direct) unless the node's last
    child is a Text node already, an active formatting element is to be
    reconstructed, frameset-ok is on or the text has U+0000: each of those
    goes by characters_in_body; both give the standard's tree."""
    big = "a" * 20000                       # more than an arena block's share
    page = ("<p>x</p><p>a\r\nb &amp;\rc</p><p>d</x>e</p><p><b>f</p>g"
            "<p>h\x00i</p><div>%s</div><div>%s&amp;</div>" % (big, big))
    document = lexpy.parse(page.encode())
    assert lexpy.dump(document) == "\n".join([
        "| <html>", "|   <head>", "|   <body>",
        "|     <p>", '|       "x"',
        "|     <p>", '|       "a', "b &", 'c"',
        "|     <p>", '|       "de"',
        "|     <p>", "|       <b>", '|         "f"',
        "|     <b>", '|       "g"',
        "|       <p>", '|         "hi"',
        "|       <div>", '|         "%s"' % big,
        "|       <div>", '|         "%s&"' % big])
