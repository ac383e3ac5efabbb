"""``lexpy extract INPUT...``: extracted records of WARC files, HTML files
and folders of them as JSON lines (one object per record: extract_record's
fields, or an error object with the file and offset of a record that
failed), on threads, processes or a Dask cluster."""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import IO, Any, Dict, Iterator, List, Optional

from lexpy.corpus.engines import ENGINES

EXIT_OK = 0
EXIT_UNREADABLE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def arguments() -> argparse.ArgumentParser:
    """The argument parser of ``lexpy extract``."""
    # (argparse's own error(): the usage and 'PROG: error: ...' on stderr,
    # exit status 2, EXIT_USAGE.)
    p = argparse.ArgumentParser(
        prog="lexpy extract",
        description="Extract title, language, description, canonical link, "
                    "links, text and parse-error count of every HTML page in "
                    "WARC files, HTML files and folders, as JSON lines.",
        epilog="A record that cannot be read or extracted becomes an error "
               "object {file, offset, url, error, kind} and the run goes on. "
               "Exit status: 0 when the run completes (error objects "
               "included), 1 when an input does not exist, 2 on bad usage, "
               "130 when interrupted (the output then holds the records done).")
    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="a .warc or .warc.gz file, an .html/.htm/.html.gz file, "
                        "or a directory of them")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the JSON lines here (default: standard output)")
    p.add_argument("--jobs", type=int, metavar="N",
                   help="workers (default: the number of CPUs)")
    p.add_argument("--engine", choices=ENGINES, default=None,
                   help="threads (default), processes, or dask")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="the address of a Dask scheduler (implies --engine dask)")
    p.add_argument("--unordered", action="store_true",
                   help="write records as they are done, not in input order")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar, even on a terminal")
    return p


class _Counter:
    """Counts the records and body bytes read (for the progress bar)."""

    def __init__(self) -> None:
        self.records = 0
        self.bytes = 0

    def wrap(self, items: Iterator[Any]) -> Iterator[Any]:
        for item in items:
            self.records += 1
            body = getattr(item, "body", None)
            if body is not None:
                self.bytes += len(body)
            yield item


def _progress(enabled: bool) -> Any:
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(unit=" records", file=sys.stderr, dynamic_ncols=True)


def main(argv: Optional[List[str]] = None) -> int:
    """Run ``lexpy extract`` with `argv` (the arguments after 'extract');
    returns the exit status."""
    from lexpy.corpus.engines import process
    from lexpy.corpus.readers import iter_inputs
    from lexpy.corpus.records import RecordError

    args = arguments().parse_args(argv)
    engine = args.engine or ("dask" if args.scheduler else "threads")
    if args.scheduler and engine != "dask":
        arguments().error("--scheduler needs --engine dask")
    if args.jobs is not None and args.jobs < 1:
        arguments().error("--jobs must be at least 1")
    missing = [path for path in args.inputs if not os.path.exists(path)]
    if missing:
        for path in missing:
            print("lexpy extract: %s: no such file or directory" % path, file=sys.stderr)
        return EXIT_UNREADABLE
    counter = _Counter()
    out: IO[bytes] = open(args.output, "wb") if args.output else sys.stdout.buffer
    bar = _progress(sys.stderr.isatty() and not args.no_progress)
    start = time.perf_counter()
    written = 0
    errors: Dict[str, int] = {}
    interrupted = False
    try:
        results = process(counter.wrap(iter_inputs(args.inputs)), engine=engine,
                          jobs=args.jobs, ordered=not args.unordered,
                          scheduler=args.scheduler)
        for result in results:
            if isinstance(result, RecordError):
                errors[result.kind] = errors.get(result.kind, 0) + 1
                result = result.to_dict()
            # One whole line per write: an interrupt lands between lines.
            out.write((json.dumps(result, ensure_ascii=False) + "\n")
                      .encode("utf-8", "surrogatepass"))
            written += 1
            if bar is not None:
                bar.update(1)
                seconds = time.perf_counter() - start
                bar.set_postfix_str("%.1f MB/s, %d errors" % (
                    counter.bytes / 1e6 / seconds if seconds else 0.0,
                    sum(errors.values())), refresh=False)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if bar is not None:
            bar.close()
        out.flush()
        if args.output:
            out.close()
    seconds = time.perf_counter() - start
    print("lexpy extract: %d records%s, %d errors%s, %.1f MB in %.2f s "
          "(%.1f records/s, %.2f MB/s, engine %s)" % (
              written, " (interrupted)" if interrupted else "",
              sum(errors.values()),
              " (%s)" % ", ".join("%d %s" % (n, kind) for kind, n in sorted(errors.items()))
              if errors else "", counter.bytes / 1e6, seconds,
              written / seconds if seconds else 0.0,
              counter.bytes / 1e6 / seconds if seconds else 0.0, engine),
          file=sys.stderr)
    return EXIT_INTERRUPTED if interrupted else EXIT_OK
