"""lexpy.parsel's css() runs lexpy's own selector engine (with parsel's
::text and ::attr(name) endings): on the same tree, it gives what parsel's
own route gives (cssselect's translation to XPath, run by lexpy's XPath),
for corpus pages and nested selections; the results are Selectors whose
xpath/css/get/re work."""
from __future__ import annotations

from typing import Any, List

import pytest

from tests.xpath.test_differential import pages

import parsel  # noqa: E402,F401  (in the test extra: fails loudly without)

import lexpy.parsel

QUERIES = [
    "a", "a::attr(href)", "a::text", "p::text", "p ::text", "div a::text", "ul > li",
    "li:nth-child(2)", "li:first-child::text", "h1, h2", "h1::text, h2::text, h3::text",
    "::text", "*::text", "div::attr(class)", "div ::attr(class)",
    "a[href^='http']::attr(href)", "img::attr(src), a::attr(href)", "a::attr(href), a",
    "p:has(a)", "[id]::attr(id)", "meta[name=description]::attr(content)", "title::text",
    "li a::text, li::text", "span ::text", "td:not(.x)::text", "html", "body > *",
    "a ::attr(href)", "#main", ".nav a", "input[type=hidden]::attr(name)", "tr + tr",
    "h2 ~ p::text", "div:empty", "script::text",
]


def translated(selector: Any, query: str) -> List[str]:
    """parsel's route for the same query: cssselect's XPath on lexpy's XPath."""
    return list(selector.xpath(selector._css2xpath(query)).getall())


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.name)
def test_css_gives_what_the_translation_gives(page: Any) -> None:
    """SVG and MathML are taken out of the pages first: a CSS type selector
    matches their elements too (`title` an SVG <title>), as it does in
    parsel over lxml's namespace-less tree, where the translation's XPath,
    run by the HTML standard's XPath rules, matches HTML elements only."""
    sel = lexpy.parsel.Selector(body=page.read_bytes())
    for foreign in sel.root.query_selector_all("svg, math"):
        if foreign.parent is not None:
            foreign.remove()
    differences = []
    for query in QUERIES:
        if sel.css(query).getall() != translated(sel, query):
            differences.append(query)
        # Nested: the same below each of the first few matched elements.
        for inner in sel.css("div, ul")[:5]:
            if inner.css(query).getall() != translated(inner, query):
                differences.append("div, ul >> " + query)
    assert not differences, differences


def test_results_are_selectors_that_select_further() -> None:
    sel = lexpy.parsel.Selector(text="<div id=a>x<p class=c>one <b>two</b></p>y"
                                     "<p>three</p></div><div id=b><a href='/u'>link</a></div>")
    divs = sel.css("div")
    assert isinstance(divs, lexpy.parsel.SelectorList)
    assert isinstance(divs[0], lexpy.parsel.Selector)
    assert divs[0].css("p::text").getall() == ["one ", "three"]
    assert divs[0].css("p ::text").getall() == ["one ", "two", "three"]
    assert divs[0].css("::text").getall() == ["x", "one ", "two", "y", "three"]
    assert divs.css("p").xpath("./b/text()").getall() == ["two"]
    assert sel.css("p.c").css("b::text").get() == "two"
    assert sel.css("a::attr(href)").get() == "/u"
    assert sel.css("a::attr(href)").re(r"/(\w)") == ["u"]
    assert sel.css("#b a").attrib == {"href": "/u"}
    # Text and attribute results select nothing further, as parsel's.
    assert sel.css("a::text")[0].css("*") == []
    assert sel.css("a::text")[0].xpath(".") == []
    # The element itself is a candidate (descendant-or-self), as in parsel.
    assert sel.css("p")[0].css("p::text").getall() == ["one "]
    # Document order and no repeats across a list.
    assert sel.css("b::text, p::text, p::text").getall() == ["one ", "two", "three"]
    assert sel.css("div#b, p, div").xpath("name()").getall() == ["div", "p", "p", "div"]
    # Nested matches' text in tree order.
    nested = lexpy.parsel.Selector(text="<div>a<div>b</div>c</div>")
    assert nested.css("div::text").getall() == ["a", "b", "c"]


def test_foreign_elements_match_as_in_parsel_over_lxml() -> None:
    sel = lexpy.parsel.Selector(text="<title>T</title><svg><title>S</title></svg>")
    assert sel.css("title::text").getall() == ["T", "S"]


def test_what_the_standard_rejects_goes_through_the_translation() -> None:
    sel = lexpy.parsel.Selector(text="<div id=1><span>me</span></div>")
    assert sel.css("#1 span::text").getall() == ["me"]
    with pytest.raises(Exception):
        sel.css("div >")
