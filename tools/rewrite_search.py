"""A seeded random search for the rewriter's wrong acceptances (issue 39).

Random small inputs made of tokens in the shape of html5lib's
tree-construction cases (formatting elements, tables, foreign content,
raw text, forms, selects, templates, <pre>, stray end tags, character
references), one random operation each (an element edit of the oracle's
base or markup set, or a text, comment or document-end edit of its units
set), scripting on or off. Each run is fed whole and in chunks of 1, 2, 3
and 7 bytes: every chunking must give the same decision and the same
output, and an accepted output must reparse to the DOM edit
(tests/rewriter/oracle.py). Prints each finding once (its input, the
operation and what differed) and the totals.

    nice python tools/rewrite_search.py --seed 1 --seconds 900
"""
import argparse
import random
import resource
import sys
from pathlib import Path
from typing import Any, Callable, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lexpy.rewriter import Rewriter, RewriteError  # noqa: E402
from tests.rewriter.oracle import (  # noqa: E402
    MARKUP_OPERATIONS, OPERATIONS, UNIT_OPERATIONS, check, check_units)

TOKENS = (
    "<a href=1>", "<a>", "</a>", "<b>", "</b>", "<i>", "</i>", "<nobr>", "<font color=1>",
    "<div>", "</div>", "<p>", "</p>", "<span>", "</span>", "<section>", "<li>", "<ul>",
    "</ul>", "<dd>", "<h1>", "</h2>", "<button>", "</button>", "<br>", "</br>", "<img>",
    "<hr>", "<table>", "</table>", "<td>", "</td>", "<tr>", "<tbody>", "<caption>",
    "<col>", "<colgroup>", "<math>", "</math>", "<mtext>", "</mtext>", "<mi>",
    "<mglyph>", "</mglyph>", "<annotation-xml encoding=text/html>", "<svg>", "</svg>",
    "<g>", "</g>", "<path>", "<foreignObject>", "</foreignObject>", "<desc href=1>",
    "<title />", "<title>", "</title>", "<body href=1>", "<html lang=x>", "</body>",
    "</html>", "<head>", "<frame />", "<frameset>", "<template>", "</template>",
    "<script>", "</script>", "<style>", "</style>", "<textarea>", "</textarea>", "<pre>",
    "</pre>", "<listing>", "<xmp>", "<select>", "</select>", "<option>", "<optgroup>",
    "<form>", "</form>", "<input type=hidden>", "<noscript>", "<plaintext>",
    "<!---->", "<!--c-->", "<!DOCTYPE html>", "<?pi?>", "&", "&amp;", "&lt;", "&#10;",
    "x", "y", "a&amp;b", "\n", "\n\n", "  ", "\r\n", "\x00")

ELEMENT_OPERATIONS = sorted(OPERATIONS) + sorted(MARKUP_OPERATIONS)
UNIT_NAMES = sorted(UNIT_OPERATIONS)
CHUNKS = (None, 1, 2, 3, 7)


def _feed(rw: Rewriter, data: str, chunk: Optional[int]) -> Tuple[str, Optional[str]]:
    """(output, None) or ("", the RewriteError's text)."""
    encoded = data.encode("utf-8")
    try:
        if chunk is None:
            out = rw.feed(encoded) + rw.close()
        else:
            out = b"".join(rw.feed(encoded[i:i + chunk])
                           for i in range(0, len(encoded), chunk)) + rw.close()
        return out.decode("utf-8"), None
    except RewriteError as error:
        return "", str(error)


def _nth(index: int, operation: Callable[[Any], None]) -> Callable[[Any], None]:
    seen = [0]

    def handler(unit: Any) -> None:
        if seen[0] == index:
            try:
                operation(unit)
            except RewriteError:
                raise
            except ValueError:
                pass        # (not applicable: the same in every chunking)
        seen[0] += 1
    return handler


def _chunkings(data: str, scripting: bool, make: Callable[[], Rewriter]) -> List[str]:
    """What differs between the chunkings (empty: the same decision and
    output in all)."""
    results = [_feed(make(), data, chunk) for chunk in CHUNKS]
    return ["chunks of %s: %r, whole: %r" % (chunk, result, results[0])
            for chunk, result in zip(CHUNKS[1:], results[1:]) if result != results[0]]


def one(rng: random.Random) -> Tuple[str, bool, str, Optional[int], List[str]]:
    data = "".join(rng.choice(TOKENS) for _ in range(rng.randint(2, 9)))
    scripting = rng.random() < 0.5
    if rng.random() < 0.7:
        operation = rng.choice(ELEMENT_OPERATIONS)
        index = rng.randint(0, 9)
        rw_op = (OPERATIONS.get(operation) or MARKUP_OPERATIONS[operation])[0]
        problems = _chunkings(data, scripting, lambda: Rewriter(scripting=scripting).on(
            "*", element=_nth(index, rw_op)))
        figures = check(data, scripting, operation, indexes=[index])
    else:
        operation = rng.choice(UNIT_NAMES)
        kind, rw_op, _ = UNIT_OPERATIONS[operation]
        index = rng.randint(0, 4) if kind != "end" else 0
        keyword = {"text": "text", "comment": "comments", "end": "end"}[kind]
        problems = _chunkings(data, scripting, lambda: Rewriter(scripting=scripting).on_document(
            **{keyword: _nth(index, rw_op)}))
        figures = check_units(data, scripting, operation)
    return data, scripting, operation, index, problems + list(figures.mismatches)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=60.0, help="CPU seconds")
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    runs = found = 0
    seen = set()
    while resource.getrusage(resource.RUSAGE_SELF).ru_utime < arguments.seconds:
        data, scripting, operation, index, problems = one(rng)
        runs += 1
        if problems:
            found += 1
            key = (data, scripting, operation)
            if key not in seen:
                seen.add(key)
                print("== %r scripting=%s %s on %s" % (data, scripting, operation, index))
                for problem in problems[:2]:
                    print("   " + problem.replace("\n", "\n   "))
                sys.stdout.flush()
    print("runs %d, with findings %d (seed %d)" % (runs, found, arguments.seed))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
