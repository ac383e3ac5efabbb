#!/usr/bin/env python3
"""Benchmark Python-level access to a parsed tree: lexpy against its peers,
in one run.

Every corpus page is parsed beforehand by each engine's own parser (not
timed); then each operation runs over the documents of all pages:

  walk all nodes        lexpy doc.descendants(); selectolax
                        root.traverse(include_text=True); lxml root.iter();
                        turbohtml doc.descendants
  walk elements         lexpy doc.iter(); selectolax root.traverse();
                        lxml root.iter(etree.Element); turbohtml
                        doc.iter_elements()
  every attribute       (name, value) of every element: lexpy
                        el.attributes.items(); selectolax
                        node.attributes.items(); lxml el.attrib.items();
                        turbohtml el.attrs.items()
  href of every a       lexpy iter("a") + get_attribute("href"); selectolax
                        tags("a") + attrs.get("href"); lxml iter("a") +
                        get("href"); turbohtml iter_elements("a") +
                        attr("href")
  text_content of body  lexpy body.text_content; selectolax
                        body.text(deep=True); lxml body.text_content();
                        turbohtml body.text
  children lists        of every element: lexpy el.children; selectolax
                        list(el.iter()); lxml list(el)
  child_nodes lists     of every element: lexpy el.child_nodes; selectolax
                        list(el.iter(include_text=True)); turbohtml
                        el.children
  parent chains         from every element to the root: lexpy el.parent;
                        selectolax node.parent; lxml getparent(); turbohtml
                        parent
  class_list test       a class test on every element: lexpy
                        "x" in el.class_list; lxml "x" in el.classes;
                        turbohtml el.has_class("x") (selectolax has none)
  by tag name           lexpy get_elements_by_tag_name("a"); selectolax
                        tags("a"); lxml findall(".//a"); turbohtml
                        find_all("a")
  by class name         the page's most frequent class: lexpy
                        get_elements_by_class_name(c); selectolax
                        css(".c") (its only way); lxml find_class(c);
                        turbohtml find_all(class_=c)
  by id                 the page's last id in tree order: lexpy
                        get_element_by_id(i); selectolax css_first("#i");
                        lxml get_element_by_id(i); turbohtml find(id=i)
  proxies kept          walk all nodes keeping every proxy in a list (vs
                        dropping each: the walk above)

On tools/harness.py: each engine in a process of its own, each operation
one of its parts. Per operation: the best of --rounds rounds over the
whole corpus (rounds of all engines interleaved, so a burst of load hurts
all alike; the collector off while the clock runs), the items
handled per second by lexpy, and the ratio peer time / lexpy time (above 1:
lexpy is faster). Then memory: bytes per proxy kept alive (tracemalloc,
every node of the corpus held at once), and the peak RSS of a fresh process
that parses the corpus and holds a proxy for every node (one process per
engine).

  python tools/bench_dom.py [FOLDER] [--rounds R] [--engines a,b] [--json]

Peers come from the `bench` extra; one that is not installed is reported.
"""
import argparse
import collections
import gc
import json
import os
import re
import subprocess
import sys
import tracemalloc

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..")))
sys.path.insert(0, HERE)

import harness  # noqa: E402

ENGINES = ["lexpy", "selectolax", "lxml", "turbohtml"]
SIMPLE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def load_pages(folder):
    if folder is None:
        from tests.conformance.data import corpus_dir
        folder = corpus_dir()
    pages = []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                pages.append(f.read())
    if not pages:
        raise SystemExit("no pages in %s" % folder)
    return pages


def page_keys(pages):
    """Per page: its most frequent class and its last id (names a CSS
    selector can carry without escapes), found with lexpy, not timed."""
    import lexpy
    keys = []
    for page in pages:
        doc = lexpy.parse(page)
        classes = collections.Counter()
        last_id = None
        for el in doc.iter():
            value = el.get_attribute("class")
            if value:
                classes.update(c for c in value.split() if SIMPLE_NAME.match(c))
            value = el.get_attribute("id")
            if value and SIMPLE_NAME.match(value):
                last_id = value
        common = classes.most_common(1)
        keys.append((common[0][0] if common else None, last_id))
    return keys


