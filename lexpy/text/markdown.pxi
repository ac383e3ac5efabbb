# HTML to Markdown: CommonMark (https://spec.commonmark.org/0.31.2/), with
# GFM tables (https://github.github.com/gfm/#tables-extension-). One walk in
# tree order without recursion; containers (block quotes, list items) are
# line prefixes and first-line markers of the TextWriter, their saved
# prefix lengths a heap stack. Text is escaped so that it renders back as
# text.


cdef struct MarkdownList:
    int64_t number                # the next number; -1: a bullet list
    uint8_t delimiter             # '-' or '*' (bullets), '.' or ')' (numbers)
    bint loose                    # items are paragraphs: blank lines between
    bint started                  # an item was written


cdef struct MarkdownWalk:
    uint32_t preformatted         # open <pre> (a fenced code block)
    uint32_t code                 # open inline <code>
    uint32_t heading              # open headings (one line: breaks are spaces)
    uint32_t cell                 # open table cells (one line)
    uint32_t link                 # open links (no blank line inside)
    uint32_t table                # nonzero while a GFM table is written
    uint32_t inner_tables         # open tables inside it (text only)
    uint32_t items                # open list items
    uint32_t emphasis             # open <em>: nested ones use the other
                                  # delimiter (<em><em> is not <strong>)
    uint32_t strong               # open <strong>, likewise
    uint32_t table_row            # rows written in it
    uint32_t row_cells            # cells in the current row
    uint32_t table_columns        # cells in its widest row
    size_t fence_length           # of the open code block or code span
    uint8_t fence_char
    MarkdownList* lists
    size_t lists_length
    size_t lists_capacity
    size_t* saved                 # prefix length before each open container
    size_t saved_length
    size_t saved_capacity
    size_t last_list_end          # output length where the last list ended
    uint8_t last_list_delimiter


cdef int grow_array(void** array, size_t* capacity, size_t item) noexcept nogil:
    cdef size_t new_capacity = capacity[0] * 2 if capacity[0] else 16
    cdef void* grown = realloc(array[0], new_capacity * item)
    if grown == NULL:
        return -1
    array[0] = grown
    capacity[0] = new_capacity
    return 0


cdef inline bint is_ascii_alphanumeric(uint8_t c) noexcept nogil:
    return (0x30 <= c <= 0x39) or (0x41 <= c <= 0x5A) or (0x61 <= c <= 0x7A)


cdef inline bint is_heading(CElement* element) noexcept nogil:
    cdef lxp_tag_id_t tag = element.tag_id
    return tag == TAG_H1 or tag == TAG_H2 or tag == TAG_H3 or tag == TAG_H4 \
        or tag == TAG_H5 or tag == TAG_H6


cdef void md_content_begin(TextWriter* w) noexcept nogil:
    """Before inline content: waiting newlines and prefix, a collapsed space,
    emphasis openers."""
    if w.pending_space:
        writer_space_if_pending(w)
    else:
        writer_flush_breaks(w)
    if w.opens_length:
        if w.opens[0] == 0x5B and w.length > w.start and w.data[w.length - 1] == 0x21:
            # "!" then a link would be an image: escape the "!"
            w.data[w.length - 1] = 0x5C
            writer_raw_byte(w, 0x21)
        writer_raw(w, w.opens, w.opens_length)
        w.opens_length = 0
        w.line_begin = False


cdef inline void md_raw(TextWriter* w, const char* text) noexcept nogil:
    writer_raw(w, <const uint8_t*> text, strlen(text))


cdef inline bint in_tight_item(MarkdownWalk* m) noexcept nogil:
    return m.lists_length > 0 and not m.lists[m.lists_length - 1].loose \
        and m.items > 0


cdef void md_block(TextWriter* w, MarkdownWalk* m, uint32_t count) noexcept nogil:
    """A block boundary; inside a heading, table cell or link (one line of
    Markdown) a space."""
    if m.heading or m.cell or m.link:
        if not w.line_start:
            w.pending_space = True
        return
    if count > 1 and in_tight_item(m):
        count = 1               # a blank line would make the list loose
    writer_break(w, count)


cdef void md_open(TextWriter* w, const char* marks) noexcept nogil:
    cdef size_t length = strlen(marks)
    if length <= sizeof(w.opens) - w.opens_length:
        memcpy(w.opens + w.opens_length, marks, length)
        w.opens_length += length


cdef void md_close(TextWriter* w, const char* marks) noexcept nogil:
    """Close emphasis: an opener still waiting (no content) is dropped."""
    cdef size_t length = strlen(marks)
    if w.opens_length >= length:
        w.opens_length -= length
        return
    writer_raw(w, <const uint8_t*> marks, length)


