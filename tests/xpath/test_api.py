"""The Python face of lexpy.xpath: node.xpath(), compile_xpath(), results
as lxml gives them, the extensions, and bad input."""
from __future__ import annotations

import pickle
import threading
from typing import Any, List

import pytest

import lexpy

PAGE = (b"<!DOCTYPE html><ul id=list><li class='a b'><a href='/x'>X</a>"
        b"<li class=b><a href='/y' title=Why>Y</a></ul><template><p>t</p></template>"
        b"<svg viewBox='0 0 1 1'><a xlink:href='#z'/></svg><!--end-->")


@pytest.fixture
def doc() -> Any:
    return lexpy.parse(PAGE)


def test_results_are_as_lxml_gives_them(doc: Any) -> None:
    links = doc.xpath("//li/a")
    assert [a.text_content for a in links] == ["X", "Y"]
    assert all(isinstance(a, lexpy.Element) for a in links)
    hrefs = doc.xpath("//li/a/@href")
    assert hrefs == ["/x", "/y"]
    assert all(isinstance(h, lexpy.XPathString) for h in hrefs)
    assert hrefs[0].is_attribute and not hrefs[0].is_text and hrefs[0].attrname == "href"
    assert hrefs[0].parent is links[0] and hrefs[0].getparent() is links[0]
    texts = doc.xpath("//a/text()")
    assert texts == ["X", "Y"] and texts[1].is_text and texts[1].parent is links[1]
    assert texts[1].attrname is None
    assert doc.xpath("count(//li)") == 2.0 and type(doc.xpath("count(//li)")) is float
    assert doc.xpath("boolean(//li)") is True
    assert type(doc.xpath("string(//li)")) is str
    assert doc.xpath("//comment()")[0].data == "end"
    assert doc.xpath("/") == [doc]


def test_names_follow_the_html_rules(doc: Any) -> None:
    assert len(doc.xpath("//LI")) == 2
    assert doc.xpath("//a/@HREF") == ["/x", "/y"]
    assert len(doc.xpath("//a")) == 2                      # not the SVG a
    svg = {"svg": "http://www.w3.org/2000/svg", "xlink": "http://www.w3.org/1999/xlink"}
    assert doc.xpath("//svg:a/@xlink:href", namespaces=svg) == ["#z"]
    assert doc.xpath("//svg:svg/@viewBox", namespaces=svg) == ["0 0 1 1"]
    assert doc.xpath("//svg:svg/@viewbox", namespaces=svg) == []
    assert doc.xpath("name(//svg:a/@xlink:href)", namespaces=svg) == "xlink:href"


def test_template_contents_are_not_children(doc: Any) -> None:
    assert doc.xpath("//p") == []
    content = doc.xpath("//template")[0].content
    assert [p.local_name for p in content.xpath("p")] == ["p"]
    assert content.xpath("string(/)") == "t"


def test_element_and_fragment_contexts(doc: Any) -> None:
    ul = doc.xpath("//ul")[0]
    assert ul.xpath("count(li)") == 2.0
    assert ul.xpath("string(@id)") == "list"
    assert ul.xpath("/")[0] is doc
    fragment = lexpy.parse_fragment("<b>1</b><b>2</b>")
    assert fragment.xpath("count(b)") == 2.0


def test_variables(doc: Any) -> None:
    assert doc.xpath("//a[. = $name]/@href", name="Y") == ["/y"]
    assert doc.xpath("$n + 1", n=2) == 3.0
    assert doc.xpath("$flag and true()", flag=True) is True
    links = doc.xpath("//a")
    assert doc.xpath("count($nodes/..)", nodes=links) == 2.0
    with pytest.raises(lexpy.XPathEvalError, match=r"\$missing"):
        doc.xpath("$missing")
    with pytest.raises(TypeError, match=r"\$bad"):
        doc.xpath("$bad", bad=object())


def test_compiled_expressions(doc: Any) -> None:
    xp = lexpy.compile_xpath("//a[@href = $h]")
    assert xp.path == "//a[@href = $h]"
    assert repr(xp) == "XPath('//a[@href = $h]')"
    assert [a.text_content for a in xp(doc, h="/x")] == ["X"]
    again = pickle.loads(pickle.dumps(lexpy.compile_xpath("//svg:a", {"svg": "http://www.w3.org/2000/svg"})))
    assert len(again(doc)) == 1
    with pytest.raises(TypeError):
        lexpy.XPath()
    # An attribute or text result is a context too.
    title = doc.xpath("//a/@title")[0]
    assert lexpy.compile_xpath("string(..)")(title) == "Y"
    assert lexpy.compile_xpath("name()")(title) == "title"