# ---------------------------------------------------------------------------
# The operations of each engine: fn(docs, keys) -> number of items handled.
# ---------------------------------------------------------------------------

def lexpy_engine():
    import lexpy

    def parse(page):
        return lexpy.parse(page)

    def walk_all(docs, keys):
        n = 0
        for doc in docs:
            for _ in doc.descendants():
                n += 1
        return n

    def walk_elements(docs, keys):
        n = 0
        for doc in docs:
            for _ in doc.iter():
                n += 1
        return n

    def attributes(docs, keys):
        n = 0
        for doc in docs:
            for el in doc.iter():
                for name, value in el.attributes.items():
                    n += 1
        return n

    def hrefs(docs, keys):
        n = 0
        for doc in docs:
            for a in doc.iter("a"):
                a.get_attribute("href")
                n += 1
        return n

    def body_text(docs, keys):
        n = 0
        for doc in docs:
            body = doc.body
            if body is not None:
                n += len(body.text_content)
        return n

    def children(docs, keys):
        n = 0
        for doc in docs:
            for el in doc.iter():
                n += len(el.children)
        return n

    def child_nodes(docs, keys):
        n = 0
        for doc in docs:
            for el in doc.iter():
                n += len(el.child_nodes)
        return n

    def parents(docs, keys):
        n = 0
        for doc in docs:
            for el in doc.iter():
                p = el.parent
                while p is not None:
                    n += 1
                    p = p.parent
        return n

    def class_test(docs, keys):
        n = 0
        for doc, (cls, _) in zip(docs, keys):
            cls = cls or "x"
            for el in doc.iter():
                if cls in el.class_list:
                    n += 1
        return n

    def by_tag(docs, keys):
        return sum(len(doc.get_elements_by_tag_name("a")) for doc in docs)

    def by_class(docs, keys):
        return sum(len(doc.get_elements_by_class_name(cls))
                   for doc, (cls, _) in zip(docs, keys) if cls)

    def by_id(docs, keys):
        return sum(doc.get_element_by_id(i) is not None
                   for doc, (_, i) in zip(docs, keys) if i)

    def keep_all(docs, keys):
        return [node for doc in docs for node in doc.descendants()]

    return parse, keep_all, dict(
        walk_all=walk_all, walk_elements=walk_elements, attributes=attributes,
        hrefs=hrefs, body_text=body_text, children=children,
        child_nodes=child_nodes, parents=parents, class_test=class_test,
        by_tag=by_tag, by_class=by_class, by_id=by_id)


def selectolax_engine():
    from selectolax.lexbor import LexborHTMLParser

    def parse(page):
        return LexborHTMLParser(page)

    def walk_all(docs, keys):
        n = 0
        for tree in docs:
            for _ in tree.root.traverse(include_text=True):
                n += 1
        return n

    def walk_elements(docs, keys):
        n = 0
        for tree in docs:
            for _ in tree.root.traverse():
                n += 1
        return n

    def attributes(docs, keys):
        n = 0
        for tree in docs:
            for node in tree.root.traverse():
                for name, value in node.attributes.items():
                    n += 1
        return n

    def hrefs(docs, keys):
        n = 0
        for tree in docs:
            for a in tree.tags("a"):
                a.attrs.get("href")
                n += 1
        return n

    def body_text(docs, keys):
        n = 0
        for tree in docs:
            body = tree.body
            if body is not None:
                n += len(body.text(deep=True))
        return n

    def children(docs, keys):
        n = 0
        for tree in docs:
            for node in tree.root.traverse():
                n += len(list(node.iter()))
        return n

    def child_nodes(docs, keys):
        n = 0
        for tree in docs:
            for node in tree.root.traverse():
                n += len(list(node.iter(include_text=True)))
        return n

    def parents(docs, keys):
        n = 0
        for tree in docs:
            for node in tree.root.traverse():
                p = node.parent
                while p is not None:
                    n += 1
                    p = p.parent
        return n

    def by_tag(docs, keys):
        return sum(len(tree.tags("a")) for tree in docs)

    def by_class(docs, keys):
        return sum(len(tree.css("." + cls))
                   for tree, (cls, _) in zip(docs, keys) if cls)

    def by_id(docs, keys):
        return sum(tree.css_first("#" + i) is not None
                   for tree, (_, i) in zip(docs, keys) if i)

    def keep_all(docs, keys):
        return [node for tree in docs
                for node in tree.root.traverse(include_text=True)]

    return parse, keep_all, dict(
        walk_all=walk_all, walk_elements=walk_elements, attributes=attributes,
        hrefs=hrefs, body_text=body_text, children=children,
        child_nodes=child_nodes, parents=parents, by_tag=by_tag,
        by_class=by_class, by_id=by_id)


