"""The HTML serializer (to_html, outer_html, inner_html) and lexpy.serialize
with html5lib's options over trees."""
import gc

import pytest
from hypothesis import given, settings, strategies as st

import lexpy
from lexpy.dom import Document, SerializerError, dom, serialize_tokens

HTML = "http://www.w3.org/1999/xhtml"
SVG = "http://www.w3.org/2000/svg"
MATHML = "http://www.w3.org/1998/Math/MathML"
XLINK = "http://www.w3.org/1999/xlink"
XML = "http://www.w3.org/XML/1998/namespace"
XMLNS = "http://www.w3.org/2000/xmlns/"

VOID = ("area base basefont bgsound br col embed frame hr img input keygen "
        "link meta param source track wbr").split()
RAW = "style script xmp iframe noembed noframes plaintext".split()


def with_text(doc, name, text, namespace=None):
    element = (doc.create_element(name) if namespace is None
               else doc.create_element_ns(namespace, name))
    element.append_child(doc.create_text_node(text))
    return element


def test_text_escaping():
    doc = Document()
    p = with_text(doc, "p", "a & b < c > d \u00a0 \"q\" 'a' \u00e9")
    assert p.outer_html == "<p>a &amp; b &lt; c &gt; d &nbsp; \"q\" 'a' \u00e9</p>"
    assert p.inner_html == "a &amp; b &lt; c &gt; d &nbsp; \"q\" 'a' \u00e9"
    assert p.first_child.to_html() == "a &amp; b &lt; c &gt; d &nbsp; \"q\" 'a' \u00e9"


def test_attribute_escaping():
    doc = Document()
    a = doc.create_element("a")
    a.set_attribute("title", "& < > \" ' \u00a0")
    assert a.outer_html == '<a title="&amp; &lt; &gt; &quot; \' &nbsp;"></a>'
    a.set_attribute("title", "")
    assert a.outer_html == '<a title=""></a>'


@pytest.mark.parametrize("name", RAW)
def test_raw_text_parents(name):
    doc = Document()
    element = with_text(doc, name, "a<b>&amp;\u00a0")
    assert element.outer_html == "<%s>a<b>&amp;\u00a0</%s>" % (name, name)
    # Only the text's own parent counts.
    inner = doc.create_element("b")
    inner.append_child(doc.create_text_node("<"))
    element.append_child(inner)
    assert element.inner_html == "a<b>&amp;\u00a0<b>&lt;</b>"


def test_raw_text_only_in_the_html_namespace():
    doc = Document()
    script = with_text(doc, "script", "a<b", namespace=SVG)
    assert script.outer_html == "<script>a&lt;b</script>"


def test_noscript_depends_on_scripting():
    noscript = with_text(Document(), "noscript", "<p>&")
    assert noscript.outer_html == "<noscript>&lt;p&gt;&amp;</noscript>"
    assert lexpy.serialize(noscript) == "<noscript>&lt;p&gt;&amp;</noscript>"
    noscript = with_text(Document(scripting=True), "noscript", "<p>&")
    assert noscript.outer_html == "<noscript><p>&</noscript>"
    assert lexpy.serialize(noscript) == "<noscript><p>&</noscript>"


@pytest.mark.parametrize("name", VOID)
def test_void_elements(name):
    doc = Document()
    element = doc.create_element(name)
    element.set_attribute("a", "1")
    assert element.outer_html == '<%s a="1">' % name
    # A void element's children (possible through the API) are not written.
    element.append_child(doc.create_text_node("lost"))
    assert element.outer_html == '<%s a="1">' % name
    assert element.inner_html == ""
    # In a foreign namespace the same name is an ordinary element.
    assert doc.create_element_ns(SVG, name).outer_html == "<%s></%s>" % (name, name)


def test_template_contents_are_serialized():
    doc = Document()
    template = doc.create_element("template")
    template.content.append_child(with_text(doc, "b", "x"))
    template.append_child(doc.create_element("ignored"))
    assert template.outer_html == "<template><b>x</b></template>"
    assert template.inner_html == "<b>x</b>"
    assert template.content.to_html() == "<b>x</b>"
    nested = doc.create_element("template")
    nested.content.append_child(template)
    assert nested.outer_html == "<template><template><b>x</b></template></template>"


