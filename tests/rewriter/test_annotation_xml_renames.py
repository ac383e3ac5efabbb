"""Special elements whose parent is an annotation-xml that is an HTML
integration point by its encoding attribute, renamed (to the oracle's
<abbr>): the tree builder reads the tokens there by the rules of HTML
content, as in the other integration points (_annotation_integration).
Near cases (another encoding, where the start tag breaks out; content
that reads the element's name) reparse equal or are refused."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_reparses


@pytest.mark.parametrize("data", [
    '<math><annotation-xml encoding="application/xhtml+xml"><div>',
    '<math><annotation-xml encoding="aPPlication/xhtmL+xMl"><div>',
    '<math><annotation-xml encoding="text/html"><div>a</div>b',
    '<math><annotation-xml encoding="Text/htmL"><div>a<p>b</div></annotation-xml></math>c',
])
def test_renamed_in_an_html_annotation(data):
    assert_accepted(data, "div", "rename")


@pytest.mark.parametrize("data", [
    '<math><annotation-xml><div>a</div>b',
    '<math><annotation-xml encoding="text/xml"><div>a</div>b',
    '<math><annotation-xml encoding="text/html"><div>a</annotation-xml>b</div>',
    '<math><annotation-xml encoding="text/html"><div>a</math>b</div>',
    '<math><annotation-xml encoding="text/html"><div><svg>a</div>b',
    '<math><annotation-xml encoding="text/html"><ul><li>a<li>b</ul>',
])
@pytest.mark.parametrize("operation", ["rename", "remove_and_keep_content"])
def test_no_accepted_edit_reparses_otherwise(data, operation):
    assert_reparses(data, operation)
    assert_reparses(data, operation, chunked=True)
