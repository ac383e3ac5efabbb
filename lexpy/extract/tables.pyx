# cython: language_level=3
"""Tables after the HTML standard's table processing model: form_table()
runs "forming a table" over a table element (row groups in thead/tbody
order with tfoot last, rowspan 0 growing to the end of its row group,
colspan and rowspan parsed and capped as the standard says, cells spanning
into rows no tr makes), table_grid() gives its rows of cell texts and
read_tables() one list of records per table, header rows detected as
pandas.read_html detects them.

Slots are not materialized while forming the table: the cells that cover
the current row are kept as column intervals, so a cell's rowspan and
colspan cost nothing until a grid is asked for."""
from lexpy.dom.dom cimport (Node, CNode, CElement, CAttr, ELEMENT_NODE, element_find_attribute,
                            node_proxy)
from lexpy.core.names cimport (NS_HTML, NS__UNDEF, TAG_TABLE, TAG_CAPTION, TAG_COLGROUP,
                               TAG_COL, TAG_THEAD, TAG_TBODY, TAG_TFOOT, TAG_TR, TAG_TD,
                               TAG_TH, ATTR_COLSPAN, ATTR_ROWSPAN, ATTR_SPAN)
from libc.stdint cimport uint8_t, int64_t

cdef extern from *:
    """
    #define LXP_QUIRKS 1
    """
    int LXP_QUIRKS

# the caps of "forming a table" (colspan: 1000; rowspan: 65534)
cdef enum:
    COLSPAN_MAX = 1000
    ROWSPAN_MAX = 65534


cdef inline bint is_html(CNode* node, unsigned int tag) noexcept nogil:
    return (node.type == ELEMENT_NODE and (<CElement*> node).ns == NS_HTML
            and (<CElement*> node).tag_id == tag)


cdef inline bint is_ascii_whitespace(uint8_t c) noexcept nogil:
    return c == 0x20 or c == 0x09 or c == 0x0A or c == 0x0C or c == 0x0D


# https://html.spec.whatwg.org/multipage/common-microsyntaxes.html#rules-for-parsing-non-negative-integers
cdef int64_t non_negative_integer(CNode* node, unsigned int name, int64_t cap) noexcept nogil:
    """The attribute's value by the rules for parsing non-negative integers,
    capped at `cap` (the callers cap it lower); -1: missing or an error."""
    cdef CAttr* attr = element_find_attribute(<CElement*> node, name, NS__UNDEF)
    cdef size_t i = 0
    cdef int64_t value = 0
    cdef bint negative = False
    cdef bint digits = False
    if attr == NULL:
        return -1
    while i < attr.value_length and is_ascii_whitespace(attr.value[i]):
        i += 1
    if i < attr.value_length and attr.value[i] == 0x2D:
        negative = True
        i += 1
    elif i < attr.value_length and attr.value[i] == 0x2B:
        i += 1
    while i < attr.value_length and 0x30 <= attr.value[i] <= 0x39:
        digits = True
        if value <= cap:
            value = value * 10 + (attr.value[i] - 0x30)
        i += 1
    if not digits or (negative and value != 0):
        return -1
    return value if value <= cap else cap + 1


cdef class _Cell:
    cdef public int64_t x, y, width, height
    cdef public bint header
    cdef public object element
    cdef bint grows


cdef class _Span:
    # the columns [x, x + width) that `cell` covers down to row y_end
    # (exclusive; -1 while the cell grows downward)
    cdef int64_t x, width, y_end
    cdef _Cell cell