def test_foreign_element_names():
    doc = Document()
    svg = doc.create_element_ns(SVG, "svg")
    svg.append_child(doc.create_element_ns(SVG, "foreignObject"))
    svg.append_child(doc.create_element_ns(SVG, "clipPath"))
    svg.append_child(doc.create_element_ns(SVG, "svg:linearGradient"))
    math = doc.create_element_ns(MATHML, "math")
    math.append_child(doc.create_element_ns(MATHML, "mi"))
    assert svg.outer_html == ("<svg><foreignObject></foreignObject><clipPath>"
                              "</clipPath><linearGradient></linearGradient></svg>")
    assert math.outer_html == "<math><mi></mi></math>"
    other = doc.create_element_ns("urn:x", "x:Thing")
    assert other.outer_html == "<x:Thing></x:Thing>"
    assert doc.create_element_ns(None, "bare").outer_html == "<bare></bare>"


def test_attribute_serialized_names():
    doc = Document()
    svg = doc.create_element_ns(SVG, "svg")
    svg.set_attribute_ns(XLINK, "xlink:href", "1")
    svg.set_attribute_ns(XLINK, "other:title", "2")      # the prefix is not used
    svg.set_attribute_ns(XML, "xml:lang", "3")
    svg.set_attribute_ns(XMLNS, "xmlns", "4")
    svg.set_attribute_ns(XMLNS, "xmlns:xlink", "5")
    svg.set_attribute_ns("urn:y", "y:attr", "6")
    svg.set_attribute_ns("urn:y", "plain", "7")
    svg.set_attribute("definitionURL", "8")
    assert svg.outer_html == (
        '<svg xlink:href="1" xlink:title="2" xml:lang="3" xmlns="4" '
        'xmlns:xlink="5" y:attr="6" plain="7" definitionURL="8"></svg>')


def test_comments_pis_doctypes_and_documents():
    doc = Document()
    doc.append_child(doc.create_comment("before"))
    doc.append_child(doc.create_document_type(
        "html", "-//W3C//DTD HTML 4.01//EN", "http://www.w3.org/TR/html4/strict.dtd"))
    html = doc.append_child(doc.create_element("html"))
    html.append_child(doc.create_processing_instruction("php", "echo 1;"))
    html.append_child(doc.create_comment(" -- odd -- "))
    assert doc.to_html() == ("<!--before--><!DOCTYPE html><html><?php echo 1;?>"
                             "<!-- -- odd -- --></html>")
    assert doc.doctype.to_html() == "<!DOCTYPE html>"
    fragment = doc.create_document_fragment()
    fragment.append_child(doc.create_text_node("<"))
    fragment.append_child(doc.create_comment("c"))
    assert fragment.to_html() == "&lt;<!--c-->"


def test_text_to_html_uses_its_parent():
    doc = Document()
    style = with_text(doc, "style", "a>b")
    assert style.first_child.to_html() == "a>b"
    assert doc.create_text_node("a>b").to_html() == "a&gt;b"


def test_inner_html_setter_parses_in_the_context_of_the_element():
    doc = Document()
    div = doc.create_element("div")
    div.append_child(doc.create_text_node("old"))
    div.inner_html = "<b>new</b> &amp;"
    assert div.inner_html == "<b>new</b> &amp;"
    template = doc.create_element("template")
    template.inner_html = "<td>x</td>"
    assert template.content.to_html() == "<td>x</td>"
    table = doc.create_element("table")
    table.inner_html = "<td>cell"                 # the context is a table
    assert table.inner_html == "<tbody><tr><td>cell</td></tr></tbody>"
    with pytest.raises(TypeError):
        div.inner_html = 5
    assert div.inner_html == "<b>new</b> &amp;"


def test_inner_html_uses_the_scripting_flag_of_the_document():
    parsed = lexpy.parse("<div></div>").body.first_child     # scripting on
    parsed.inner_html = "<noscript><b>x</b></noscript>"
    assert lexpy.dump(parsed.first_child) == '| "<b>x</b>"'
    built = lexpy.parse("<div></div>", scripting=False).body.first_child
    built.inner_html = "<noscript><b>x</b></noscript>"
    assert lexpy.dump(built.first_child) == "| <b>\n|   \"x\""


def test_inner_html_copies_the_parsed_nodes_into_the_document():
    # The fragment is parsed into a document of its own and its nodes are
    # copied into the element's document (new names interned there).
    doc = Document()
    div = doc.append_child(doc.create_element("div"))
    markup = ('<x-new-name data-new-attribute="v">t</x-new-name>'
              '<svg><path xlink:href="#h"/></svg><template><i>in</i></template>')
    div.inner_html = markup
    gc.collect()                                  # the parse's document is gone
    assert div.inner_html == lexpy.parse_fragment(markup, "div").to_html()
    assert lexpy.dump(div) == lexpy.dump(lexpy.parse_fragment(markup, "div"))
    new = div.first_child
    assert new.owner_document is doc
    assert new.local_name == "x-new-name"
    assert new.get_attribute("data-new-attribute") == "v"
    assert doc.get_elements_by_tag_name("x-new-name") == [new]
    path = div.get_elements_by_tag_name("path")[0]
    assert path.get_attribute_ns("http://www.w3.org/1999/xlink", "href") == "#h"
    assert div.get_elements_by_tag_name("template")[0].content.to_html() == "<i>in</i>"
    # The moved nodes behave as any of the document's: changed, removed,
    # reclaimed and replaced again.
    new.set_attribute("data-other", "w")
    div.inner_html = "<p>again</p>"
    del new, path
    gc.collect()
    assert div.inner_html == "<p>again</p>"


