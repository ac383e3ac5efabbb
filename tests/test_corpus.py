"""Every page of the shared real-world corpus parses from bytes into a tree
(no exception), and its serialization is stable: serializing and parsing
again gives the same tree each time. (Chunked feeding of the pages:
tests/test_chunk_invariance.py.)"""
import os
from pathlib import Path

import pytest

import lexpy

ROOT = Path(__file__).resolve().parents[1]


def corpus_dir() -> Path:
    env = os.environ.get("LEXPY_CORPUS")
    path = Path(env) if env else ROOT.parent / "shared" / "corpus" / "pages"
    if not path.is_dir():
        raise RuntimeError("corpus not found at %s; set LEXPY_CORPUS" % path)
    return path


PAGES = sorted(p for p in corpus_dir().iterdir() if p.is_file())


def test_corpus_is_there():
    assert len(PAGES) >= 100


@pytest.mark.parametrize("path", PAGES, ids=[p.name for p in PAGES])
def test_page_parses_from_bytes(path):
    raw = path.read_bytes()
    document = lexpy.parse(raw, collect_errors=True)
    assert document.document_element is not None
    assert document.body is not None or document.get_elements_by_tag_name("frameset")
    assert lexpy.dump(lexpy.parse(document.to_html())) == lexpy.dump(
        lexpy.parse(lexpy.parse(document.to_html()).to_html()))