cdef void md_text(TextWriter* w, MarkdownWalk* m, const uint8_t* data,
                  size_t length) noexcept nogil:
    """Collapsed text with the backslash escapes that keep it text
    (https://spec.commonmark.org/0.31.2/#backslash-escapes)."""
    cdef size_t i = 0
    cdef size_t run
    cdef size_t end
    cdef size_t digits
    cdef size_t escape_at
    cdef uint8_t c
    cdef uint8_t before
    cdef uint8_t after
    cdef bint escape
    while i < length:
        if is_collapsible(data[i]):
            if not w.line_start:
                w.pending_space = True
            i += 1
            continue
        run = i
        while i < length and not is_collapsible(data[i]):
            i += 1
        end = i
        md_content_begin(w)
        escape_at = <size_t> -1
        if w.line_begin:
            # "1." or "1)" at the start of a line would start a list.
            digits = 0
            while run + digits < end and digits < 10 \
                    and 0x30 <= data[run + digits] <= 0x39:
                digits += 1
            if 0 < digits < 10 and run + digits < end \
                    and (data[run + digits] == 0x2E or data[run + digits] == 0x29):
                escape_at = run + digits
        for run in range(run, end):
            c = data[run]
            escape = False
            if c == 0x5C or c == 0x60 or c == 0x2A or c == 0x5B or c == 0x5D:
                escape = True                       # \ ` * [ ]
            elif c == 0x5F:                         # _ not inside a word
                before = data[run - 1] if run > 0 and not is_collapsible(data[run - 1]) else 0
                after = data[run + 1] if run + 1 < end else 0
                escape = not (is_ascii_alphanumeric(before) and is_ascii_alphanumeric(after)) \
                    or w.line_begin
            elif c == 0x3C:                         # < that could open a tag
                after = data[run + 1] if run + 1 < length else 0
                escape = after == 0 or after == 0x2F or after == 0x21 or after == 0x3F \
                    or is_ascii_alphanumeric(after)
            elif c == 0x26:                         # & that could start a reference
                after = data[run + 1] if run + 1 < length else 0
                escape = after == 0x23 or is_ascii_alphanumeric(after)
            elif c == 0x7C:                         # | in a table cell
                escape = m.cell > 0 or m.table > 0
            elif c == 0x23:                         # # at a line start, in a heading
                escape = w.line_begin or m.heading > 0
            elif w.line_begin and (c == 0x3E or c == 0x2D or c == 0x2B or c == 0x3D
                                   or c == 0x7E):   # > - + = ~ at a line start
                escape = True
            elif run == escape_at:
                escape = True
            if escape:
                writer_raw_byte(w, 0x5C)
            writer_raw_byte(w, c)
            w.line_begin = False
        w.line_start = False


cdef void md_code_text(TextWriter* w, const uint8_t* data, size_t length) noexcept nogil:
    """Code span content: as is, line endings as spaces
    (https://spec.commonmark.org/0.31.2/#code-spans)."""
    cdef size_t i
    for i in range(length):
        writer_raw_byte(w, 0x20 if data[i] == 0x0A or data[i] == 0x0D else data[i])


cdef size_t longest_run(CNode* root, uint8_t c, bint line_start_only) noexcept nogil:
    """The longest run of `c` in the subtree's text (at line starts only:
    what could close a code fence)."""
    cdef CNode* node = root.first_child
    cdef CCharacterData* text
    cdef size_t best = 0
    cdef size_t run = 0
    cdef size_t i
    cdef bint at_start = True
    while node != NULL:
        if node.type == TEXT_NODE:
            text = <CCharacterData*> node
            for i in range(text.length):
                if text.data[i] == c and (at_start or run or not line_start_only):
                    run += 1
                    if run > best:
                        best = run
                else:
                    run = 0
                    at_start = text.data[i] == 0x0A or (
                        at_start and text.data[i] == 0x20)
        node = next_in_tree(node, root)
    return best


cdef void code_span_shape(CNode* root, size_t* fence, bint* pad,
                          bint* empty) noexcept nogil:
    """Backticks one more than the longest run inside; a space of padding
    when the content starts or ends with a backtick or with spaces on
    both sides."""
    cdef CNode* node = root.first_child
    cdef CCharacterData* text
    cdef uint8_t first = 0
    cdef uint8_t last = 0
    cdef bint all_space = True
    cdef size_t i
    while node != NULL:
        if node.type == TEXT_NODE:
            text = <CCharacterData*> node
            for i in range(text.length):
                if first == 0:
                    first = text.data[i]
                last = text.data[i]
                if text.data[i] != 0x20 and text.data[i] != 0x0A:
                    all_space = False
        node = next_in_tree(node, root)
    empty[0] = first == 0
    fence[0] = longest_run(root, 0x60, False) + 1
    if first == 0x0A:
        first = 0x20
    if last == 0x0A:
        last = 0x20
    pad[0] = not all_space and (first == 0x60 or last == 0x60
                                or (first == 0x20 and last == 0x20))


cdef void write_attribute_value(TextWriter* w, const uint8_t* value,
                                size_t length, bint in_title) noexcept nogil:
    """A link destination (<...> when it has spaces or parentheses) or a
    title ("..."), escaped."""
    cdef size_t i
    cdef uint8_t c
    cdef bint angle = False
    if not in_title:
        if length == 0:
            md_raw(w, "<>")
            return
        for i in range(length):
            c = value[i]
            if c == 0x20 or c == 0x28 or c == 0x29 or c < 0x20 or c == 0x3C:
                angle = True
        if angle:
            writer_raw_byte(w, 0x3C)
        for i in range(length):
            c = value[i]
            if c == 0x0A or c == 0x0D:
                md_raw(w, "%0A")
                continue
            if c == 0x5C or c == 0x3E or c == 0x3C:
                writer_raw_byte(w, 0x5C)
            writer_raw_byte(w, c)
        if angle:
            writer_raw_byte(w, 0x3E)
        return
    writer_raw_byte(w, 0x22)
    for i in range(length):
        c = value[i]
        if c == 0x22 or c == 0x5C:
            writer_raw_byte(w, 0x5C)
        writer_raw_byte(w, c)
    writer_raw_byte(w, 0x22)


