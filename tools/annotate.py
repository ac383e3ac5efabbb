#!/usr/bin/env python3
"""Which lines of a compiled module talk to Python: runs `cython -a` on a
.pyx into a temporary directory and lists, per source file (the .pyx and
each .pxi it includes), the lines Cython marks as touching the Python C-API,
with Cython's score (higher: more Python calls).

  python tools/annotate.py lexpy/dom/dom.pyx
  python tools/annotate.py lexpy/dom/dom.pyx --only serializer.pxi dump.pxi

Hot paths (tokenizer states, insertion modes, the serializer's loop) should
list nothing but their thin Python entry points.
"""
import argparse
import html
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
LINE = re.compile(r'<pre class="cython line score-(\d+)"[^>]*>(.*?)</pre>', re.S)
TAG = re.compile(r"<[^>]+>")
# The release build's directives that change the generated C (setup.py).
DIRECTIVES = ("boundscheck=False,wraparound=False,cdivision=True,"
              "initializedcheck=False,nonecheck=False")


def cythonize_annotated(pyx, out_dir):
    """`cython -a` of a module into out_dir: module.c, and one annotated
    HTML file per source (module.html for the .pyx, NAME.html for each
    NAME.pxi). Returns the path of the C file."""
    c_file = os.path.join(out_dir, "module.c")
    subprocess.run(
        [sys.executable, "-m", "cython", "-3", "-a", "-I", ROOT,
         "-I", os.path.join(ROOT, "lexpy", "core"), "--directive", DIRECTIVES,
         os.path.abspath(pyx), "-o", c_file],
        check=True, cwd=ROOT, capture_output=True)
    return c_file


def scored_lines(out_dir, pyx, only=None):
    """{file name: [(line text, score)]} of the lines with Python
    interaction, from the HTML of cythonize_annotated."""
    result = {}
    for root, _, names in os.walk(out_dir):
        for name in sorted(names):
            if not name.endswith(".html"):
                continue
            stem = os.path.relpath(os.path.join(root, name), out_dir)[:-5]
            source = os.path.basename(pyx) if stem == "module" else stem + ".pxi"
            if only and source not in only:
                continue
            with open(os.path.join(root, name), encoding="utf-8") as f:
                rows = LINE.findall(f.read())
            result[source] = [(html.unescape(TAG.sub("", text)).strip(), int(score))
                              for score, text in rows if int(score) > 0]
    return result


def annotate(pyx, only=None):
    """{file name: [(line text, score)]} of the lines with Python interaction."""
    with tempfile.TemporaryDirectory() as out:
        cythonize_annotated(pyx, out)
        return scored_lines(out, pyx, only)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pyx", help="the module's .pyx file")
    parser.add_argument("--only", nargs="+", metavar="FILE",
                        help="report only these source files (e.g. serializer.pxi)")
    args = parser.parse_args(argv)
    for source, lines in annotate(os.path.abspath(args.pyx), args.only).items():
        print("%-24s %4d lines with Python interaction" % (source, len(lines)))
        for text, score in lines:
            print("    %3d  %s" % (score, text[:100]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
