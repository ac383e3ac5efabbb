#!/usr/bin/env python3
"""Benchmark lexpy's XPath engine against its peers, in one run.

On tools/harness.py: each engine runs in a process of its own, in which
every corpus page is parsed beforehand by the engine's own parser (not
timed); then each expression runs, compiled beforehand, from the document
of every page:

  lexpy          lexpy.compile_xpath(e)(doc)
  lxml           lxml.etree.XPath(e)(lxml.html.fromstring(page))   (libxml2's tree)
  lxml-to_lxml   lxml.etree.XPath(e)(lexpy.to_lxml(lexpy.parse(page)))
  turbohtml      turbohtml.parse(page).xpath(e)

Per expression (the harness's parts): the best of --rounds rounds over the
whole corpus, the number of results found (a check that the engines answer
alike; they differ where the parsers build different trees: libxml2 has
no tbody, its HTML names are not the standard's), and the ratio peer time
/ lexpy time (above 1: lexpy is faster). The scenario "queries" ratio is
over the expressions both engines ran.

Scenario "end-to-end" (scrapers' whole job): parse the page, run 10
queries and getall() them, with lexpy.parsel.Selector against
parsel.Selector (engines "lexpy" and "parsel").

  python tools/bench_xpath.py [FOLDER] [--rounds R] [--engines a,b]
                              [--scenarios queries,end-to-end] [--json]

Peers come from the `bench` extra (and parsel from lexpy[parsel]); one that
is not installed is reported.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..")))
sys.path.insert(0, HERE)

import harness  # noqa: E402

# Typical of scrapers (attribute steps, text(), contains(@class, ...),
# normalize-space(), positions, following-sibling, ancestor, unions,
# count(), string()).
EXPRESSIONS = [
    "//a/@href",
    "//a[@href]/text()",
    "//img/@src",
    "//title/text()",
    "normalize-space(//title)",
    "string(//h1)",
    "//meta[@name='description']/@content",
    "//meta[@property='og:title']/@content",
    "//link[@rel='canonical']/@href",
    "//div[contains(@class, 'content')]",
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' nav ')]//a/@href",
    "//ul/li[1]",
    "//li[last()]/a",
    "(//a)[1]/@href",
    "//h2/following-sibling::p[1]",
    "//a/ancestor::nav",
    "//table//tr[td]/td[2]//text()",
    "//h1 | //h2 | //h3",
    "count(//a)",
    "count(//div[@id])",
    "//p[normalize-space()]/text()",
    "//script[@type='application/ld+json']/text()",
    "//a[starts-with(@href, 'http')]/@href",
    "//input[@type='hidden']/@name",
    "//span[@class and string-length(text()) > 3]",
    "//*[@id]/@id",
    "//form//input/@name",
    "//body//text()[normalize-space()]",
    "//div[p][2]",
    "//p[a]/preceding-sibling::*[1]",
]

# The end-to-end scenario's queries (5 XPath, 5 CSS).
E2E_XPATH = ["//title/text()", "//a/@href", "//h1//text()", "//meta/@content",
             "//p[normalize-space()]/text()"]
E2E_CSS = ["a::attr(href)", "img::attr(src)", "h2::text", "li a::text", "p.lead::text"]


def count_of(result):
    return len(result) if isinstance(result, list) else 1


def lexpy_engine(scenario):
    import lexpy
    if scenario == "queries":
        parts = {e: lexpy.compile_xpath(e) for e in EXPRESSIONS}
        return harness.Case(prepare=lexpy.parse, parts=parts, count=count_of)
    if scenario == "end-to-end":
        from lexpy.parsel import Selector
        return harness.Case(run=lambda page: end_to_end(Selector(body=page)),
                            count=lambda n: n)
    return None


def lxml_engine(scenario):
    from lxml import etree, html
    if scenario != "queries":
        return None
    parts = {e: etree.XPath(e) for e in EXPRESSIONS}
    return harness.Case(prepare=lambda page: html.fromstring(page).getroottree(), parts=parts,
                        count=count_of)


def lxml_to_lxml_engine(scenario):
    from lxml import etree
    import lexpy
    if scenario != "queries":
        return None
    parts = {e: etree.XPath(e) for e in EXPRESSIONS}
    return harness.Case(prepare=lambda page: lexpy.to_lxml(lexpy.parse(page)), parts=parts,
                        count=count_of)


def turbohtml_engine(scenario):
    import turbohtml
    if scenario != "queries":
        return None
    parts = {e: (lambda expression: lambda doc: doc.xpath(expression))(e) for e in EXPRESSIONS}
    return harness.Case(prepare=turbohtml.parse, parts=parts, count=count_of)


def parsel_engine(scenario):
    import parsel
    if scenario != "end-to-end":
        return None
    return harness.Case(run=lambda page: end_to_end(parsel.Selector(body=page)),
                        count=lambda n: n)


def end_to_end(selector):
    found = 0
    for query in E2E_XPATH:
        found += len(selector.xpath(query).getall())
    for query in E2E_CSS:
        found += len(selector.css(query).getall())
    return found


BENCH = harness.Bench(
    "xpath",
    engines={"lexpy": lexpy_engine, "lxml": lxml_engine, "lxml-to_lxml": lxml_to_lxml_engine,
             "turbohtml": turbohtml_engine, "parsel": parsel_engine},
    scenarios={"queries": "%d XPath expressions over every page" % len(EXPRESSIONS),
               "end-to-end": "parse + 10 queries + getall(): lexpy.parsel vs parsel"},
    disable_gc=True)

if __name__ == "__main__":
    sys.exit(harness.main(BENCH))
