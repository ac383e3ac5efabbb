"""The tree builder's core has no Python interaction: `cython -a` of the
module scores every line of the insertion modes and the algorithms zero.

The module has no Python-facing part (the Python class that drives one
parse is the driver's, lexpy/driver/) but the out-of-memory path of
error_list_add (the contract's function raises MemoryError with the GIL)
behind parse_error().
"""
import html
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "lexpy" / "treebuilder"
LINE = re.compile(r'<pre class="cython line score-(\d+)"[^>]*>(.*?)</pre>', re.S)
ALLOWED = {("parse_errors.pxi", "cdef void parse_error(")}


def test_no_python_interaction_in_the_tree_builder_core(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "cython", "-3", "-a", "-I", str(ROOT),
         "--directive", "boundscheck=False,wraparound=False,cdivision=True,"
                        "initializedcheck=False,nonecheck=False",
         str(PACKAGE / "treebuilder.pyx"), "-o", str(tmp_path / "treebuilder.c")],
        check=True, capture_output=True)
    sources = sorted(p.relative_to(PACKAGE) for p in PACKAGE.rglob("*.pxi"))
    assert len(sources) >= 21 + 10
    found = []
    for source in sources:
        report = tmp_path / source.with_suffix(".html")
        assert report.is_file(), report
        for score, code in LINE.findall(report.read_text(encoding="utf-8")):
            text = html.unescape(re.sub("<[^>]+>", "", code)).split(":", 1)[-1].strip()
            if int(score) and not any(source.name == name and text.startswith(prefix)
                                      for name, prefix in ALLOWED):
                found.append("%s: %s" % (source, text))
    assert not found, "\n".join(found)