cdef class _TableModel:
    cdef int64_t x_width, y_height, y_current
    cdef list cells
    cdef dict columns          # column -> the _Span covering it in the current
                               # row and below (the first one placed)
    cdef dict ending           # row -> the _Spans that end above it
    cdef list growing          # the _Spans of the cells growing downward
    cdef list downward         # cells growing downward
    cdef list row_groups
    cdef list errors
    cdef list column_groups
    cdef bint quirks
    cdef object caption

    def __cinit__(self):
        self.cells = []
        self.columns = {}
        self.ending = {}
        self.growing = []
        self.downward = []
        self.row_groups = []
        self.errors = []
        self.column_groups = []

    cdef void release(self, _Span span):
        """The columns of a span that ends are free again (those it holds)."""
        cdef int64_t x
        for x in range(span.x, span.x + span.width):
            if self.columns.get(x) is span:
                del self.columns[x]

    cdef void active_spans(self):
        """Release the spans that end above the current row."""
        cdef _Span span
        cdef list ended = self.ending.pop(self.y_current, None)
        if ended is not None:
            for span in ended:
                self.release(span)

    cdef _Span covering(self, int64_t x):
        return self.columns.get(x)

    # https://html.spec.whatwg.org/multipage/tables.html#algorithm-for-growing-downward-growing-cells
    # https://html.spec.whatwg.org/multipage/tables.html#algorithm-for-ending-a-row-group
    cdef void end_row_group(self):
        cdef _Span span
        cdef _Cell cell
        # "while y_current < y_height: grow the downward-growing cells,
        # y_current += 1"; a row's processing grows them too. Every growth
        # sets a cell's height from y_current, so only the last counts: the
        # cells are grown once, here, to the row group's last row.
        if self.y_current < self.y_height:
            self.y_current = self.y_height
        for cell in self.downward:
            cell.height = self.y_current - cell.y
        for span in self.growing:
            span.y_end = span.cell.y + span.cell.height
            self.release(span)
        self.growing = []
        self.downward = []
        # the spans ending in rows skipped over end now
        for row in sorted(key for key in self.ending if key <= self.y_current):
            for span in self.ending.pop(row):
                self.release(span)

    # https://html.spec.whatwg.org/multipage/tables.html#algorithm-for-processing-row-groups
    cdef void process_row_group(self, CNode* group):
        cdef int64_t y_start = self.y_height
        cdef CNode* child = group.first_child
        while child != NULL:
            if is_html(child, TAG_TR):
                self.process_row(child)
            child = child.next
        if self.y_height > y_start:
            self.row_groups.append({"y": y_start, "height": self.y_height - y_start,
                                    "element": Node_proxy(group)})
        self.end_row_group()

    # https://html.spec.whatwg.org/multipage/tables.html#algorithm-for-processing-rows
    cdef void process_row(self, CNode* row):
        cdef int64_t x_current = 0
        cdef int64_t colspan, rowspan
        cdef bint grows
        cdef CNode* child
        cdef _Span span
        cdef _Cell cell
        if self.y_height == self.y_current:
            self.y_height += 1
        self.active_spans()
        child = row.first_child
        while child != NULL:
            if not (is_html(child, TAG_TD) or is_html(child, TAG_TH)):
                child = child.next
                continue
            # Cells: the first slot of the row no cell covers
            while x_current < self.x_width:
                span = self.covering(x_current)
                if span is None:
                    break
                x_current = span.x + span.width
            if x_current >= self.x_width:
                self.x_width = x_current + 1
            colspan = non_negative_integer(child, ATTR_COLSPAN, COLSPAN_MAX)
            if colspan <= 0:
                colspan = 1
            elif colspan > COLSPAN_MAX:
                colspan = COLSPAN_MAX
            rowspan = non_negative_integer(child, ATTR_ROWSPAN, ROWSPAN_MAX)
            if rowspan < 0:
                rowspan = 1
            elif rowspan > ROWSPAN_MAX:
                rowspan = ROWSPAN_MAX
            grows = False
            if rowspan == 0 and not self.quirks:
                grows = True
                rowspan = 1
            if self.x_width < x_current + colspan:
                self.x_width = x_current + colspan
            if self.y_height < self.y_current + rowspan:
                self.y_height = self.y_current + rowspan
            cell = _Cell()
            cell.x = x_current
            cell.y = self.y_current
            cell.width = colspan
            cell.height = rowspan
            cell.header = is_html(child, TAG_TH)
            cell.element = Node_proxy(child)
            cell.grows = grows
            if rowspan > 0:
                span = _Span()
                span.x = x_current
                span.width = colspan
                span.y_end = -1 if grows else self.y_current + rowspan
                span.cell = cell
                overlapped = None
                for x in range(x_current, x_current + colspan):
                    other = self.columns.get(x)
                    if other is None:
                        self.columns[x] = span
                    elif overlapped is None:
                        overlapped = other
                if overlapped is not None:
                    self.errors.append({"overlap": [(<_Span> overlapped).cell.x,
                                                    (<_Span> overlapped).cell.y,
                                                    cell.x, cell.y]})
                if grows:
                    self.growing.append(span)
                else:
                    self.ending.setdefault(span.y_end, []).append(span)
            self.cells.append(cell)
            if grows:
                self.downward.append(cell)
            x_current += colspan
            child = child.next
        self.y_current += 1


