#!/usr/bin/env python3
"""Score main-content extraction on ../shared/text-extraction/readability-pages
(or FOLDER: folders holding source.html and expected.html), as issue 16
defines it, for lexpy and its peers in one run.

For each page the truth is the text_content of expected.html; each
extractor's text of source.html is compared with it as multisets of 4-word
shingles (words: maximal runs of Unicode word characters, the regex \\w+).
Per page tp, fp and fn are normalised to sum 1, then summed over the pages;
precision, recall and F1 come from those sums. MB/s is the bytes of the
sources over the extraction time (parse included, as each extractor gets the
page's bytes).

  python tools/eval_extraction.py [FOLDER] [--extractors lexpy,trafilatura,...]
                                  [--pages] [--json]

Extractors: lexpy (extract_text(doc, main_content=True)), lexpy-plain
(main_content=False), lexpy-text-content (body.text_content, the old
baseline), trafilatura (trafilatura.extract), resiliparse
(extract_plain_text(HTMLTree.parse_from_bytes(page), main_content=True)).
Peers come from the `eval` extra; one not installed is reported as such.
"""
import argparse
import collections
import json
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT.parent / "shared" / "text-extraction" / "readability-pages"
WORD = re.compile(r"\w+")


def shingles(text, n=4):
    words = WORD.findall(text)
    if len(words) < n:
        return collections.Counter([tuple(words)] if words else [])
    return collections.Counter(tuple(words[i:i + n]) for i in range(len(words) - n + 1))


def page_scores(truth, predicted):
    """tp, fp, fn of one page, normalised to sum 1 (all 0 when both are empty)."""
    t, p = shingles(truth), shingles(predicted)
    tp = sum((t & p).values())
    fp = sum((p - t).values())
    fn = sum((t - p).values())
    total = tp + fp + fn
    if total == 0:
        return 0.0, 0.0, 0.0
    return tp / total, fp / total, fn / total


def summary(scores):
    tp = sum(s[0] for s in scores)
    fp = sum(s[1] for s in scores)
    fn = sum(s[2] for s in scores)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def extractors():
    import lexpy

    # The corpus is stored in UTF-8 (readability's harness reads it so);
    # lexpy is told, as a Content-Type header would, since the HTML
    # standard's sniffing would follow one page's stale <meta charset=gbk>.
    # Resiliparse and trafilatura detect the encoding themselves.
    def lexpy_main(data):
        return lexpy.extract_text(lexpy.parse(data, encoding="utf-8"), main_content=True)

    def lexpy_plain(data):
        return lexpy.extract_text(lexpy.parse(data, encoding="utf-8"))

    def lexpy_text_content(data):
        body = lexpy.parse(data, encoding="utf-8").body
        return body.text_content if body is not None else ""

    found = {"lexpy": lexpy_main, "lexpy-plain": lexpy_plain,
             "lexpy-text-content": lexpy_text_content}
    try:
        import trafilatura

        def trafilatura_extract(data):
            return trafilatura.extract(data) or ""
        found["trafilatura"] = trafilatura_extract
    except ImportError:
        found["trafilatura"] = None
    try:
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.html import HTMLTree

        def resiliparse_extract(data):
            return extract_plain_text(HTMLTree.parse_from_bytes(data), main_content=True)
        found["resiliparse"] = resiliparse_extract
    except ImportError:
        found["resiliparse"] = None
    return found


def load_pages(folder):
    import lexpy
    pages = []
    for page in sorted(p for p in folder.iterdir() if (p / "source.html").is_file()):
        source = (page / "source.html").read_bytes()
        root = lexpy.parse((page / "expected.html").read_bytes()).document_element
        truth = root.text_content if root is not None else ""
        pages.append((page.name, source, truth))
    return pages


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default=str(DEFAULT))
    parser.add_argument("--extractors", default="lexpy,trafilatura,resiliparse,"
                        "lexpy-plain,lexpy-text-content")
    parser.add_argument("--pages", action="store_true", help="print per-page F1")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    pages = load_pages(Path(args.folder))
    total_bytes = sum(len(source) for _, source, _ in pages)
    available = extractors()
    results = {}
    for name in args.extractors.split(","):
        extract = available.get(name)
        if extract is None:
            print("%-20s not installed" % name, file=sys.stderr)
            continue
        scores = []
        elapsed = 0.0
        for page, source, truth in pages:
            start = time.perf_counter()
            text = extract(source)
            elapsed += time.perf_counter() - start
            scores.append(page_scores(truth, text))
            if args.pages:
                print("%-20s %-50s %.3f" % (name, page, summary([scores[-1]])[2]))
        precision, recall, f1 = summary(scores)
        results[name] = {"precision": precision, "recall": recall, "f1": f1,
                         "mb_per_s": total_bytes / 1e6 / elapsed}
    if args.json:
        print(json.dumps({"pages": len(pages), "results": results}, indent=2))
        return 0
    print("%d pages, %.1f MB" % (len(pages), total_bytes / 1e6))
    print("%-20s %9s %7s %7s %9s" % ("extractor", "precision", "recall", "F1", "MB/s"))
    for name, r in results.items():
        print("%-20s %9.3f %7.3f %7.3f %9.1f" % (name, r["precision"], r["recall"],
                                                r["f1"], r["mb_per_s"]))
    if "lexpy" in results and "resiliparse" in results:
        print("lexpy / resiliparse MB/s: %.2fx"
              % (results["lexpy"]["mb_per_s"] / results["resiliparse"]["mb_per_s"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
