#!/usr/bin/env python3
"""Conformance report: run the html5lib-tests suites (with the WPT overlay
for tree construction) against the installed lexpy.

Prints passed / failed / xfail / total per file and one summary line per
suite; the percentage is passed of total. An expected failure
(tests/conformance/xfail.py) that passes is an XPASS: listed by id and
counted as failed, since its xfail entry must go (pytest runs the same
cases with strict xfails). A case whose data the current standard
contradicts runs against the corrected expectation of
tests/conformance/corrections.py, and the summary line counts those.

  python tools/conformance.py                 # every suite
  python tools/conformance.py --suite tree    # one suite (repeatable)
  python tools/conformance.py --json          # machine-readable totals
  python tools/conformance.py --failures 5    # show the first 5 failures
"""
import argparse
import collections
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# lexpy first: a source tree without its compiled modules stops here with
# the ImportError that says so, instead of failing every case.
import lexpy  # noqa: E402,F401
from tests.conformance import data, runners  # noqa: E402
from tests.conformance.xfail import xfail_reason  # noqa: E402
from tests.helpers import require_test_build  # noqa: E402


def run_suite(suite, show_failures):
    per_file = collections.OrderedDict()
    failures = []
    xpasses = []
    if suite == "tokenizer":
        # The tokenizer is driven through the test build's module: without
        # it, stop here (an ImportError saying how to build it), not fail
        # every case.
        require_test_build("lexpy.tokenizer._testing")
    if suite in ("tree", "encoding"):
        # Their scripted/ cases run through the test extra's JavaScript
        # engine: without it, stop here (saying what to install), not fail
        # those cases.
        runners.require_script_engine()
    runner = runners.RUNNERS[suite]
    for case in data.cases(suite):
        counts = per_file.setdefault(
            case.file, {"passed": 0, "failed": 0, "xfail": 0, "total": 0, "corrected": 0})
        counts["total"] += 1
        if getattr(case, "corrected", None):
            counts["corrected"] += 1
        problem = runner(case)
        reason = xfail_reason(case.id)
        if reason is not None:
            if problem is not None:
                counts["xfail"] += 1
            else:
                counts["failed"] += 1
                xpasses.append(case.id)
        elif problem is None:
            counts["passed"] += 1
        else:
            counts["failed"] += 1
            if len(failures) < show_failures:
                failures.append((case.id, problem))
    totals = {"passed": 0, "failed": 0, "xfail": 0, "total": 0, "corrected": 0}
    for counts in per_file.values():
        for key in totals:
            totals[key] += counts[key]
    return per_file, totals, failures, xpasses


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", action="append", choices=data.SUITES,
                        help="run only this suite (repeatable)")
    parser.add_argument("--json", action="store_true",
                        help="print only the totals as JSON")
    parser.add_argument("--failures", type=int, default=0, metavar="N",
                        help="print the first N failures of each suite")
    args = parser.parse_args(argv)
    suites = args.suite or list(data.SUITES)

    result = {}
    lines = []
    for suite in suites:
        per_file, totals, failures, xpasses = run_suite(suite, args.failures)
        result[suite] = totals
        if args.json:
            continue
        print("== %s" % suite)
        for name, c in per_file.items():
            print("  %-48s %5d passed %5d failed %4d xfail %5d total" % (
                name, c["passed"], c["failed"], c["xfail"], c["total"]))
        for case_id in xpasses:
            print("\n  XPASS %s (an expected failure passes: drop its xfail entry)"
                  % case_id)
        for case_id, problem in failures:
            print("\n  FAIL %s\n    %s" % (case_id, problem.replace("\n", "\n    ")))
        lines.append("%-10s %5d passed %5d failed %4d xfail %5d total (%.1f%%)%s%s" % (
            suite, totals["passed"], totals["failed"], totals["xfail"],
            totals["total"], 100.0 * totals["passed"] / max(totals["total"], 1),
            " %d XPASS" % len(xpasses) if xpasses else "",
            " (%d against corrected expectations: tests/conformance/corrections.py)"
            % totals["corrected"] if totals["corrected"] else ""))
    if args.json:
        print(json.dumps(result))
    else:
        print()
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