cdef void write_destination(TextWriter* w, CElement* element,
                            lxp_attr_id_t name) noexcept nogil:
    cdef CAttr* target = element_find_attribute(element, name, NS__UNDEF)
    cdef CAttr* title = element_find_attribute(element, ATTR_TITLE, NS__UNDEF)
    writer_raw_byte(w, 0x28)
    if target != NULL:
        write_attribute_value(w, target.value, target.value_length, False)
    else:
        md_raw(w, "<>")
    if title != NULL:
        writer_raw_byte(w, 0x20)
        write_attribute_value(w, title.value, title.value_length, True)
    writer_raw_byte(w, 0x29)


cdef void write_image(TextWriter* w, MarkdownWalk* m, CElement* element) noexcept nogil:
    cdef CAttr* alt = element_find_attribute(element, ATTR_ALT, NS__UNDEF)
    cdef CAttr* src = element_find_attribute(element, ATTR_SRC, NS__UNDEF)
    if src != NULL and src.value_length >= 5 and memcmp(src.value, b"data:", 5) == 0:
        # An inline data: image (kilobytes of base64, often a placeholder):
        # its alternative text only.
        if alt != NULL:
            md_text(w, m, alt.value, alt.value_length)
        return
    md_content_begin(w)
    md_raw(w, "![")
    w.line_begin = False
    w.line_start = False
    if alt != NULL:
        m.link += 1
        md_text(w, m, alt.value, alt.value_length)
        m.link -= 1
        w.pending_space = False
    writer_raw_byte(w, 0x5D)
    write_destination(w, element, ATTR_SRC)
    w.line_start = False


cdef void write_raw_tag(TextWriter* w, CElement* element, bint end) noexcept nogil:
    """An element Markdown cannot express, as inline raw HTML
    (https://spec.commonmark.org/0.31.2/#raw-html)."""
    cdef size_t length
    cdef const uint8_t* name = element_local_name(element, &length)
    cdef const uint8_t* attr_name
    cdef size_t attr_length
    cdef CAttr* attr
    cdef uint32_t i
    cdef size_t j
    md_content_begin(w)
    writer_raw_byte(w, 0x3C)
    if end:
        writer_raw_byte(w, 0x2F)
    writer_raw(w, name, length)
    if not end:
        for i in range(element.attr_count):
            attr = &element.attrs[i]
            attr_name = attr_name_of(element.node.owner.attr_names, attr.local_name,
                                     &attr_length)
            if attr_name == NULL:
                continue
            writer_raw_byte(w, 0x20)
            writer_raw(w, attr_name, attr_length)
            md_raw(w, "=\"")
            for j in range(attr.value_length):
                if attr.value[j] == 0x22:
                    md_raw(w, "&quot;")
                elif attr.value[j] == 0x26:
                    md_raw(w, "&amp;")
                else:
                    writer_raw_byte(w, attr.value[j])
            writer_raw_byte(w, 0x22)
    writer_raw_byte(w, 0x3E)
    w.line_begin = False
    w.line_start = False


cdef bint is_void(CElement* element) noexcept nogil:
    cdef lxp_tag_id_t tag = element.tag_id
    return tag == TAG_AREA or tag == TAG_BASE or tag == TAG_BR or tag == TAG_COL \
        or tag == TAG_EMBED or tag == TAG_HR or tag == TAG_IMG or tag == TAG_INPUT \
        or tag == TAG_LINK or tag == TAG_META or tag == TAG_SOURCE \
        or tag == TAG_TRACK or tag == TAG_WBR


cdef uint32_t table_columns(CNode* table) noexcept nogil:
    """The most cells in a row of the table (rows of its row groups; not of
    tables inside it)."""
    cdef CNode* child = table.first_child
    cdef CNode* row
    cdef CNode* cell
    cdef uint32_t widest = 0
    cdef uint32_t cells
    while child != NULL:
        row = NULL
        if is_html(child, TAG_TR):
            row = child
        elif is_html(child, TAG_TBODY) or is_html(child, TAG_THEAD) or is_html(child, TAG_TFOOT):
            row = child.first_child
        while row != NULL:
            if is_html(row, TAG_TR):
                cells = 0
                cell = row.first_child
                while cell != NULL:
                    if is_html(cell, TAG_TD) or is_html(cell, TAG_TH):
                        cells += 1
                    cell = cell.next
                if cells > widest:
                    widest = cells
            if row == child:
                break
            row = row.next
        child = child.next
    return widest


cdef bint list_is_loose(CNode* list_node) noexcept nogil:
    """A list whose items hold paragraphs
    (https://spec.commonmark.org/0.31.2/#loose)."""
    cdef CNode* item = list_node.first_child
    cdef CNode* child
    while item != NULL:
        if is_html(item, TAG_LI):
            child = item.first_child
            while child != NULL:
                if is_html(child, TAG_P):
                    return True
                child = child.next
        item = item.next
    return False


