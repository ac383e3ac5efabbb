"""tools/bench_scrape.py and its page generator tools/gen_listings.py (issue
36 point 6): lexpy reproduces the generator's ground truth on every page of
a seeded set of W1 (half of them mis-nested) and W2 pages, the ground truth
is what the HTML standard's tree gives (checked through lexpy's DOM, not
its extractor), and the tool runs end to end on a couple of tiny pages."""
import json
import subprocess
import sys
from pathlib import Path

import lexpy
from tests.tools import load_tool

ROOT = Path(__file__).resolve().parents[2]
gen = load_tool("gen_listings")
bench = load_tool("bench_scrape")


def _lexpy_records(workload, page):
    parse, extract = bench.lexpy_pair(workload)
    return bench.normalised(workload, extract(parse(page)))


def test_lexpy_is_right_on_every_seeded_w1_and_w2_page():
    w1 = gen.w1_pages(12, seed=7)
    w2 = gen.w2_pages(3, seed=7)
    assert sum(1 for i in range(12) if i % 2) == 6          # half broken
    for workload, pages in (("w1", w1), ("w2", w2)):
        for index, (page, truth) in enumerate(pages):
            assert len(truth) == bench.RECORDS_PER_PAGE[workload]
            assert _lexpy_records(workload, page) == truth, (workload, index)
    assert all(45000 <= len(p) <= 56000 for p, _ in w1)
    assert all(300000 <= len(p) <= 600000 for p, _ in w2)


def test_broken_pages_carry_the_mis_nesting_and_the_tree_resolves_it():
    page, truth = gen.w1_page(3, broken=True)
    text = page.decode("utf-8")
    assert "<p class=price_color>" in text and "</p>\n<div class=tax>" not in text
    assert "?src=list&pos=" in text                            # raw &
    assert "<table class=basket><form" in text                 # form in a table
    doc = lexpy.parse(page)
    # The ground truth by a DOM walk of lexpy's tree (not the extractor):
    # the open p closed by the div, the form popped out of the table at once.
    cards = doc.query_selector_all("article.product_pod")
    assert len(cards) == len(truth) == 20
    for card, want in zip(cards, truth):
        price = card.query_selector("p.price_color")
        assert price.text_content.strip() == want["price"]
        assert price.query_selector("div") is None
        assert card.query_selector("p.price_color + div.tax") is not None
        form = card.query_selector("table.basket > form")
        assert form is not None and form.first_child is None
        assert card.query_selector("table.basket > tbody > tr > td > button") is not None
        link = card.query_selector("h3 a")
        assert link.get_attribute("title") == want["title"]
    # The same page without the breakage has the same records.
    clean, clean_truth = gen.w1_page(3, broken=False)
    assert clean_truth == [dict(r, url=r["url"].replace("?src=list&pos=%d" % i, ""))
                           if "?src" in r["url"] else r for i, r in enumerate(truth)]


def test_a_dom_less_reading_of_a_broken_page_differs_from_the_truth():
    # Why the mis-nesting matters: the text up to </p> is not the price.
    page, truth = gen.w1_page(5, broken=True)
    text = page.decode("utf-8")
    start = text.index("<p class=price_color>") + len("<p class=price_color>")
    naive = text[start:text.index("</p>", start)]
    assert naive.strip() != truth[0]["price"]


def test_the_check_reports_a_wrong_engine():
    pages = gen.w1_pages(2, seed=1)
    assert bench.check("lexpy", "w1", pages) == []
    broken = [(page.replace(b"star-rating", b"stars"), truth) for page, truth in pages]
    misses = bench.check("lexpy", "w1", broken)
    assert [m[1] for m in misses] == ["rating", "rating"]


def test_the_tool_runs_end_to_end_on_tiny_inputs():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "bench_scrape.py"), "--w1", "2", "--w2", "1",
         "--engines", "lexpy", "--scenarios", "w1,w2,threads", "--passes", "1",
         "--rounds", "1", "--check", "--json"],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    document = json.loads(proc.stdout)
    figures = {(s["scenario"], s["engine"]): s["figures"] for s in document["summary"]}
    assert figures[("w1", "lexpy")]["right"] == 2
    assert figures[("w2", "lexpy")]["right"] == 1
    assert figures[("w1", "lexpy")]["pages_s"] > 0
    assert figures[("w1", "lexpy")]["parse_ms"] > 0
    assert document["misses"] == {"w1/lexpy": [], "w2/lexpy": []}
    assert set(document["two_threads_over_one"]) == {"2 threads", "2 processes"}
    assert all(ratio > 0 for ratio in document["two_threads_over_one"].values())
