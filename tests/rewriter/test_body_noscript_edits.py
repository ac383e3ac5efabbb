"""A noscript in body with scripting off, renamed (to the oracle's <abbr>)
or unwrapped (Element._body_noscript, under _special_edit's conditions):
"in body" reads its start tag as any other start tag's and its content as
markup; only its special category differs, which what stops at it (an
end tag's walk, the adoption agency's furthest block) is checked for."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_refused, assert_reparses

OPERATIONS = ("rename", "remove_and_keep_content")


@pytest.mark.parametrize("operation", OPERATIONS)
@pytest.mark.parametrize("data", [
    '<p id="status"><noscript><strong>A</strong></noscript><span>B</span></p>',
    "<body><noscript><div>x</div></noscript>y",
    "<body><b><noscript>x</b>y</noscript>z",
])
def test_edited(data, operation):
    assert_accepted(data, "noscript", operation)


@pytest.mark.parametrize("operation", OPERATIONS)
def test_end_tag_stopped_at_it(operation):
    assert_refused("<body><span><noscript>x</span>y</noscript>", "noscript", operation,
                   "an end tag inside it was ignored")


@pytest.mark.parametrize("operation", OPERATIONS)
@pytest.mark.parametrize("data", [
    "<body><ul><li><noscript><li>x</noscript></ul>",
    "<body><a><noscript><a>x</noscript>",
    "<head><noscript><!--x--></noscript></head>",
    "<button><noscript><p>x</button>y",
])
def test_near_cases_reparse(data, operation):
    assert_reparses(data, operation)