def test_one_compiled_expression_in_many_threads() -> None:
    xp = lexpy.compile_xpath("count(//li[a/@href = $h])")
    docs = [lexpy.parse(b"<ul>" + b"<li><a href=a>x</a>" * (i + 1)) for i in range(8)]
    results: List[Any] = [None] * 8

    def work(i: int) -> None:
        for _ in range(200):
            results[i] = xp(docs[i], h="a")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [float(i + 1) for i in range(8)]


def test_extensions(doc: Any) -> None:
    assert doc.xpath("//li[has-class('a')]/a/text()") == ["X"]
    assert doc.xpath("//li[has-class('b', 'a')]/a/text()") == ["X"]
    assert len(doc.xpath("//li[has-class('b')]")) == 2
    assert doc.xpath("//a[re:test(@href, '^/[xy]$')]/text()") == ["X", "Y"]
    assert doc.xpath("//a[re:test(., 'y', 'i')]/text()") == ["Y"]
    assert doc.xpath("re:replace('a1b22', '[0-9]', 'g', '#')") == "a#b##"
    assert doc.xpath("re:replace('a1b22', '[0-9]', '', '#')") == "a#b22"
    exslt = {"regexp": "http://exslt.org/regular-expressions"}
    assert doc.xpath("regexp:test('ab', 'b')", namespaces=exslt) is True

    def shout(context: Any, value: Any) -> str:
        assert context.context_node is not None
        return str(value[0] if isinstance(value, list) else value).upper()

    xp = lexpy.compile_xpath("my:shout(//a/text())", namespaces={"my": "urn:my"},
                             extensions={("urn:my", "shout"): shout})
    assert xp(doc) == "X"
    plain = lexpy.compile_xpath("count(links())",
                                extensions={(None, "links"): lambda c: doc.xpath("//a")})
    assert plain(doc) == 2.0

    def fails(context: Any) -> None:
        raise KeyError("from the extension")

    with pytest.raises(KeyError, match="from the extension"):
        lexpy.compile_xpath("boom()", extensions={"boom": fails})(doc)


def test_the_document_cannot_change_while_read(doc: Any) -> None:
    def mutate(context: Any) -> bool:
        doc.body.append_child(doc.create_element("p"))
        return True

    with pytest.raises(RuntimeError):
        lexpy.compile_xpath("mutate()", extensions={"mutate": mutate})(doc)
    doc.body.append_child(doc.create_element("p"))          # fine afterwards
    assert doc.xpath("count(//body/p)") == 1.0


@pytest.mark.parametrize("text,pattern", [
    ("//svg:rect", "undeclared namespace prefix 'svg'"),
    ("//a[frobnicate()]", r"unknown function frobnicate\(\)"),
    ("count(1, 2)", r"count\(\)"),
    ("substring('a')", r"substring\(\)"),
    ("//a[", "offset 4"),
    ("1 +", "offset 3"),
    ("bogus::a", "unknown axis 'bogus'"),
    ("'open", "unterminated"),
    ("1e3", "offset"),
])
def test_bad_expressions(doc: Any, text: str, pattern: str) -> None:
    with pytest.raises(lexpy.XPathSyntaxError, match=pattern) as error:
        doc.xpath(text)
    assert isinstance(error.value, ValueError)
    assert error.value.expression == text


def test_bad_arguments(doc: Any) -> None:
    with pytest.raises(TypeError, match="expr"):
        doc.xpath(b"//a")
    with pytest.raises(TypeError, match="path"):
        lexpy.compile_xpath(None)
    with pytest.raises(TypeError, match="namespaces"):
        doc.xpath("//a", namespaces=[("a", "b")])
    with pytest.raises(lexpy.XPathEvalError, match="node-set"):
        doc.xpath("count('a')")
    with pytest.raises(lexpy.XPathEvalError, match="node-set"):
        doc.xpath("'a'/b")
    with pytest.raises(TypeError):
        lexpy.compile_xpath("1")(object())


