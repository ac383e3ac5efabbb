"""Every page of the shared real-world corpus parses from bytes, whole and
in chunks, into a tree (no exception), and the chunked parse gives the same
tree."""
import os
import random
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
    document = lexpy.parse(raw)
    assert document.document_element is not None
    parser = lexpy.Parser()
    rng = random.Random(path.name)
    i = 0
    while i < len(raw):
        size = rng.randint(1, 4096)
        parser.feed(raw[i:i + size])
        i += size
    assert lexpy.dump(parser.close()) == lexpy.dump(document)
