#!/usr/bin/env python3
"""Serializing the corpus: to_html(), to_html(minify=True) (from a parsed
document, and from bytes: parse + minify) against minify-html, and
to_html(indent=2) against BeautifulSoup's prettify() and markupever;
to_source() of an unchanged and of a lightly edited document (against
to_html() of the same document parsed without positions), and parsing with
positions=True against without (the engine "lexpy-positions-off"); then the
minified sizes of lexpy and minify-html with comparable options.

On the shared harness (tools/harness.py: a process per engine x scenario,
interleaved rounds, best and median passes, ratios lexpy / peer). minify-html
takes str: the pages are decoded (with the encoding lexpy sniffs) before its
clock starts; lexpy's parse + minify decodes inside the timed call.

    python tools/bench_serialize.py [FOLDER] [--engines a,b] [--scenarios s,t]
                                    [--passes N] [--rounds R] [--json] [--no-sizes]

Peers: pip install minify-html beautifulsoup4 markupever (the `bench` extra);
one that is missing is reported as "not installed".
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402


def _decoded(page):
    import lexpy
    encoding = lexpy.parse(page[:4096]).encoding
    try:
        return page.decode(encoding)
    except (LookupError, UnicodeDecodeError):
        return page.decode("utf-8", "replace")


def _light_edit(doc):
    """A light edit: an attribute set on the body's first element, one
    text node's data changed, one element removed (the tenth, when there
    are ten)."""
    body = doc.body if doc.body is not None else doc.document_element
    if body is None:
        return doc
    first = body.first_element_child
    if first is not None:
        first.set_attribute("data-edited", "1")
    elements = body.query_selector_all("*")
    for element in elements:
        text = element.first_child
        if text is not None and text.node_type == 3 and element.local_name not in (
                "table", "tbody", "thead", "tfoot", "tr"):   # (text there is foster-parented)
            text.data = text.data + " edited"
            break
    if len(elements) >= 10 and elements[9].parent_node is not None:
        elements[9].remove()
    return doc


def _parse_positions(page):
    import lexpy
    return lexpy.parse(page, positions=True)


def _parse_edited(page, positions=True):
    import lexpy
    return _light_edit(lexpy.parse(page, positions=positions))


def lexpy_engine(scenario):
    import lexpy
    if scenario == "parse":
        return _parse_positions
    if scenario == "to_source":
        return harness.Case(prepare=_parse_positions, run=lambda doc: doc.to_source())
    if scenario == "to_source edited":
        return harness.Case(prepare=_parse_edited, run=lambda doc: doc.to_source())
    if scenario == "to_html":
        return harness.Case(prepare=lexpy.parse, run=lambda doc: doc.to_html())
    if scenario == "minify":
        return harness.Case(prepare=lexpy.parse, run=lambda doc: doc.to_html(minify=True))
    if scenario == "parse+minify":
        return lexpy.minify
    if scenario == "pretty":
        return harness.Case(prepare=lexpy.parse, run=lambda doc: doc.to_html(indent=2))
    return None


def lexpy_positions_off_engine(scenario):
    """The baselines of the positions scenarios: parse without positions;
    to_html() of the (edited) document parsed without them."""
    import lexpy
    if scenario == "parse":
        return lexpy.parse
    if scenario == "to_source":
        return harness.Case(prepare=lexpy.parse, run=lambda doc: doc.to_html())
    if scenario == "to_source edited":
        return harness.Case(prepare=lambda page: _parse_edited(page, positions=False),
                            run=lambda doc: doc.to_html())
    return None


def minify_html_engine(scenario):
    import minify_html
    if scenario in ("minify", "parse+minify"):
        # (minify-html works on the source: both are its one call)
        return harness.Case(prepare=_decoded, run=minify_html.minify)
    return None


def bs4_engine(scenario):
    from bs4 import BeautifulSoup
    if scenario == "to_html":
        return harness.Case(prepare=lambda page: BeautifulSoup(page, "html.parser"),
                            run=str)
    if scenario == "pretty":
        return harness.Case(prepare=lambda page: BeautifulSoup(page, "html.parser"),
                            run=lambda soup: soup.prettify())
    return None


def markupever_engine(scenario):
    import markupever
    if scenario == "to_html":
        return harness.Case(prepare=markupever.parse, run=lambda dom: dom.serialize())
    if scenario == "pretty":
        return harness.Case(prepare=markupever.parse,
                            run=lambda dom: dom.serialize(indent=2))
    return None


BENCH = harness.Bench(
    "serialize",
    engines={"lexpy": lexpy_engine, "lexpy-positions-off": lexpy_positions_off_engine,
             "minify-html": minify_html_engine,
             "bs4": bs4_engine, "markupever": markupever_engine},
    scenarios={"to_html": "serialize a parsed document",
               "minify": "minify a parsed document (minify-html: from source)",
               "parse+minify": "minify from bytes (lexpy: parse + minify)",
               "pretty": "pretty-print a parsed document (indent 2)",
               "to_source": "to_source() of an unchanged document (positions off: "
                            "to_html())",
               "to_source edited": "to_source() after a light edit (positions off: "
                                   "to_html())",
               "parse": "parse bytes with positions=True (positions off: without)"},
    slow=("bs4",))


def sizes(folder):
    """Total UTF-8 bytes of the minified pages: lexpy and minify-html, with
    their defaults (spaces between attributes kept, comments dropped, no CSS
    or JS minification) and with spaces between attributes removed."""
    import lexpy
    pages = harness.load_pages(folder)
    rows = {"source": sum(map(len, pages)),
            "lexpy to_html()": sum(len(lexpy.parse(p).to_html().encode()) for p in pages)}
    for label, options in (("defaults", {}),
                           ("spaces removed", {"allow_removing_spaces_between_attributes": True})):
        rows["lexpy minify, " + label] = sum(
            len(lexpy.minify(p, **options).encode()) for p in pages)
        try:
            import minify_html
        except ImportError:
            rows["minify-html, " + label] = None
            continue
        rows["minify-html, " + label] = sum(
            len(minify_html.minify(_decoded(p), **options).encode()) for p in pages)
    return rows


def main(argv=None):
    if harness.worker_requested(argv):
        return harness.worker_main(BENCH, argv)
    parser = argparse.ArgumentParser(description=__doc__.strip().split("\n\n")[0])
    harness.add_arguments(parser, BENCH)
    parser.add_argument("--no-sizes", action="store_true",
                        help="leave out the table of minified sizes")
    args = parser.parse_args(argv)
    status = harness.run_from_args(BENCH, args)
    if not args.no_sizes and not args.json:
        rows = sizes(args.folder or harness.default_folder())
        print("\nminified sizes (UTF-8 bytes over the pages):")
        for label, size in rows.items():
            print("  %-32s %s" % (label, "not installed" if size is None else
                                  "{:,}".format(size)))
        for label in ("defaults", "spaces removed"):
            ours, theirs = rows["lexpy minify, " + label], rows["minify-html, " + label]
            if theirs:
                print("  lexpy / minify-html, %s: %.4f" % (label, ours / theirs))
    return status


if __name__ == "__main__":
    sys.exit(main())
