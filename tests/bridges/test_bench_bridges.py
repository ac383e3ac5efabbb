"""tools/bench_bridges.py runs (one round over two small pages) and reports
every pair of the issue with its ratio."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("bs4")
pytest.importorskip("html5lib")
pytest.importorskip("lxml")

ROOT = Path(__file__).resolve().parents[2]


def test_bench_bridges_reports_every_pair(tmp_path):
    (tmp_path / "a.html").write_bytes(b"<!DOCTYPE html><title>a</title><p class=x>one<a href=/u>u</a>")
    (tmp_path / "b.html").write_bytes("<table><tr><td>caf\u00e9</table>".encode("utf-8"))
    out = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "bench_bridges.py"), str(tmp_path),
         "--rounds", "1", "--json"],
        capture_output=True, text=True, check=True, cwd=str(ROOT)).stdout
    results = json.loads(out)
    assert [r["pair"].split(" vs ")[1] for r in results] == [
        "'lxml'", "'html5lib'", "'html.parser'", "html5lib.parse (etree)",
        "html5lib.parse(treebuilder='lxml')", "lxml.html.document_fromstring"]
    assert all(r["pages"] == 2 and r["ratio"] > 0 for r in results)