cdef object Node_proxy(CNode* node):
    return node_proxy(node)


def _form(Node table not None):
    cdef CNode* c_table = table.c_node
    cdef CNode* child
    cdef CNode* col
    cdef _TableModel model = _TableModel()
    cdef int64_t span
    cdef list pending_tfoot = []
    cdef CNode* tfoot
    if not is_html(c_table, TAG_TABLE):
        raise ValueError("not an HTML table element")
    model.quirks = c_table.owner != NULL and c_table.owner.quirks_mode == LXP_QUIRKS
    child = c_table.first_child
    while child != NULL:
        if is_html(child, TAG_CAPTION):
            model.caption = Node_proxy(child)
            break
        child = child.next
    # https://html.spec.whatwg.org/multipage/tables.html#forming-a-table
    child = c_table.first_child
    while child != NULL and not (is_html(child, TAG_COLGROUP) or is_html(child, TAG_THEAD)
                                 or is_html(child, TAG_TBODY) or is_html(child, TAG_TFOOT)
                                 or is_html(child, TAG_TR)):
        child = child.next
    # Column groups
    while child != NULL and is_html(child, TAG_COLGROUP):
        start = model.x_width
        col = child.first_child
        has_cols = False
        while col != NULL:
            if is_html(col, TAG_COL):
                has_cols = True
                span = non_negative_integer(col, ATTR_SPAN, 1000)
                model.x_width += 1 if span <= 0 else min(span, 1000)
            col = col.next
        if not has_cols:
            span = non_negative_integer(child, ATTR_SPAN, 1000)
            model.x_width += 1 if span <= 0 else min(span, 1000)
        if model.x_width > start:
            model.column_groups.append({"x": start, "width": model.x_width - start,
                                        "element": Node_proxy(child)})
        child = child.next
        while child != NULL and not (is_html(child, TAG_COLGROUP) or is_html(child, TAG_THEAD)
                                     or is_html(child, TAG_TBODY) or is_html(child, TAG_TFOOT)
                                     or is_html(child, TAG_TR)):
            child = child.next
    # Rows
    while child != NULL:
        if is_html(child, TAG_TR):
            model.process_row(child)
        elif is_html(child, TAG_TFOOT):
            model.end_row_group()
            pending_tfoot.append(Node_proxy(child))
        elif is_html(child, TAG_THEAD) or is_html(child, TAG_TBODY):
            model.end_row_group()
            model.process_row_group(child)
        child = child.next
    model.end_row_group()
    for tfoot_node in pending_tfoot:
        model.process_row_group((<Node> tfoot_node).c_node)
    return model


def form_table(table):
    """The table model of an HTML table element ("forming a table"): a dict
    with the table's `width` and `height` (x_width, y_height), its `cells`
    in the order the algorithm makes them (each a dict: `x`, `y`, `width`,
    `height`, `header` (th), `element`), its `row_groups` and
    `column_groups` ({y or x, height or width, element}), its `caption`
    element or None and the overlapping cells among `errors`."""
    cdef _TableModel model = _form(table)
    cdef _Cell cell
    return {
        "width": model.x_width,
        "height": model.y_height,
        "cells": [{"x": cell.x, "y": cell.y, "width": cell.width, "height": cell.height,
                   "header": cell.header, "element": cell.element} for cell in model.cells],
        "row_groups": model.row_groups,
        "column_groups": model.column_groups,
        "caption": model.caption,
        "errors": model.errors,
        "quirks": model.quirks,
    }


_WHITESPACE_TO_SPACE = {ord(c): " " for c in "\t\n\x0c\r"}


def _collapse(text):
    return " ".join(part for part in text.translate(_WHITESPACE_TO_SPACE).split(" ") if part)


def grid_indexes(model):
    """The rows of a table model's slots: the index in model["cells"] of the
    cell covering each slot (the first one when two overlap), None where
    no cell does."""
    width, height = model["width"], model["height"]
    grid = [[None] * width for _ in range(height)]
    for index, cell in enumerate(model["cells"]):
        for y in range(cell["y"], cell["y"] + cell["height"]):
            row = grid[y]
            for x in range(cell["x"], cell["x"] + cell["width"]):
                if row[x] is None:
                    row[x] = index
    return grid