def test_serialize_with_options_on_a_tree():
    doc = Document()
    doc.append_child(doc.create_document_type("html"))
    html = doc.append_child(doc.create_element("html"))
    html.append_child(doc.create_element("head"))
    body = html.append_child(doc.create_element("body"))
    p = body.append_child(doc.create_element("p"))
    p.set_attribute("class", "a b")
    p.set_attribute("id", "x")
    p.append_child(doc.create_text_node("one"))
    ul = body.append_child(doc.create_element("ul"))
    for text in ("1", "2"):
        ul.append_child(with_text(doc, "li", text))
    body.append_child(doc.create_element("input")).set_attribute("disabled", "")
    assert lexpy.serialize(doc) == (
        '<!DOCTYPE html><p class="a b" id=x>one<ul><li>1<li>2</ul><input disabled>')
    assert lexpy.serialize(doc, omit_optional_tags=False, quote_attr_values="always",
                           minimize_boolean_attributes=False) == doc.to_html()
    assert lexpy.serialize(body.last_child, use_trailing_solidus=True) == \
        "<input disabled />"
    # (the end tag of a last p is optional)
    assert lexpy.serialize(p, quote_char="'", quote_attr_values=True) == \
        "<p class='a b' id='x'>one"
    assert lexpy.serialize(p, alphabetical_attributes=True,
                           omit_optional_tags=False) == '<p class="a b" id=x>one</p>'
    head = doc.head
    assert lexpy.serialize(doc, encoding="utf-8").startswith(
        "<!DOCTYPE html><meta charset=utf-8><p")
    assert head.child_nodes == []      # the tree is not changed


def test_serialize_doctype_with_identifiers():
    doc = Document()
    doc.append_child(doc.create_document_type(
        "html", "-//W3C//DTD HTML 4.01//EN", "http://www.w3.org/TR/html4/strict.dtd"))
    assert lexpy.serialize(doc) == ('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" '
                                    '"http://www.w3.org/TR/html4/strict.dtd">')


def test_serialize_option_errors():
    doc = Document()
    p = doc.create_element("p")
    with pytest.raises(TypeError, match="unknown serializer option"):
        lexpy.serialize(p, quote_style="x")
    with pytest.raises(ValueError):
        lexpy.serialize(p, quote_char="`")
    with pytest.raises(ValueError):
        lexpy.serialize(p, quote_attr_values="sometimes")
    with pytest.raises(TypeError):
        lexpy.serialize("<p>")
    with pytest.raises(TypeError):
        lexpy.serialize(p, encoding=8)


def test_serialize_tokens_errors():
    with pytest.raises(SerializerError):
        serialize_tokens([["Bogus", "x"]])
    with pytest.raises(SerializerError):
        serialize_tokens(["StartTag"])
    with pytest.raises(SerializerError):
        serialize_tokens([[]])
    assert serialize_tokens([]) == ""


def test_serialize_tokens_extras():
    assert serialize_tokens([["Entity", "amp"], ["Entity", "eacute"]]) == "&amp;\u00e9"
    assert serialize_tokens([["Entity", "eacute"]], resolve_entities=False) == "&eacute;"
    assert serialize_tokens([["ProcessingInstruction", "t", "d"]]) == "<?t d?>"
    assert serialize_tokens([["StartTag", HTML, "noscript", {}], ["Characters", "<"]]) \
        == "<noscript><"
    assert serialize_tokens([["StartTag", HTML, "noscript", {}], ["Characters", "<"]],
                            scripting=False) == "<noscript>&lt;"


def test_serialize_is_iterative():
    doc = Document()
    node = doc.append_child(doc.create_element("div"))
    for _ in range(50_000):
        node = node.append_child(doc.create_element("span"))
    out = lexpy.serialize(doc, omit_optional_tags=False)
    assert out == doc.to_html()


# -- the C serializer and the options pipeline agree ---------------------

NAMES = ["div", "p", "span", "b", "template", "script", "style", "noscript", "br",
         "img", "textarea", "pre", "li", "table", "td"]
