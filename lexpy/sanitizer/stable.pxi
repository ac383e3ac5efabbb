# Whether a sanitized tree is stable by construction: its serialization,
# parsed again in an "in body" context (div, span, p, ...), gives the same
# tree, so the reparse check of issue 34 (point 3) has nothing to find and
# is skipped. Conservative: any construct whose reparse *can* differ sends
# the output through the full reparse check.
#
# The argument (HTML Standard, "The rules for parsing tokens in HTML
# content", https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody).
# The serializer writes each element as its start tag, its children, then
# its end tag (void elements have no children and no end tag), text escaped
# (& < > U+00A0) and attribute values quoted and escaped (& " < > U+00A0).
# Parsing that in the "in body" insertion mode rebuilds the tree node for
# node provided that, for every element, (a) its start tag inserts exactly
# that element as a child of the current node and (b) its end tag pops
# exactly the current node. By induction the current node is then always
# the element whose children are being read, so text goes where it was.
# (b) holds for every HTML element in body: the current node has the end
# tag's name, so "any other end tag", the block end tags, </p>, </li>,
# </dd>, </dt>, </h1>-</h6>, </form> (pointer set by its start tag) and the
# adoption agency (the formatting element is the current node: no furthest
# block) all pop just it. The active formatting elements are rebuilt
# ("reconstruct the active formatting elements") only when an entry is no
# longer on the stack of open elements, which needs a formatting element
# closed by something other than its own end tag: that is excluded by (a).
# (a) is what the start-tag rules decide; this check refuses every element
# whose rule does more than "insert an HTML element" (with "close a p
# element" having nothing to close):
#   - an element whose namespace a parse could not give it under its
#     parent (namespace_fits, baseline.pxi) — refused; svg and math under
#     HTML content are inserted by their in-body rule; inside them, the
#     rules for foreign content insert "any other start tag" in the
#     adjusted current node's namespace (names and attributes adjusted
#     back from the lower-cased tokens: foreignObject, viewBox,
#     xlink:href), and their end tags pop the current node; the start tags
#     that break out of foreign content (b, div, p, table, font, ...), and
#     the elements whose text the serializer writes literally in any
#     namespace (style, script, xmp, ...), are refused; the integration
#     points (foreignObject, desc, title, mi..mtext, annotation-xml with an
#     HTML encoding) hold in-body content, checked as here (they are
#     button-scope boundaries and special); foreign content in a table's
#     structure is refused;
#   - raw text, RCDATA and script-data elements, noscript (scripting on),
#     template, caption, colgroup, col, select/option/optgroup/
#     selectedcontent, ruby parts, form-owning and document-level elements
#     (html, head, body, frameset, frame, base, link, meta, ...) — refused;
#   - the elements that "close a p element" (CAT_CLOSES_P, h1-h6, pre,
#     listing, form, li, dd, dt, hr) under a p with no button-scope boundary
#     in between — refused;
#   - h1-h6 whose parent is h1-h6 (popped by the next heading) — refused;
#   - li under li, dd/dt under dd/dt, with no special element other than
#     address, div, p in between (the start tag's loop closes it) — refused;
#   - a under a, nobr under nobr, button under button, form under form — refused;
#   - pre and listing whose first child is text starting with U+000A (the
#     parser drops that newline) — refused;
#   - a void element with children — refused.
# Tables are taken when they are what the table insertion modes build
# without foster parenting or implied elements: a table (not under an open
# p) whose children are thead/tbody/tfoot ("in table": clear the stack back
# to a table context, insert), theirs tr ("in table body"), theirs td/th
# ("in row": insert, a marker), each of these holding no other element and
# no text but ASCII whitespace (inserted as it is by "in table text"), and
# the cells holding in-body content (checked as above; td/th are
# button-scope boundaries and special). A tr straight under table, a td
# straight under tbody (implied tbody/tr), text or another element at those
# levels (foster parenting) — refused. </td>, </tr>, </tbody>, </table>
# each pop the current node, and resetting the insertion mode after
# </table> gives back the mode of the element around it ("in body" for the
# contexts allowed, "in cell" inside a cell).
# Character data: a U+000D in text or an attribute value (from &#13;,
# which the tokenizer keeps, or written by an option) is refused: the
# serializer writes it as it is and the input stream turns it into LF; so
# is a U+0000 (the parser leaves none, an option could write one). A
# comment is refused when its data starts with ">" or "->" or holds "-->"
# or "--!>" (the only ways data can end a comment early: comment_is_plain
# follows the comment states); processing instructions and doctypes are
# refused.