cdef int md_save_prefix(TextWriter* w, MarkdownWalk* m) noexcept nogil:
    if m.saved_length == m.saved_capacity and grow_array(
            <void**> &m.saved, &m.saved_capacity, sizeof(size_t)) != 0:
        w.failed = True
        return -1
    m.saved[m.saved_length] = w.prefix_length
    m.saved_length += 1
    return 0


cdef void md_restore_prefix(TextWriter* w, MarkdownWalk* m) noexcept nogil:
    if w.marker_length:
        # An empty container still gets its marker ("-", ">").
        writer_flush_breaks(w)
        while w.length > w.start and w.data[w.length - 1] == 0x20:
            w.length -= 1
        w.line_begin = False
    if m.saved_length:
        m.saved_length -= 1
        writer_prefix_truncate(w, m.saved[m.saved_length])


cdef void md_list_item(TextWriter* w, MarkdownWalk* m, CElement* element) noexcept nogil:
    cdef char marker[32]
    cdef MarkdownList* current = &m.lists[m.lists_length - 1] if m.lists_length else NULL
    cdef size_t length
    if current == NULL or current.number < 0:
        snprintf(marker, sizeof(marker), "%c ",
                 current.delimiter if current != NULL else 0x2D)
    else:
        snprintf(marker, sizeof(marker), "%lld%c ", <long long> current.number,
                 current.delimiter)
        current.number += 1
    length = strlen(marker)
    writer_break(w, 2 if current != NULL and current.loose and current.started else 1)
    if current != NULL:
        current.started = True
    m.items += 1
    writer_newlines(w)
    md_save_prefix(w, m)
    writer_marker_push(w, <const uint8_t*> marker, length)
    memset(marker, 0x20, length)
    writer_prefix_push(w, <const uint8_t*> marker, length)
    w.line_begin = True
    w.line_start = True


cdef void md_enter_list(TextWriter* w, MarkdownWalk* m, CElement* element) noexcept nogil:
    cdef MarkdownList* entry
    cdef bint ordered = element.tag_id == TAG_OL
    md_block(w, m, 1 if in_tight_item(m) else 2)
    if m.lists_length == m.lists_capacity and grow_array(
            <void**> &m.lists, &m.lists_capacity, sizeof(MarkdownList)) != 0:
        w.failed = True
        return
    entry = &m.lists[m.lists_length]
    m.lists_length += 1
    entry.number = attribute_integer(element, ATTR_START, 1) if ordered else -1
    if entry.number < 0 and ordered:
        entry.number = 0
    if entry.number > 999999999:
        entry.number = 999999999
    entry.loose = list_is_loose(&element.node)
    entry.started = False
    # A list right after another of its kind would continue it: the other
    # delimiter starts a new one (https://spec.commonmark.org/0.31.2/#lists).
    if ordered:
        entry.delimiter = 0x29 if m.last_list_end == w.length \
            and m.last_list_delimiter == 0x2E else 0x2E
    else:
        entry.delimiter = 0x2A if m.last_list_end == w.length \
            and m.last_list_delimiter == 0x2D else 0x2D


cdef bint is_followable_link(CElement* element) noexcept nogil:
    """A link with a target that is not script (javascript: links are
    written as their text)."""
    cdef CAttr* href = element_find_attribute(element, ATTR_HREF, NS__UNDEF)
    cdef size_t i = 0
    cdef size_t j
    cdef const char* scheme = "javascript:"
    if href == NULL:
        return False
    while i < href.value_length and is_collapsible(href.value[i]):
        i += 1
    for j in range(11):
        if i + j >= href.value_length or (href.value[i + j] | 0x20 if 0x41 <= href.value[i + j] <= 0x5A
                                          else href.value[i + j]) != <uint8_t> scheme[j]:
            return True
    return False


cdef void md_enter_pre(TextWriter* w, MarkdownWalk* m, CElement* element) noexcept nogil:
    """A fenced code block; the info string from class="language-x" on the
    <code> inside (https://spec.commonmark.org/0.31.2/#fenced-code-blocks)."""
    cdef CNode* child = element.node.first_child
    cdef CAttr* klass = NULL
    cdef size_t i
    cdef size_t start
    md_block(w, m, 2)
    m.fence_char = 0x60
    m.fence_length = longest_run(&element.node, 0x60, True) + 1
    if m.fence_length < 3:
        m.fence_length = 3
    while child != NULL and child.type == TEXT_NODE:
        child = child.next
    if child != NULL and is_html(child, TAG_CODE):
        klass = element_find_attribute(<CElement*> child, ATTR_CLASS, NS__UNDEF)
    writer_flush_breaks(w)
    for i in range(m.fence_length):
        writer_raw_byte(w, m.fence_char)
    if klass != NULL:
        i = 0
        while i + 9 <= klass.value_length:
            if memcmp(klass.value + i, b"language-", 9) == 0 \
                    and (i == 0 or is_collapsible(klass.value[i - 1])):
                start = i + 9
                i = start
                while i < klass.value_length and not is_collapsible(klass.value[i]) \
                        and klass.value[i] != 0x60:
                    writer_raw_byte(w, klass.value[i])
                    i += 1
                break
            i += 1
    writer_raw_byte(w, 0x0A)
    w.need_prefix = True
    w.line_start = True
    m.preformatted += 1


