#!/usr/bin/env python3
"""Tokenizer throughput: every page of a folder tokenized to a no-op
consumer (a callback that only counts tokens), in MB/s of UTF-8 input.

Each page is read as bytes and decoded to text by the HTML standard's
encoding sniffing and the Encoding Standard's decoders (lexpy.encoding,
through tools/bench.py's decode_page), then encoded to UTF-8; the time
measured is the tokenizer's alone, over those UTF-8 bytes.

  python tools/bench_tokenizer.py [FOLDER] [--passes N] [--chunk BYTES]

The consumer switches the tokenizer to RCDATA, RAWTEXT, script data or
PLAINTEXT after the start tags a tree builder would (title, textarea,
style, script, ...), so script and style content is scanned as such.

Modes reported: whole page in one feed; fed in chunks of --chunk bytes
(default 4096); whole page with parse errors collected.
"""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

from bench import decode_page, load_pages  # noqa: E402
from tests.conformance.data import corpus_dir  # noqa: E402


def best_seconds(pages, passes, **options):
    from tests.helpers import require_test_build     # a test build's module
    count_tokens = require_test_build("lexpy.tokenizer._testing").count_tokens
    best = None
    tokens = errors = 0
    for _ in range(passes):
        tokens = errors = 0
        start = time.perf_counter()
        for page in pages:
            n, e = count_tokens(page, **options)
            tokens += n
            errors += e
        elapsed = time.perf_counter() - start
        if best is None or elapsed < best:
            best = elapsed
    return best, tokens, errors


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?",
                        help="the pages (default: $LEXPY_CORPUS, then ../shared/corpus/pages)")
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--chunk", type=int, default=4096,
                        help="chunk size in bytes for the chunked mode")
    args = parser.parse_args(argv)
    if args.passes < 1 or args.chunk < 1:
        parser.error("--passes and --chunk must be positive")
    folder = args.folder or str(corpus_dir())

    pages = [decode_page(p).encode("utf-8", "surrogatepass")
             for p in load_pages(folder)]
    size = sum(len(p) for p in pages)
    print("%d pages, %.2f MB of UTF-8 from %s" % (len(pages), size / 1e6, folder))
    print("(pages decoded by lexpy.encoding's sniffing and decoders and "
          "encoded to UTF-8 before timing; the no-op consumer switches state "
          "after script, style, title, textarea... as a tree builder would)")
    for label, options in (
            ("whole page", {}),
            ("chunks of %d bytes" % args.chunk, {"chunk_size": args.chunk}),
            ("errors collected", {"collect_errors": True})):
        seconds, tokens, errors = best_seconds(pages, args.passes, **options)
        print("%-22s %8.1f MB/s  %9d tokens  %7d errors  (best of %d: %.3f s)"
              % (label, size / seconds / 1e6, tokens, errors, args.passes, seconds))


if __name__ == "__main__":
    main()
