"""BeautifulSoup(page, "lexpy") against BeautifulSoup(page, "html5lib") on
every corpus page: the same soup.decode(), except on the pages listed
below with the rule that makes them differ (each exception is checked to
be that rule and nothing else), and a soup whose links bs4's own
linkage validator accepts."""
import warnings

import pytest

pytest.importorskip("bs4")
pytest.importorskip("html5lib")

import lexpy.bs4  # noqa: E402,F401 - registers "lexpy"
from bs4 import BeautifulSoup  # noqa: E402

from tests.bridges_support import corpus_pages  # noqa: E402
from tests.peers import bs4_tests  # noqa: E402

#: Pages whose soups differ, by rule. "encoding": the page declares no
#: encoding; the HTML standard lets the user agent autodetect it ("determining
#: the character encoding", the step before the default), and lexpy reads
#: bytes that are valid UTF-8 as UTF-8, while html5lib 1.1 (without chardet)
#: takes the default, windows-1252. With html5lib's encoding given
#: (from_encoding) the two soups are the same.
EXCEPTIONS = {
    "github.blog.spiceland.html": "encoding",
}


def _soups(page, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return (BeautifulSoup(page, "lexpy", **kwargs),
                BeautifulSoup(page, "html5lib", **kwargs))


@pytest.mark.parametrize("path", corpus_pages(), ids=lambda p: p.name)
def test_soup_equals_html5libs(path):
    page = path.read_bytes()
    mine, theirs = _soups(page)
    bs4_tests().SoupTest().linkage_validator(mine)
    rule = EXCEPTIONS.get(path.name)
    if rule is None:
        assert mine.decode() == theirs.decode()
        return
    assert rule == "encoding"
    assert mine.original_encoding != theirs.original_encoding
    assert mine.decode() != theirs.decode()
    mine, theirs = _soups(page, from_encoding=theirs.original_encoding)
    assert mine.decode() == theirs.decode()


def test_every_exception_is_a_corpus_page():
    names = {p.name for p in corpus_pages()}
    assert set(EXCEPTIONS) <= names
