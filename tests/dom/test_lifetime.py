"""Lifetime: nodes keep their document alive (lxml's model), the arena goes
with the last proxy, detached subtrees are reclaimed, memory stays flat."""
import gc
import subprocess
import sys
import os
import weakref

import pytest

import lexpy
from lexpy.dom import Document, dom
from tests.helpers import require_test_build

dom_testing = require_test_build("lexpy.dom._testing")


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def build(doc, size=20):
    html = doc.append_child(doc.create_element("html"))
    body = html.append_child(doc.create_element("body"))
    for i in range(size):
        p = body.append_child(doc.create_element("p"))
        p.set_attribute("class", "c%d" % i)
        p.append_child(doc.create_text_node("text %d " % i * 3))
    return body


def test_a_node_outlives_its_document_variable():
    doc = Document()
    body = build(doc)
    last = body.last_child
    del doc, body
    gc.collect()
    assert last.text_content.startswith("text 19")
    assert last.parent.local_name == "body"
    assert last.owner_document.document_element.local_name == "html"
    assert last.parent.parent.parent.to_html().startswith("<html><body><p")
    assert lexpy.dump(last.owner_document).startswith("| <html>")


def test_the_document_goes_with_its_last_proxy():
    doc = Document()
    body = build(doc)
    text = body.first_child.first_child
    ref = weakref.ref(doc)
    del doc, body
    gc.collect()
    assert ref() is not None          # text still holds it
    del text
    gc.collect()
    assert ref() is None


def test_document_in_a_reference_cycle_is_collected():
    doc = Document()
    build(doc)
    doc.errors.append(doc)            # a cycle through the errors list
    ref = weakref.ref(doc)
    del doc
    gc.collect()
    assert ref() is None


def test_detached_subtrees_are_reclaimed_and_reused():
    doc = Document()
    body = build(doc, 0)
    reserved = None
    for round_number in range(200):
        div = body.append_child(doc.create_element("div"))
        for i in range(50):
            div.append_child(doc.create_element("span")).append_child(
                doc.create_text_node("x" * 40))
        div.remove()
        del div                        # the detached subtree has no proxy now
        if round_number == 10:
            reserved = dom_testing.arena_stats(doc)[0]
    # The structs of removed subtrees are reused: the arena stops growing.
    assert dom_testing.arena_stats(doc)[0] == reserved
    free_elements, free_data = dom_testing.arena_stats(doc)[1:]
    assert free_elements >= 50 and free_data >= 50


def test_setting_text_content_reuses_memory():
    doc = Document()
    body = build(doc, 0)
    p = body.append_child(doc.create_element("p"))
    for i in range(50):
        p.text_content = "a fairly long text that goes through the arena %d" % i
    reserved = dom_testing.arena_stats(doc)[0]
    for i in range(5000):
        p.text_content = "a fairly long text that goes through the arena %d" % i
    assert dom_testing.arena_stats(doc)[0] == reserved


def test_no_reclaim_while_a_proxy_is_inside():
    doc = Document()
    body = build(doc, 0)
    div = body.append_child(doc.create_element("div"))
    inner = div.append_child(doc.create_element("span"))
    inner.append_child(doc.create_text_node("kept"))
    div.remove()
    del div
    gc.collect()
    assert dom_testing.arena_stats(doc)[1] == 0
    assert inner.parent.local_name == "div" and inner.text_content == "kept"
    body.append_child(inner.parent)
    assert body.inner_html == "<div><span>kept</span></div>"


def test_no_reclaim_while_a_tree_builder_works():
    doc = Document()
    body = build(doc, 0)
    dom_testing.set_building(doc, True)
    div = body.append_child(doc.create_element("div"))
    div.remove()
    del div
    gc.collect()
    assert dom_testing.arena_stats(doc)[1] == 0
    dom_testing.set_building(doc, False)


def test_template_contents_are_reclaimed_with_their_template():
    doc = Document()
    body = build(doc, 0)
    template = body.append_child(doc.create_element("template"))
    template.content.append_child(doc.create_element("b"))
    content = template.content
    template.remove()
    del template
    gc.collect()
    assert dom_testing.arena_stats(doc)[1] == 0     # content's proxy is alive
    assert content.host.local_name == "template"
    del content
    gc.collect()
    assert dom_testing.arena_stats(doc)[1] == 2     # template and <b>


def test_build_and_drop_cycles_keep_memory_flat():
    def cycle():
        doc = Document()
        body = build(doc)
        body.first_child.set_attribute("id", "x")
        html = doc.to_html()
        text = body.last_child.first_child
        del doc, body
        return len(html) + len(text.data)

    for _ in range(2000):              # warm up allocator pools
        cycle()
    gc.collect()
    start = rss_bytes()
    for _ in range(100_000):
        cycle()
    gc.collect()
    grown = rss_bytes() - start
    assert grown < 5 * 1024 * 1024, "RSS grew by %d bytes" % grown


def test_mutation_churn_keeps_memory_flat():
    doc = Document()
    body = build(doc)
    other = Document()
    build(other)
    for _ in range(200):
        body.append_child(other.body.first_child)
        other.body.append_child(body.first_child)
    gc.collect()
    start = rss_bytes()
    for i in range(20_000):
        p = body.first_child
        other.body.append_child(p)             # adopted: copied, old reclaimed
        body.append_child(other.body.first_child)
        p.set_attribute("class", "round %d" % (i % 7))
        p.first_child.data = "x" * (i % 50)
    gc.collect()
    grown = rss_bytes() - start
    assert grown < 5 * 1024 * 1024, "RSS grew by %d bytes" % grown


