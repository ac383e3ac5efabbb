#!/usr/bin/env python3
"""Show that the tokenizer's C core has no Python interaction: the
`cython -a` check of DESIGN.md, made mechanical.

Cythonizes lexpy/tokenizer/tokenizer.pyx and lexpy/core/core.pyx (the name
tables and the error list the tokenizer uses) with the build's directives
into a temporary directory, writes the annotated HTML there (`cython -a`: yellow
lines interact with Python), and goes through the generated C: every line
of C generated from a core source file (the states, the scanning loops,
positions, character references, convert_text, emission, the incoming
buffer, the name tables, the error list, and the C API functions of
tokenizer.pyx and core.pyx) must use no Python C-API
call. Module-level code that fills tables at import is exempt (it runs
once, with the GIL, before any tokenizing).

  python tools/check_nogil.py            # exit status 1 when a line is found
  python tools/check_nogil.py --keep DIR # keep the C and HTML in DIR
"""
import argparse
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from annotate import ROOT, cythonize_annotated  # noqa: E402

PYX = os.path.join(ROOT, "lexpy", "tokenizer", "tokenizer.pyx")
CORE_PYX = os.path.join(ROOT, "lexpy", "core", "core.pyx")

CORE_FILES = (
    "byte_classes.pxi", "positions.pxi", "character_references.pxi",
    "name_table.pxi", "core.pxd",
    "convert.pxi", "emit.pxi", "incoming_buffer.pxi", "errors.pxi",
    "states_data.pxi", "states_tag.pxi", "states_attribute.pxi",
    "states_script.pxi", "states_comment.pxi", "states_doctype.pxi",
    "states_cdata.pxi", "states_processing_instruction.pxi",
    "states_character_reference.pxi",
)
# In tokenizer.pyx and core.pyx the C functions are core; the module
# docstring and the includes are not code.
MODULE_FILES = ("tokenizer.pyx", "core.pyx")
CORE_FUNCTION = re.compile(
    r"^static [^(]*__pyx_f_5lexpy_(?:9tokenizer_9tokenizer|4core_4core)_(\w+)\(")
SOURCE_COMMENT = re.compile(r'^\s*/\* "([^"]+)":(\d+)')
PYTHON_API = re.compile(r"\b(Py[A-Z]\w*|_Py\w+|__Pyx_(?!Trace|RefNanny)\w+)\s*\(")
# The error list's own MemoryError path (errors.pxi: error_list_add, the
# contract's function for the tree builder) raises with the GIL; the states
# use positions.pxi's add_error, which never raises.
# And name_table.pxi's seed_name_hash runs once, at import, with the GIL
# (module-level code that fills tables).
ALLOWED_FUNCTIONS = {"error_list_add", "seed_name_hash"}


def python_lines(c_file):
    """(source file, line, function, C line) of every Python C-API call in
    the C generated from a core source line."""
    found = []
    source = None
    function = None
    with open(c_file, encoding="utf-8") as f:
        for line in f:
            m = CORE_FUNCTION.match(line)
            if m and not line.rstrip().endswith(";"):
                function = m.group(1)
            elif line.startswith("static ") or line.startswith("PyMODINIT_FUNC"):
                if not line.rstrip().endswith(";"):
                    function = None
            m = SOURCE_COMMENT.match(line)
            if m:
                source = (os.path.basename(m.group(1)), int(m.group(2)))
                continue
            if function is None or source is None or function in ALLOWED_FUNCTIONS:
                continue
            core = source[0] in CORE_FILES or source[0] in MODULE_FILES
            # (A preprocessor line is no call: the module state's macros
            # follow the last function's source line.)
            if core and not line.lstrip().startswith("#") and PYTHON_API.search(line):
                found.append((source[0], source[1], function, line.strip()))
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", metavar="DIR",
                        help="write the C file and the annotated HTML here")
    args = parser.parse_args(argv)
    found = []
    for pyx in (CORE_PYX, PYX):
        if args.keep:
            out_dir = os.path.join(args.keep, os.path.basename(pyx)[:-4])
            os.makedirs(out_dir, exist_ok=True)
            found += python_lines(cythonize_annotated(pyx, out_dir))
        else:
            with tempfile.TemporaryDirectory() as out_dir:
                found += python_lines(cythonize_annotated(pyx, out_dir))
    functions = set()
    for source, line, function, text in found:
        functions.add(function)
        print("%s:%d (%s): %s" % (source, line, function, text))
    if found:
        print("Python interaction in %d core functions" % len(functions))
        return 1
    print("no Python interaction in the tokenizer's core (%d source files "
          "and the C API of %s)" % (len(CORE_FILES), " and ".join(MODULE_FILES)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
