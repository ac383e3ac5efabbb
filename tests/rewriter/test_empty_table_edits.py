"""A table renamed (to the oracle's <abbr>) or unwrapped when it turns out
to hold only whitespace, comments and doctypes (Element._empty_table_edit):
"in table" inserts those at the current node (or ignores them) as "in
body" does with an ordinary element there. Near cases where the table
holds what the parser foster-parents or reads otherwise, or where the
other start tag would act otherwise, stay refused or reparse equal."""
import pytest

from tests.rewriter.edit_checks import assert_accepted, assert_refused, assert_reparses


@pytest.mark.parametrize("data", [
    "<div><table></table>x</div>",
    "<div><table> <!--c-->\n</table>x</div>",
    "<div><table><?pi x><!doctype x></table>y</div>",
    "<p><table></table>x</p>",
    "<table><!--c--></table>x",
])
def test_renamed(data):
    assert_accepted(data, "table", "rename")


@pytest.mark.parametrize("operation", ["rename", "remove_and_keep_content"])
def test_in_a_cell(operation):
    assert_accepted("<!doctype html><table><td><table> </table>x</td></table>", "table",
                    operation, nth=1)


@pytest.mark.parametrize("data", [
    "<div><table></table>x</div>",
    "<div><table> <!--c-->\n</table>x</div>",
])
def test_unwrapped(data):
    assert_accepted(data, "table", "remove_and_keep_content")


@pytest.mark.parametrize("data", [
    "<div><table> x</table></div>",
    "<div><table>&#32;</table></div>",
    "<div><table>\x00</table></div>",
    "<div><table></body></table>x</div>",
    "<div><table><!--></table>--></table>",
])
def test_refused(data):
    # (Unwrapped, a table whose source is text alone is accepted:
    # tests/rewriter/test_table_end_before.py, test_unwrapped_text.)
    text_alone = data in ("<div><table> x</table></div>", "<div><table>&#32;</table></div>")
    for operation in ("rename",) if text_alone else ("rename", "remove_and_keep_content"):
        assert_refused(data, "table", operation, "reads otherwise in a table")


@pytest.mark.parametrize("data", [
    "<pre><table>\n</table>x",
    "<table>\n</table><frameset>",
    "<p><b>x</p><table> </table>y",
    "<div><table><table></table></table>",
    "<div><table> <!--x--> ",
    "<template><table> </table></template>",
    "<svg><foreignObject><table> </table>x</foreignObject></svg>",
    "<!doctype html><p><table></table>",
])
def test_near_cases_reparse(data):
    for operation in ("rename", "remove_and_keep_content"):
        assert_reparses(data, operation, chunked=True)