cdef void md_leave_pre(TextWriter* w, MarkdownWalk* m) noexcept nogil:
    cdef size_t i
    if not w.line_start:
        writer_raw_byte(w, 0x0A)
        w.need_prefix = True
    if w.need_prefix:
        writer_raw(w, w.prefix, w.prefix_length)
        w.need_prefix = False
    for i in range(m.fence_length):
        writer_raw_byte(w, m.fence_char)
    m.preformatted -= 1
    w.line_start = True
    w.pending_space = False
    md_block(w, m, 2)


# -- entering and leaving an element -----------------------------------------

cdef bint md_enter(TextWriter* w, CElement* element, Box box, MarkdownWalk* m,
                   TextOptions* o) noexcept nogil:
    """Open the element's Markdown; whether to walk its children."""
    cdef lxp_tag_id_t tag = element.tag_id
    cdef uint32_t level
    cdef size_t fence
    cdef bint pad
    cdef bint empty
    cdef size_t i
    if m.preformatted:
        if box == BOX_LINE_BREAK:
            writer_text(w, <const uint8_t*> "\n", 1, True)
        return children_rendered(box)
    if m.code:
        return children_rendered(box)
    if element.ns != NS_HTML:
        return True
    if is_heading(element):
        md_block(w, m, 2)
        if m.heading or m.cell or m.link:
            return True
        writer_flush_breaks(w)
        level = tag - TAG_H1 + 1
        for i in range(level):
            writer_raw_byte(w, 0x23)
        writer_raw_byte(w, 0x20)
        w.line_begin = False
        w.line_start = True
        m.heading += 1
        return True
    if tag == TAG_BLOCKQUOTE:
        md_block(w, m, 2)
        if m.heading or m.cell or m.link:
            return True
        writer_newlines(w)
        md_save_prefix(w, m)
        writer_marker_push(w, <const uint8_t*> "> ", 2)
        writer_prefix_push(w, <const uint8_t*> "> ", 2)
        w.line_begin = True
        return True
    if is_list(element):
        md_enter_list(w, m, element)
        return True
    if tag == TAG_LI:
        if m.heading or m.cell or m.link:
            md_block(w, m, 1)
        else:
            md_list_item(w, m, element)
        return True
    if tag == TAG_PRE or tag == TAG_LISTING or tag == TAG_XMP or tag == TAG_PLAINTEXT:
        if m.heading or m.cell or m.link:
            return True
        md_enter_pre(w, m, element)
        return True
    if tag == TAG_HR:
        md_block(w, m, 2)
        if not (m.heading or m.cell or m.link):
            writer_flush_breaks(w)
            md_raw(w, "***")
            w.line_begin = False
        return False
    if tag == TAG_TABLE:
        md_block(w, m, 2)
        if m.table or m.heading or m.cell or m.link:
            m.inner_tables += 1     # a table in a cell: its text only
        else:
            m.table = 1
            m.table_row = 0
            m.table_columns = table_columns(&element.node)
        return True
    if m.table and m.cell == 0 and m.inner_tables == 0:
        if tag == TAG_TR:
            writer_break(w, 1)
            writer_flush_breaks(w)
            writer_raw_byte(w, 0x7C)
            w.line_begin = False
            m.row_cells = 0
            return True
        if tag == TAG_TD or tag == TAG_TH:
            writer_raw_byte(w, 0x20)
            w.line_start = True
            w.pending_space = False
            m.cell += 1
            return True
        if box == BOX_TABLE_CAPTION:
            md_block(w, m, 2)         # a paragraph before the rows
            return True
        if box == BOX_TABLE_ROW_GROUP or box == BOX_TABLE_COLUMN:
            return box != BOX_TABLE_COLUMN
    if box == BOX_LINE_BREAK:
        if m.heading or m.cell or m.link:
            if not w.line_start:
                w.pending_space = True
        elif not w.line_begin and w.length > w.start:
            # A hard line break (https://spec.commonmark.org/0.31.2/#hard-line-breaks)
            w.pending_space = False
            writer_flush_breaks(w)
            md_raw(w, "\\\n")
            w.need_prefix = True
            w.line_begin = True
            w.line_start = True
        return False
    if tag == TAG_IMG:
        if o.raw_html and not has_attribute(element, ATTR_ALT):
            write_raw_tag(w, element, False)
        else:
            write_image(w, m, element)
        return False
    if tag == TAG_A and is_followable_link(element) and not m.link:
        md_open(w, "[")
        m.link += 1
        return True
    if o.raw_html and (tag == TAG_I or tag == TAG_B):
        write_raw_tag(w, element, False)    # (kept as they are: not em, strong)
        return True
    if tag == TAG_EM or tag == TAG_I:
        md_open(w, "_" if m.emphasis % 2 else "*")
        m.emphasis += 1
        return True
    if tag == TAG_STRONG or tag == TAG_B:
        md_open(w, "__" if m.strong % 2 else "**")
        m.strong += 1
        return True
    if tag == TAG_CODE or tag == TAG_KBD or tag == TAG_SAMP or tag == TAG_TT:
        code_span_shape(&element.node, &fence, &pad, &empty)
        if empty:
            return False
        md_content_begin(w)
        for i in range(fence):
            writer_raw_byte(w, 0x60)
        if pad:
            writer_raw_byte(w, 0x20)
        w.line_begin = False
        m.code += 1
        m.fence_length = fence
        return True
    if box == BOX_BLOCK or box == BOX_PARAGRAPH or box == BOX_LIST_ITEM \
            or box == BOX_TABLE or box == BOX_TABLE_CAPTION or box == BOX_TABLE_ROW:
        md_block(w, m, 2)
        return True
    if box == BOX_TABLE_CELL:
        if not w.line_start:
            w.pending_space = True
        return True
    if o.raw_html and box == BOX_INLINE and (tag != TAG_SPAN or element.attr_count):
        # (a bare <span> says nothing: its text is enough)
        write_raw_tag(w, element, False)
    return children_rendered(box)


