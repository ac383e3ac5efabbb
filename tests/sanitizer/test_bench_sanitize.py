"""tools/bench_sanitize.py runs (one round, one pass, over two tiny pages):
lexpy on both policies and every input, a peer measured or reported as not
installed, ratios, and lexpy on two threads against one; and its made
inputs are the sizes the issue names, the same every run."""
import json
import subprocess
import sys
from pathlib import Path

from tests.tools import load_tool

ROOT = Path(__file__).resolve().parents[2]


def test_made_inputs_are_4_and_40_kib_and_deterministic():
    tool = load_tool("bench_sanitize")
    post, article = tool.post(), tool.article()
    assert len(post.encode("utf-8")) == 4096 and len(article.encode("utf-8")) == 40960
    assert post == tool.post() and article == tool.article()
    for markup in ("<a href=", "<script>", "onerror=", "<!--", "<ul>", "<pre>", "&nbsp;"):
        assert markup in post, markup
    assert "<svg" in article and "<table>" in article


def test_bench_sanitize_runs_on_a_tiny_corpus(tmp_path):
    (tmp_path / "a.html").write_bytes(
        b"<!DOCTYPE html><title>a</title><p class=x>one<a href=/u>u</a><script>x</script>")
    (tmp_path / "b.html").write_bytes("<table><tr><td>caf\u00e9</table>".encode("utf-8"))
    out = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "bench_sanitize.py"), str(tmp_path),
         "--engines", "lexpy,nh3", "--rounds", "1", "--passes", "1", "--json"],
        capture_output=True, text=True, check=True, cwd=str(ROOT)).stdout
    document = json.loads(out)
    rows = {(r["engine"], r["scenario"]): r for r in document["results"]}
    scenarios = ["post-comment", "post-default", "article-comment", "article-default",
                 "corpus-comment", "corpus-default"]
    assert sorted(rows) == sorted((e, s) for e in ("lexpy", "nh3") for s in scenarios)
    for s in scenarios:
        mine = rows["lexpy", s]
        assert "error" not in mine, mine
        assert mine["items"] == {"post": 50, "article": 5, "corpus": 2}[s.split("-")[0]]
        assert mine["calls_per_s"] > 0 and mine["mb_per_s"] > 0
        peer = rows["nh3", s]
        assert peer.get("missing") or peer["speed_ratio"] > 0, peer
    threads = document["threads"]
    assert sorted(threads) == ["article-comment", "control", "corpus-comment",
                               "post-comment"]
    assert all(t["scaling"] > 0 and t["wall_1"] > 0 for t in threads.values())
