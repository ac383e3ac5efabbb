"""A smoke run of tools/fuzz_malformed.py: a few thousand generated malformed
documents and fragments, each checked for every invariant (no exception;
the serialization round trip stable after one pass, or after a few for the
shapes the standard cannot round-trip; chunked = whole for str and bytes,
with the same parse errors; a str and its UTF-8 bytes give the same tree).

The long runs (a million cases, atheris) are described in the tools'
docstrings; set LEXPY_GENERATED_CASES / LEXPY_GENERATED_START to run more
or other seeds here.
"""
import os

import pytest

import lexpy
from tests.tools import load_tool

fuzz_malformed = load_tool("fuzz_malformed")

CASES = int(os.environ.get("LEXPY_GENERATED_CASES", "10000"))
START = int(os.environ.get("LEXPY_GENERATED_START", "0"))
BATCH = 200


@pytest.mark.parametrize("first", range(START, START + CASES, BATCH),
                         ids=lambda first: "seeds-%d" % first)
def test_generated_cases_keep_every_invariant(first):
    failures = []
    for seed in range(first, min(first + BATCH, START + CASES)):
        try:
            fuzz_malformed.check(fuzz_malformed.generate(seed))
        except fuzz_malformed.InvariantFailure as exc:
            failures.append("seed %d: %s" % (seed, str(exc)[:3000]))
    assert not failures, "\n\n".join(failures[:5])


def test_generation_is_deterministic():
    assert fuzz_malformed.generate(12345) == fuzz_malformed.generate(12345)
    assert fuzz_malformed.generate(1) != fuzz_malformed.generate(2)


def test_the_generator_reaches_its_shapes():
    """Over the smoke run's seeds the generator gives str and bytes input,
    fragments in many contexts, and the hard shapes, often enough."""
    cases = [fuzz_malformed.generate(seed) for seed in range(2000)]
    assert sum(isinstance(c.data, bytes) for c in cases) > 400
    assert len({c.context for c in cases}) > 30
    text = "".join(c.data if isinstance(c.data, str) else "" for c in cases)
    for shape in ("<table", "<template", "<svg", "<math", "&#x", "\x00", "\r",
                  "<!--", "<plaintext", "<select", "<frameset"):
        assert text.count(shape) > 20, shape


def test_an_invariant_failure_is_reported():
    """The checker is not vacuous: a tree that changes when serialized and
    parsed again (a CR from &#13; is written raw and comes back as LF) is
    accepted only through UNSTABLE_BY_DESIGN, which names it."""
    document = lexpy.parse("<p>a&#13;b")
    assert fuzz_malformed.unstable_reasons(document) == ["carriage-return"]
    assert fuzz_malformed.unstable_reasons(lexpy.parse("<p>a\rb")) == []
    assert fuzz_malformed.unstable_reasons(lexpy.parse(
        "<!DOCTYPE html PUBLIC '-//W3C//DTD HTML 4.01//EN'><p>")) == ["doctype-identifiers"]


@pytest.mark.parametrize("markup, reason", [
    ("<plaintext>x", "plaintext"),
    ("<pre>\n\nx</pre>", "leading-newline"),
    ("<script><!--<script>x", "script-escape"),
    ("<p><table><p>", "self-nesting"),                       # quirks: <p> in <p>
    ("<form><div></form><form>", "self-nesting"),
    ("<ruby><table><p><rt>", "self-nesting"),
    ("<select><table><input>", "self-nesting"),              # seed 10163554
    ("<select><table><option><hr>", "self-nesting"),         # atheris
    ("<math><mi><table><mglyph>", "html-in-foreign-context"),  # seed 10268009
    ("<b><frameset></frameset></html> ", "after-frameset"),  # seed 10142081
    ("<template><template><code><marquee></template><<colgroup>",  # seed 10805779
     "template-contents-mode"),
    ("<select><button><selectedcontent></selectedcontent></button><option><button>",
     "selectedcontent"),
])
def test_unstable_by_design_shapes(markup, reason):
    """Each documented shape is detected, and really does not round-trip."""
    document = lexpy.parse(markup)
    assert reason in fuzz_malformed.unstable_reasons(document)
    assert reason in fuzz_malformed.UNSTABLE_BY_DESIGN
    assert lexpy.dump(lexpy.parse(document.to_html())) != lexpy.dump(document)


def test_a_broken_round_trip_is_caught(monkeypatch):
    """If serialization lost data, check() would say so."""
    case = fuzz_malformed.Case(seed=-1, data="<p>keep<b>this</b></p>")
    fuzz_malformed.check(case)
    monkeypatch.setattr(fuzz_malformed, "_serialize",
                        lambda case, node: ("<p>keep</p>", node))
    with pytest.raises(fuzz_malformed.InvariantFailure, match="round trip"):
        fuzz_malformed.check(case)