cdef void md_leave(TextWriter* w, CElement* element, Box box, MarkdownWalk* m,
                   TextOptions* o) noexcept nogil:
    cdef lxp_tag_id_t tag = element.tag_id
    cdef size_t i
    cdef size_t fence
    cdef bint pad
    cdef bint empty
    if m.preformatted:
        if element.ns == NS_HTML and (tag == TAG_PRE or tag == TAG_LISTING
                                      or tag == TAG_XMP or tag == TAG_PLAINTEXT):
            if m.preformatted == 1:
                md_leave_pre(w, m)
            else:
                m.preformatted -= 1
        return
    if m.code:
        if element.ns == NS_HTML and (tag == TAG_CODE or tag == TAG_KBD
                                      or tag == TAG_SAMP or tag == TAG_TT):
            m.code -= 1
            if m.code == 0:
                code_span_shape(&element.node, &fence, &pad, &empty)
                if pad:
                    writer_raw_byte(w, 0x20)
                for i in range(fence):
                    writer_raw_byte(w, 0x60)
                w.line_begin = False
                w.line_start = False
        return
    if element.ns != NS_HTML:
        return
    if is_heading(element):
        if m.heading:
            m.heading -= 1
            w.pending_space = False
            if m.heading == 0:
                md_block(w, m, 2)
                return
        md_block(w, m, 2)
        return
    if tag == TAG_BLOCKQUOTE:
        if not (m.heading or m.cell or m.link):
            md_restore_prefix(w, m)
        md_block(w, m, 2)
        return
    if is_list(element):
        if m.lists_length:
            m.lists_length -= 1
            m.last_list_delimiter = m.lists[m.lists_length].delimiter
        if in_tight_item(m) and w.pending_breaks > 1:
            w.pending_breaks = 1    # (a nested loose list's blank line ends here)
        md_block(w, m, 1 if in_tight_item(m) else 2)
        m.last_list_end = w.length
        return
    if tag == TAG_LI:
        if m.heading or m.cell or m.link:
            md_block(w, m, 1)
            return
        md_restore_prefix(w, m)
        if m.items:
            m.items -= 1
        writer_break(w, 2 if m.lists_length and m.lists[m.lists_length - 1].loose else 1)
        return
    if tag == TAG_TABLE:
        if m.inner_tables:
            m.inner_tables -= 1
        else:
            m.table = 0
        md_block(w, m, 2)
        return
    if m.table and m.cell <= 1 and m.inner_tables == 0:
        if tag == TAG_TR and m.cell == 0:
            if m.table_row == 0:
                # GFM: the first row is the header, then the delimiter row;
                # both as wide as the widest row (a GFM renderer drops the
                # cells of a row beyond the header's).
                for i in range(m.row_cells, m.table_columns):
                    md_raw(w, "  |")
                writer_raw_byte(w, 0x0A)
                writer_raw(w, w.prefix, w.prefix_length)
                writer_raw_byte(w, 0x7C)
                for i in range(m.table_columns if m.table_columns > m.row_cells
                               else (m.row_cells if m.row_cells else 1)):
                    md_raw(w, " --- |")
            m.table_row += 1
            writer_break(w, 1)
            return
        if (tag == TAG_TD or tag == TAG_TH) and m.cell == 1:
            m.cell -= 1
            w.pending_space = False
            w.opens_length = 0
            md_raw(w, " |")
            m.row_cells += 1
            return
    if tag == TAG_A and m.link and is_followable_link(element):
        m.link -= 1
        md_content_begin(w)         # (an empty link still gets its "[")
        writer_raw_byte(w, 0x5D)
        write_destination(w, element, ATTR_HREF)
        w.line_start = False
        return
    if o.raw_html and (tag == TAG_I or tag == TAG_B):
        write_raw_tag(w, element, True)
        return
    if tag == TAG_EM or tag == TAG_I:
        m.emphasis -= 1
        md_close(w, "_" if m.emphasis % 2 else "*")
        return
    if tag == TAG_STRONG or tag == TAG_B:
        m.strong -= 1
        md_close(w, "__" if m.strong % 2 else "**")
        return
    if box == BOX_BLOCK or box == BOX_PARAGRAPH or box == BOX_LIST_ITEM \
            or box == BOX_TABLE or box == BOX_TABLE_CAPTION or box == BOX_TABLE_ROW:
        md_block(w, m, 2)
        return
    if o.raw_html and box == BOX_INLINE and not is_void(element) and (
            tag != TAG_SPAN or element.attr_count):
        write_raw_tag(w, element, True)


