"""A template in body unwrapped when its contents turn out to be text,
comments and doctypes (Element._template_text_unwrap, Rewriter.
_text_only_end): "in template" hands comments and doctypes to the "in
body" rules, which insert a comment at the current node and ignore a
doctype, as they do without the template. Markup, abrupt comments and
comments ended by "--!>" stay refused."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_refused


@pytest.mark.parametrize("data", [
    "<body><template><?something></template>",
    "<body><template><!--comment--></template>",
    "<div><template> <!--a--><!--b-->x</template>y</div>",
    "<body><template><!doctype html></template>x",
])
def test_unwrapped(data):
    assert_accepted(data, "template", "remove_and_keep_content")


@pytest.mark.parametrize("data", [
    "<body><template><!--c--!>x--></template>y",
    "<body><template><!--></template>--></template>y",
    "<body><template><!--c--><b>x</b></template>y",
])
def test_refused(data):
    assert_refused(data, "template", "remove_and_keep_content",
                   "without its start tag the parser would treat later end tags differently")