cdef enum:
    OPEN_P = 1            # a p above, with no button-scope boundary between
    OPEN_LI = 2           # an li above, with no special element (but address, div, p) between
    OPEN_DD = 4           # a dd or dt above, likewise
    OPEN_A = 8            # an a above
    OPEN_NOBR = 16
    OPEN_BUTTON = 32
    OPEN_FORM = 64
    # where the children are: in-body content, or the levels of a table
    LEVEL_SHIFT = 8
    LEVEL_BODY = 0
    LEVEL_TABLE = 1 << LEVEL_SHIFT       # children of table: thead, tbody, tfoot
    LEVEL_SECTION = 2 << LEVEL_SHIFT     # children of thead/tbody/tfoot: tr
    LEVEL_ROW = 3 << LEVEL_SHIFT         # children of tr: td, th
    LEVEL_MASK = 3 << LEVEL_SHIFT


cdef inline bint refused_tag(lxp_tag_id_t tag) noexcept nogil:
    return (tag == TAG_SCRIPT or tag == TAG_STYLE or tag == TAG_TEMPLATE or tag == TAG_TITLE
            or tag == TAG_NOSCRIPT or tag == TAG_NOFRAMES or tag == TAG_NOEMBED
            or tag == TAG_IFRAME or tag == TAG_XMP or tag == TAG_TEXTAREA
            or tag == TAG_PLAINTEXT or tag == TAG_CAPTION
            or tag == TAG_COL or tag == TAG_COLGROUP or tag == TAG_SELECT or tag == TAG_OPTION or tag == TAG_OPTGROUP
            or tag == TAG_SELECTEDCONTENT or tag == TAG_RB or tag == TAG_RP
            or tag == TAG_RT or tag == TAG_RTC or tag == TAG_HTML or tag == TAG_HEAD
            or tag == TAG_BODY or tag == TAG_FRAMESET or tag == TAG_FRAME or tag == TAG_BASE
            or tag == TAG_BASEFONT or tag == TAG_BGSOUND or tag == TAG_LINK or tag == TAG_META
            or tag == TAG_MATH or tag == TAG_SVG or tag == TAG_IMAGE or tag == TAG_INPUT
            or tag == TAG_KEYGEN or tag == TAG_OBJECT or tag == TAG_APPLET
            or tag == TAG_MARQUEE or tag == TAG_EMBED or tag == TAG_PARAM)


cdef inline bint has_nul_or_cr(const uint8_t* data, size_t length) noexcept nogil:
    return length != 0 and (memchr(data, 0, length) != NULL
                            or memchr(data, 0x0D, length) != NULL)


# A foreign element the foreign-content rules insert as it is: not one of
# the start tags that break out of foreign content (font taken as one
# whatever its attributes), not one whose children the serializer writes
# literally (style, script, xmp, iframe, noembed, noframes, plaintext,
# noscript: in any namespace, "serializing HTML fragments"); svg and math
# under HTML content are the in-body rules' own.
cdef bint foreign_is_plain(lxp_tag_id_t tag) noexcept nogil:
    if tag == TAG_STYLE or tag == TAG_SCRIPT or tag == TAG_XMP or tag == TAG_IFRAME \
            or tag == TAG_NOEMBED or tag == TAG_NOFRAMES or tag == TAG_PLAINTEXT \
            or tag == TAG_NOSCRIPT or tag == TAG_TEMPLATE:
        return False
    return not (tag == TAG_B or tag == TAG_BIG or tag == TAG_BLOCKQUOTE or tag == TAG_BODY
                or tag == TAG_BR or tag == TAG_CENTER or tag == TAG_CODE or tag == TAG_DD
                or tag == TAG_DIV or tag == TAG_DL or tag == TAG_DT or tag == TAG_EM
                or tag == TAG_EMBED or tag == TAG_H1 or tag == TAG_H2 or tag == TAG_H3
                or tag == TAG_H4 or tag == TAG_H5 or tag == TAG_H6 or tag == TAG_HEAD
                or tag == TAG_HR or tag == TAG_I or tag == TAG_IMG or tag == TAG_LI
                or tag == TAG_LISTING or tag == TAG_MENU or tag == TAG_META or tag == TAG_NOBR
                or tag == TAG_OL or tag == TAG_P or tag == TAG_PRE or tag == TAG_RUBY
                or tag == TAG_S or tag == TAG_SMALL or tag == TAG_SPAN or tag == TAG_STRONG
                or tag == TAG_STRIKE or tag == TAG_SUB or tag == TAG_SUP or tag == TAG_TABLE
                or tag == TAG_TT or tag == TAG_U or tag == TAG_UL or tag == TAG_VAR
                or tag == TAG_FONT)


