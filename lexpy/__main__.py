"""The lexpy command line: ``lexpy FILE...`` or ``python -m lexpy FILE...``.

Prints each document serialized back to HTML (the default), its tree in the
html5lib test format (--dump), its parse errors (--errors), node counts
and parse time (--stats), its HTML indented (--pretty) or minified
(--minify), its readable text (--text) or Markdown
(--markdown), of the main content only with --main-content; --json turns errors and statistics into JSON
lines. A directory argument parses every .html/.htm file under it (with a
progress bar on standard error when that is a terminal); ``-`` reads
standard input. Exit status: 0 on success, 1 when an input cannot be read,
2 on bad usage.

``lexpy extract INPUT...`` (lexpy/corpus/cli.py) writes the extracted
records of WARC files and HTML folders as JSON lines; ``lexpy select``,
``lexpy data``, ``lexpy tables`` and ``lexpy links`` (lexpy/extract/cli.py)
print what a selector matches, the structured data, the tables and the
links of pages.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import IO, Any, Dict, Iterator, List, Optional, Tuple, Union

EXIT_OK = 0
EXIT_UNREADABLE = 1
EXIT_USAGE = 2

HTML_SUFFIXES = (".html", ".htm")


def _arguments() -> argparse.ArgumentParser:
    from lexpy import __version__
    # (argparse's own error(): the usage and 'PROG: error: ...' on stderr,
    # exit status 2, EXIT_USAGE.)
    p = argparse.ArgumentParser(
        prog="lexpy",
        description="Parse HTML files the way browsers do and print them back "
                    "as HTML, as a tree, as parse errors or as statistics.",
        epilog="Exit status: 0 on success, 1 when an input cannot be read, "
               "2 on bad usage. 'lexpy extract --help': extracting records "
               "of WARC files and folders as JSON lines.")
    p.add_argument("inputs", nargs="+", metavar="FILE",
                   help="an HTML file, a directory (every .html/.htm file "
                        "under it), or - for standard input")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--dump", action="store_true",
                     help="print the tree in the html5lib test format")
    out.add_argument("--errors", action="store_true",
                     help="print the parse errors as FILE:LINE:COL: code")
    out.add_argument("--stats", action="store_true",
                     help="print node counts and parse time")
    out.add_argument("--text", action="store_true",
                     help="print the readable text (lexpy.extract_text)")
    out.add_argument("--markdown", action="store_true",
                     help="print the document as Markdown (lexpy.to_markdown)")
    out.add_argument("--pretty", action="store_true",
                     help="print the HTML indented (to_html(indent=2): only "
                          "whitespace in text changes)")
    out.add_argument("--minify", action="store_true",
                     help="print the minified HTML (to_html(minify=True): "
                          "reparses to the same tree, whitespace collapsed)")
    p.add_argument("--main-content", action="store_true",
                   help="with --text or --markdown: the main content only "
                        "(the article, without navigation, sidebars, ...)")
    p.add_argument("--json", action="store_true",
                   help="with --errors or --stats: print JSON lines")
    p.add_argument("--encoding", metavar="LABEL",
                   help="the encoding of the input as a transport layer would "
                        "give it (a WHATWG label such as utf-8 or latin1; a "
                        "byte order mark still wins)")
    p.add_argument("--fragment", metavar="CONTEXT",
                   help="parse as a fragment in this context element: a name "
                        "such as 'td', or 'svg NAME' / 'math NAME'")
    p.add_argument("--positions", action="store_true",
                   help="with --dump: the tree with where each node came from "
                        "(@LINE:COL-LINE:COL of its start tag or text, then "
                        "its end tag's)")
    p.add_argument("--no-scripting", action="store_true",
                   help="parse with the scripting flag off (<noscript> "
                        "content becomes markup)")
    p.add_argument("--version", action="version", version="lexpy " + __version__)
    return p


class _Input:
    """One input to parse: a path (or "-") or a problem to report."""

    __slots__ = ("path", "problem")

    def __init__(self, path: str, problem: Optional[str] = None) -> None:
        self.path = path
        self.problem = problem


def _walk(directory: str) -> Iterator[_Input]:
    problems: List[_Input] = []

    def report(error: OSError) -> None:
        problems.append(_Input(error.filename or directory,
                               error.strerror or str(error)))

    found = False
    for root, dirs, names in os.walk(directory, onerror=report):
        dirs.sort()
        for name in sorted(names):
            if name.lower().endswith(HTML_SUFFIXES):
                found = True
                yield _Input(os.path.join(root, name))
        yield from problems
        problems.clear()
    yield from problems
    if not found:
        yield _Input(directory, "no .html or .htm files in this directory")


def _inputs(paths: List[str]) -> Iterator[_Input]:
    for path in paths:
        if path == "-":
            yield _Input(path)
        elif os.path.isdir(path):
            yield from _walk(path)
        elif os.path.isfile(path):
            yield _Input(path)
        elif os.path.exists(path):
            yield _Input(path, "not a regular file")
        else:
            yield _Input(path, "no such file or directory")


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as f:
        return f.read()


def _fragment_context(value: str) -> Tuple[str, str]:
    """'td' -> ('td', 'html'); 'svg path' -> ('path', 'svg')."""
    words = value.split()
    if len(words) == 2 and words[0] in ("svg", "math"):
        return words[1], words[0]
    if len(words) != 1:
        raise ValueError("a fragment context is a name, or 'svg NAME' / 'math NAME'")
    return words[0], "html"


def _node_counts(root: Any) -> Dict[str, int]:
    """Nodes of the tree by kind (template contents included)."""
    counts = {"elements": 0, "text": 0, "comments": 0, "other": 0}
    kinds = {1: "elements", 3: "text", 8: "comments"}
    stack = list(root.child_nodes)
    while stack:
        node = stack.pop()
        counts[kinds.get(node.node_type, "other")] += 1
        if node.node_type == 1 and node.content is not None:
            stack.extend(node.content.child_nodes)
        stack.extend(node.child_nodes)
    return counts


class _Progress:
    """A progress bar on standard error (only when it is a terminal)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0

    def step(self, path: str) -> None:
        self.done += 1
        width = 30
        filled = width * self.done // max(self.total, 1)
        sys.stderr.write("\r[%s%s] %d/%d %s\x1b[K" % (
            "#" * filled, "." * (width - filled), self.done, self.total,
            path[-40:]))
        sys.stderr.flush()

    def finish(self) -> None:
        sys.stderr.write("\n")
        sys.stderr.flush()