cdef Box md_box(CElement* element, TextOptions* o) noexcept nogil:
    if element.ns == NS_HTML and element.tag_id == TAG_IMG:
        return BOX_REPLACED
    return walk_box(element, o)


cdef int write_markdown(TextWriter* w, CNode* root, TextOptions* o) noexcept nogil:
    """Markdown for root's children (the walk of collect_text, with
    Markdown's blocks and inlines)."""
    cdef MarkdownWalk m
    cdef CNode* node = root.first_child
    cdef CCharacterData* text
    cdef CElement* element
    cdef Box box
    cdef bint descend
    cdef size_t index = 0
    cdef CNode* kept = NULL               # the kept part (main content) we are in
    memset(&m, 0, sizeof(MarkdownWalk))
    m.last_list_end = <size_t> -1
    w.line_begin = True
    while node != NULL:
        descend = False
        if node.type == TEXT_NODE:
            if (o.removed == NULL or kept != NULL) and text_rendered_markdown(node):
                text = <CCharacterData*> node
                if m.preformatted:
                    writer_text(w, text.data, text.length, True)
                elif m.code:
                    md_code_text(w, text.data, text.length)
                else:
                    md_text(w, &m, text.data, text.length)
        elif node.type == ELEMENT_NODE:
            element = <CElement*> node
            if o.removed != NULL and o.removed[index] == 1:
                box = BOX_NONE
            elif not child_has_box(node.parent, node):
                box = BOX_NONE
            else:
                box = md_box(element, o)
                if o.raw_html and not m.preformatted and not m.code \
                        and wants_raw_block(element, html_box(element, o.scripting)):
                    write_raw_block(w, &m, element, o)
                    box = BOX_NONE
            if o.removed != NULL and kept == NULL and o.removed[index] == 2 \
                    and box != BOX_NONE:
                kept = node
            if box != BOX_NONE:
                descend = md_enter(w, element, box, &m, o) \
                    and children_rendered(box) and node.first_child != NULL
                if not descend:
                    md_leave(w, element, box, &m, o)
                    if kept == node:
                        kept = NULL
            if o.removed != NULL:
                index += 1 if descend else o.subtree[index]
        elif node.type == COMMENT_NODE and o.raw_html and not m.preformatted \
                and not m.code:
            text = <CCharacterData*> node
            md_content_begin(w)
            md_raw(w, "<!--")
            writer_raw(w, text.data, text.length)
            md_raw(w, "-->")
            w.line_begin = False
            w.line_start = False
        if descend:
            node = node.first_child
            continue
        while node.next == NULL:
            node = node.parent
            if node == root or node == NULL:
                node = NULL
                break
            element = <CElement*> node
            md_leave(w, element, md_box(element, o), &m, o)
            if kept == node:
                kept = NULL
        if node == NULL:
            break
        node = node.next
    free(m.lists)
    free(m.saved)
    return -1 if w.failed else 0


cdef inline bint text_rendered_markdown(CNode* text) noexcept nogil:
    cdef CNode* parent = text.parent
    if parent != NULL and parent.type == ELEMENT_NODE:
        if (<CElement*> parent).ns == NS_HTML:
            return child_has_box(parent, text)
    return True


# -- raw HTML blocks (raw_html=True) -----------------------------------------

cdef bint wants_raw_block(CElement* element, Box box) noexcept nogil:
    """A block CommonMark cannot express, written as an HTML block
    (https://spec.commonmark.org/0.31.2/#html-blocks): script, style,
    textarea, tables (CommonMark has none), <pre> that is not one <code>,
    and block elements other than Markdown's own."""
    cdef lxp_tag_id_t tag = element.tag_id
    cdef CNode* child
    if element.ns != NS_HTML:
        return False
    if tag == TAG_SCRIPT or tag == TAG_STYLE or tag == TAG_TEXTAREA:
        return True
    if tag == TAG_PRE:
        child = element.node.first_child
        return element.attr_count != 0 or child == NULL \
            or child.next != NULL or not is_html(child, TAG_CODE)
    if tag == TAG_P or is_heading(element) or tag == TAG_BLOCKQUOTE \
            or tag == TAG_UL or tag == TAG_OL or tag == TAG_LI or tag == TAG_HR:
        return False
    return box == BOX_BLOCK or box == BOX_PARAGRAPH or box == BOX_LIST_ITEM \
        or box == BOX_TABLE or box == BOX_TABLE_CAPTION or box == BOX_TABLE_ROW \
        or box == BOX_TABLE_ROW_GROUP or box == BOX_TABLE_CELL


