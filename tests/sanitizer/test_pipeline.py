"""The common call (Sanitizer.sanitize of a str in an "in body" context)
runs parse, walk, reparse check and serialization in one stretch of C
without the GIL (lexpy/sanitizer/pipeline.pxi): it must give what the
general path (a parse, the walk and the check as separate steps) gives,
and one Sanitizer must be usable from several threads at once."""
import random
import threading

import pytest

from lexpy.sanitizer import Sanitizer
from lexpy.sanitizer import api
from lexpy.sanitizer import walk

from tests.sanitizer.support import generate, load

# A policy with names that have no static id (a custom element, its own
# attributes): the walk's tables merge them per document, in C.
_CUSTOM = dict(elements=[{"name": "my-card", "attributes": ["kind", "x-ref"]}, "p", "a", "b",
                         {"name": "rect", "namespace": "http://www.w3.org/2000/svg"},
                         {"name": "svg", "namespace": "http://www.w3.org/2000/svg"}],
               attributes=["title", "href", "aria-zz"], data_attributes=False)

_POLICIES = {
    "default": Sanitizer(),
    "custom": Sanitizer(_CUSTOM),
    "escape": Sanitizer(elements=["p", "b"], on_disallowed="escape"),
    "depth": Sanitizer(max_depth=3),
}


def _inputs():
    rng = random.Random(34)
    texts = [generate(rng) for _ in range(300)]
    texts += [case["payload"] for case in load("dompurify/expect.json")["cases"]]
    texts += [
        '<my-card kind=a x-ref=1 other=2 data-q=3>x<p title=t aria-zz=1 kind=b>y</p></my-card>',
        '<svg><rect x-ref=1 /></svg><my-card><a href="javascript:x">l</a></my-card>',
        "a&#13;b", "<table><td>x", "<p>caf\u00e9 \u65e5\u672c \U0001F600</p>", "",
        "\ud800<b>lone</b>", "<div>" * 300 + "deep",
    ]
    return texts


@pytest.mark.parametrize("policy", sorted(_POLICIES))
def test_the_common_call_gives_what_the_general_path_gives(policy):
    sanitizer = _POLICIES[policy]
    differ = []
    for text in _inputs():
        fast = sanitizer.sanitize(text)
        general = api._sanitize_string(sanitizer, text, "div")
        if fast != general:
            differ.append((text, fast, general))
    assert not differ, differ[:3]


def test_the_pipeline_hands_back_only_what_needs_python():
    program = Sanitizer()._program(True)
    assert walk.sanitize_text(b"div", "<p>x<script>y</script>", program) == "<p>x</p>"
    # (a CR from a character reference: its reparse differs, the check runs)
    tree, url_pass = walk.sanitize_text(b"div", "a&#13;b", program)
    assert url_pass is False and tree.to_html() == "a\rb"
    resolving = Sanitizer(url_relative="resolve", url_base="https://example.com/")
    assert not resolving._options.needs_python_pass
    tree, url_pass = walk.sanitize_text(b"div", '<a href="x/y">l</a>',
                                        resolving._program(True))
    assert url_pass is True
    assert resolving.sanitize('<a href="x/y">l</a>') == \
        '<a href="https://example.com/x/y">l</a>'
    with pytest.raises(ValueError):
        walk.sanitize_text(b"div", "x", Sanitizer()._program(False))


@pytest.mark.parametrize("policy", ["default", "custom"])
def test_one_sanitizer_on_four_threads_at_once(policy):
    sanitizer = _POLICIES[policy]
    texts = _inputs()
    expected = [sanitizer.sanitize(text) for text in texts]
    start = threading.Barrier(4)
    wrong = []

    def work(offset):
        start.wait()
        for round_ in range(3):
            for i in range(len(texts)):
                j = (i + offset * 7 + round_) % len(texts)
                if sanitizer.sanitize(texts[j]) != expected[j]:
                    wrong.append(j)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not wrong


def test_a_comment_the_check_passes_reads_back_as_itself():
    # Every comment data up to 5 characters over the characters the comment
    # states look at: where the reparse check (stable.pxi) says the tree is
    # stable, the reparse of its serialization must give the same comment.
    import itertools

    import lexpy
    alphabet = "-!<>x"
    plain = differ = 0
    wrong = []
    for n in range(6):
        for chars in itertools.product(alphabet, repeat=n):
            data = "".join(chars)
            fragment = lexpy.parse_fragment("", "div")
            fragment.append_child(fragment.owner_document.create_comment(data))
            again = lexpy.parse_fragment(fragment.to_html(), "div")
            same = walk.first_difference(fragment, again) == -1
            if walk.reparse_may_differ_below(fragment):
                differ += 1
            else:
                plain += 1
                if not same:
                    wrong.append(data)
    assert not wrong, wrong[:10]
    # (both verdicts occur: the check is not vacuous either way)
    assert plain > 1000 and differ > 100
