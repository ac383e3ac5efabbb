"""The Selectors API (lexpy.selectors): query_selector[_all], matches and
closest on the DOM, compile_selector and Selector, namespaces= and custom=,
HTML's case-sensitivity rules, bad input, hostile selectors and threads.
The conformance cases are in tests/conformance/test_selectors_suite.py."""
import pickle
import sys
import threading

import pytest

import lexpy
from lexpy import SelectorSyntaxError, compile_selector
from tests.helpers import progress_gaps

PAGE = """<!DOCTYPE html><html><head><title>t</title></head><body>
<div id=main class="content Box"><p id=p1>one</p><p id=p2 class=lead>two <a id=a1 href=/x>x</a></p>
<ul id=list><li id=l1>a<li id=l2>b<li id=l3>c</ul></div>
<svg id=s viewBox="0 0 1 1"><rect id=r /><foreignObject id=fo><p id=p3>in svg</p></foreignObject></svg>
<template id=t><p id=hidden>template</p></template>
<input id=i1 type=CHECKBOX checked>
</body></html>"""


@pytest.fixture(scope="module")
def doc():
    return lexpy.parse(PAGE)


def ids(elements):
    return [e.id for e in elements]


def test_query_selector_all_is_in_tree_order_without_duplicates(doc):
    assert ids(doc.query_selector_all("li, #l2, ul > *, p")) == ["p1", "p2", "l1", "l2", "l3", "p3"]
    assert doc.query_selector("li:last-child").id == "l3"
    assert doc.query_selector("nav") is None
    assert doc.query_selector_all("nav") == []


def test_element_methods(doc):
    a = doc.get_element_by_id("a1")
    assert a.matches("div a[href]") and not a.matches("ul a")
    assert a.closest("p").id == "p2"
    assert a.closest("a") is a
    assert a.closest("ul") is None
    main = doc.get_element_by_id("main")
    assert ids(main.query_selector_all(":scope > p")) == ["p1", "p2"]
    # the context's ancestors count, the context itself is never returned
    assert ids(main.query_selector_all("body div p")) == ["p1", "p2"]
    assert main.query_selector_all("div") == []


def test_template_contents_are_not_searched_but_can_be(doc):
    assert doc.query_selector("#hidden") is None
    content = doc.get_element_by_id("t").content
    assert ids(content.query_selector_all("p")) == ["hidden"]
    fragment = lexpy.parse_fragment("<p id=x><b id=y></b></p><b id=z></b>")
    assert ids(fragment.query_selector_all(":scope > b, p b")) == ["y", "z"]


def test_compiled_selector(doc):
    selector = compile_selector("p.lead, li:nth-child(2n+1)")
    assert selector.text == "p.lead, li:nth-child(2n+1)"
    assert repr(selector) == "Selector('p.lead, li:nth-child(2n+1)')"
    assert ids(selector.select(doc)) == ["p2", "l1", "l3"]
    assert selector.select_first(doc).id == "p2"
    assert selector.match(doc.get_element_by_id("l3"))
    assert ids(selector.filter(doc.iter())) == ["p2", "l1", "l3"]
    assert selector.closest(doc.get_element_by_id("a1")).id == "p2"
    assert ids(pickle.loads(pickle.dumps(selector)).select(doc)) == ["p2", "l1", "l3"]
    assert isinstance(selector, lexpy.Selector)
    with pytest.raises(TypeError):
        lexpy.Selector()


