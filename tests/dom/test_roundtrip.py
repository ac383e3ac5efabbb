"""Serializing and parsing again gives the same tree, for every page of the
corpus.

to_html() is the standard's serialization, which writes a DOCTYPE as
"<!DOCTYPE name>": its public and system identifiers do not survive (so a
page they put in quirks mode comes back in no-quirks mode). Everything
else does: dump(parse(to_html(parse(page)))) equals dump(parse(page)) with
the DOCTYPE line reduced to its name. lexpy.serialize() keeps the
identifiers, so with html5lib's options (optional tags omitted, unquoted
values) the tree comes back whole, as long as boolean attributes keep their
values.
"""
import re

import pytest

import lexpy

from tests.corpus.test_corpus import PAGES
DOCTYPE_IDENTIFIERS = re.compile(r'^(\| <!DOCTYPE [^ >]*) ".*" ".*">$', re.M)


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_to_html_and_parse_again_gives_the_same_tree(page):
    document = lexpy.parse(page.read_bytes())
    again = lexpy.parse(document.to_html())
    assert lexpy.dump(again) == DOCTYPE_IDENTIFIERS.sub(r"\1>", lexpy.dump(document))


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_serialize_and_parse_again_gives_the_same_tree(page):
    document = lexpy.parse(page.read_bytes())
    again = lexpy.parse(lexpy.serialize(document, minimize_boolean_attributes=False))
    assert lexpy.dump(again) == lexpy.dump(document)