cdef inline bint is_table_part(lxp_tag_id_t tag) noexcept nogil:
    return (tag == TAG_TABLE or tag == TAG_TBODY or tag == TAG_THEAD or tag == TAG_TFOOT
            or tag == TAG_TR or tag == TAG_TD or tag == TAG_TH)


cdef inline bint all_ascii_whitespace(const uint8_t* data, size_t length) noexcept nogil:
    cdef size_t i
    cdef uint8_t c
    for i in range(length):
        c = data[i]
        if not (c == b' ' or c == b'\t' or c == b'\n' or c == 12):
            return False
    return True


# https://html.spec.whatwg.org/multipage/parsing.html#comment-start-state
# The serializer writes <!--data-->: the comment states read `data` back
# as it is unless it starts with ">" or "->" (an abrupt closing), or holds
# "-->" or "--!>" (an early end); every other "-", "!" and "<" (nested
# "<!--" included) is appended as it was. U+0000 and U+000D do not survive
# the input stream.
cdef inline bint comment_is_plain(const uint8_t* data, size_t length) noexcept nogil:
    cdef size_t i
    cdef uint8_t c
    if length and (data[0] == b'>' or (length >= 2 and data[0] == b'-' and data[1] == b'>')):
        return False
    for i in range(length):
        c = data[i]
        if c == 0 or c == b'\r':
            return False
        if c == b'-' and i + 2 < length and data[i + 1] == b'-' and (
                data[i + 2] == b'>' or (data[i + 2] == b'!' and i + 3 < length
                                        and data[i + 3] == b'>')):
            return False
    return True


# The three tests above by static tag id, made once (a dynamic id is none
# of those names: refused_tag and is_table_part false, foreign_is_plain
# true).
cdef enum:
    STAG_REFUSED = 1
    STAG_TABLE_PART = 2
    STAG_FOREIGN_NOT_PLAIN = 4

cdef uint8_t stable_tag_flags[TAG__LAST_STATIC]


cdef void stable_tags_init() noexcept nogil:
    cdef lxp_tag_id_t tag
    cdef uint8_t flags
    for tag in range(TAG__LAST_STATIC):
        flags = 0
        if refused_tag(tag):
            flags |= STAG_REFUSED
        if is_table_part(tag):
            flags |= STAG_TABLE_PART
        if not foreign_is_plain(tag):
            flags |= STAG_FOREIGN_NOT_PLAIN
        stable_tag_flags[tag] = flags

stable_tags_init()