def test_html_case_sensitivity(doc):
    # type selectors and attribute names: HTML elements case-insensitively,
    # others (SVG) as written
    assert ids(doc.query_selector_all("LI")) == ["l1", "l2", "l3"]
    assert ids(doc.query_selector_all("foreignObject")) == ["fo"]
    assert doc.query_selector_all("foreignobject") == []
    assert ids(doc.query_selector_all("[viewBox]")) == ["s"]
    assert doc.query_selector_all("[viewbox]") == []
    assert ids(doc.query_selector_all("[HREF]")) == ["a1"]
    # values of attributes on HTML's list compare case-insensitively
    assert ids(doc.query_selector_all("[type=checkbox]")) == ["i1"]
    assert doc.query_selector_all("[type=checkbox s]") == []
    assert doc.query_selector_all("[id=MAIN]") == []
    assert ids(doc.query_selector_all("[id=MAIN i]")) == ["main"]
    # class and id: case-sensitive in no-quirks mode...
    assert doc.query_selector_all(".box, #MAIN") == []
    # ...ASCII case-insensitive in quirks mode
    quirks = lexpy.parse("<p id=Main class=Box>")
    assert quirks.quirks_mode == "quirks"
    assert len(quirks.query_selector_all(".box")) == 1
    assert len(quirks.query_selector_all("#MAIN")) == 1


def test_namespaces(doc):
    ns = {"svg": "http://www.w3.org/2000/svg", "h": "http://www.w3.org/1999/xhtml"}
    assert ids(doc.query_selector_all("svg|rect", namespaces=ns)) == ["r"]
    assert ids(doc.query_selector_all("svg|*", namespaces=ns)) == ["s", "r", "fo"]
    assert ids(doc.query_selector_all("h|p", namespaces=ns)) == ["p1", "p2", "p3"]
    assert ids(doc.query_selector_all("*|rect")) == ["r"]
    assert doc.query_selector_all("|rect") == []
    default = dict(ns, **{"": "http://www.w3.org/2000/svg"})
    assert ids(doc.query_selector_all("rect, p", namespaces=default)) == ["r"]
    assert ids(doc.query_selector_all("[svg|href], [*|viewBox]", namespaces=ns)) == ["s"]
    with pytest.raises(SelectorSyntaxError, match="undeclared namespace prefix"):
        doc.query_selector_all("svg|rect")
    x = lexpy.parse('<svg><a xlink:href=u id=x></a></svg>')
    assert ids(x.query_selector_all("[xl|href]", namespaces={"xl": "http://www.w3.org/1999/xlink"})) == ["x"]
    assert x.query_selector_all("[href]") == []


def test_custom_selectors(doc):
    selector = compile_selector(":--heading-ish, :--item:first-child",
                                custom={":--heading-ish": "p.lead", ":--item": "li"})
    assert ids(selector.select(doc)) == ["p2", "l1"]
    with pytest.raises(SelectorSyntaxError, match="refers to itself"):
        compile_selector(":--a", custom={":--a": "p:--b", ":--b": ":--a"})
    with pytest.raises(SelectorSyntaxError, match="unknown custom selector"):
        compile_selector(":--nothing")


def test_soupsieve_extensions(doc):
    assert ids(doc.query_selector_all("p:-soup-contains(two, nothing)")) == ["p2"]
    assert ids(doc.query_selector_all("p:-soup-contains-own('two')")) == ["p2"]
    assert doc.query_selector_all("p:-soup-contains-own(x)") == []
    assert ids(doc.query_selector_all("[id!=l1]:is(li)")) == ["l2", "l3"]


@pytest.mark.parametrize("bad", [None, 1, b"p", ["p"]])
def test_selectors_must_be_a_str(doc, bad):
    for call in (lambda: doc.query_selector(bad), lambda: doc.query_selector_all(bad),
                 lambda: doc.body.matches(bad), lambda: doc.body.closest(bad),
                 lambda: compile_selector(bad)):
        with pytest.raises(TypeError, match="selectors must be a str"):
            call()


def test_namespaces_and_custom_must_be_mappings(doc):
    with pytest.raises(TypeError, match="namespaces must be a mapping"):
        doc.query_selector("p", namespaces=[("a", "b")])
    with pytest.raises(TypeError, match="custom must be a mapping"):
        compile_selector("p", custom="p")
    with pytest.raises(TypeError):
        compile_selector("p", namespaces={1: "x"})


@pytest.mark.parametrize("text, offset", [("", 0), ("   ", 3), (">", 0), ("p >", 3),
                                           ("p,", 2), ("p ++ a", 3), ("p:nope", 2),
                                           ("::nope", 2), ("[a=]", 3)])
