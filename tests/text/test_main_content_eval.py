"""tools/eval_extraction.py on the readability pages, lexpy only (the peers
are in the `eval` extra, not needed here): a guard on the main-content F1
(0.956 when measured; trafilatura 0.931 and Resiliparse 0.925 in the same
run) and on the F1 definition itself."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import eval_extraction  # noqa: E402


def test_scores_follow_the_definition():
    assert eval_extraction.page_scores("a b c d e", "a b c d e") == (1.0, 0.0, 0.0)
    # truth shingles: abcd, bcde; predicted: abcd, bcdx -> tp 1, fp 1, fn 1
    assert eval_extraction.page_scores("a b c d e", "a b c d x") == (1 / 3, 1 / 3, 1 / 3)
    assert eval_extraction.page_scores("", "") == (0.0, 0.0, 0.0)
    assert eval_extraction.summary([(0.5, 0.25, 0.25), (1.0, 0.0, 0.0)]) == (
        1.5 / 1.75, 1.5 / 1.75, 1.5 / 1.75)


def test_main_content_f1_on_the_readability_pages(capsys):
    pages = eval_extraction.load_pages(eval_extraction.DEFAULT)
    extract = eval_extraction.extractors()["lexpy"]
    scores = [eval_extraction.page_scores(truth, extract(source))
              for _, source, truth in pages]
    precision, recall, f1 = eval_extraction.summary(scores)
    assert len(pages) == 130
    assert f1 >= 0.94, (precision, recall, f1)