def table_grid(table, *, text=None):
    """The rows of an HTML table after the standard's table model: each row
    a list of the table's width, each slot the text of the cell covering it
    (a spanned cell's text in every slot it covers) or None where no cell
    does. `text` maps a cell element to its text (default: its inner_text,
    whitespace collapsed)."""
    model = form_table(table)
    texts = [(text or _inner_text)(cell["element"]) for cell in model["cells"]]
    return [[None if index is None else texts[index] for index in row]
            for row in grid_indexes(model)]


def _inner_text(element):
    return _collapse(element.inner_text or "")


def _tables_in(node):
    if getattr(node, "local_name", None) == "table" and \
            node.namespace_uri == "http://www.w3.org/1999/xhtml":
        yield node
    for element in node.iter("table"):
        if element.namespace_uri == "http://www.w3.org/1999/xhtml":
            yield element


def read_tables(node, *, header="auto"):
    """One list of records (dicts) per HTML table at or below `node`, in
    tree order (nested tables are their own tables), ready for
    pandas.DataFrame(records). `header`: "auto" takes the thead rows, or
    else the leading rows made only of th cells, as column names, as
    pandas.read_html does (several header rows give tuple keys; a repeated
    name gets .1, .2, ...); an int takes that row; None gives the column
    numbers. Values are the cells' texts as pandas reads them (textContent,
    <br> a space, whitespace collapsed) except that a nested table's text is
    left out of the cell that holds it; None for an empty slot; tfoot rows
    come last as the table model puts them."""
    return [_records(table, header) for table in _tables_in(node)]


_HTML_NS = "http://www.w3.org/1999/xhtml"


def _cell_text(cell):
    """A cell's text as pandas.read_html reads it: the text nodes below it
    (textContent) with <br> as a space and runs of ASCII whitespace
    collapsed, leaving out a nested table (its own table here). One walk of
    the cell's own part of the tree: linear over all the tables."""
    pieces = []
    node = cell.first_child
    while node is not None:
        kind = node.node_type
        descend = False
        if kind == 3:
            pieces.append(node.text_content or "")
        elif kind == 1:
            if node.namespace_uri == _HTML_NS and node.local_name in ("table", "br"):
                pieces.append(" ")
            else:
                descend = True
        child = node.first_child if descend else None
        if child is not None:
            node = child
            continue
        while node is not None and node is not cell:
            following = node.next_sibling
            if following is not None:
                node = following
                break
            node = node.parent
        if node is cell:
            break
    return _collapse("".join(pieces))


def _records(table, header):
    model = form_table(table)
    cells = model["cells"]
    texts = [_cell_text(cell["element"]) for cell in cells]
    grid = grid_indexes(model)
    rows = [[None if index is None else texts[index] for index in row] for row in grid]
    if header == "auto":
        header_rows = 0
        thead = [group for group in model["row_groups"]
                 if group["element"].local_name == "thead"]
        if thead:
            group = thead[0]
            if group["y"] == 0:
                header_rows = group["height"]
        else:
            for row in grid:
                if row and all(index is not None and cells[index]["header"] for index in row):
                    header_rows += 1
                else:
                    break
            if header_rows == len(grid):
                header_rows = min(header_rows, 1)
        # pandas drops header rows with no text
        header_list = [row for row in rows[:header_rows] if any(row)]
        body = rows[header_rows:]
    elif header is None:
        header_list, body = [], rows
    elif 0 <= header < len(rows):
        header_list, body = [rows[header]], rows[header + 1:]
    else:  # a table with fewer rows than `header` names: no records
        header_list, body = [], []
    width = model["width"]
    if not header_list:
        names = list(range(width))
    elif len(header_list) == 1:
        names = _deduplicated([name if name is not None else "Unnamed: %d" % i
                               for i, name in enumerate(header_list[0])])
    else:
        names = [tuple(row[i] for row in header_list) for i in range(width)]
    return [{name: (value if value != "" else None) for name, value in zip(names, row)}
            for row in body]


def _deduplicated(names):
    seen = {}
    out = []
    for name in names:
        if name in seen:
            seen[name] += 1
            out.append("%s.%d" % (name, seen[name]))
        else:
            seen[name] = 0
            out.append(name)
    return out
