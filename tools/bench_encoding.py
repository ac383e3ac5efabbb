#!/usr/bin/env python3
"""The cost of lexpy's encoding stage on real pages: the encoding sniffing
algorithm plus decoding to the UTF-8 core (for UTF-8: validation in place,
no copy), in MB/s of input, on the UTF-8 pages of the corpus ($LEXPY_CORPUS,
then ../shared/corpus/pages/).

The stage is timed through lexpy.encoding's input byte stream (the one the
parser driver runs: the sniffing algorithm, UTF-8 autodetection when
nothing declares an encoding, then the decoder), one stream per page, and
set against lexpy.parse() of the same pages in the same run: the share of
the parse time the stage takes.

  python tools/bench_encoding.py [--pages DIR] [--repeat N]

Prints MB/s (1 MB = 10^6 bytes) for: sniff + decode as the driver does it
(C, one pass per page), UTF-8 validation alone, and Python's
bytes.decode("utf-8") for scale; then the legacy decoders on the pages
translated to a few legacy encodings.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import lexpy  # noqa: E402
import lexpy.encoding as enc  # noqa: E402
from lexpy.encoding.encoding import _InputByteStream  # noqa: E402
from tests.conformance.data import corpus_dir  # noqa: E402


def utf8_pages(directory):
    """Pages that are UTF-8: valid UTF-8, declared UTF-8 anywhere in the
    document or not declared at all."""
    pages = []
    for name in sorted(os.listdir(directory)):
        with open(os.path.join(directory, name), "rb") as f:
            data = f.read()
        declared = enc.prescan(data)
        if enc.utf8_valid_prefix(data) == len(data) and declared in (None, enc.lookup("utf-8")):
            pages.append(data)
    return pages


def sniff_and_decode(pages, repeat):
    """Seconds for `repeat` passes of the input byte stream over each page,
    as lexpy.parse(bytes) runs it: autodetection on (the default), and the
    bytes not kept for a re-parse (parse() has the whole input at hand)."""
    start = time.perf_counter()
    for _ in range(repeat):
        for page in pages:
            _InputByteStream(keep_input=False, autodetect=True).feed_whole(page)
    return time.perf_counter() - start


def parse_pages(pages, repeat):
    """Seconds for `repeat` passes of lexpy.parse(bytes) over each page."""
    start = time.perf_counter()
    for _ in range(repeat):
        for page in pages:
            lexpy.parse(page)
    return time.perf_counter() - start


def best_of(function, rounds=5):
    best = float("inf")
    for _ in range(rounds):
        best = min(best, function())
    return best


def timed(function):
    def run():
        start = time.perf_counter()
        function()
        return time.perf_counter() - start
    return run


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", default=None,
                        help="default: $LEXPY_CORPUS, then ../shared/corpus/pages")
    parser.add_argument("--repeat", type=int, default=20,
                        help="passes over the pages per measurement")
    args = parser.parse_args(argv)
    pages = utf8_pages(args.pages or str(corpus_dir()))
    size = sum(len(p) for p in pages)
    mb = size * args.repeat / 1e6
    print("%d UTF-8 pages, %.1f MB; best of 5 runs of %d passes" % (
        len(pages), size / 1e6, args.repeat))

    # (Interleaved: a busy machine slows both alike.)
    stage_seconds = parse_seconds = float("inf")
    for _ in range(5):
        stage_seconds = min(stage_seconds, sniff_and_decode(pages, args.repeat))
        parse_seconds = min(parse_seconds, parse_pages(pages, args.repeat))
    print("  sniff + decode (validate in place):     %8.0f MB/s" % (mb / stage_seconds))
    print("  lexpy.parse(bytes), the whole parse:    %8.0f MB/s" % (mb / parse_seconds))
    print("  -> the encoding stage is %.1f%% of the parse time"
          % (100 * stage_seconds / parse_seconds))
    seconds = best_of(timed(lambda: [enc.utf8_valid_prefix(p)
                                     for _ in range(args.repeat) for p in pages]))
    print("  utf8_validate alone (via Python):       %8.0f MB/s" % (mb / seconds))
    seconds = best_of(timed(lambda: [enc.sniff(p)
                                     for _ in range(args.repeat) for p in pages]))
    print("  sniff() alone (via Python):             %8.1f us per page" % (
        seconds / (len(pages) * args.repeat) * 1e6))
    seconds = best_of(timed(lambda: [p.decode("utf-8")
                                     for _ in range(args.repeat) for p in pages]))
    print("  (Python bytes.decode('utf-8') to str:   %8.0f MB/s)" % (mb / seconds))

    # Synthetic pages in the scripts of the legacy encodings: half markup,
    # half text (CJK pages have far fewer ASCII bytes than the corpus).
    print("synthetic 1 MB pages, half markup, half text of the script:")
    scripts = {
        "windows-1252": ("cp1252", "Gr\u00fc\u00dfe aus K\u00f6ln, \u20ac\u00e9\u00e8 "),
        "Shift_JIS": ("shift_jis", "".join(map(chr, range(0x3041, 0x3094))) + "\u65e5\u672c\u8a9e"),
        "EUC-JP": ("euc_jp", "".join(map(chr, range(0x30A1, 0x30F5))) + "\u6f22\u5b57"),
        "gb18030": ("gb18030", "".join(map(chr, range(0x4E00, 0x4F00)))),
        "Big5": ("big5", "".join(map(chr, range(0x4E00, 0x4E80)))),
        "EUC-KR": ("euc_kr", "".join(map(chr, range(0xAC00, 0xAD00)))),
        "UTF-16LE": ("utf-16-le", "".join(map(chr, range(0x4E00, 0x4F00)))),
        "UTF-8": ("utf-8", "".join(map(chr, range(0x4E00, 0x4F00)))),
    }
    for name, (codec, text) in scripts.items():
        text = text.encode(codec, "ignore").decode(codec)
        chunk = ('<div class="article"><p>%s</p></div>\n' % text)
        page = (chunk * (1000000 // len(chunk.encode(codec)) + 1)).encode(codec)
        decoder = enc.lookup(name)
        rounds = max(1, args.repeat // 4)
        seconds = best_of(timed(lambda: [enc.Decoder(decoder, bom=False).decode(page, True)
                                         for _ in range(rounds)]), 3)
        print("  %-14s %8.0f MB/s" % (name, len(page) * rounds / 1e6 / seconds))


if __name__ == "__main__":
    main()
