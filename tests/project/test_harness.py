"""tools/harness.py, the timing harness of tools/: every engine x scenario
in a process of its own, rounds interleaved, best and median kept, ratios
lexpy / peer, peak RSS per worker, a peer that is not installed reported as
such; and tools/bench.py on it."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tools import load_tool

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools"

TOY = '''"""A toy benchmark on the harness."""
import sys
sys.path.insert(0, %(tools)r)
import harness


def lexpy_engine(scenario):
    import lexpy
    if scenario == "parse":
        return lexpy.parse
    return harness.Case(prepare=lexpy.parse, run=lambda doc: doc.to_html(), calls=2)


def peer_engine(scenario):
    if scenario == "parse":
        return lambda page: page.decode("latin-1").split("<")
    return None


def big_engine(scenario):
    ballast = bytearray(64 * 2**20)          # 64 MB touched: this worker's RSS alone
    return lambda page: len(ballast) + len(page)


def absent_engine(scenario):
    import lexpy_no_such_peer               # noqa: F401
    return len


BENCH = harness.Bench("toy", engines={"lexpy": lexpy_engine, "peer": peer_engine,
                                       "big": big_engine, "absent": absent_engine},
                      scenarios={"parse": "parse from bytes", "html": "to_html"})

if __name__ == "__main__":
    sys.exit(harness.main(BENCH))
'''


def pages(folder):
    folder.mkdir()
    (folder / "a.html").write_bytes(b"<!DOCTYPE html><title>a</title><p class=x>one<a href=/u>u</a>")
    (folder / "b.html").write_bytes("<table><tr><td>caf\u00e9</table>".encode("utf-8") * 50)
    (folder / "notes.txt").write_bytes(b"not a page")
    return folder


def run_toy(tmp_path, *options):
    script = tmp_path / "bench_toy.py"
    script.write_text(TOY % {"tools": str(TOOLS)})
    return subprocess.run([sys.executable, str(script), str(pages(tmp_path / "pages")),
                           *options], capture_output=True, text=True, check=True,
                          cwd=str(ROOT))


def test_each_engine_and_scenario_runs_in_its_own_process_in_interleaved_rounds(tmp_path):
    document = json.loads(run_toy(tmp_path, "--rounds", "2", "--passes", "3",
                                  "--json").stdout)
    rows = {(r["engine"], r["scenario"]): r for r in document["results"]}
    assert list(rows) == [(e, s) for s in ("parse", "html")
                          for e in ("lexpy", "peer", "big", "absent")]
    measured = [r for r in document["results"] if "error" not in r]
    assert [(r["engine"], r["scenario"]) for r in measured] == [
        ("lexpy", "parse"), ("peer", "parse"), ("big", "parse"),
        ("lexpy", "html"), ("big", "html")]
    # Rounds interleaved: every engine once per round, in turn. A missing
    # peer or scenario is tried once, not again.
    once = [[1, "parse", "absent"], [1, "html", "peer"], [1, "html", "absent"]]
    assert document["order"] == [
        [k, s, e] for k in (1, 2) for s in ("parse", "html")
        for e in ("lexpy", "peer", "big", "absent")
        if k == 1 or [1, s, e] not in once]
    pids = [pid for r in measured for pid in r["pids"]]
    assert len(pids) == len(set(pids)) == 10 and os.getpid() not in pids
    size = len((tmp_path / "pages" / "a.html").read_bytes()) + \
        len((tmp_path / "pages" / "b.html").read_bytes())
    for r in measured:
        assert r["rounds"] == 2 and r["items"] == 2 and r["bytes"] == size
        assert 0 < r["seconds"] <= r["median_seconds"]
        assert r["mb_per_s"] == pytest.approx(size / r["seconds"] / 1e6)
        assert r["calls_per_s"] == pytest.approx(r["calls"] / r["seconds"])
        assert r["peak_rss_kb"] >= r["corpus_rss_kb"] > 0
    assert rows[("lexpy", "html")]["calls"] == 4           # Case(calls=2)
    ours = rows[("lexpy", "parse")]
    peer = rows[("peer", "parse")]
    assert ours["speed_ratio"] == ours["rss_ratio"] == 1.0
    assert peer["speed_ratio"] == pytest.approx(peer["seconds"] / ours["seconds"])
    assert peer["median_speed_ratio"] == pytest.approx(
        peer["median_seconds"] / ours["median_seconds"])
    assert peer["rss_ratio"] == pytest.approx(ours["peak_rss_kb"] / peer["peak_rss_kb"])
    # Peak RSS is the worker's own: the 64 MB ballast shows in big's rows only.
    for scenario in ("parse", "html"):
        big = rows[("big", scenario)]
        assert big["rss_growth_kb"] > 60 * 1024 > rows[("lexpy", scenario)]["rss_growth_kb"]
        assert big["import_rss_kb"] > 60 * 1024
    assert rows[("absent", "parse")]["missing"] is True
    assert rows[("absent", "parse")]["error"].startswith("not installed")
    assert rows[("peer", "html")]["unsupported"] is True


def test_the_report_names_a_missing_peer_and_gives_ratios(tmp_path):
    proc = run_toy(tmp_path, "--rounds", "1", "--passes", "1", "--engines", "lexpy,absent,peer",
                   "--scenarios", "parse,html")
    out = proc.stdout
    assert "== parse from bytes" in out and "== to_html" in out
    lines = out.splitlines()
    assert any(line.split()[:2] == ["absent", "not"] and "not installed" in line
               for line in lines)
    assert any(line.split() == ["peer", "n/a"] for line in lines)
    lexpy_rows = [line.split() for line in lines if line.split()[:1] == ["lexpy"]]
    assert len(lexpy_rows) == 2 and all(row[-3:] == ["1.00x"] * 3 for row in lexpy_rows)
    assert "round 1 lexpy/parse" in proc.stderr


def test_an_unknown_engine_is_refused(tmp_path):
    script = tmp_path / "bench_toy.py"
    script.write_text(TOY % {"tools": str(TOOLS)})
    proc = subprocess.run([sys.executable, str(script), "--engines", "lexpy,nope"],
                          capture_output=True, text=True, cwd=str(ROOT))
    assert proc.returncode != 0 and "unknown engine 'nope'" in proc.stderr


def test_bench_py_runs_on_the_harness(tmp_path):
    """tools/bench.py keeps its flags (--parsers, --modes) and its JSON keys;
    the pure-Python peers run one pass in one round."""
    pytest.importorskip("lxml")
    pytest.importorskip("html5lib")
    folder = pages(tmp_path / "pages")
    out = subprocess.run(
        [sys.executable, str(TOOLS / "bench.py"), str(folder), "--parsers",
         "lexpy,lxml,html5lib", "--modes", "bytes,str,serialize", "--rounds", "2",
         "--passes", "2", "--json"],
        capture_output=True, text=True, check=True, cwd=str(ROOT)).stdout
    document = json.loads(out)
    assert document["bench"] == "bench" and document["rounds"] == 2
    results = document["results"]
    assert [(r["mode"], r["parser"]) for r in results] == [
        (m, p) for m in ("bytes", "str", "serialize") for p in ("lexpy", "lxml", "html5lib")]
    for r in results:
        assert "error" not in r, r
        assert r["rounds"] == (1 if r["parser"] == "html5lib" else 2)
        assert r["passes"] == (1 if r["parser"] == "html5lib" else 2)
        assert r["mb_per_s"] > 0 and r["median_ms"] > 0 and r["peak_rss_kb"] > 0
        assert r["speed_ratio"] > 0 and r["rss_ratio"] > 0
        # str: the pages decoded in the parent, MB/s over their bytes
        assert r["bytes"] == sum(len(p.read_bytes()) for p in folder.glob("*.html"))
    assert len({pid for r in results for pid in r["pids"]}) == 15


def test_bench_text_runs_on_the_harness(tmp_path):
    """tools/bench_text.py: lexpy's three kinds measured, each peer either
    measured, not installed, or n/a for the kind."""
    folder = pages(tmp_path / "pages")
    out = subprocess.run(
        [sys.executable, str(TOOLS / "bench_text.py"), str(folder), "--rounds", "1",
         "--json"], capture_output=True, text=True, check=True, cwd=str(ROOT)).stdout
    results = json.loads(out)["results"]
    assert {(r["engine"], r["scenario"]) for r in results} == {
        (e, s) for e in ("lexpy", "selectolax", "resiliparse", "markdownify", "html2text")
        for s in ("text", "main", "markdown")}
    for r in results:
        if r["engine"] == "lexpy":
            assert "error" not in r and r["speed_ratio"] == 1.0 and r["items"] == 2
        elif "error" not in r:
            assert r["speed_ratio"] > 0
        else:
            assert r.get("missing") or r.get("unsupported"), r
    no_main = next(r for r in results if (r["engine"], r["scenario"]) == ("selectolax", "main"))
    assert no_main.get("unsupported") or no_main.get("missing")


def test_bench_selectors_times_every_selector_as_a_part(tmp_path):
    """tools/bench_selectors.py: each selector a part of one process per
    engine, each part's ratio against lexpy's, what each found, and the
    scenario's ratio over the parts both ran."""
    pytest.importorskip("bs4")
    pytest.importorskip("soupsieve")
    folder = pages(tmp_path / "pages")
    out = subprocess.run(
        [sys.executable, str(TOOLS / "bench_selectors.py"), str(folder), "--rounds", "2",
         "--engines", "lexpy,soupsieve", "--json"],
        capture_output=True, text=True, check=True, cwd=str(ROOT)).stdout
    rows = {(r["engine"], r["scenario"]): r for r in json.loads(out)["results"]}
    ours, theirs = rows[("lexpy", "queries")], rows[("soupsieve", "queries")]
    selectors = load_tool("bench_selectors").SELECTORS
    assert list(ours["parts"]) == selectors
    assert ours["calls"] == ours["items"] * len(selectors)
    assert ours["parts"]["a[href]"]["found"] == theirs["parts"]["a[href]"]["found"] == 1
    assert ours["parts"]["*"]["found"] > 10
    common = [s for s in selectors if "seconds" in theirs["parts"][s]]
    assert theirs["common_parts"] == len(common) >= 20
    for s in common:
        assert theirs["parts"][s]["speed_ratio"] == pytest.approx(
            theirs["parts"][s]["seconds"] / ours["parts"][s]["seconds"])
    assert theirs["speed_ratio"] == pytest.approx(
        sum(theirs["parts"][s]["seconds"] for s in common)
        / sum(ours["parts"][s]["seconds"] for s in common))
    compiled = rows[("lexpy", "compile")]
    assert compiled["items"] == len(selectors) and compiled["bytes"] == 0
    assert rows[("soupsieve", "compile")]["speed_ratio"] > 0


def test_bench_dom_runs_its_operations_as_parts(tmp_path):
    """tools/bench_dom.py: every operation timed as a part of one process
    per engine; lexpy's rate and each peer's ratio, what each counted."""
    pytest.importorskip("lxml")
    folder = pages(tmp_path / "pages")
    out = subprocess.run(
        [sys.executable, str(TOOLS / "bench_dom.py"), str(folder), "--rounds", "1",
         "--engines", "lexpy,lxml", "--json"],
        capture_output=True, text=True, check=True, cwd=str(ROOT)).stdout
    document = json.loads(out)
    operations = load_tool("bench_dom").OPERATIONS
    assert [row["operation"] for row in document["rows"]] == [t for _, t, _ in operations]
    for row in document["rows"]:          # (no page here has an id: by_id finds 0)
        assert row["lexpy_rate"] > 0 or row["unit"] == "pages"
    hrefs = next(row for row in document["rows"] if row["unit"] == "links")
    assert hrefs["counts"] == {"lexpy": 1, "lxml": 1} and hrefs["ratios"]["lxml"] > 0
    assert set(document["memory"]) == {"lexpy", "lxml"}
