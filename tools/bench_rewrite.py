#!/usr/bin/env python3
"""Streaming rewrites: lexpy.Rewriter against lol_html's Python bindings,
turbohtml's rewrite() and the DOM way (issue 39 point 8).

On the shared harness (tools/harness.py: one process per engine x
scenario, best and median passes, MB/s, peak RSS, ratios lexpy / peer).
The streaming engines get each page in 16 KiB chunks (cut before the
clock starts) and return the output bytes; turbohtml's rewrite() takes a
whole str (the page decoded before the clock starts); the DOM ways parse
the whole page, edit the tree and serialize it.

Scenarios:
  none           no handlers (pass-through; the DOM ways: parse + serialize)
  nomatch        an element handler whose selector matches nothing
  all            a no-op element handler on `*` (every element crosses to Python)
  links          `a[href]`: read href and set it (a proxy's link rewrite)
  text-p         a text handler on `p` that reads every chunk's text
  remove-script  remove every `script`
  append-body    append a `<script>` to `body`
  strip          remove every `script` and `style` (lol-html-py's fixed job)

Engines (lexpy is the reference of the ratios):
  lexpy          lexpy.Rewriter, feed() per chunk, close()
  lolhtml        python-lolhtml (lol_html 2.7, Workers-style handlers)
  lol-html-py    lol-html-py's AsyncRewriter (strip only: its one job)
  turbohtml      turbohtml.rewrite.rewrite (whole str; no scoped text
                 handler, so no text-p)
  lexpy-dom      lexpy.parse + DOM edit + to_html()
  selectolax     selectolax.lexbor + edit + .html
  bs4            BeautifulSoup(lxml) + edit + str() (one pass: slow)

Inputs: the corpus pages that are valid UTF-8 (lexpy.Rewriter rewrites
UTF-8 in this increment; python-lolhtml assumes UTF-8 too); the count and
bytes are printed.

    python tools/bench_rewrite.py [FOLDER] [--engines a,b] [--scenarios s,t]
                                  [--passes N] [--rounds R] [--clock wall|cpu]
                                  [--json]
    python tools/bench_rewrite.py [FOLDER] --refusals

A page whose edit lexpy.Rewriter refuses (RewriteError: the output cannot
express it) is passed through unchanged, as a proxy would send it, and
timed so; --refusals lists them by scenario and reason. --json gives each
result a "found": the edits visible in the outputs (links rewritten,
scripts appended), a check that the engines agree.

Peers: pip install python-lolhtml lol-html-py turbohtml selectolax
beautifulsoup4 lxml (the `bench` extra); a missing one is reported as
"not installed".
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

CHUNK = 16 * 1024
NOMATCH = "nosuchelement"
APPENDED = "<script>window.rewritten = 1</script>"


def _proxied(href):
    return "https://proxy.test/?u=" + href


def inputs(folder, scenario):
    pages = []
    for page in harness.load_pages(folder):
        try:
            page.decode("utf-8")
        except UnicodeDecodeError:
            continue
        pages.append(page)
    return harness.Inputs(pages)


def _chunks(page):
    return [page[i:i + CHUNK] for i in range(0, len(page), CHUNK)]


# ---------------------------------------------------------------------------
# Streaming engines
# ---------------------------------------------------------------------------

def _links(e):
    e.set_attribute("href", _proxied(e.get_attribute("href")))


def _read(t):
    t.text


SETUPS = {
    "none": lambda rw: rw,
    "nomatch": lambda rw: rw.on(NOMATCH, element=lambda e: None),
    "all": lambda rw: rw.on("*", element=lambda e: None),
    "links": lambda rw: rw.on("a[href]", element=_links),
    "text-p": lambda rw: rw.on("p", text=_read),
    "remove-script": lambda rw: rw.on("script", element=lambda e: e.remove()),
    "append-body": lambda rw: rw.on("body", element=lambda e: e.append(APPENDED, html=True)),
    "strip": lambda rw: rw.on("script, style", element=lambda e: e.remove()),
}


def lexpy_engine(scenario):
    from lexpy import RewriteError, Rewriter
    setup = SETUPS.get(scenario)
    if setup is None:
        return None

    def run(chunks):
        rw = setup(Rewriter())
        try:
            out = [rw.feed(chunk) for chunk in chunks]
            out.append(rw.close())
        except RewriteError:
            # An edit the output cannot express: the page passes through
            # unchanged, as a proxy would send it (--refusals counts them).
            return b"".join(chunks)
        return b"".join(out)

    return harness.Case(prepare=_chunks, run=run, count=lambda out: _count(scenario, out))


def _count(scenario, out):
    """The edits visible in an output (a check that the engines agree)."""
    if isinstance(out, bytes):
        out = out.decode("utf-8", "replace")
    marks = {"links": "https://proxy.test/", "append-body": "window.rewritten"}
    return out.count(marks[scenario]) if scenario in marks else 0


def refusals(folder):
    """Pages whose rewrite lexpy.Rewriter refuses (RewriteError), by
    scenario and reason."""
    from collections import Counter
    from lexpy import RewriteError, Rewriter
    pages = inputs(folder, None).items
    for scenario in BENCH.scenarios:
        reasons = Counter()
        for page in pages:
            rw = SETUPS[scenario](Rewriter())
            try:
                for chunk in _chunks(page):
                    rw.feed(chunk)
                rw.close()
            except RewriteError as error:
                reasons[str(error).split(": ", 1)[-1][:110]] += 1
        print("%-14s %3d of %d pages refused" % (scenario, sum(reasons.values()), len(pages)))
        for reason, n in reasons.most_common():
            print("    %3d  %s" % (n, reason))


def lolhtml_engine(scenario):
    import lolhtml
    HTML = lolhtml.ContentType.HTML

    class Nothing:
        def element(self, e):
            pass

    class Links:
        def element(self, e):
            e.set_attribute("href", _proxied(e.get_attribute("href")))

    class Read:
        def text(self, t):
            t.text

    class Remove:
        def element(self, e):
            e.remove()

    class Append:
        def element(self, e):
            e.append(APPENDED, HTML)

    handlers = {
        "none": [],
        "nomatch": [(NOMATCH, Nothing)],
        "all": [("*", Nothing)],
        "links": [("a[href]", Links)],
        "text-p": [("p", Read)],
        "remove-script": [("script", Remove)],
        "append-body": [("body", Append)],
        "strip": [("script", Remove), ("style", Remove)],
    }.get(scenario)
    if handlers is None:
        return None

    def run(chunks):
        out = []
        rw = lolhtml.HTMLRewriter(out.append)
        for selector, handler in handlers:
            rw.on(selector, handler())
        for chunk in chunks:
            rw.write(chunk)
        rw.end()
        return b"".join(out)

    return harness.Case(prepare=_chunks, run=run, count=lambda out: _count(scenario, out))


def lol_html_py_engine(scenario):
    if scenario != "strip":
        return None
    import asyncio
    from lol_html import AsyncRewriter
    loop = asyncio.new_event_loop()

    async def rewrite(chunks):
        rw = AsyncRewriter()

        async def produce():
            for chunk in chunks:
                await rw.feed(chunk)
            rw.close()

        async def consume():
            return b"".join([chunk async for chunk in rw])

        _, out = await asyncio.gather(produce(), consume())
        return out

    return harness.Case(prepare=_chunks, run=lambda chunks: loop.run_until_complete(rewrite(chunks)))


def turbohtml_engine(scenario):
    from turbohtml.rewrite import rewrite

    def links(e):
        e.set_attribute("href", _proxied(e.get("href") or ""))

    elements = {
        "none": [],
        "nomatch": [(NOMATCH, lambda e: None)],
        "all": [("*", lambda e: None)],
        "links": [("a[href]", links)],
        "remove-script": [("script", lambda e: e.remove())],
        "append-body": [("body", lambda e: e.append(APPENDED, html=True))],
        "strip": [("script", lambda e: e.remove()), ("style", lambda e: e.remove())],
    }.get(scenario)
    if elements is None:
        return None     # text-p: its text handler sees every text run, not those in p
    return harness.Case(prepare=lambda page: page.decode("utf-8"),
                        run=lambda text: rewrite(text, elements=elements),
                        count=lambda out: _count(scenario, out))


# ---------------------------------------------------------------------------
# The DOM ways: parse the whole page, edit the tree, serialize it
# ---------------------------------------------------------------------------

def lexpy_dom_engine(scenario):
    import lexpy

    def edit(doc):
        if scenario in ("nomatch", "all"):
            for e in doc.query_selector_all(NOMATCH if scenario == "nomatch" else "*"):
                pass
        elif scenario == "links":
            for a in doc.query_selector_all("a[href]"):
                a.set_attribute("href", _proxied(a.get_attribute("href")))
        elif scenario == "text-p":
            for p in doc.query_selector_all("p"):
                p.text_content
        elif scenario in ("remove-script", "strip"):
            for e in doc.query_selector_all("script" if scenario == "remove-script"
                                            else "script, style"):
                e.remove()
        elif scenario == "append-body":
            body = doc.body
            if body is not None:
                script = doc.create_element("script")
                script.text_content = "window.rewritten = 1"
                body.append_child(script)
        return doc.to_html()

    return harness.Case(run=lambda page: edit(lexpy.parse(page)),
                        count=lambda out: _count(scenario, out))


def selectolax_engine(scenario):
    from selectolax.lexbor import LexborHTMLParser

    def edit(tree):
        if scenario in ("nomatch", "all"):
            for e in tree.css(NOMATCH if scenario == "nomatch" else "*"):
                pass
        elif scenario == "links":
            for a in tree.css("a[href]"):
                a.attrs["href"] = _proxied(a.attrs.get("href") or "")
        elif scenario == "text-p":
            for p in tree.css("p"):
                p.text(deep=True)
        elif scenario in ("remove-script", "strip"):
            for e in tree.css("script" if scenario == "remove-script" else "script, style"):
                e.decompose()
        elif scenario == "append-body":
            body = tree.body
            if body is not None:
                body.insert_child(LexborHTMLParser(APPENDED).css_first("script"))
        return tree.html

    return harness.Case(run=lambda page: edit(LexborHTMLParser(page)),
                        count=lambda out: _count(scenario, out))


def bs4_engine(scenario):
    from bs4 import BeautifulSoup

    def edit(soup):
        if scenario in ("nomatch", "all"):
            for e in soup.select(NOMATCH if scenario == "nomatch" else "*"):
                pass
        elif scenario == "links":
            for a in soup.select("a[href]"):
                a["href"] = _proxied(a["href"])
        elif scenario == "text-p":
            for p in soup.find_all("p"):
                p.get_text()
        elif scenario in ("remove-script", "strip"):
            for e in soup.find_all(["script"] if scenario == "remove-script"
                                   else ["script", "style"]):
                e.decompose()
        elif scenario == "append-body":
            if soup.body is not None:
                script = soup.new_tag("script")
                script.string = "window.rewritten = 1"
                soup.body.append(script)
        return str(soup)

    return harness.Case(run=lambda page: edit(BeautifulSoup(page, "lxml")),
                        count=lambda out: _count(scenario, out))


BENCH = harness.Bench(
    "rewrite",
    engines={"lexpy": lexpy_engine, "lolhtml": lolhtml_engine,
             "lol-html-py": lol_html_py_engine, "turbohtml": turbohtml_engine,
             "lexpy-dom": lexpy_dom_engine, "selectolax": selectolax_engine,
             "bs4": bs4_engine},
    scenarios={"none": "no handlers (pass-through)",
               "nomatch": "a handler whose selector matches nothing",
               "all": "a no-op handler on *",
               "links": "a[href]: read + set href",
               "text-p": "text handler on p reading every chunk",
               "remove-script": "remove every script",
               "append-body": "append a <script> to body",
               "strip": "remove every script and style"},
    inputs=inputs, slow=("bs4",), passes=3, rounds=1,
    note="the valid UTF-8 corpus pages; streaming engines in 16 KiB chunks")


if __name__ == "__main__":
    if "--refusals" in sys.argv[1:]:
        args = [a for a in sys.argv[1:] if a != "--refusals"]
        refusals(args[0] if args else os.environ.get(
            "LEXPY_CORPUS", os.path.join(harness.ROOT, "..", "shared", "corpus", "pages")))
        sys.exit(0)
    sys.exit(harness.main(BENCH))
