"""lexpy.table_grid / read_tables / lexpy.extract.tables.form_table over
every case of ../shared/scrape/tables/cases.json (the HTML standard's table
model), and read_tables against pandas' own expected frames and
pandas.read_html on the pandas cases."""
import io
import math

import pytest

import lexpy
from lexpy.extract import tables
from tests.extract.scrape_data import table_cases

CASES = table_cases()
WRONG = {
    "own-29-template-in-table":
        "the expectation counts the template's contents as rows, but they are a "
        "DocumentFragment, not children of the table "
        "(https://html.spec.whatwg.org/multipage/scripting.html#template-contents; "
        "the case's own note says 'template contents are not rows')",
}


def _table(case):
    document = lexpy.parse(case["html"])
    return list(document.iter("table"))[case["table_index"]]


def _collapsed_text_content(element):
    return " ".join((element.text_content or "").split())


def test_every_case_is_collected():
    assert len(CASES) == 57


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_forming_a_table(case):
    if case["id"] in WRONG:
        pytest.xfail(WRONG[case["id"]])
    model = tables.form_table(_table(case))
    expected = case["expected"]
    assert (model["width"], model["height"]) == (expected["width"], expected["height"])
    assert [(c["x"], c["y"], c["width"], c["height"], c["header"]) for c in model["cells"]] \
        == [(c["x"], c["y"], c["width"], c["height"], c["header"]) for c in expected["cells"]]
    assert [c["element"].get_attribute("id") for c in model["cells"]] \
        == [c.get("id") for c in expected["cells"]]
    assert [(g["y"], g["height"], g["element"].local_name) for g in model["row_groups"]] \
        == [(g["y"], g["height"], g["element"]) for g in expected.get("row_groups", [])]
    if "grid" in expected:
        assert tables.grid_indexes(model) == expected["grid"]
    if "caption" in expected:
        assert _collapsed_text_content(model["caption"]) == expected["caption"]
    # the case's texts are textContent collapsed: the same rule gives its rows
    if "rows" in expected:
        rows = lexpy.table_grid(_table(case), text=_collapsed_text_content)
        assert rows == expected["rows"]


INNER_TEXT_DIFFERS = {"own-24-whitespace-text", "own-25-script-style-in-cell",
                      "own-18-nested-table", "pandas-15",
                      "own-30-select-in-table"}  # option elements are lines of innerText


@pytest.mark.parametrize("case", [c for c in CASES if "rows" in c["expected"]
                                  and c["id"] not in WRONG],
                         ids=lambda c: c["id"])
def test_table_grid_texts_by_inner_text(case):
    rows = lexpy.table_grid(_table(case))
    if case["id"] in INNER_TEXT_DIFFERS:
        # innerText drops script/style text, nested tables' rows become lines
        assert rows != case["expected"]["rows"]
        assert [[cell is None for cell in row] for row in rows] == \
            [[cell is None for cell in row] for row in case["expected"]["rows"]]
    else:
        assert rows == case["expected"]["rows"]


PANDAS = [c for c in CASES if c.get("pandas")]


def _typed(value):
    # pandas' value typing, for the comparison: ints, floats, NaN for empty
    if value is None:
        return None
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def _frame(case):
    kwargs = case["pandas"]["read_html_kwargs"]
    assert set(kwargs) <= {"header", "index_col"}, kwargs
    [records] = lexpy.read_tables(_table(case), header=kwargs.get("header", "auto"))
    columns = list(records[0]) if records else []
    rows = [[_typed(record[name]) for name in columns] for record in records]
    columns = [list(name) if isinstance(name, tuple) else name for name in columns]
    index = None
    if kwargs.get("index_col") == 0:
        index = [row[0] for row in rows]
        rows = [row[1:] for row in rows]
        columns = columns[1:]
    return columns, index, rows


@pytest.mark.parametrize("case", PANDAS, ids=[c["id"] for c in PANDAS])
def test_read_tables_equals_pandas_expected_frame(case):
    expected = case["pandas"]["expected_frame"]
    columns, index, rows = _frame(case)
    assert columns == expected["columns"]
    assert rows == expected["rows"]
    if "index" in expected:
        assert index == expected["index"]


@pytest.mark.parametrize("case", PANDAS, ids=[c["id"] for c in PANDAS])
def test_read_tables_equals_pandas_read_html(case):
    import pandas  # the test extra installs it
    kwargs = dict(case["pandas"]["read_html_kwargs"])
    frames = pandas.read_html(io.StringIO(case["html"]), flavor="lxml", **kwargs)
    frame = frames[0]
    columns, index, rows = _frame(case)
    assert [list(c) if isinstance(c, tuple) else c for c in frame.columns] == columns
    theirs = [[None if isinstance(v, float) and math.isnan(v) else v for v in row]
              for row in frame.itertuples(index=False, name=None)]
    assert theirs == rows


def test_hostile_spans_are_capped_and_linear():
    document = lexpy.parse('<table><tr><td rowspan=999999 colspan=-1>a<td colspan=99999>b'
                           '<td rowspan=-3 colspan=" +2x">c</table>')
    model = tables.form_table(next(document.iter("table")))
    assert [(c["x"], c["width"], c["height"]) for c in model["cells"]] == \
        [(0, 1, 65534), (1, 1000, 1), (1001, 2, 1)]
    assert model["height"] == 65534


def test_many_nested_tables():
    # every table is read; a nested table's text is its own, not its cell's
    depth = 20000
    document = lexpy.parse("<table><tr><td>a<b>b</b>" * depth + "x")
    found = lexpy.read_tables(document)
    assert len(found) == depth
    assert found[0] == [{0: "ab"}]
    assert found[-1] == [{0: "abx"}]


def test_nested_table_text_is_left_out_of_its_cell():
    document = lexpy.parse("<table><tr><th>h<tr><td>a <div><i>b</i><table><tr><td>in"
                           "</table>c</div>d</table>")
    outer, inner = lexpy.read_tables(document)
    assert outer == [{"h": "a b cd"}]  # textContent: no break at the div
    document = lexpy.parse("<table><tr><td>a<br>b<script>s</script></table>")
    assert lexpy.read_tables(document) == [[{0: "a bs"}]]  # pandas' text_content
    assert inner == [{0: "in"}]


def test_header_rows_past_the_end_give_no_records():
    document = lexpy.parse("<table><tr><td>a</table><table></table>")
    assert lexpy.read_tables(document, header=0) == [[], []]
    assert lexpy.read_tables(document, header=5) == [[], []]
    assert lexpy.read_tables(document, header=None) == [[{0: "a"}], []]
    assert lexpy.read_tables(document) == [[{0: "a"}], []]
