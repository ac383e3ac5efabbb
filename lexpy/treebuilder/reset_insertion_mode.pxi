# Resetting the insertion mode appropriately
# https://html.spec.whatwg.org/multipage/parsing.html#reset-the-insertion-mode-appropriately
# (The current standard has no select step: select content is parsed in
# "in body".)
cdef lxp_tag_id_t[14] MODE_DECIDING_TAGS = [
    TAG_TD, TAG_TH, TAG_TR, TAG_TBODY, TAG_THEAD, TAG_TFOOT, TAG_CAPTION,
    TAG_COLGROUP, TAG_TABLE, TAG_TEMPLATE, TAG_HEAD, TAG_BODY, TAG_FRAMESET,
    TAG_HTML]


cdef void reset_insertion_mode_appropriately(TreeBuilder* tb) noexcept nogil:
    # The walk down the stack passes every node that is not one of the HTML
    # elements of MODE_DECIDING_TAGS: it stops at the topmost of them (the
    # stack's index), or ends at the last node.
    cdef size_t position = 0
    cdef size_t other
    cdef int k
    cdef bint last
    cdef CElement* node
    cdef lxp_tag_id_t tag
    if tb.open.count == 0:
        tb.mode = IN_BODY
        return
    for k in range(14):
        other = topmost_html_element(tb, MODE_DECIDING_TAGS[k])
        if other > position:
            position = other
    if position <= 1:
        position = 1                  # the last node (the bottom one)
    last = position == 1
    node = tb.open.elements[position - 1]
    if last and tb.context_element != NULL:
        node = tb.context_element
    if node.ns == NS_HTML:
        tag = node.tag_id
        if (tag == TAG_TD or tag == TAG_TH) and not last:
            tb.mode = IN_CELL
            return
        if tag == TAG_TR:
            tb.mode = IN_ROW
            return
        if tag == TAG_TBODY or tag == TAG_THEAD or tag == TAG_TFOOT:
            tb.mode = IN_TABLE_BODY
            return
        if tag == TAG_CAPTION:
            tb.mode = IN_CAPTION
            return
        if tag == TAG_COLGROUP:
            tb.mode = IN_COLUMN_GROUP
            return
        if tag == TAG_TABLE:
            tb.mode = IN_TABLE
            return
        if tag == TAG_TEMPLATE:
            tb.mode = current_template_mode(tb) if tb.template_modes.count else IN_TEMPLATE
            return
        if tag == TAG_HEAD and not last:
            tb.mode = IN_HEAD
            return
        if tag == TAG_BODY:
            tb.mode = IN_BODY
            return
        if tag == TAG_FRAMESET:
            tb.mode = IN_FRAMESET
            return
        if tag == TAG_HTML:
            tb.mode = BEFORE_HEAD if tb.head_element == NULL else AFTER_HEAD
            return
    tb.mode = IN_BODY
