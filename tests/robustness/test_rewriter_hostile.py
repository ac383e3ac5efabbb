"""The streaming rewriter (lexpy.Rewriter, issue 39) on hostile input: the
issue's "Bad input" section.

Hostile shapes, each with handlers that make the rewriter work on it, fed
in 64 KiB chunks (1-byte chunks for the split tag):

  shape                     handlers                         timed at N, 2N  the issue's size
  nested-elements           * (reads, sets an attribute)     50,000          1,000,000 (memory)
  stray-end-tags            * (reads), document text         125,000         1,000,000 (timed)
  adoption-agency-deep      * (reads)                        25,000          100,000 (timed)
  adoption-agency-a-p       a[href] (reads), text in p       25,000          100,000 (timed)
  attribute-value           a[href] (reads, sets it)         50 MB           100 MB (= 2N)
  comment                   comments (reads, sets the text)  50 MB           100 MB (= 2N)
  tag-split-at-every-byte   a[href] (sets an attribute)      32 KiB          64 KiB (= 2N)

Time: each size runs in a fresh process of its own (as
tests/sanitizer/test_hostile_sizes.py does: in one process the smaller
size would reuse the heap the larger one left), under test_linearity's
measuring() conditions (malloc keeps freed memory, no garbage collection
while timing), process CPU time, the best of RUNS runs; the time per
doubling must stay <= BOUND (the issue's 2.3x), with ATTEMPTS attempts
before a ratio above it counts. The issue's sizes marked "timed" run once
each and must stay within the same bound per doubling from 2N up
(t_full <= t_2N * (full/2N) * (BOUND/2)^doublings), so that a quadratic
term that only shows at the full size fails too. A million nested
elements with a handler on each is not timed at full size: its 1.9 GB of
Python state (the records of the open matched elements) and half a minute
are more than CI affords; the max_memory tests run it at that size.

Memory: peak RSS (ru_maxrss, each run in a process of its own, the input
made chunk by chunk so that it is not counted) of the 100 MB attribute
value and the 100 MB comment bounded by a multiple of their size; with
`max_memory` set, every shape at the issue's size stays within max_memory
plus a fixed slack: the shapes whose state grows raise RewriteError, or,
with max_memory_pass_through=True, write the rest of the input unchanged
(the output, hashed as it streams, is the input with the edits made
before the limit).

Handler exceptions propagate from feed()/close() and finish the rewriter:
later calls raise ValueError naming the first error. Invalid content for
an insertion raises at the call, before anything is written: the handler
can go on and the output is the input unchanged.
"""
import hashlib
import json
import math
import os
import re
import subprocess
import sys
import time

import pytest

from lexpy.rewriter import Rewriter, RewriteError, rewrite
from tests.tools import TOOLS

BOUND = 2.3
ATTEMPTS = 3
# (3: the 100 MB shapes grow the heap by 0.7-0.8 GB a run, and the page
# faults of that growth vary: at 2 runs one CI run timed the comment x2.49.)
RUNS = 3
CHUNK = 65536
ROOT = os.fspath(TOOLS.parent)


# -- the shapes ----------------------------------------------------------
# Each maker yields the input's chunks (the long shapes reuse one block, so
# the input never exists whole in memory); each setup returns a Rewriter
# with its handlers and a dict the handlers count in.

def _chunked(data, size=CHUNK):
    for i in range(0, len(data), size):
        yield data[i:i + size]