cdef inline bint is_raw_text_element(CNode* node, bint scripting) noexcept nogil:
    cdef lxp_tag_id_t tag
    if node == NULL or node.type != ELEMENT_NODE or (<CElement*> node).ns != NS_HTML:
        return False
    tag = (<CElement*> node).tag_id
    return tag == TAG_SCRIPT or tag == TAG_STYLE or tag == TAG_XMP \
        or tag == TAG_IFRAME or tag == TAG_NOEMBED or tag == TAG_NOFRAMES \
        or tag == TAG_PLAINTEXT or (tag == TAG_NOSCRIPT and scripting)


cdef void raw_block_text(TextWriter* w, const uint8_t* data, size_t length,
                         bint verbatim, bint keep_lines) noexcept nogil:
    """Text inside an HTML block: escaped unless raw text; outside <pre>-like
    content, runs of line breaks become one (a blank line ends the block)."""
    cdef size_t i = 0
    cdef size_t j
    cdef uint8_t c
    cdef bint newline
    while i < length:
        c = data[i]
        if not keep_lines and (c == 0x0A or c == 0x20 or c == 0x09):
            j = i
            newline = False
            while j < length and (data[j] == 0x0A or data[j] == 0x20 or data[j] == 0x09):
                newline = newline or data[j] == 0x0A
                j += 1
            if newline:
                writer_text(w, <const uint8_t*> "\n", 1, True)
            else:
                writer_text(w, data + i, j - i, True)
            i = j
            continue
        if not verbatim and c == 0x26:
            writer_text(w, <const uint8_t*> "&amp;", 5, True)
        elif not verbatim and c == 0x3C:
            writer_text(w, <const uint8_t*> "&lt;", 4, True)
        elif not verbatim and c == 0x3E:
            writer_text(w, <const uint8_t*> "&gt;", 4, True)
        else:
            writer_text(w, data + i, 1, True)
        i += 1


cdef void raw_block_tag(TextWriter* w, CElement* element, bint end) noexcept nogil:
    cdef size_t length
    cdef const uint8_t* name = element_local_name(element, &length)
    cdef const uint8_t* attr_name
    cdef size_t attr_length
    cdef CAttr* attr
    cdef uint32_t i
    writer_text(w, <const uint8_t*> "</" if end else <const uint8_t*> "<",
                2 if end else 1, True)
    writer_text(w, name, length, True)
    if not end:
        for i in range(element.attr_count):
            attr = &element.attrs[i]
            attr_name = attr_name_of(element.node.owner.attr_names, attr.local_name,
                                     &attr_length)
            if attr_name == NULL:
                continue
            writer_text(w, <const uint8_t*> " ", 1, True)
            writer_text(w, attr_name, attr_length, True)
            writer_text(w, <const uint8_t*> "=\"", 2, True)
            raw_block_text(w, attr.value, attr.value_length, False, True)
            writer_text(w, <const uint8_t*> "\"", 1, True)
    writer_text(w, <const uint8_t*> ">", 1, True)
    # The parser drops a newline right after <pre>, <listing>, <textarea>:
    # one that the text starts with is written twice.
    if not end and (element.tag_id == TAG_PRE or element.tag_id == TAG_LISTING
                    or element.tag_id == TAG_TEXTAREA) \
            and element.node.first_child != NULL \
            and element.node.first_child.type == TEXT_NODE \
            and (<CCharacterData*> element.node.first_child).length \
            and (<CCharacterData*> element.node.first_child).data[0] == 0x0A:
        writer_text(w, <const uint8_t*> "\n", 1, True)


cdef void write_raw_block(TextWriter* w, MarkdownWalk* m, CElement* element,
                          TextOptions* o) noexcept nogil:
    """The element's HTML as an HTML block, on lines of its own."""
    cdef CNode* root = &element.node
    cdef CNode* node = root
    cdef CCharacterData* text
    cdef uint32_t keep = 0
    md_block(w, m, 2)
    w.pending_space = False
    writer_flush_breaks(w)
    while True:
        if node.type == ELEMENT_NODE:
            raw_block_tag(w, <CElement*> node, False)
            if is_preformatted(<CElement*> node) or is_raw_text_element(node, o.scripting):
                keep += 1
            if node.first_child != NULL and not is_void(<CElement*> node):
                node = node.first_child
                continue
            if not is_void(<CElement*> node):
                raw_block_tag(w, <CElement*> node, True)
            if is_preformatted(<CElement*> node) or is_raw_text_element(node, o.scripting):
                keep -= 1
        elif node.type == TEXT_NODE:
            text = <CCharacterData*> node
            raw_block_text(w, text.data, text.length,
                           is_raw_text_element(node.parent, o.scripting), keep > 0)
        elif node.type == COMMENT_NODE:
            text = <CCharacterData*> node
            writer_text(w, <const uint8_t*> "<!--", 4, True)
            writer_text(w, text.data, text.length, True)
            writer_text(w, <const uint8_t*> "-->", 3, True)
        if node == root:
            break
        while node.next == NULL:
            node = node.parent
            raw_block_tag(w, <CElement*> node, True)
            if is_preformatted(<CElement*> node) or is_raw_text_element(node, o.scripting):
                keep -= 1
            if node == root:
                break
        if node == root:
            break
        node = node.next
    w.line_begin = False
    w.line_start = True
    w.pending_space = False
    md_block(w, m, 2)