class _Output:
    """UTF-8 lines on standard output, whatever the locale."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream

    def write(self, text: str) -> None:
        self.stream.write(text.encode("utf-8", "surrogateescape"))


def _span(span: Any) -> str:
    return "%d:%d-%d:%d" % (span.line, span.column, span.end_line, span.end_column)


def _positions_dump(tree: Any) -> str:
    """--dump --positions: one line a node (its kind, name or data as the
    html5lib format writes them), then @ where it came from and, for an
    element, its end tag; nothing for nodes the parser made."""
    lines = []
    stack = [(child, 0) for child in reversed(list(tree.child_nodes))]
    while stack:
        node, depth = stack.pop()
        kind = node.node_type
        if kind == 1:
            ns = node.namespace_uri
            prefix = {"http://www.w3.org/2000/svg": "svg ",
                      "http://www.w3.org/1998/Math/MathML": "math "}.get(ns or "", "")
            text = "<%s%s>" % (prefix, node.local_name)
        elif kind == 3:
            text = '"%s"' % node.data
        elif kind == 8:
            text = "<!-- %s -->" % node.data
        elif kind == 7:
            text = "<?%s %s>" % (node.target, node.data)
        elif kind == 10:
            text = "<!DOCTYPE %s>" % node.name
        else:
            text = "#%d" % kind
        where = ""
        if node.source is not None:
            where = " @" + _span(node.source)
        if kind == 1 and node.end_source is not None:
            where += " </@%s>" % _span(node.end_source)
        lines.append("| %s%s%s" % ("  " * depth, text, where))
        children = list(node.content.child_nodes) if kind == 1 and \
            node.local_name == "template" and \
            node.namespace_uri == "http://www.w3.org/1999/xhtml" else list(node.child_nodes)
        stack.extend((child, depth + 1) for child in reversed(children))
    return "\n".join(lines)


def _run(args: argparse.Namespace, out: _Output) -> int:
    import lexpy

    scripting = not args.no_scripting
    context: Optional[str] = None
    namespace = "html"
    if args.fragment is not None:
        try:
            context, namespace = _fragment_context(args.fragment)
            lexpy.parse_fragment("", context, namespace=namespace)
        except ValueError as exc:
            _arguments().error("--fragment: %s" % exc)
    if args.encoding is not None:
        try:
            lexpy.Parser(encoding=args.encoding)
        except LookupError:
            _arguments().error("--encoding: unknown encoding label %r" % args.encoding)

    inputs = list(_inputs(args.inputs))
    progress = None
    if sys.stderr.isatty() and any(os.path.isdir(p) for p in args.inputs):
        progress = _Progress(len(inputs))
    several = len(inputs) > 1
    status = EXIT_OK
    totals = {"files": 0, "bytes": 0, "parse_ms": 0.0}
    for item in inputs:
        if progress is not None:
            progress.step(item.path)
        data = None
        if item.problem is None:
            try:
                data = _read(item.path)
            except OSError as exc:
                item.problem = exc.strerror or str(exc)
        if data is None:
            if progress is not None:
                sys.stderr.write("\n")
            print("lexpy: %s: %s" % (item.path, item.problem), file=sys.stderr)
            status = EXIT_UNREADABLE
            continue
        start = time.perf_counter()
        tree: Union[lexpy.Document, lexpy.DocumentFragment]
        if context is not None:
            tree = lexpy.parse_fragment(data, context, namespace=namespace,
                                        scripting=scripting,
                                        collect_errors=args.errors,
                                        encoding=args.encoding,
                                        positions=args.positions)
            document = tree.owner_document
        else:
            tree = lexpy.parse(data, encoding=args.encoding, scripting=scripting,
                               collect_errors=args.errors, positions=args.positions)
            document = tree
        elapsed_ms = (time.perf_counter() - start) * 1e3
        if args.errors:
            for error in document.errors:
                if args.json:
                    out.write(json.dumps({
                        "file": item.path, "line": error.line, "column": error.column,
                        "code": error.code, "message": error.message}) + "\n")
                else:
                    out.write("%s:%d:%d: %s\n" % (item.path, error.line,
                                                  error.column, error.code))
        elif args.stats:
            stats: Dict[str, Any] = {"file": item.path, "bytes": len(data),
                                     "encoding": document.encoding,
                                     "parse_ms": round(elapsed_ms, 3)}
            stats.update(_node_counts(tree))
            totals["files"] += 1
            totals["bytes"] += len(data)
            totals["parse_ms"] += elapsed_ms
            if args.json:
                out.write(json.dumps(stats) + "\n")
            else:
                out.write("%s: %d bytes, %s, %d elements, %d text, %d comments, "
                          "%d other, %.3f ms\n" % (
                              item.path, stats["bytes"], stats["encoding"],
                              stats["elements"], stats["text"], stats["comments"],
                              stats["other"], stats["parse_ms"]))
        else:
            if several:
                out.write("==> %s <==\n" % item.path)
            if args.text:
                out.write(lexpy.extract_text(tree, main_content=args.main_content) + "\n")
            elif args.markdown:
                out.write(lexpy.to_markdown(tree, main_content=args.main_content) + "\n")
            else:
                out.write((_positions_dump(tree) if args.dump and args.positions
                           else lexpy.dump(tree) if args.dump
                           else tree.to_html(indent=2) if args.pretty
                           else tree.to_html(minify=True) if args.minify
                           else tree.to_html()) + "\n")
    if args.stats and not args.json and totals["files"] > 1:
        seconds = totals["parse_ms"] / 1e3
        out.write("total: %d files, %d bytes, %.3f ms, %.1f MB/s\n" % (
            totals["files"], totals["bytes"], totals["parse_ms"],
            totals["bytes"] / 1e6 / seconds if seconds else 0.0))
    if progress is not None:
        progress.finish()
    return status


def main(argv: Optional[List[str]] = None) -> int:
    """Run the command line with `argv` (default: sys.argv[1:]); returns the
    exit status."""
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["extract"]:
        # The corpus subcommand (a file called "extract": ./extract).
        from lexpy.corpus.cli import main as extract_main
        return extract_main(argv[1:])
    if argv[:1] in (["select"], ["data"], ["tables"], ["links"]):
        # The scraping subcommands (lexpy/extract/cli.py).
        from lexpy.extract.cli import main as scrape_main
        return scrape_main(argv)
    args = _arguments().parse_args(argv)
    if args.json and not (args.errors or args.stats):
        _arguments().error("--json needs --errors or --stats")
    if args.main_content and not (args.text or args.markdown):
        _arguments().error("--main-content needs --text or --markdown")
    out = _Output(sys.stdout.buffer)
    try:
        status = _run(args, out)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        # The reader went away (lexpy ... | head): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