def lxml_engine():
    import lxml.html
    from lxml import etree

    def parse(page):
        return lxml.html.document_fromstring(page)

    def walk_all(docs, keys):
        n = 0
        for root in docs:
            for _ in root.iter():
                n += 1
        return n

    def walk_elements(docs, keys):
        n = 0
        for root in docs:
            for _ in root.iter(etree.Element):
                n += 1
        return n

    def attributes(docs, keys):
        n = 0
        for root in docs:
            for el in root.iter(etree.Element):
                for name, value in el.attrib.items():
                    n += 1
        return n

    def hrefs(docs, keys):
        n = 0
        for root in docs:
            for a in root.iter("a"):
                a.get("href")
                n += 1
        return n

    def body_text(docs, keys):
        n = 0
        for root in docs:
            body = root.find("body")
            if body is not None:
                n += len(body.text_content())
        return n

    def children(docs, keys):
        n = 0
        for root in docs:
            for el in root.iter(etree.Element):
                n += len(list(el))
        return n

    def parents(docs, keys):
        n = 0
        for root in docs:
            for el in root.iter(etree.Element):
                p = el.getparent()
                while p is not None:
                    n += 1
                    p = p.getparent()
        return n

    def class_test(docs, keys):
        n = 0
        for root, (cls, _) in zip(docs, keys):
            cls = cls or "x"
            for el in root.iter(etree.Element):
                if cls in el.classes:
                    n += 1
        return n

    def by_tag(docs, keys):
        return sum(len(root.findall(".//a")) for root in docs)

    def by_class(docs, keys):
        return sum(len(root.find_class(cls))
                   for root, (cls, _) in zip(docs, keys) if cls)

    def by_id(docs, keys):
        n = 0
        for root, (_, i) in zip(docs, keys):
            if i:
                try:
                    root.get_element_by_id(i)
                    n += 1
                except KeyError:
                    pass
        return n

    def keep_all(docs, keys):
        return [el for root in docs for el in root.iter()]

    return parse, keep_all, dict(
        walk_all=walk_all, walk_elements=walk_elements, attributes=attributes,
        hrefs=hrefs, body_text=body_text, children=children, parents=parents,
        class_test=class_test, by_tag=by_tag, by_class=by_class, by_id=by_id)


