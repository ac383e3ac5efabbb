"""Property test: every output of the sanitizer, for markup from the fuzz
grammar (tools/fuzz_sanitize.py: tables, foreign content, integration
points, raw text, comments, forms, select, template, deep nesting,
character references in URLs), passes the security oracle under the default
and the most permissive configuration. CI runs a bounded number of examples;
`python tools/fuzz_sanitize.py --count N` runs more."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexpy.sanitizer import Sanitizer

from tests.sanitizer.support import generate, security_problems

POLICIES = (Sanitizer(), Sanitizer({}))
CONTEXTS = ("div", "table", "tr", "select", "svg", "math", "template", "textarea", "body")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.sampled_from(CONTEXTS))
def test_every_output_passes_the_security_oracle(rng, context):
    html = generate(rng)
    for sanitizer in POLICIES:
        problems = security_problems(lambda text: sanitizer.sanitize(text, context=context),
                                     html, context)
        assert problems == [], (html, context)