def test_setting_inner_html_again_and_again_keeps_memory_flat():
    # The parsed nodes are copies in the element's document, made from the
    # structs the previous children left: a long-lived document does not
    # grow with each set (moving the parse's arena in added 4 KiB a set).
    doc = Document()
    div = doc.append_child(doc.create_element("div"))
    template = div.append_child(doc.create_element("template"))
    p = div.append_child(doc.create_element("p"))
    for _ in range(100):
        p.inner_html = "<b>x</b><!--c-->text"
        template.inner_html = "<td>cell</td><i>y</i>"
    reserved = dom_testing.arena_stats(doc)[0]
    for _ in range(5000):
        p.inner_html = "<b>x</b><!--c-->text"
        template.inner_html = "<td>cell</td><i>y</i>"
    assert dom_testing.arena_stats(doc)[0] == reserved
    assert p.inner_html == "<b>x</b><!--c-->text"
    assert template.inner_html == "<td>cell</td><i>y</i>"


@pytest.mark.parametrize("chunk", [0, 1, 7, 4096])
def test_character_data_through_reserve_and_commit(chunk):
    doc = Document()
    data = "".join(chr(0x20 + i % 0x2000) for i in range(50_000))
    text = dom_testing.character_data(doc, 3, data, chunk=chunk)
    assert text.data == data
    comment = dom_testing.character_data(doc, 8, "c" * 100, chunk=chunk)
    assert comment.data == "c" * 100
    pi = dom_testing.character_data(doc, 7, "d", target="t", chunk=chunk)
    assert pi.to_html() == "<?t d?>"


def test_text_growth_is_amortized_when_interleaved():
    # Two nodes appended to in turn: neither is at the arena's tail when it
    # grows, so growth must double, not copy on every append.
    doc = Document()
    div = doc.create_element("div")
    a = div.append_child(doc.create_text_node(""))
    b = div.append_child(doc.create_text_node(""))
    piece = "x" * 100
    for _ in range(20_000):
        dom_testing.append_text(a, piece)
        dom_testing.append_text(b, piece)
    assert a.data == b.data == piece * 20_000
    reserved = dom_testing.arena_stats(doc)[0]
    # 2 x 2 MB of text: doubling keeps the total within a small factor.
    assert reserved < 4 * 2 * len(a.data)


def test_big_texts_are_freed_when_reclaimed():
    doc = Document()
    body = build(doc, 0)
    for _ in range(50):
        p = body.append_child(doc.create_element("p"))
        p.append_child(doc.create_text_node("y" * 1_000_000))
        p.remove()
        del p
    assert dom_testing.arena_stats(doc)[0] < 4_000_000


def test_attribute_values_and_shrunk_allocations():
    doc = Document()
    div = dom_testing.element(doc, "http://www.w3.org/1999/xhtml", "div")
    big = "v" * 100_000
    dom_testing.add_attribute(div, None, None, "data-big", big)
    for i in range(100):
        dom_testing.add_attribute(div, None, None, "a%d" % i, "value %d" % i)
    assert div.get_attribute("data-big") == big
    assert div.get_attribute("a99") == "value 99"
    # The big block's unused tail served the small allocations after it.
    assert dom_testing.arena_stats(doc)[0] < 3 * len(big) + 64 * 1024


def test_a_reclaimed_node_is_never_given_a_stale_proxy():
    # A reclaimed struct's proxy field chains the free list: node_proxy()
    # checks the reclaimed flag before it, so reaching a reclaimed node is
    # a RuntimeError, not a pointer to the next free struct taken for a
    # proxy.
    doc = Document()
    body = build(doc, 0)
    divs = [body.append_child(doc.create_element("div")) for _ in range(3)]
    for div in divs:
        div.remove()
    del divs, div
    gc.collect()
    assert dom_testing.arena_stats(doc)[1] >= 2       # the head links to another
    with pytest.raises(RuntimeError, match="reclaimed"):
        dom_testing.proxy_of_reclaimed(doc)


@pytest.mark.parametrize("capacity, count, expected", [
    (0, 1, 1), (0, 7, 7), (4, 5, 8), (8, 100, 100),
    (0x7FFFFFFF, 0x80000000, 0xFFFFFFFE),
    (0x80000001, 0x80000002, 0xFFFFFFFF),            # doubling would wrap
    (0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFF),
])
def test_attribute_array_growth_never_wraps(capacity, count, expected):
    assert dom_testing.attribute_capacity(capacity, count) == expected


FAULTS_PROGRAM = r"""
import resource, sys
import lexpy
row = ('<div class="card" data-id="%d"><h2><a href="/item/%d">Item %d</a></h2>'
       '<p>Some text &amp; more about item %d, <b>bold</b> and <i>italic</i>.</p>'
       '<ul><li>one<li>two<li>three</ul></div>\n')
for rows in map(int, sys.argv[1:]):
    page = ("<!doctype html><title>t</title><body>"
            + "".join(row % (i, i, i, i) for i in range(rows))).encode()
    for _ in range(3):
        lexpy.parse(page)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(10):
        lexpy.parse(page)
    print(len(page), (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 10)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="page faults counted by getrusage's ru_minflt, and the heap "
                           "trimmed as glibc trims it: Linux")
def test_a_document_of_any_size_reuses_the_memory_of_the_last_one():
    """arena.pxi's block cache keeps the blocks nearest the top of malloc's
    heap: the blocks a document gives back at its end never make malloc
    trim its heap, so the next parse of the same size takes no page
    faults (kept first come, first served, documents of 100 KB to 600 KB
    took about 110 a parse)."""
    result = subprocess.run([sys.executable, "-c", FAULTS_PROGRAM,
                             "1000", "3000", "6000", "12000"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    for line in result.stdout.splitlines():
        size, faults = line.split()
        assert float(faults) < 5, "%s bytes: %s page faults a parse" % (size, faults)