def test_syntax_errors_say_where(text, offset):
    with pytest.raises(SelectorSyntaxError) as info:
        compile_selector(text)
    error = info.value
    assert isinstance(error, ValueError)
    assert error.text == text and error.offset == offset
    assert str(error).startswith(error.message)


def test_selector_rejects_nodes_it_cannot_search(doc):
    selector = compile_selector("p")
    with pytest.raises(TypeError):
        selector.select("<p>")
    with pytest.raises(TypeError):
        selector.select(doc.get_element_by_id("p1").first_child)
    with pytest.raises(TypeError):
        selector.match(doc)


# -- hostile selectors: an error or a result, never a crash or a RecursionError

@pytest.mark.parametrize("text", [
    "p" + ".a" * 100000,
    ":is(" * 10000 + "p" + ")" * 10000,
    ":not(" * 10000 + "p" + ")" * 10000,
    ":has(" * 10000 + "p" + ")" * 10000,
    ":nth-child(2n of " * 10000 + "p" + ")" * 10000,
    ", ".join(["p"] * 100000),
    " ".join(["p"] * 20000),
    "[a" * 10000,
    "(" * 10000 + "p",
    "\\" * 10000,
])
def test_hostile_selectors(text):
    doc = lexpy.parse("<div><p class=a>x</p></div>" * 20)
    try:
        found = doc.query_selector_all(text)
    except SelectorSyntaxError:
        return
    assert all(e.local_name == "p" for e in found)


def test_nesting_is_bounded_with_a_clear_error():
    with pytest.raises(SelectorSyntaxError, match="nested more than 64 deep"):
        compile_selector(":is(" * 100 + "p" + ")" * 100)
    assert compile_selector(":is(" * 60 + "p" + ")" * 60).text


def test_a_tree_deeper_than_the_c_stack(doc):
    deep = lexpy.parse("<div>" * 100000 + "<span id=s></span>")
    assert ids(deep.query_selector_all("div div div div div div div div span")) == ["s"]
    assert len(deep.query_selector_all("div:has(span) > div > span")) == 1
    assert deep.get_element_by_id("s").closest("body > div").local_name == "div"


# -- threads ------------------------------------------------------------------

def test_one_selector_shared_by_threads():
    selector = compile_selector("div > p:nth-child(odd), a[href^=h]")
    docs = [lexpy.parse(("<div><p>x</p><p>y</p><a href=h>z</a></div>" * (200 + i)))
            for i in range(4)]
    expected = [len(selector.select(d)) for d in docs]
    results = {}

    def work(index):
        results[index] = [len(selector.select(docs[index])) for _ in range(20)]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(4):
        assert results[i] == [expected[i]] * 20


def test_another_thread_runs_while_a_tree_is_queried():
    doc = lexpy.parse("<div><p>x</p><span>y</span></div>" * 50000)

    queries = 4
    selector = compile_selector(", ".join(
        ["div div div span:-soup-contains(zz%d)" % i for i in range(30)]))

    def work():
        for _ in range(queries):
            selector.select(doc)       # matches nothing: all of it is the walk

    gaps, total = progress_gaps(work)
    # Had the GIL stayed held, the main thread would stall for a whole query
    # each time (about total / queries).
    assert len(gaps) > 10
    assert len([gap for gap in gaps if gap > total / queries / 2]) <= 1


def test_another_thread_runs_while_query_selector_all_runs():
    """The DOM's string method too: binding the names, the whole walk and
    collecting the matches run without the GIL (only the proxies of the
    few matches are made with it)."""
    doc = lexpy.parse("<div><p>x</p><span>y</span></div>" * 50000 + "<b id=last></b>")
    text = ", ".join(["div div div span:-soup-contains(zz%d)" % i for i in range(30)] + ["#last"])
    queries = 4

    def work():
        for _ in range(queries):
            assert len(doc.query_selector_all(text)) == 1

    gaps, total = progress_gaps(work)
    assert len(gaps) > 10
    assert len([gap for gap in gaps if gap > total / queries / 2]) <= 1


