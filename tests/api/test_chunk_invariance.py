"""Chunk invariance at the full-parser level (DESIGN.md decision 5): for every
tree-construction case and every page of the shared corpus, lexpy.Parser
fed the input in pieces gives the same tree as lexpy.parse() (or
parse_fragment()) of the whole input -- for bytes and for str.

Inputs under 200 bytes (or characters) are cut at every split point; every
input is also fed in seeded random chunk sizes (several seeds, from a few
bytes to tens of kilobytes). Byte chunks split UTF-8 sequences, CRLFs and
everything else; str chunks split surrogate-free text anywhere.

The scripted cases run their scripts (a JavaScript engine,
tests/conformance/javascript.py) in every way of feeding them.

Together with tests/conformance/test_tree_suite.py (the whole input against each case's
expected tree) this proves every way of feeding a case gives its expected
tree.
"""
import codecs

import pytest

import lexpy
from tests.conformance import data, runners
from tests.helpers import fed, random_chunks
from tests.corpus.test_corpus import PAGES

# The upstream cases, then lexpy's own regression cases (tests/data/), then
# the cases past the suites (../shared/conformance-extra/).
CASES = (list(data.tree_cases()) + list(data.house_tree_cases())
         + list(data.extra_tree_cases()))
EVERY_SPLIT_BELOW = 200
SEEDS = (1, 2, 3)


def _fed(case, chunks):
    options = {"scripting": case.scripting}
    if case.fragment_context is not None:
        options["context"], options["namespace"] = case.context_and_namespace()
    elif case.scripted:
        # (A new script engine for each parse: the scripts run again.)
        options["on_script"] = runners.script_runner(True)
    return lexpy.dump(fed(chunks, **options))


def _splittings(document):
    """One character (or byte) at a time, every split point of a short
    input, then seeded random chunks."""
    yield "one at a time", [document[i:i + 1] for i in range(len(document))]
    if len(document) < EVERY_SPLIT_BELOW:
        for i in range(1, len(document)):
            yield "split at %d" % i, [document[:i], document[i:]]
    for seed in SEEDS:
        yield "seed %d" % seed, random_chunks(document, seed, 1 + 3 * seed)


@pytest.mark.parametrize("kind", ["bytes", "str"])
@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_tree_case_fed_in_pieces(case, kind):
    document = case.data.encode("utf-8") if kind == "bytes" else case.data
    whole = lexpy.dump(runners.parse_for_tree_case(case, document))
    for how, chunks in _splittings(document):
        got = _fed(case, chunks)
        assert got == whole, "%s (%r)\nwhole:\n%s\nfed:\n%s" % (
            how, chunks, whole, got)


def _page_text(raw, encoding):
    try:
        return raw.decode(codecs.lookup(encoding).name, "replace")
    except LookupError:
        return raw.decode("utf-8", "replace")


@pytest.mark.parametrize("kind", ["bytes", "str"])
@pytest.mark.parametrize("path", PAGES, ids=[p.name for p in PAGES])
def test_corpus_page_fed_in_pieces(path, kind):
    raw = path.read_bytes()
    document = raw
    if kind == "str":
        document = _page_text(raw, lexpy.parse(raw).encoding)
    whole = lexpy.dump(lexpy.parse(document))
    for seed, largest in zip(SEEDS, (256, 4096, 65536)):
        chunks = random_chunks(document, "%s:%d" % (path.name, seed), largest)
        assert lexpy.dump(fed(chunks)) == whole, "seed %d, chunks up to %d" % (
            seed, largest)