def _long(head, n, tail, fill=b"x"):
    """head, n bytes of `fill`, tail: in CHUNK-sized pieces."""
    yield head
    block = fill * (CHUNK // len(fill))
    left = n
    while left >= len(block):
        yield block
        left -= len(block)
    if left:
        yield fill * (left // len(fill)) + fill[:left % len(fill)]
    yield tail


def _nested(n):
    return _chunked(b"<div>" * n)


def _stray(n):
    # n end tags: </div> and </span> with nothing open (ignored), </x-y>
    # (an unknown name: a walk down the stack), </p> (an implied p each).
    return _chunked(b"<body>" + b"</div></span></x-y></p>" * (n // 4))


def _deep_adoption(n):
    # One <b> above n <div>s, then n </b>: the adoption agency clones the
    # <b> under each div in turn, moving the div's content into the clone.
    return _chunked(b"<b>" + b"<div>" * n + b"</b>" * n)


def _a_p(n):
    # Each <a> finds the last one in the list of active formatting
    # elements: the adoption agency, then a reconstructed copy in the <p>.
    return _chunked(b'<a href="/x"><p>y' * n)


def _attribute(n):
    return _long(b"<p><a href='", n, b"'>y</a></p>")


def _comment(n):
    return _long(b"<p><!--", n, b"--></p>")


def _split_tag(n):
    # One start tag of about n bytes (many attributes), a byte per chunk.
    count = n // 12
    tag = b"<a href=/x " + b" ".join(b"a%d='v%d'" % (i, i) for i in range(count)) + b">"
    return _chunked(tag + b"t</a>", 1)


def _counting(counts, key, fn):
    def handler(unit):
        counts[key] = counts.get(key, 0) + 1
        fn(unit)
    return handler


def _setup_nested(**options):
    counts = {}

    def element(e):
        e.get_attribute("id")
        e.set_attribute("data-x", e.tag_name)
    return Rewriter(encoding="utf-8", **options).on(
        "*", element=_counting(counts, "element", element)), counts


def _setup_stray(**options):
    counts = {}
    return Rewriter(encoding="utf-8", **options).on(
        "*", element=_counting(counts, "element", lambda e: (e.implied, e.tag_name))).on_document(
        text=_counting(counts, "text", lambda t: t.text)), counts


def _setup_deep_adoption(**options):
    counts = {}
    return Rewriter(encoding="utf-8", **options).on(
        "*", element=_counting(counts, "element", lambda e: (e.implied, e.get_attribute("id")))
    ), counts


def _setup_a_p(**options):
    counts = {}
    return Rewriter(encoding="utf-8", **options).on(
        "a[href]", element=_counting(counts, "element", lambda e: e.get_attribute("href"))).on(
        "p", text=_counting(counts, "text", lambda t: t.text)), counts


def _setup_attribute(**options):
    counts = {}

    def element(e):
        e.set_attribute("href", e.get_attribute("href") + "#x")
    return Rewriter(encoding="utf-8", **options).on(
        "a[href]", element=_counting(counts, "element", element)), counts


def _setup_comment(**options):
    counts = {}

    def comment(c):
        c.text = c.text.upper()
    return Rewriter(encoding="utf-8", **options).on_document(
        comments=_counting(counts, "comment", comment)), counts


def _setup_split_tag(**options):
    counts = {}
    return Rewriter(encoding="utf-8", **options).on(
        "a[href]", element=_counting(counts, "element",
                                     lambda e: e.set_attribute("href", "/y"))), counts


# name -> (N timed with 2N, the issue's size or None, maker, setup)
SHAPES = {
    "nested-elements": (50000, 1000000, _nested, _setup_nested),
    "stray-end-tags": (125000, 1000000, _stray, _setup_stray),
    "adoption-agency-deep": (25000, 100000, _deep_adoption, _setup_deep_adoption),
    "adoption-agency-a-p": (25000, 100000, _a_p, _setup_a_p),
    "attribute-value": (50 << 20, None, _attribute, _setup_attribute),
    # (Not smaller: below about 32 MB the comment's copies stay in the
    # cache, so 16 -> 32 MB doubles into a dearer cost per byte, x3.4,
    # while 32 -> 50 -> 100 MB is linear.)
    "comment": (50 << 20, None, _comment, _setup_comment),
    "tag-split-at-every-byte": (32768, None, _split_tag, _setup_split_tag),
}


# The issue's sizes: the shapes whose full size is 2N are timed there.
ISSUE_SIZES = {
    "nested-elements": 1000000,
    "stray-end-tags": 1000000,
    "adoption-agency-deep": 100000,
    "adoption-agency-a-p": 100000,
    "attribute-value": 100 << 20,
    "comment": 100 << 20,
    "tag-split-at-every-byte": 65536,
}


# -- the worker (each run in a process of its own) -----------------------

def _rss():
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024   # KiB on Linux


def _run_once(shape, n, options):
    """One rewrite of the shape: (CPU seconds, output bytes, the output's
    and the input's sha256, handler counts, the error's type and text)."""
    _, _, make, setup = SHAPES[shape]
    # (Hashed only where the output is compared: the timed runs count it.)
    hashing = bool(options.get("max_memory"))
    out_hash, in_hash = hashlib.sha256(), hashlib.sha256()
    written = [0]

    def sink(chunk):
        written[0] += len(chunk)
        if hashing:
            out_hash.update(chunk)
    rewriter, counts = setup(sink=sink, **options)
    error = None
    start = time.process_time()
    try:
        for chunk in make(n):
            if hashing:
                in_hash.update(chunk)
            rewriter.feed(chunk)
        rewriter.close()
    except RewriteError as caught:
        error = caught
    seconds = time.process_time() - start
    if error is not None:
        # (The rewriter is finished: later calls name the error.)
        for call in (lambda: rewriter.feed(b"<p>"), rewriter.close):
            try:
                call()
            except ValueError as later:
                assert "RewriteError" in str(later) and str(error) in str(later), later
            else:
                raise AssertionError("the rewriter took input after an error")
    return {"seconds": seconds, "written": written[0], "out": out_hash.hexdigest(),
            "in": in_hash.hexdigest(), "counts": counts,
            "error": None if error is None else str(error)}


def worker(arguments):
    """python -c WORKER ROOT mode shape n [options as JSON]: prints a JSON
    report. mode "time": the best of RUNS runs under measuring(); "once":
    one run with its peak RSS growth."""
    mode, shape, n = arguments[0], arguments[1], int(arguments[2])
    options = json.loads(arguments[3]) if len(arguments) > 3 else {}
    runs = options.pop("runs", RUNS)
    if mode == "time":
        from tests.robustness.test_linearity import measuring
        best = None
        with measuring():
            for _ in range(runs):
                report = _run_once(shape, n, options)
                best = report["seconds"] if best is None else min(best, report["seconds"])
        report["seconds"] = best
    else:
        before = _rss()
        report = _run_once(shape, n, options)
        report["rss_growth"] = _rss() - before
    print(json.dumps(report))


WORKER = """
import sys
sys.path.insert(0, sys.argv[1])
from tests.robustness.test_rewriter_hostile import worker
worker(sys.argv[2:])
"""


def run(mode, shape, n, **options):
    proc = subprocess.run([sys.executable, "-c", WORKER, ROOT, mode, shape, str(n),
                           json.dumps(options)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


# -- time ----------------------------------------------------------------

@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_time_per_doubling(shape):
    n = SHAPES[shape][0]
    ratio = small = large = None
    for _ in range(ATTEMPTS):
        small, large = run("time", shape, n), run("time", shape, 2 * n)
        assert small["error"] is None and large["error"] is None, (small, large)
        ratio = large["seconds"] / max(small["seconds"], 1e-6)
        if ratio <= BOUND:
            break
    # (The handlers ran on the shape: twice as often at 2N, within a few.)
    for key, count in small["counts"].items():
        assert count > 0 and abs(large["counts"][key] - 2 * count) <= 4, (small, large)
    assert ratio <= BOUND, "%s: time x%.2f from N=%d (%.3fs) to 2N (%.3fs)" % (
        shape, ratio, n, small["seconds"], large["seconds"])


# The issue's sizes timed once (the shapes whose 2N is not the issue's
# size already); not nested-elements: a million open elements with a
# handler each hold 1.9 GB of Python state and take half a minute, more
# than CI affords (the max_memory tests below run them at that size).
FULL_SIZE_SHAPES = ["stray-end-tags", "adoption-agency-deep", "adoption-agency-a-p"]


@pytest.mark.parametrize("shape", FULL_SIZE_SHAPES)
def test_the_issues_size_stays_within_the_bound_per_doubling(shape):
    n, full = SHAPES[shape][:2]
    doublings = math.log2(full / (2 * n))
    allowed = None
    report = None
    for _ in range(ATTEMPTS):
        large = run("time", shape, 2 * n)
        report = run("time", shape, full, runs=1)
        assert report["error"] is None, report
        allowed = large["seconds"] * (full / (2 * n)) * (BOUND / 2) ** doublings
        if report["seconds"] <= allowed:
            break
    assert all(count > 0 for count in report["counts"].values()), report
    assert report["seconds"] <= allowed, "%s at %d: %.2fs, more than %.2fs (%.2f per " \
        "doubling from 2N)" % (shape, full, report["seconds"], allowed, BOUND)


# -- memory --------------------------------------------------------------

@pytest.mark.parametrize("shape", ["attribute-value", "comment"])
def test_rss_of_a_100MB_token_is_bounded(shape):
    size = ISSUE_SIZES[shape]
    report = run("once", shape, size)
    assert report["error"] is None and report["written"] > size, report
    # Measured: the rewriter alone holds three copies of a 100 MB attribute
    # value (its input bytes, the tokenizer's buffer, the arena's: 300 MB
    # with no handler) and five of a comment with a handler that reads it
    # (the comment's parts held for the handler, its str: 496 MB); the
    # handlers here add their edited str, its escaped form and the output
    # (690 and 786 MB). Eight times the size is the bound.
    assert report["rss_growth"] <= 8 * size, "%s: peak RSS grew by %d MB" % (
        shape, report["rss_growth"] >> 20)


MAX_MEMORY = 16 << 20
# The shapes whose held input or state grows past MAX_MEMORY.
GROWING = {"nested-elements", "adoption-agency-deep", "attribute-value", "comment",
           "tag-split-at-every-byte"}
# What the process takes besides the rewriter's state: the interpreter's
# arenas, a chunk in flight, the output of one feed (64 KiB of input may
# write 10,000 edited start tags) before the check at its end.
SLACK = 24 << 20


@pytest.mark.parametrize("shape", sorted(ISSUE_SIZES))
def test_max_memory_is_respected_at_the_issues_size(shape):
    if shape == "tag-split-at-every-byte":
        # (1-byte chunks: the 64 KiB tag is held whole before max_memory,
        # so a smaller bound.)
        report = run("once", shape, ISSUE_SIZES[shape], max_memory=16384)
    else:
        report = run("once", shape, ISSUE_SIZES[shape], max_memory=MAX_MEMORY)
    if shape in GROWING:
        assert report["error"] is not None and "max_memory" in report["error"], report
    else:
        # (Its state does not grow: the whole shape rewritten within the
        # bound.)
        assert report["error"] is None and report["written"] > 0, report
    assert report["rss_growth"] <= MAX_MEMORY + SLACK, "%s: peak RSS grew by %d MB" % (
        shape, report["rss_growth"] >> 20)


@pytest.mark.parametrize("shape", sorted(GROWING))
def test_max_memory_pass_through_writes_the_rest_unchanged(shape):
    report = run("once", shape, ISSUE_SIZES[shape],
                 max_memory=16384 if shape == "tag-split-at-every-byte" else MAX_MEMORY,
                 max_memory_pass_through=True)
    assert report["error"] is None, report
    if shape == "nested-elements":
        # (Its handler edits each element before the limit: the output is
        # checked in process below.)
        assert 0 < report["counts"]["element"] < ISSUE_SIZES[shape], report
    else:
        # Its handlers read only (adoption-agency-deep) or the limit comes
        # before the token they edit is whole: the output is the input.
        assert report["out"] == report["in"], report
    assert report["rss_growth"] <= MAX_MEMORY + SLACK, "%s: peak RSS grew by %d MB" % (
        shape, report["rss_growth"] >> 20)


def test_pass_through_keeps_the_edits_made_before_the_limit():
    # (The nested elements in process: the output is the edited start tags
    # of the elements seen before the limit, then the input unchanged.)
    n = 200000
    rewriter, counts = _setup_nested(max_memory=1 << 20, max_memory_pass_through=True)
    data = b"<div>" * n
    out = b"".join(rewriter.feed(chunk) for chunk in _chunked(data)) + rewriter.close()
    edited = counts["element"]
    assert 0 < edited < n
    # (The implied html, head and body get start tags for their edits.)
    assert out.count(b' data-x="') == edited
    assert re.sub(b' data-x="[a-z]+"', b"", out) == b"<html><head><body>" + data


# -- handler exceptions ---------------------------------------------------

class Boom(Exception):
    pass


def _raise_at(count):
    seen = [0]

    def handler(unit):
        seen[0] += 1
        if seen[0] == count:
            raise Boom("handler failed at call %d" % count)
    return handler


def _rewriter(sink):
    return Rewriter(encoding="utf-8", sink=sink)


def _end_tag_rewriter(handler, sink):
    return Rewriter(encoding="utf-8", sink=sink).on("div", element=lambda e: e.on_end_tag(handler))


# name -> (input chunks, rewriter for a sink, whether close() raises it)
EXCEPTIONS = {
    "element-deep-in-nested": (
        lambda: _chunked(b"<div>" * 200000),
        lambda sink: _rewriter(sink).on("div", element=_raise_at(150000)), False),
    "end-tag-handler-at-the-end-of-input": (
        lambda: _chunked(b"<div>" * 200000),
        lambda sink: _end_tag_rewriter(_raise_at(100000), sink), True),
    "text-in-stray-end-tags": (
        lambda: _chunked(b"<body>" + b"</div>x</p>" * 100000),
        lambda sink: _rewriter(sink).on_document(text=_raise_at(90000)), False),
    "comment-handler-on-a-long-comment": (
        lambda: _long(b"<!--", 8 << 20, b"-->"),
        lambda sink: _rewriter(sink).on_document(comments=_raise_at(1)), False),
    "attribute-handler-on-a-long-value": (
        lambda: _long(b"<a href='", 8 << 20, b"'>"),
        lambda sink: _rewriter(sink).on("a[href]", element=_raise_at(1)), False),
    "adoption-agency": (
        lambda: _chunked(b"<b>" + b"<div>" * 20000 + b"</b>" * 20000),
        lambda sink: _rewriter(sink).on("b", element=_raise_at(10000)), False),
    "document-end": (
        lambda: _chunked(b"<p>x" * 1000),
        lambda sink: _rewriter(sink).on_document(end=_raise_at(1)), True),
    "split-tag": (
        lambda: _chunked(b"<a href=/x title=y>t</a>", 1),
        lambda sink: _rewriter(sink).on("a", element=_raise_at(1)), False),
}


@pytest.mark.parametrize("case", sorted(EXCEPTIONS))
def test_a_handler_exception_propagates_and_finishes_the_rewriter(case):
    chunks, make_rewriter, at_close = EXCEPTIONS[case]
    written = []
    rewriter = make_rewriter(written.append)
    fed = 0
    with pytest.raises(Boom, match="handler failed") as raised:
        for chunk in chunks():
            rewriter.feed(chunk)
            fed += 1
        assert at_close, "feed() did not raise the handler's exception"
        rewriter.close()
    if not at_close:
        # (It stopped the feed it was raised in.)
        assert fed < sum(1 for _ in chunks())
    size = sum(map(len, written))
    # Later calls raise ValueError naming the first error, and write nothing.
    for call in (lambda: rewriter.feed(b"<p>more</p>"), rewriter.close,
                 lambda: rewriter.feed(b"")):
        with pytest.raises(ValueError, match="Boom: handler failed") as later:
            call()
        assert later.value.__cause__ is raised.value
    assert sum(map(len, written)) == size


# -- invalid insertions ---------------------------------------------------

def _set_text(value):
    def operation(comment):
        comment.text = value
    return operation


# name -> (input, handler kind, selector, the handler's invalid call)
INVALID = {
    "script-append-end-tag": ("<script>a()</script><p>x</p>", "element", "script",
                              lambda e: e.append("</script><b>x")),
    "script-prepend-escape": ("<script>a()</script>", "element", "script",
                              lambda e: e.prepend("<!--")),
    "script-inner-end-tag": ("<script>a()</script>", "element", "script",
                             lambda e: e.set_inner_content("x</SCRIPT >")),
    "style-append-end-tag": ("<style>p{}</style>", "element", "style",
                             lambda e: e.append("</style\t")),
    "textarea-append-end-tag": ("<textarea>t</textarea>", "element", "textarea",
                                lambda e: e.append("</textarea>")),
    "title-inner-end-tag": ("<title>t</title>", "element", "title",
                            lambda e: e.set_inner_content("</title/>")),
    "xmp-prepend-end-tag": ("<xmp>t</xmp>", "element", "xmp", lambda e: e.prepend("</xmp>")),
    "script-text-after-end-tag": ("<script>a()</script>", "text", "script",
                                  lambda t: t.after("</script><b>x")),
    "script-text-before-escape": ("<script>a()</script>", "text", "script",
                                  lambda t: t.before("<!--<script>")),
    "style-text-replace-end-tag": ("<style>p{}</style>", "text", "style",
                                   lambda t: t.replace("x</style>")),
    # (Prepended content that ends with the start of the end tag, before
    # the element's own content, which is not known yet and could
    # complete it: "</scr" before "ipt>x" ended the script silently.)
    "script-prepend-tag-start": ("<script>ipt>alert(1)</script>", "element", "script",
                                 lambda e: e.prepend("</scr")),
    "style-prepend-tag-start": ("<style>p{}</style>", "element", "style",
                                lambda e: e.prepend("x<")),
    "script-text-markup": ("<script>a()</script>", "text", "script",
                           lambda t: t.after("<b>", html=True)),
    "comment-text-end": ("<!--a--><p>x", "comments", None, _set_text("x-->y")),
    "comment-text-bang-end": ("<!--a--><p>x", "comments", None, _set_text("x--!>y")),
    "comment-text-leading-gt": ("<!--a--><p>x", "comments", None, _set_text(">y")),
    "comment-text-leading-dash-gt": ("<!--a--><p>x", "comments", None, _set_text("->y")),
    "comment-text-trailing-dash": ("<!--a--><p>x", "comments", None, _set_text("y-")),
    "comment-text-nested-open": ("<!--a--><p>x", "comments", None, _set_text("y<!--z")),
    "attribute-name": ("<p>x</p>", "element", "p", lambda e: e.set_attribute("a b", "v")),
    "tag-name": ("<p>x</p>", "element", "p", lambda e: setattr(e, "tag_name", "p q")),
}


@pytest.mark.parametrize("case", sorted(INVALID))
def test_invalid_content_raises_before_anything_is_written(case):
    html, kind, selector, operation = INVALID[case]
    raised, calls = [], []

    def handler(unit):
        # The invalid call raises at once (ValueError; RewriteError is
        # one): the handler catches it and the rewrite goes on.
        calls.append(unit)
        try:
            operation(unit)
        except ValueError as error:
            raised.append(error)

    def make():
        rewriter = Rewriter(encoding="utf-8")
        if selector is None:
            return rewriter.on_document(**{kind: handler})
        return rewriter.on(selector, **{kind: handler})
    # Whole or a byte at a time: nothing of it is written (the output is
    # the input).
    data = html.encode()
    for chunks in ([data], list(_chunked(data, 1))):
        raised.clear()
        calls.clear()
        rewriter = make()
        out = b"".join(rewriter.feed(chunk) for chunk in chunks) + rewriter.close()
        # (A text handler is called once per text chunk: each call raised.)
        assert calls and len(raised) == len(calls), (case, calls, raised)
        assert out == data


def test_content_that_ends_a_raw_text_element_with_the_content_next_to_it_is_refused():
    # Each piece alone is valid; together they end the element: the call
    # that completes the end tag raises, and the rewrite keeps the others.
    def element(e):
        e.append("</scr")
        with pytest.raises(RewriteError, match="script"):
            e.append("ipt>")
        e.prepend("ipt>")
        with pytest.raises(RewriteError, match="script"):
            e.prepend("</scr")
    out = rewrite("<script>a</script>", Rewriter().on("script", element=element))
    assert out == "<script>ipt>a</scr</script>"


# -- a tag split at every byte ------------------------------------------

def test_every_split_at_every_byte_gives_the_whole_inputs_output():
    document = (b"<!DOCTYPE html><title>t&amp;</title><p class=a id='x y'>caf\xc3\xa9 &eacute;"
                b"<a href=\"/l?a=1&amp;b=2\" title=x>link</a><!-- c --><b><i>x</b>y</i>"
                b"<table><td>z</table><script>if (a<b) c()</script></p>")

    def make():
        return Rewriter(encoding="utf-8").on(
            "a[href]", element=lambda e: e.set_attribute("href", e.get_attribute("href") + "#")
        ).on_document(comments=lambda c: setattr(c, "text", c.text.upper()))
    whole = rewrite(document, make())
    assert b'href="/l?a=1&amp;b=2#"' in whole and b"<!-- C -->" in whole
    rewriter = make()
    out = b"".join(rewriter.feed(document[i:i + 1]) for i in range(len(document)))
    assert out + rewriter.close() == whole