def test_threads_query_different_documents_as_one_thread_does():
    selectors = ["div p a", "li:nth-child(2n+1)", "*:has(a)", "#x1, #x7", "p + p"]
    docs = [lexpy.parse("<ul>%s</ul>" % "".join(
        "<li id=x%d><div><p><a>%d</a></p><p></p></div>" % (j, j) for j in range(300 + 50 * i)))
        for i in range(2)]
    expected = [[[e.text_content for e in d.query_selector_all(s)] for s in selectors]
                for d in docs]
    results = {}

    def work(i):
        results[i] = [[[e.text_content for e in docs[i].query_selector_all(s)]
                       for s in selectors] for _ in range(10)]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(2):
        assert results[i] == [expected[i]] * 10


def test_the_document_is_writable_after_a_query(doc):
    d = lexpy.parse("<p>x")
    d.query_selector_all("p")
    d.body.append_child(d.create_element("b"))      # no reader left behind
    assert len(d.query_selector_all("b")) == 1


def test_the_benchmark_measures_thread_scaling(tmp_path):
    """tools/bench_selectors.py --threads: lexpy's queries on 1 and 2
    threads, with the GIL-free control measured the same way."""
    import json
    import subprocess
    import sys
    from tests.tools import TOOLS
    for i in range(2):
        (tmp_path / ("p%d.html" % i)).write_bytes(
            b"<div class=content><p><a href=x>a</a></p></div>" * (50 + i))
    proc = subprocess.run(
        [sys.executable, str(TOOLS / "bench_selectors.py"), str(tmp_path), "--threads",
         "--rounds", "1", "--json"], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["pages"] == 2
    for key in ("query_selector_all", "control"):
        assert report[key]["wall_1"] > 0 and report[key]["wall_2"] > 0
        assert report[key]["scaling"] == 2 * report[key]["wall_1"] / report[key]["wall_2"]


def test_has_agrees_with_its_definition_on_random_trees():
    """:has(C) and :has(C D) decided from the records of earlier anchors
    (subject_below) agree with a direct reading of the definition, whatever
    order the anchors come in (tree order, bottom-up through a descendant
    combinator, closest())."""
    import random
    rng = random.Random(14)
    for _ in range(30):
        markup, open_tags = [], 0
        for i in range(rng.randrange(5, 60)):
            if open_tags and rng.random() < 0.4:
                markup.append("</div>")
                open_tags -= 1
            else:
                markup.append('<div id=n%d class="%s">' % (
                    i, " ".join(c for c in "dex" if rng.random() < 0.3)))
                open_tags += 1
        doc = lexpy.parse("".join(markup))
        elements = [e for e in doc.body.iter() if e is not doc.body]

        def descendants(e):
            return [x for x in e.iter() if x is not e]

        def classes(e):
            return (e.get_attribute("class") or "").split()

        def has_e(e):
            return any("e" in classes(x) for x in descendants(e))

        def has_d_e(e):
            return any("d" in classes(x) and has_e(x) for x in descendants(e))

        expected = [e.get_attribute("id") for e in elements if has_e(e)]
        assert [e.get_attribute("id") for e in doc.body.query_selector_all(":has(.e)")] \
            == expected
        expected = [e.get_attribute("id") for e in elements if has_d_e(e)]
        assert [e.get_attribute("id") for e in doc.body.query_selector_all(":has(.d .e)")] \
            == expected
        # Bottom-up: the anchors are the ancestors of each .x, nearest first.
        def ancestors(e):
            while e.parent_node is not doc:
                e = e.parent_node
                yield e

        expected = [e.get_attribute("id") for e in elements if "x" in classes(e) and any(
            has_e(a) for a in ancestors(e))]
        assert [e.get_attribute("id") for e in doc.query_selector_all(":has(.e) .x")] == expected
        for e in elements:
            hit = e.closest(":has(.e)")
            a = e
            while a is not doc and not has_e(a):
                a = a.parent_node
            assert hit is (None if a is doc else a)


def test_sibling_indexes_agree_with_their_definition_on_random_lists():
    """The indexes counted once per parent (sibling_index) agree with
    counting each element's siblings, in every direction and kind."""
    import random
    rng = random.Random(4)
    for _ in range(20):
        tags = [rng.choice(["p", "span", "b"]) for _ in range(rng.randrange(1, 40))]
        marks = [rng.random() < 0.5 for _ in tags]
        doc = lexpy.parse("<div>" + "".join(
            "<%s%s></%s>" % (t, " class=a" if m else "", t) for t, m in zip(tags, marks)))
        kids = doc.body.first_element_child.children
        for a, b in [(2, 1), (0, 3), (-1, 4), (3, 0), (1, 0)]:
            def picked(indexes):
                return [k for k, i in zip(kids, indexes)
                        if (i - b) * (1 if a >= 0 else -1) >= 0 and (
                            (a == 0 and i == b) or (a != 0 and (i - b) % a == 0))]

            def positions(flags):
                seen, out = 0, []
                for f in flags:
                    seen += f
                    out.append(seen)
                return out
            n = len(tags)
            forward = list(range(1, n + 1))
            of_type = [tags[:i + 1].count(t) for i, t in enumerate(tags)]
            last_of_type = [tags[i:].count(t) for i, t in enumerate(tags)]
            of_a = positions(marks)
            last_of_a = positions(marks[::-1])[::-1]
            arg = "%dn+%d" % (a, b)
            cases = [(":nth-child(%s)", forward, None),
                     (":nth-last-child(%s)", forward[::-1], None),
                     (":nth-of-type(%s)", of_type, None),
                     (":nth-last-of-type(%s)", last_of_type, None),
                     (":nth-child(%s of .a)", of_a, marks),
                     (":nth-last-child(%s of .a)", last_of_a, marks)]
            for text, indexes, only in cases:
                expected = [k for k in picked(indexes)
                            if only is None or only[kids.index(k)]]
                found = doc.body.first_element_child.query_selector_all(
                    ":scope > " + text % arg)
                assert found == expected, (text % arg, tags, marks)
        only = [k for k, t in zip(kids, tags) if tags.count(t) == 1]
        assert doc.body.first_element_child.query_selector_all(":scope > :only-of-type") == only


def test_dir_auto_takes_the_strong_class_of_the_unicode_database():
    """:dir(auto) resolves by the generated table (tools/gen_bidi.py): a
    character the Unicode database (unicodedata2, the test extra) calls L
    makes the element ltr, R or AL rtl, and any other lets the Hebrew
    letter after it decide (rtl)."""
    import html
    import unicodedata2
    points = [cp for cp in range(0x80, 0x110000, 211)
              if not 0xD800 <= cp <= 0xDFFF and unicodedata2.bidirectional(chr(cp))]
    doc = lexpy.parse("".join('<div id=c%d dir=auto>%s\u05d0</div>' % (cp, html.escape(chr(cp)))
                              for cp in points))
    rtl = {e.get_attribute("id") for e in doc.query_selector_all("div:dir(rtl)")}
    for cp in points:
        expected = unicodedata2.bidirectional(chr(cp)) != "L"
        assert ("c%d" % cp in rtl) == expected, hex(cp)


def test_compile_selector_shares_what_it_compiled():
    """Without custom=, the same text and namespaces give the same
    (immutable) Selector, from the cache the DOM methods use; a bounded
    one: the oldest entry goes first."""
    from lexpy.selectors import selectors as module
    first = compile_selector("p.lead > a[href]")
    assert compile_selector("p.lead > a[href]") is first
    assert compile_selector("p.lead > a[href]", {"x": "urn:x"}) is not first
    assert compile_selector("p.lead > a[href]", {"x": "urn:x"}) is \
        compile_selector("p.lead > a[href]", {"x": "urn:x"})
    custom = {":--lead": "p.lead"}
    assert compile_selector(":--lead", custom=custom) is not \
        compile_selector(":--lead", custom=custom)
    for i in range(module.CACHE_SIZE + 1):
        compile_selector("x-evict-%d" % i)
    assert compile_selector("p.lead > a[href]") is not first
    with pytest.raises(TypeError, match="must be a str"):
        compile_selector(b"p")
