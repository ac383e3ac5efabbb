"""The engine's fast path for matched elements (lexpy/rewriter/engine.pyx,
RewriterCore._start_fast): an Element that its handlers left unchanged and
did not keep is made again for the next matched element, its record
cleared; what a handler reads of it must be that element's own, and an
Element a handler kept must stay its own."""
import lexpy
from lexpy.driver.driver import TreeConstruction
from lexpy.rewriter import Rewriter, rewrite

PAGE = ("<!DOCTYPE html><html lang=en><head><title>t</title>"
        "<meta charset=utf-8 name=a></head><body class=b>"
        "<ul id=u><li value=1>a<li>b<li data-x='&amp;y' value=3>c</ul>"
        "<p title=q>x<a href=/h rel=r>l</a><img src=i.png alt=''><br>"
        "<svg viewBox='0 0 1 1'><path d=M0></path></svg><p>z</p>")


def dom_elements(html):
    """(local name, attributes) of every element of lexpy.parse(html), in
    tree order (the order a `*` handler sees them for this page: nothing
    is foster-parented or moved)."""
    doc = lexpy.parse(html)
    return [(e.local_name, dict(e.attributes)) for e in doc.query_selector_all("*")]


def test_each_element_reads_its_own_attributes():
    seen = []

    def read(e):
        # (Reading the attributes fills the record's cache: the next
        # element, made from the same record, must not see it.)
        seen.append((e.local_name, dict(e.attributes)))

    rw = Rewriter().on("*", element=read)
    assert rewrite(PAGE, rw) == PAGE
    assert seen == dom_elements(PAGE)


def test_kept_elements_stay_their_own():
    kept = []
    calls = []

    def keep_some(e):
        calls.append(e.local_name)
        if len(calls) % 3 == 0:
            kept.append(e)
        else:
            e.get_attribute("value")

    rw = Rewriter().on("*", element=keep_some)
    assert rewrite(PAGE, rw) == PAGE
    expected = dom_elements(PAGE)[2::3]
    assert [(e.local_name, dict(e.attributes)) for e in kept] == expected
    assert len({id(e) for e in kept}) == len(kept)


def test_edit_after_unkept_elements():
    # An element whose handler edits it, after elements whose Element was
    # made again from one record.
    def edit(e):
        if e.local_name == "li" and e.get_attribute("value") == "3":
            e.set_attribute("class", "third")

    rw = Rewriter().on("*", element=edit)
    out = rewrite(PAGE, rw)
    doc = lexpy.parse(PAGE)
    for li in doc.query_selector_all("li[value='3']"):
        li.set_attribute("class", "third")
    assert lexpy.parse(out).to_html() == doc.to_html()
    assert out != PAGE


def test_construction_feed_holding_the_gil_builds_the_same_tree():
    data = PAGE.encode("utf-8")
    trees = []
    for release_gil in (True, False):
        construction = TreeConstruction(True)
        for i in range(0, len(data), 7):
            construction.feed(data[i:i + 7], release_gil)
        trees.append(construction.finish().to_html())
    assert trees[0] == trees[1] == lexpy.parse(PAGE).to_html()