def test_import_lexpy_imports_no_parsel() -> None:
    import subprocess
    import sys
    code = ("import sys, lexpy; lexpy.parse('<p>x').xpath('//p'); "
            "print('parsel' in sys.modules, 'lxml' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60, check=True)
    assert result.stdout.strip() == "False False"


@pytest.mark.parametrize("predicate", [
    "@class", "@class = 'nav'", "'nav' = @class", "contains(@class, 'na')",
    "starts-with(@class, 'n')", "contains(@class, '')", "starts-with(@nope, '')",
    "contains(concat(' ', normalize-space(@class), ' '), ' nav ')",
    "normalize-space()", "normalize-space(.)", "@CLASS = 'nav'", "@id = ''",
])
def test_predicates_evaluated_in_c_agree_with_the_machine(predicate: str) -> None:
    """The predicate shapes fast.pxi evaluates in C give what the general
    machine gives for the same predicate ('and true()' keeps it general)."""
    doc = lexpy.parse(b"<p class='nav'>a</p><p class=' a\tnav\n'> </p><p class=navy id=''>"
                      b"<b>x</b></p><p>\t</p><svg><g class=nav /></svg><p CLASS=nav>y</p>")
    fast = doc.xpath("//*[%s]" % predicate)
    general = doc.xpath("//*[(%s) and true()]" % predicate)
    assert fast == general


def test_exslt_sets() -> None:
    doc = lexpy.parse(b"<p>1</p><p>2</p><p>2</p><b>x</b>")
    p = doc.xpath("//p")
    assert doc.xpath("set:difference(//p, //p[2])") == [p[0], p[2]]
    assert doc.xpath("set:intersection(//p, //p[position() > 1])") == p[1:]
    assert doc.xpath("set:distinct(//p)") == p[:2]
    assert doc.xpath("set:has-same-node(//p, //p[3])") is True
    assert doc.xpath("set:has-same-node(//p, //b)") is False
    assert doc.xpath("set:leading(//p, //p[2])") == p[:1]
    assert doc.xpath("set:trailing(//p, //p[2])") == p[2:]
    assert doc.xpath("set:leading(//p, //b)") == []
    assert doc.xpath("set:trailing(//p, //nothing)") == p


REGEXP_PAGE = (b'<div><a href="http://www.bayes.co.uk/xml/index.xml?/xml/utils/rechecker.xml">'
               b'x</a><p>ab12cd34</p><p>Ab</p></div>')
RE_MATCH = [
    're:match(//a/@href, "(\\w+):\\/\\/([^/:]+)(:\\d*)?([^# ]*)")',
    're:match(//a/@href, "(\\w+):\\/\\/([^/:]+)(:\\d*)?([^# ]*)")/text()',
    're:match(//p, "[a-z]+", "g")', 're:match(//p, "([a-z]+)([0-9]+)", "g")',
    're:match(//p, "zz")', 're:match(//p, "(x)?b")', 're:match(//p[2], "AB", "i")',
    're:match("aaa", "a*", "g")', 're:match("ab", "(a)|(b)", "g")', 're:match("", "a*", "g")',
    'count(re:match(//p, "([a-z]+)([0-9]+)"))', 'string(re:match(//p, "([a-z]+)([0-9]+)"))',
    'name(re:match(//p, "[a-z]+"))', 're:match(//p, "[a-z]+")/..', 're:match(//p, "b")[1]',
    're:match(//p, "([a-z]+)([0-9]+)")[last()]/text()', 'count(re:match(//nothing, "a"))',
    're:match(//p, "[a-z]", "g")[self::match][position() > 1]',
]


@pytest.mark.parametrize("expression", RE_MATCH)
def test_re_match_gives_what_lxml_gives(expression: str) -> None:
    """EXSLT re:match() is lxml's: a node-set of <match> elements (children
    of a <matches> element outside the tree) whose string values are the
    match and its groups, or with 'g' every match."""
    from lxml import html

    def shown(value: Any) -> Any:
        if not isinstance(value, list):
            return value
        return [(item.tag, "".join(item.itertext()), [c.tag for c in item]) if hasattr(item, "tag")
                else ("text", str(item), []) for item in value]

    def shown_lexpy(value: Any) -> Any:
        if not isinstance(value, list):
            return value
        return [(item.local_name, item.text_content,
                 [c.local_name for c in item.children]) if isinstance(item, lexpy.Element)
                else ("text", str(item), []) for item in value]

    expected = html.fromstring(REGEXP_PAGE).xpath(
        expression, namespaces={"re": "http://exslt.org/regular-expressions"})
    document = lexpy.parse(REGEXP_PAGE)
    assert shown_lexpy(document.xpath(expression)) == shown(expected)
    # The page itself is unchanged.
    assert document.body.inner_html == REGEXP_PAGE.decode()
