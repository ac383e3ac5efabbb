"""The lexpy command line: ``lexpy FILE...`` or ``python -m lexpy FILE...``.

Prints each document serialized back to HTML (the default), its tree in the
html5lib test format (--dump), its parse errors (--errors), or node counts
and parse time (--stats). A directory argument parses every .html/.htm file
under it. Exit status: 0 on success, 1 when an input cannot be read, 2 on
bad usage.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Iterator, List, Optional, Tuple

EXIT_OK = 0
EXIT_UNREADABLE = 1
EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # bad usage -> exit status 2
        self.print_usage(sys.stderr)
        print("lexpy: error: %s" % message, file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _arguments() -> argparse.ArgumentParser:
    p = _Parser(prog="lexpy", description=(
        "Parse HTML files the way browsers do and print them back as HTML, "
        "as a tree, as parse errors or as statistics."))
    p.add_argument("inputs", nargs="+", metavar="FILE",
                   help="an HTML file, a directory (every .html/.htm under "
                        "it), or - for standard input")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--dump", action="store_true",
                     help="print the tree in the html5lib test format")
    out.add_argument("--errors", action="store_true",
                     help="print parse errors as FILE:LINE:COL: code")
    out.add_argument("--stats", action="store_true",
                     help="print node counts and parse time")
    p.add_argument("--json", action="store_true",
                   help="with --errors or --stats: print JSON lines")
    p.add_argument("--encoding", metavar="LABEL",
                   help="decode input with this encoding (a WHATWG label)")
    p.add_argument("--fragment", metavar="CONTEXT",
                   help="parse as a fragment in this context element "
                        "(e.g. 'td', 'svg path', 'math mi')")
    p.add_argument("--no-scripting", action="store_true",
                   help="parse with the scripting flag off (noscript "
                        "content becomes markup)")
    return p


def _iter_inputs(inputs: List[str]) -> Iterator[Tuple[str, Optional[str]]]:
    """(path, None) for each file to parse; (path, message) for bad ones."""
    for item in inputs:
        if item == "-":
            yield item, None
        elif os.path.isdir(item):
            found = []
            for root, dirs, names in os.walk(item):
                dirs.sort()
                for name in sorted(names):
                    if name.lower().endswith((".html", ".htm")):
                        found.append(os.path.join(root, name))
            for path in found:
                yield path, None
        elif os.path.isfile(item):
            yield item, None
        elif os.path.exists(item):
            yield item, "not a regular file"
        else:
            yield item, "no such file or directory"


def _count_files(inputs: List[str]) -> int:
    return sum(1 for _ in _iter_inputs(inputs))


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as f:
        return f.read()


def _parse(lexpy, data: bytes, args):
    scripting = not args.no_scripting
    collect = args.errors
    if args.fragment:
        context, namespace = args.fragment, "html"
        for prefix, ns in (("svg ", "svg"), ("math ", "math")):
            if context.startswith(prefix):
                context, namespace = context[len(prefix):], ns
        # A fragment has no document to sniff an encoding from: UTF-8
        # unless --encoding says otherwise.
        text = lexpy.encoding.decode(data, args.encoding or "utf-8")
        return lexpy.parse_fragment(text, context, namespace=namespace,
                                    scripting=scripting, collect_errors=collect)
    return lexpy.parse(data, encoding=args.encoding, scripting=scripting,
                       collect_errors=collect)


def _node_counts(root) -> dict:
    counts = {"elements": 0, "text": 0, "comments": 0, "other": 0}
    stack = list(root.child_nodes)
    while stack:
        node = stack.pop()
        kind = node.node_type
        if kind == 1:
            counts["elements"] += 1
            content = getattr(node, "content", None)
            if content is not None:
                stack.extend(content.child_nodes)
        elif kind == 3:
            counts["text"] += 1
        elif kind == 8:
            counts["comments"] += 1
        else:
            counts["other"] += 1
        stack.extend(node.child_nodes)
    return counts


def main(argv: Optional[List[str]] = None) -> int:
    args = _arguments().parse_args(argv)
    if args.json and not (args.errors or args.stats):
        _arguments().error("--json needs --errors or --stats")
    import lexpy
    import lexpy.encoding

    if args.encoding:
        try:
            lexpy.encoding.lookup(args.encoding)
        except LookupError:
            _arguments().error("unknown encoding label %r" % args.encoding)

    status = EXIT_OK
    show_progress = sys.stderr.isatty() and any(os.path.isdir(i) for i in args.inputs)
    total = _count_files(args.inputs) if show_progress else 0
    out = sys.stdout
    for done, (path, problem) in enumerate(_iter_inputs(args.inputs), 1):
        if show_progress:
            sys.stderr.write("\r[%d/%d] %s\x1b[K" % (done, total, path[-60:]))
            sys.stderr.flush()
        if problem is None:
            try:
                data = _read(path)
            except OSError as exc:
                problem = exc.strerror or str(exc)
        if problem is not None:
            print("lexpy: %s: %s" % (path, problem), file=sys.stderr)
            status = EXIT_UNREADABLE
            continue
        try:
            t0 = time.perf_counter()
            doc = _parse(lexpy, data, args)
            elapsed = time.perf_counter() - t0
        except (TypeError, ValueError, LookupError) as exc:
            print("lexpy: %s: %s" % (path, exc), file=sys.stderr)
            return EXIT_USAGE
        if args.dump:
            out.write(lexpy.dump(doc) + "\n")
        elif args.errors:
            for e in doc.errors:
                if args.json:
                    out.write(json.dumps({"file": path, "line": e.line,
                                          "column": e.column, "code": e.code}) + "\n")
                else:
                    out.write("%s:%d:%d: %s\n" % (path, e.line, e.column, e.code))
        elif args.stats:
            stats = {"file": path, "bytes": len(data),
                     "parse_ms": round(elapsed * 1e3, 3)}
            stats.update(_node_counts(doc))
            if args.json:
                out.write(json.dumps(stats) + "\n")
            else:
                out.write("%s: %d bytes, %d elements, %d text, %d comments, "
                          "%d other, %.3f ms\n" % (
                              path, stats["bytes"], stats["elements"],
                              stats["text"], stats["comments"], stats["other"],
                              stats["parse_ms"]))
        else:
            out.write(doc.to_html() + "\n")
    if show_progress:
        sys.stderr.write("\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
