"""Every page of the shared real-world corpus parses from bytes into a tree
(no exception). Serializing and parsing again: tests/dom/test_roundtrip.py;
chunked feeding of the pages: tests/api/test_chunk_invariance.py."""
import pytest

import lexpy
from tests.conformance import data

PAGES = sorted(p for p in data.corpus_dir().iterdir() if p.is_file())


def test_corpus_is_there():
    assert len(PAGES) >= 100, "corpus at %s holds %d pages" % (data.corpus_dir(), len(PAGES))


@pytest.mark.parametrize("path", PAGES, ids=[p.name for p in PAGES])
def test_page_parses_from_bytes(path):
    document = lexpy.parse(path.read_bytes(), collect_errors=True)
    assert document.document_element is not None
    assert document.body is not None or document.get_elements_by_tag_name("frameset")