def turbohtml_engine():
    import turbohtml

    def parse(page):
        return turbohtml.parse(page)

    def walk_all(docs, keys):
        n = 0
        for doc in docs:
            for _ in doc.descendants:
                n += 1
        return n

    def walk_elements(docs, keys):
        n = 0
        for doc in docs:
            for _ in doc.iter_elements():
                n += 1
        return n

    def attributes(docs, keys):
        n = 0
        for doc in docs:
            for el in doc.iter_elements():
                for name, value in el.attrs.items():
                    n += 1
        return n

    def hrefs(docs, keys):
        n = 0
        for doc in docs:
            for a in doc.iter_elements("a"):
                a.attr("href")
                n += 1
        return n

    def body_text(docs, keys):
        n = 0
        for doc in docs:
            body = doc.find("body")
            if body is not None:
                n += len(body.text)
        return n

    def child_nodes(docs, keys):
        n = 0
        for doc in docs:
            for el in doc.iter_elements():
                n += len(el.children)
        return n

    def parents(docs, keys):
        n = 0
        for doc in docs:
            for el in doc.iter_elements():
                p = el.parent
                while p is not None:
                    n += 1
                    p = p.parent
        return n

    def class_test(docs, keys):
        n = 0
        for doc, (cls, _) in zip(docs, keys):
            cls = cls or "x"
            for el in doc.iter_elements():
                if el.has_class(cls):
                    n += 1
        return n

    def by_tag(docs, keys):
        return sum(len(doc.find_all("a")) for doc in docs)

    def by_class(docs, keys):
        return sum(len(doc.find_all(class_=cls))
                   for doc, (cls, _) in zip(docs, keys) if cls)

    def by_id(docs, keys):
        return sum(doc.find(id=i) is not None
                   for doc, (_, i) in zip(docs, keys) if i)

    def keep_all(docs, keys):
        return [node for doc in docs for node in doc.descendants]

    return parse, keep_all, dict(
        walk_all=walk_all, walk_elements=walk_elements, attributes=attributes,
        hrefs=hrefs, body_text=body_text, child_nodes=child_nodes,
        parents=parents, class_test=class_test, by_tag=by_tag,
        by_class=by_class, by_id=by_id)


FACTORIES = {"lexpy": lexpy_engine, "selectolax": selectolax_engine,
             "lxml": lxml_engine, "turbohtml": turbohtml_engine}

OPERATIONS = [
    ("walk_all", "walk all nodes", "nodes"),
    ("walk_elements", "walk elements (iter())", "elements"),
    ("attributes", "every attribute name and value", "attrs"),
    ("hrefs", 'get_attribute("href") on every a', "links"),
    ("body_text", "text_content of body", "chars"),
    ("children", "children list of every element", "children"),
    ("child_nodes", "child_nodes list of every element", "nodes"),
    ("parents", "parent chain of every element", "steps"),
    ("class_test", "class_list membership on every element", "elements"),
    ("by_tag", 'get_elements_by_tag_name("a")', "found"),
    ("by_class", "get_elements_by_class_name(c)", "found"),
    ("by_id", "get_element_by_id(i)", "pages"),
]


def _harness_engine(name):
    """The engine on tools/harness.py: each operation a part, over
    (document, keys) of every page, the documents parsed before the clock
    starts; an operation returns the number of items it handled."""
    def factory(scenario):
        parse, _, ops = FACTORIES[name]()
        parts = {op: (lambda f: lambda item: f([item[0]], [item[1]]))(ops[op])
                 for op, _, _ in OPERATIONS if op in ops}
        return harness.Case(prepare=lambda item: (parse(item[0]), item[1]), parts=parts,
                            count=lambda n: n)
    factory.__name__ = name
    return factory


def inputs(folder, scenario):
    """(page, its keys) per page; the keys found with lexpy, here in the
    parent."""
    pages = load_pages(folder)
    return harness.Inputs(list(zip(pages, page_keys(pages))), sum(map(len, pages)))


BENCH = harness.Bench(
    "dom", engines={name: _harness_engine(name) for name in ENGINES},
    scenarios={"access": "Python-level access to parsed documents"},
    inputs=inputs, rounds=3, passes=1, disable_gc=True)


