"""Content for a foreign element its own self-closing start tag closed
(`<path/>`, `<mi/>`, `<svg/>`): written in its place as `<x>content</x>`,
which the parser reads as the same element holding the content. Checked
with the DOM-equivalence oracle on the element with id="r", whole and in
7-byte chunks; and the near cases still refused."""
import pytest

import lexpy

from lexpy.rewriter import RewriteError, Rewriter, rewrite
from tests.rewriter.test_form_pointer import _figures

TEXT_OPERATIONS = ("append_text", "prepend_text", "set_inner_content")


@pytest.mark.parametrize("data", [
    '<svg><path id="r" d="M0 0"/></svg>x',
    '<svg><clipPath id="r" /></svg>',
    '<math><mi id="r"/></math><p>x',
    '<p>a<svg id="r"/>b',
    '<math id="r"/><foo>',
    '<svg><foreignObject id="r"/><g/></svg>',
    '<svg><desc id="r"/></svg>',
    '<b>x<svg><path id="r"/></svg></b>y',
    '<svg><script id="r"/></svg>x',
])
@pytest.mark.parametrize("operation", TEXT_OPERATIONS)
def test_text_for_a_self_closed_foreign_element_goes_inside_it(data, operation):
    figures = _figures(data, operation, False)
    assert (figures.accepted, sum(figures.refused.values())) == (1, 0), figures.refused


def test_the_written_tags_and_the_order_of_the_content():
    def edit(element):
        element.set_attribute("fill", "red")
        element.prepend("P")
        element.append("A")
        element.append("B")
    out = rewrite('<svg><path d="1"/></svg>', Rewriter().on("path", element=edit))
    assert out == '<svg><path d="1" fill="red">PAB</path></svg>'

    def replaced(element):
        element.prepend("P")
        element.set_inner_content("I")
        element.append("A")
    out = rewrite('<svg><path/></svg>', Rewriter().on("path", element=replaced))
    assert out == '<svg><path>IA</path></svg>'


def test_attributes_alone_keep_the_self_closing_tag():
    out = rewrite('<svg><path/></svg>x',
                  Rewriter().on("path", element=lambda e: e.set_attribute("a", "b")))
    assert out == '<svg><path a="b" /></svg>x'


@pytest.mark.parametrize("data", [
    # (Markup: an element it leaves open would keep the written end tag
    # from closing the element; in an ordinary foreign element it may
    # break out of it.)
    '<svg><foreignObject id="r"/></svg>x',
    '<svg><path id="r"/></svg>x',
])
def test_markup_for_a_self_closed_foreign_element_is_refused(data):
    figures = _figures(data, "append_markup", False)
    assert (figures.accepted, sum(figures.refused.values())) == (0, 1)


def test_content_at_the_end_tag_of_a_self_closed_element_is_refused():
    rw = Rewriter().on("path", element=lambda e: e.on_end_tag(lambda end: end.before("T")))
    with pytest.raises(RewriteError, match="closes it at once|self-closing foreign element "
                                           "has no content"):
        rewrite('<svg><path/></svg>', rw)


def test_content_after_the_handler_is_refused():
    kept = []
    rw = Rewriter().on("path", element=kept.append).on(
        "g", element=lambda e: kept[0].prepend("x"))
    with pytest.raises(ValueError):
        rewrite('<svg><path/><g></g></svg>', rw)


@pytest.mark.parametrize("data, self_closing", [
    ('<svg a=b/>x</svg>y', False),       # "b/": an unquoted value, no flag
    ('<svg a= />x</svg>y', False),       # the value is "/"
    ('<svg a="b"/>x</svg>y', True),
    ('<svg a />x</svg>y', True),
    ('<svg/>x', True),
])
def test_self_closing_is_the_tokens_flag_not_the_bytes(data, self_closing):
    # An attribute change writes the start tag again: " /" only for a tag
    # the tokenizer gave the self-closing flag, so x stays where the
    # parser put it (inside the svg when the flag is not set).
    seen = []

    def edit(element):
        seen.append(element.is_self_closing)
        element.set_attribute("c", "d")
    for chunk in (None, 3):
        seen.clear()
        rewriter = Rewriter().on("svg", element=edit)
        if chunk is None:
            out = rewrite(data, rewriter)
        else:
            raw = data.encode()
            out = b"".join([rewriter.feed(raw[i:i + chunk]) for i in range(0, len(raw), chunk)]
                           + [rewriter.close()]).decode()
        expected = lexpy.parse(data)
        expected.query_selector("svg").set_attribute("c", "d")
        assert lexpy.dump(lexpy.parse(out)) == lexpy.dump(expected), out
        assert seen == [self_closing]
