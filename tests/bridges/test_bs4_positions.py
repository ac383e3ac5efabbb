"""lexpy.bs4 with positions (issue 37): LexpyTreeBuilder(positions=True)
gives every tag the sourceline and sourcepos bs4's html5lib builder gives
it, on every corpus page where the two trees have the same tags in the
same order; without positions, tags have none."""
import bs4
import pytest

import lexpy.bs4 as lexpy_bs4
from tests.bridges_support import corpus_pages

PAGES = corpus_pages()


def test_small_document_matches_html5lib():
    src = ('<!DOCTYPE html>\n<html><head><title>T</title></head>\n<body>\n'
           '  <p class="x">Hi <b>b</b></p>\n<table><tr><td>x</td></tr></table></body></html>')
    ours = bs4.BeautifulSoup(src, builder=lexpy_bs4.LexpyTreeBuilder(positions=True))
    theirs = bs4.BeautifulSoup(src, "html5lib")
    got = [(t.name, t.sourceline, t.sourcepos) for t in ours.find_all(True)]
    assert got == [(t.name, t.sourceline, t.sourcepos) for t in theirs.find_all(True)]
    plain = bs4.BeautifulSoup(src, builder=lexpy_bs4.LexpyTreeBuilder())
    assert all(t.sourceline is None for t in plain.find_all(True))


@pytest.mark.parametrize("path", PAGES[::10], ids=[p.name for p in PAGES[::10]])
def test_corpus_page_matches_html5lib_where_the_trees_agree(path):
    page = path.read_bytes()
    ours = bs4.BeautifulSoup(page, builder=lexpy_bs4.LexpyTreeBuilder(positions=True))
    theirs = bs4.BeautifulSoup(page, "html5lib")
    ours_tags = ours.find_all(True)
    theirs_tags = theirs.find_all(True)
    if [t.name for t in ours_tags] != [t.name for t in theirs_tags]:
        pytest.skip("the trees differ (html5lib follows the 2020 standard)")
    # An element the parser implied with nothing from the input in it (a
    # <p> for a stray </p>) has no position in lexpy; html5lib's builder
    # gives the end tag's (issue 37 keeps this open): few, and only those.
    implied = [a for a in ours_tags if a.sourceline is None]
    assert len(implied) <= max(2, len(ours_tags) // 200), implied[:10]
    mismatched = [(a.name, (a.sourceline, a.sourcepos), (b.sourceline, b.sourcepos))
                  for a, b in zip(ours_tags, theirs_tags)
                  if a.sourceline is not None
                  and (a.sourceline, a.sourcepos) != (b.sourceline, b.sourcepos)]
    assert not mismatched, mismatched[:10]