def bytes_per_proxy(keep_all, docs, keys):
    """Memory of holding one proxy per node: traced allocations of the
    kept list's items (the list itself is not counted)."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    held = keep_all(docs, keys)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    count = len(held)
    list_bytes = sys.getsizeof(held)
    del held
    return (after - before - list_bytes) / count if count else 0.0


def rss_child(engine, folder):
    """Run in a fresh process: parse the corpus, hold a proxy for every
    node; print the peak RSS in KiB (VmHWM: ru_maxrss would carry the
    parent's peak across exec)."""
    pages = load_pages(folder)
    parse, keep_all, _ = FACTORIES[engine]()
    docs = [parse(page) for page in pages]
    held = keep_all(docs, [(None, None)] * len(docs))
    with open("/proc/self/status") as f:
        peak = next(int(line.split()[1]) for line in f
                    if line.startswith("VmHWM:"))
    print(json.dumps({"nodes": len(held), "peak_rss_kib": peak}))


def peak_rss(engine, folder):
    command = [sys.executable, os.path.abspath(__file__), "--rss-child", engine]
    if folder:
        command.append(folder)
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def rate(value):
    if value >= 1e6:
        return "%.1f M" % (value / 1e6)
    return "%.1f k" % (value / 1e3)


def main():
    if harness.worker_requested():
        return harness.worker_main(BENCH)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", nargs="?", default=None)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--rss-child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.rss_child:
        rss_child(args.rss_child, args.folder)
        return

    pages = load_pages(args.folder)
    names = args.engines.split(",")
    if "lexpy" not in names:
        raise SystemExit("lexpy is needed: ratios are against it")
    document = harness.run(BENCH, args.folder, names, ["access"], passes=1,
                           rounds=args.rounds, progress=not args.json)
    results = {r["engine"]: r for r in document["results"]}
    missing = ["%s (%s)" % (name, r["error"]) for name, r in results.items() if "error" in r]
    if "error" in results["lexpy"]:
        raise SystemExit("lexpy: %s" % results["lexpy"]["error"])
    engines = {}
    for name in names:
        if "error" in results[name]:
            continue
        parse, keep_all, _ = FACTORIES[name]()
        engines[name] = (parse, keep_all, None, [parse(page) for page in pages])
    keys = page_keys(pages)
    peers = [name for name in engines if name != "lexpy"]
    rows = []
    for op, title, unit in OPERATIONS:
        ours = results["lexpy"]["parts"][op]
        lexpy_time = ours["seconds"]
        row = {"operation": title, "unit": unit,
               "lexpy_rate": ours["found"] / lexpy_time, "ratios": {}, "counts": {}}
        for name in engines:
            part = results[name]["parts"].get(op, {})
            if "found" in part:
                row["counts"][name] = part["found"]
            if name != "lexpy" and "speed_ratio" in part:
                row["ratios"][name] = part["speed_ratio"]
        rows.append(row)

    memory = {}
    for name, (_, keep_all, _, docs) in engines.items():
        memory[name] = {"bytes_per_proxy": bytes_per_proxy(keep_all, docs, keys)}
    for name in engines:
        memory[name].update(peak_rss(name, args.folder))

    if args.json:
        print(json.dumps({"pages": len(pages), "rounds": args.rounds,
                          "rows": rows, "memory": memory, "missing": missing},
                         indent=2))
        return

    print("%d pages, documents parsed beforehand, best of %d rounds; "
          "ratio = peer time / lexpy time (above 1: lexpy is faster)"
          % (len(pages), args.rounds))
    print()
    header = "| operation | lexpy | " + " | ".join(
        "vs %s" % name for name in peers) + " |"
    print(header)
    print("| --- | ---: |" + " ---: |" * len(peers))
    for row in rows:
        cells = []
        for name in peers:
            ratio = row["ratios"].get(name)
            cells.append("%.2fx" % ratio if ratio is not None else "—")
        print("| %s | %s %s/s | %s |" % (
            row["operation"], rate(row["lexpy_rate"]), row["unit"],
            " | ".join(cells)))
    print()
    print("| memory (a proxy for every node of the corpus) | "
          + " | ".join(engines) + " |")
    print("| --- |" + " ---: |" * len(engines))
    print("| bytes per proxy kept alive | " + " | ".join(
        "%.0f" % memory[name]["bytes_per_proxy"] for name in engines) + " |")
    print("| peak RSS, parse + hold every node (MB) | " + " | ".join(
        "%.1f" % (memory[name]["peak_rss_kib"] / 1024) for name in engines)
        + " |")
    print()
    print("items counted (a check that the engines see alike trees):")
    for row in rows:
        print("  %-42s %s" % (row["operation"], "  ".join(
            "%s=%d" % item for item in row["counts"].items())))
    for name in missing:
        print("not installed: %s" % name)


if __name__ == "__main__":
    main()
