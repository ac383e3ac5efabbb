"""The scraping subcommands of the lexpy command line:

  lexpy select SELECTOR [--attr NAME | --text | --html] FILE...
  lexpy data [--base URL] [--uniform] FILE...
  lexpy tables [--csv] FILE...
  lexpy links [--base URL] [--json] FILE...

A directory argument reads every .html/.htm file under it, ``-`` standard
input. Exit status: 0 on success, 1 when an input cannot be read, 2 on bad
usage (a selector that does not parse included)."""
import argparse
import csv
import io
import json
import os
import sys
from typing import IO, Any, Iterator, List, Optional, Tuple

EXIT_OK = 0
EXIT_UNREADABLE = 1
EXIT_USAGE = 2
HTML_SUFFIXES = (".html", ".htm")
COMMANDS = ("select", "data", "tables", "links")


def _arguments(command: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="lexpy " + command)
    if command == "select":
        p.description = ("Print what a CSS selector matches, one per line: the "
                         "elements' HTML, their text or an attribute (as htmlq and "
                         "pup do); parsel's ::text and ::attr(name) endings work too.")
        p.add_argument("selector")
        how = p.add_mutually_exclusive_group()
        how.add_argument("--attr", metavar="NAME", help="print this attribute's value")
        how.add_argument("--text", action="store_true", help="print the text content")
        how.add_argument("--html", action="store_true",
                         help="print the elements' HTML (the default)")
    elif command == "data":
        p.description = ("Print the structured data (JSON-LD, microdata, OpenGraph, "
                         "RDFa, meta) of each page as JSON, shaped as extruct shapes it.")
        p.add_argument("--base", metavar="URL", help="the page's URL")
        p.add_argument("--uniform", action="store_true", help="extruct's uniform shapes")
    elif command == "tables":
        p.description = ("Print the tables of each page as JSON (one list of records "
                         "per table) or as CSV.")
        p.add_argument("--csv", action="store_true",
                       help="CSV, a header row first, a blank line between tables")
    else:
        p.description = "Print the links of each page, resolved, one per line."
        p.add_argument("--base", metavar="URL", help="the page's URL")
        p.add_argument("--json", action="store_true",
                       help="JSON lines: element, attribute, url, position")
    p.add_argument("inputs", nargs="+", metavar="FILE",
                   help="an HTML file, a directory (every .html/.htm file under "
                        "it), or - for standard input")
    return p


def _inputs(paths: List[str]) -> Iterator[Tuple[str, Optional[str]]]:
    """(path, problem or None) for each input to read."""
    for path in paths:
        if path == "-" or os.path.isfile(path):
            yield path, None
        elif os.path.isdir(path):
            found = False
            for root, dirs, names in os.walk(path):
                dirs.sort()
                for name in sorted(names):
                    if name.lower().endswith(HTML_SUFFIXES):
                        found = True
                        yield os.path.join(root, name), None
            if not found:
                yield path, "no .html or .htm files in this directory"
        else:
            yield path, "no such file or directory"


def _key(name: Any) -> Any:
    # several header rows name a column with a tuple: its parts joined
    return " / ".join("" if part is None else part for part in name) \
        if isinstance(name, tuple) else name


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as f:
        return f.read()


def main(argv: List[str], out: Optional[IO[bytes]] = None) -> int:
    """Run `lexpy COMMAND ...` with argv = [COMMAND, ...]."""
    import lexpy
    from lexpy.selectors.values import ValueSelector

    command = argv[0]
    args = _arguments(command).parse_args(argv[1:])
    stream = out if out is not None else sys.stdout.buffer

    def write(text: str) -> None:
        stream.write(text.encode("utf-8", "surrogateescape"))

    selector: Any = None
    if command == "select":
        try:
            selector = ValueSelector(args.selector) if "::" in args.selector \
                and not (args.attr or args.text) else lexpy.compile_selector(args.selector)
        except lexpy.SelectorSyntaxError as error:
            _arguments(command).error("bad selector: %s" % error)
    inputs = list(_inputs(args.inputs))
    several = len(inputs) > 1
    status = EXIT_OK
    try:
        for path, problem in inputs:
            data = None
            if problem is None:
                try:
                    data = _read(path)
                except OSError as error:
                    problem = error.strerror or str(error)
            if data is None:
                print("lexpy: %s: %s" % (path, problem), file=sys.stderr)
                status = EXIT_UNREADABLE
                continue
            document = lexpy.parse(data)
            if command == "select":
                if isinstance(selector, ValueSelector):
                    for value in selector.select(document):
                        write(value + "\n")
                else:
                    for element in selector.select(document):
                        if args.attr is not None:
                            value = element.get_attribute(args.attr)
                            if value is not None:
                                write(value + "\n")
                        elif args.text:
                            write((element.text_content or "") + "\n")
                        else:
                            write(element.outer_html + "\n")
            elif command == "data":
                found = lexpy.structured_data(document, base_url=args.base,
                                              uniform=args.uniform)
                if several:
                    write(json.dumps(dict(file=path, **found), ensure_ascii=False) + "\n")
                else:
                    write(json.dumps(found, ensure_ascii=False, indent=2) + "\n")
            elif command == "tables":
                tables = lexpy.read_tables(document)
                if args.csv:
                    buffer = io.StringIO()
                    writer = csv.writer(buffer, lineterminator="\n")
                    for index, records in enumerate(tables):
                        if index:
                            buffer.write("\n")
                        if records:
                            names = list(records[0])
                            writer.writerow([_key(name) for name in names])
                            for record in records:
                                writer.writerow(["" if record[n] is None else record[n]
                                                 for n in names])
                    write(buffer.getvalue())
                else:
                    tables = [[{_key(name): v for name, v in record.items()}
                               for record in records] for records in tables]
                    payload: Any = tables if not several else {"file": path, "tables": tables}
                    write(json.dumps(payload, ensure_ascii=False, default=str) + "\n")
            else:
                for element, attribute, url, position in lexpy.iter_links(
                        document, base_url=args.base):
                    if args.json:
                        write(json.dumps({"element": element.local_name,
                                          "attribute": attribute, "url": url,
                                          "position": position}) + "\n")
                    else:
                        write(url + "\n")
        stream.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return status