# 1 when the reparse of root's children may differ from them, 0 when they
# are stable by construction, -1 when out of memory.
cdef int reparse_may_differ(CNode* root) noexcept nogil:
    cdef uint16_t* open_above = NULL
    cdef uint16_t* grown
    cdef size_t capacity = 64, depth = 0
    cdef CNode* node
    cdef CNode* child
    cdef CElement* element
    cdef CElement* parent
    cdef CCharacterData* data
    cdef lxp_tag_id_t tag
    cdef uint32_t category, i
    cdef uint16_t state, inner, level
    cdef uint8_t flags
    cdef int result = 0
    open_above = <uint16_t*> malloc(capacity * sizeof(uint16_t))
    if open_above == NULL:
        return -1
    open_above[0] = 0
    node = root.first_child
    while node != NULL:
        state = open_above[depth]
        level = state & LEVEL_MASK
        if node.type == TEXT_NODE:
            data = <CCharacterData*> node
            # (a CR comes from &#13;, which the parser keeps: the reparse
            # of a raw CR is LF)
            if has_nul_or_cr(data.data, data.length) or (
                    level != LEVEL_BODY and not all_ascii_whitespace(data.data, data.length)):
                result = 1
                break
        elif node.type == COMMENT_NODE:
            data = <CCharacterData*> node
            if not comment_is_plain(data.data, data.length):
                result = 1
                break
        elif node.type == ELEMENT_NODE:
            element = <CElement*> node
            tag = element.tag_id
            if element.template_content != NULL or not namespace_fits(
                    element, PARENT_HTML if node.parent == root else parent_kind_of(
                        <CElement*> node.parent)):
                result = 1
                break
            flags = stable_tag_flags[tag] if tag < TAG__LAST_STATIC else 0
            if element.ns != NS_HTML:
                if (element.ns != NS_SVG and element.ns != NS_MATHML) \
                        or flags & STAG_FOREIGN_NOT_PLAIN or level != LEVEL_BODY:
                    result = 1
                    break
            elif flags & STAG_REFUSED:
                result = 1
                break
            elif level != LEVEL_BODY or flags & STAG_TABLE_PART:
                # the table insertion modes: only the structure they build as is
                if not ((level == LEVEL_BODY and tag == TAG_TABLE)
                        or (level == LEVEL_TABLE and (tag == TAG_TBODY or tag == TAG_THEAD
                                                      or tag == TAG_TFOOT))
                        or (level == LEVEL_SECTION and tag == TAG_TR)
                        or (level == LEVEL_ROW and (tag == TAG_TD or tag == TAG_TH))):
                    result = 1
                    break
            category = lxp_tag_category_of(tag, element.ns)
            if element.ns != NS_HTML:
                pass                    # (the HTML start-tag rules below do not apply)
            elif category & CAT_VOID and node.first_child != NULL:
                result = 1
                break
            elif (state & OPEN_P) and (category & (CAT_CLOSES_P | CAT_HEADING) or tag == TAG_PRE
                                     or tag == TAG_TABLE
                                     or tag == TAG_LISTING or tag == TAG_FORM or tag == TAG_LI
                                     or tag == TAG_DD or tag == TAG_DT or tag == TAG_HR):
                result = 1
                break
            if element.ns == NS_HTML and category & CAT_HEADING and node.parent != NULL \
                    and node.parent.type == ELEMENT_NODE:
                parent = <CElement*> node.parent
                if parent.ns == NS_HTML and lxp_tag_category_of(parent.tag_id, NS_HTML) \
                        & CAT_HEADING:
                    result = 1
                    break
            if element.ns == NS_HTML and ((tag == TAG_LI and state & OPEN_LI)
                    or ((tag == TAG_DD or tag == TAG_DT) and state & OPEN_DD)
                    or (tag == TAG_A and state & OPEN_A)
                    or (tag == TAG_NOBR and state & OPEN_NOBR)
                    or (tag == TAG_BUTTON and state & OPEN_BUTTON)
                    or (tag == TAG_FORM and state & OPEN_FORM)):
                result = 1
                break
            if element.ns == NS_HTML and (tag == TAG_PRE or tag == TAG_LISTING) \
                    and node.first_child != NULL \
                    and node.first_child.type == TEXT_NODE:
                data = <CCharacterData*> node.first_child
                if data.length and data.data[0] == b'\n':
                    result = 1
                    break
            for i in range(element.attr_count):
                if has_nul_or_cr(element.attrs[i].value, element.attrs[i].value_length):
                    result = 1
                    break
            if result:
                break
            if node.first_child != NULL:
                inner = state & ~LEVEL_MASK
                if element.ns != NS_HTML:
                    pass
                elif tag == TAG_TABLE:
                    inner |= LEVEL_TABLE
                elif tag == TAG_TBODY or tag == TAG_THEAD or tag == TAG_TFOOT:
                    inner |= LEVEL_SECTION
                elif tag == TAG_TR:
                    inner |= LEVEL_ROW
                if category & CAT_SCOPE_BUTTON:
                    inner &= ~OPEN_P
                if category & CAT_SPECIAL and tag != TAG_ADDRESS and tag != TAG_DIV \
                        and tag != TAG_P:
                    inner &= ~(OPEN_LI | OPEN_DD)
                if element.ns != NS_HTML:
                    pass
                elif tag == TAG_P:
                    inner |= OPEN_P
                elif tag == TAG_LI:
                    inner |= OPEN_LI
                elif tag == TAG_DD or tag == TAG_DT:
                    inner |= OPEN_DD
                elif tag == TAG_A:
                    inner |= OPEN_A
                elif tag == TAG_NOBR:
                    inner |= OPEN_NOBR
                elif tag == TAG_BUTTON:
                    inner |= OPEN_BUTTON
                elif tag == TAG_FORM:
                    inner |= OPEN_FORM
                depth += 1
                if depth == capacity:
                    capacity *= 2
                    grown = <uint16_t*> realloc(open_above, capacity * sizeof(uint16_t))
                    if grown == NULL:
                        result = -1
                        break
                    open_above = grown
                open_above[depth] = inner
                node = node.first_child
                continue
        else:
            result = 1          # a processing instruction or a doctype
            break
        while node != root and node.next == NULL:
            node = node.parent
            depth -= 1
        if node == root:
            break
        node = node.next
    free(open_above)
    return result


def reparse_may_differ_below(Node root not None):
    """False when the children of `root` are stable by construction: their
    serialization parsed again in an "in body" context (div, span, p, ...)
    gives the same nodes (the argument heads stable.pxi); True when a
    construct whose reparse can differ is there (or root is not a
    fragment, element or document)."""
    cdef CNode* c_root = root.c_node
    cdef int result
    if c_root == NULL:
        raise ValueError("this node belongs to no document")
    with nogil:
        result = reparse_may_differ(c_root)
    if result < 0:
        raise MemoryError()
    return result != 0