TEXTS = st.text(alphabet=st.sampled_from(list("ab &<>\"'\u00a0\n\t=`\u00e9\U0001F600")),
                max_size=8)


@st.composite
def trees(draw):
    doc = Document(scripting=draw(st.booleans()))
    root = doc.create_element("div")
    open_elements = [root]
    for _ in range(draw(st.integers(0, 25))):
        parent = draw(st.sampled_from(open_elements))
        target = parent.content if parent.content is not None else parent
        kind = draw(st.sampled_from(["element", "element", "svg", "text", "comment",
                                     "pi"]))
        if kind == "element":
            node = doc.create_element(draw(st.sampled_from(NAMES)))
            for i in range(draw(st.integers(0, 3))):
                node.set_attribute(draw(st.sampled_from(["id", "class", "data-x",
                                                         "disabled", "title"])),
                                   draw(TEXTS))
            open_elements.append(node)
        elif kind == "svg":
            node = doc.create_element_ns(SVG, draw(st.sampled_from(
                ["svg", "foreignObject", "script", "br"])))
            node.set_attribute_ns(XLINK, "xlink:href", draw(TEXTS))
            open_elements.append(node)
        elif kind == "text":
            node = doc.create_text_node(draw(TEXTS))
        elif kind == "comment":
            node = doc.create_comment(draw(TEXTS))
        else:
            node = doc.create_processing_instruction("pi", draw(TEXTS).replace(">", ""))
        target.append_child(node)
    return root


@settings(max_examples=300, deadline=None)
@given(trees())
def test_to_html_agrees_with_serialize_without_html5lib_shortcuts(root):
    plain = dict(omit_optional_tags=False, quote_attr_values="always",
                 use_best_quote_char=False, minimize_boolean_attributes=False,
                 inject_meta_charset=False)
    assert lexpy.serialize(root, **plain) == root.to_html()


# The names of every element the serializer treats specially, and others.
SPECIAL_NAMES = ["area", "base", "basefont", "bgsound", "br", "col", "embed",
                 "frame", "hr", "img", "input", "keygen", "link", "meta", "param",
                 "source", "track", "wbr", "style", "script", "xmp", "iframe",
                 "noembed", "noframes", "plaintext", "noscript", "textarea",
                 "title", "pre", "div", "template", "x-custom"]


@pytest.mark.parametrize("scripting", [True, False])
@pytest.mark.parametrize("name", SPECIAL_NAMES)
def test_serialize_follows_the_tables_and_escaping_of_to_html(name, scripting):
    # With the options that turn html5lib's extras off, lexpy.serialize
    # writes what to_html() writes: void elements, raw text and escaping
    # come from the same C tables and code.
    doc = Document(scripting=scripting)
    element = doc.create_element(name)
    element.set_attribute("title", "a&b\u00a0<c>\"d\"")
    if name not in ("area", "base", "basefont", "bgsound", "br", "col", "embed",
                    "frame", "hr", "img", "input", "keygen", "link", "meta",
                    "param", "source", "track", "wbr"):
        target = element.content if name == "template" else element
        target.append_child(doc.create_text_node("x & y\u00a0<z>"))
    plain = lexpy.serialize(element, quote_attr_values="always",
                            use_best_quote_char=False, omit_optional_tags=False,
                            minimize_boolean_attributes=False)
    assert plain == element.outer_html


def test_the_options_serializer_keeps_no_tables_of_its_own():
    from lexpy.dom import options_serializer
    for table in ("VOID_ELEMENTS", "RAW_TEXT_ELEMENTS", "WHITESPACE_PRESERVING"):
        assert not hasattr(options_serializer, table)
    assert dom._escape("&\u00a0<>\"'", False) == "&amp;&nbsp;&lt;&gt;\"'"
    assert dom._escape("&\u00a0<>\"'", True) == "&amp;&nbsp;&lt;&gt;&quot;'"
    assert dom._serialization_rules("br", False) == dom.SERIALIZES_AS_VOID
    assert dom._serialization_rules("noscript", True) == dom.RAW_TEXT
    assert dom._serialization_rules("noscript", False) == 0
    assert dom._serialization_rules("never-seen", True) == 0


def test_inner_html_leaves_no_document_behind():
    doc = Document()
    div = doc.append_child(doc.create_element("div"))
    gc.collect()

    def documents():
        return sum(1 for o in gc.get_objects() if isinstance(o, Document))

    before = documents()
    for _ in range(20):
        div.inner_html = "<p>x<template><b>y</b></template>"
    gc.collect()
    assert documents() == before
    assert div.inner_html == "<p>x<template><b>y</b></template></p>"
