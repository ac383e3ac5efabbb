# The serializer's two other modes, next to the standard's algorithm
# (serializer.pxi, which they leave untouched): minified output (a
# rewrite whose reparse is the same tree after the documented whitespace
# collapse) and pretty-printed output (only whitespace text changes).
#
# Both are iterative walks over the C structs, noexcept nogil: no Python
# object is touched until the finished buffer is decoded once.
#
# The whitespace collapse of minify=True, exactly (the tests restate it as
# a transformation of the parsed tree):
#   1. Comments are dropped (kept with keep_comments; conditional comments,
#      data starting "[if" or "<![endif]", kept with
#      keep_conditional_comments); processing instructions are dropped with
#      remove_processing_instructions; adjacent text nodes then merge.
#   2. Text inside a "whitespace-keeping" element is left alone: HTML pre,
#      listing, plaintext, xmp, textarea, script, style, title, iframe,
#      noembed, noframes, noscript (when the document's scripting flag is
#      set) and every element outside the HTML namespace (SVG, MathML).
#   3. Elsewhere, a text node made only of " ", TAB, LF and CR is removed
#      when its parent is an HTML html, head, table, thead, tbody, tfoot, tr
#      or colgroup element, or when both of its neighbours are "block-level"
#      (an absent neighbour counts as its parent): an HTML element the UA
#      stylesheet makes display: block, list-item or a table box (html,
#      body, address, blockquote, center, div, figure, figcaption, footer,
#      form, header, hr, legend, listing, main, p, plaintext, pre, search,
#      xmp, article, aside, h1-h6, hgroup, nav, section, dir, dd, dl, dt,
#      menu, ol, ul, li, table, caption, colgroup, col, thead, tbody, tfoot,
#      tr, td, th, fieldset, details, frameset, frame) without a `hidden`
#      attribute.
#   4. In every other text node each run of " ", TAB, LF and CR becomes one
#      character: LF when the run holds an LF or CR, else a space (the same
#      length as a space, and safe where CSS drops a line break between
#      East Asian characters).
# FF is not collapsible: CSS does not treat it as white space. Author CSS
# (white-space: pre on other elements, display changes) is not known to
# the minifier: the rule follows the UA stylesheet.
#
# Besides: tags the standard's "optional tags" rules allow are left out
# (omits_start, omits_end), with the extra conditions under which the
# reparse keeps the tree (the rules assume conforming documents); attribute
# values go unquoted where the syntax allows, empty ones as bare names;
# '&' is escaped only before a name character, '<' always, '>' never; the
# doctype keeps its identifiers; a leading LF of pre, textarea and listing
# is doubled (the parser drops one). script and style contents are written
# as they are, or as the minify_js / minify_css hooks (str -> str) rewrite
# them (see hook_replacements): lexpy has no JS or CSS minifier itself.

from libc.string cimport memchr

# Flags of the HTML elements by tag id, filled at import.
cdef enum:
    MF_BLOCK = 1            # UA block-level (rule 3 above)
    MF_KEEPS_WS = 2         # whitespace-keeping (rule 2; noscript aside)
    MF_WS_PARENT = 4        # its whitespace-only text is never rendered
    MF_ENDS_IMPLIED = 8     # its end tag (or EOF) closes an open p, li...
    MF_CLOSES_P = 16        # its start tag closes an open p
    MF_HEAD_CONTENT = 32    # "after head" puts it into head (no <body> omission)

cdef uint8_t MODE_FLAGS[TAG__LAST_STATIC]

# Pretty-printing indents at most this many levels (the output stays
# linear in the input however deep the tree).
cdef enum:
    PRETTY_MAX_LEVELS = 64


cdef void set_mode_flag(uint8_t flag, lxp_tag_id_t* tags, int count) noexcept nogil:
    cdef int i
    for i in range(count):
        MODE_FLAGS[tags[i]] |= flag


cdef void fill_mode_flags() noexcept nogil:
    cdef lxp_tag_id_t[48] block = [
        TAG_HTML, TAG_BODY, TAG_ADDRESS, TAG_BLOCKQUOTE, TAG_CENTER, TAG_DIV,
        TAG_FIGURE, TAG_FIGCAPTION, TAG_FOOTER, TAG_FORM, TAG_HEADER, TAG_HR,
        TAG_LEGEND, TAG_LISTING, TAG_MAIN, TAG_P, TAG_PLAINTEXT, TAG_PRE,
        TAG_SEARCH, TAG_XMP, TAG_ARTICLE, TAG_ASIDE, TAG_H1, TAG_H2, TAG_H3,
        TAG_H4, TAG_H5, TAG_H6, TAG_HGROUP, TAG_NAV, TAG_SECTION, TAG_DIR,
        TAG_DD, TAG_DL, TAG_DT, TAG_MENU, TAG_OL, TAG_UL, TAG_LI, TAG_TABLE,
        TAG_CAPTION, TAG_COLGROUP, TAG_COL, TAG_THEAD, TAG_TBODY, TAG_TFOOT,
        TAG_TR, TAG_TD]
    cdef lxp_tag_id_t[5] block_more = [
        TAG_TH, TAG_FIELDSET, TAG_DETAILS, TAG_FRAMESET, TAG_FRAME]
    cdef lxp_tag_id_t[11] keeps = [
        TAG_PRE, TAG_LISTING, TAG_PLAINTEXT, TAG_XMP, TAG_TEXTAREA,
        TAG_SCRIPT, TAG_STYLE, TAG_TITLE, TAG_IFRAME, TAG_NOEMBED, TAG_NOFRAMES]
    cdef lxp_tag_id_t[8] ws_parent = [
        TAG_HTML, TAG_HEAD, TAG_TABLE, TAG_THEAD, TAG_TBODY, TAG_TFOOT,
        TAG_TR, TAG_COLGROUP]
    # The in-body end tags that "generate implied end tags" (and body, whose
    # end is the end of input), and the contents of a template.
    cdef lxp_tag_id_t[47] ends = [
        TAG_ADDRESS, TAG_ARTICLE, TAG_ASIDE, TAG_BLOCKQUOTE, TAG_BUTTON,
        TAG_CENTER, TAG_DETAILS, TAG_DIALOG, TAG_DIR, TAG_DIV, TAG_DL,
        TAG_FIELDSET, TAG_FIGCAPTION, TAG_FIGURE, TAG_FOOTER, TAG_HEADER,
        TAG_HGROUP, TAG_LISTING, TAG_MAIN, TAG_MENU, TAG_NAV, TAG_OL, TAG_PRE,
        TAG_SEARCH, TAG_SECTION, TAG_SUMMARY, TAG_UL, TAG_FORM, TAG_LI,
        TAG_DD, TAG_DT, TAG_H1, TAG_H2, TAG_H3, TAG_H4, TAG_H5, TAG_H6,
        TAG_APPLET, TAG_MARQUEE, TAG_OBJECT, TAG_TD, TAG_TH, TAG_CAPTION,
        TAG_BODY, TAG_TEMPLATE, TAG_TEMPLATE, TAG_TEMPLATE]
    # https://html.spec.whatwg.org/multipage/syntax.html#optional-tags (the
    # p end tag's list; table only outside quirks mode, see omits_end)
    cdef lxp_tag_id_t[31] closes_p = [
        TAG_ADDRESS, TAG_ARTICLE, TAG_ASIDE, TAG_BLOCKQUOTE, TAG_DETAILS,
        TAG_DIALOG, TAG_DIV, TAG_DL, TAG_FIELDSET, TAG_FIGCAPTION, TAG_FIGURE,
        TAG_FOOTER, TAG_FORM, TAG_H1, TAG_H2, TAG_H3, TAG_H4, TAG_H5, TAG_H6,
        TAG_HEADER, TAG_HGROUP, TAG_HR, TAG_MAIN, TAG_MENU, TAG_NAV, TAG_OL,
        TAG_P, TAG_PRE, TAG_SEARCH, TAG_SECTION, TAG_UL]
    cdef lxp_tag_id_t[11] head_content = [
        TAG_BASE, TAG_BASEFONT, TAG_BGSOUND, TAG_LINK, TAG_META, TAG_NOFRAMES,
        TAG_SCRIPT, TAG_STYLE, TAG_TEMPLATE, TAG_TITLE, TAG_NOSCRIPT]
    set_mode_flag(MF_BLOCK, block, 48)
    set_mode_flag(MF_BLOCK, block_more, 5)
    set_mode_flag(MF_KEEPS_WS, keeps, 11)
    set_mode_flag(MF_WS_PARENT, ws_parent, 8)
    set_mode_flag(MF_ENDS_IMPLIED, ends, 47)
    set_mode_flag(MF_CLOSES_P, closes_p, 31)
    set_mode_flag(MF_HEAD_CONTENT, head_content, 11)

fill_mode_flags()


cdef inline lxp_tag_id_t html_tag(CNode* node) noexcept nogil:
    """The tag id of an HTML element, 0 for any other node."""
    if node == NULL or node.type != ELEMENT_NODE \
            or (<CElement*> node).ns != NS_HTML:
        return 0
    return (<CElement*> node).tag_id


cdef inline bint html_flag(CNode* node, uint8_t flag) noexcept nogil:
    cdef lxp_tag_id_t tag = html_tag(node)
    return tag != 0 and tag < TAG__LAST_STATIC and (MODE_FLAGS[tag] & flag) != 0


cdef inline bint is_block_level(CNode* node) noexcept nogil:
    return html_flag(node, MF_BLOCK) and not (
        (<CElement*> node).attr_count
        and element_has_attribute(<CElement*> node, ATTR_HIDDEN))


cdef inline bint keeps_whitespace(CNode* node) noexcept nogil:
    """Whether whitespace in the element's text is left alone (rule 2)."""
    if node.type != ELEMENT_NODE:
        return False
    if (<CElement*> node).ns != NS_HTML:
        return True
    if html_flag(node, MF_KEEPS_WS):
        return True
    return (<CElement*> node).tag_id == TAG_NOSCRIPT and node.owner.scripting != 0


cdef inline bint is_collapsible(uint8_t c) noexcept nogil:
    return c == 0x20 or c == 0x09 or c == 0x0A or c == 0x0D


cdef inline bint is_name_byte(uint8_t c) noexcept nogil:
    return (0x30 <= c <= 0x39) or (0x41 <= c <= 0x5A) or (0x61 <= c <= 0x7A) \
        or c == 0x23


# ---------------------------------------------------------------------------
# Minified output
# ---------------------------------------------------------------------------

cdef struct RawReplacement:       # a script's or style's text from a hook
    CNode* element
    const uint8_t* data
    size_t length


cdef struct MinifyOptions:
    bint keep_closing_tags
    bint keep_comments
    bint keep_conditional_comments
    bint keep_html_and_head_opening_tags
    bint remove_spaces_between_attributes
    bint remove_processing_instructions
    RawReplacement* replacements    # in tree order (NULL: none)
    size_t replacement_count
    size_t replacement_next         # the walk's cursor into them


cdef bint is_conditional_comment(CCharacterData* data) noexcept nogil:
    """<!--[if IE]>...<![endif]--> and the two halves of a downlevel-revealed
    one (<!--[if !IE]><!--> and <!--<![endif]-->)."""
    return (data.length >= 3 and memcmp(data.data, b"[if", 3) == 0) or \
        (data.length >= 9 and memcmp(data.data, b"<![endif]", 9) == 0)


cdef bint is_dropped(CNode* node, MinifyOptions* options) noexcept nogil:
    """Whether the minified output leaves out a comment, PI or empty text."""
    if node.type == COMMENT_NODE:
        if options.keep_comments:
            return False
        return not (options.keep_conditional_comments
                    and is_conditional_comment(<CCharacterData*> node))
    if node.type == PROCESSING_INSTRUCTION_NODE:
        return options.remove_processing_instructions
    if node.type == TEXT_NODE:
        return (<CCharacterData*> node).length == 0
    return False


cdef bint all_collapsible(CCharacterData* text) noexcept nogil:
    cdef size_t i
    for i in range(text.length):
        if not is_collapsible(text.data[i]):
            return False
    return True


cdef CNode* run_end(CNode* first, MinifyOptions* options,
                    bint* whitespace_only) noexcept nogil:
    """The node after the run of text that starts at `first` (its text
    nodes and the dropped nodes among them, which merge on reparse)."""
    cdef CNode* node = first
    whitespace_only[0] = True
    while node != NULL:
        if node.type == TEXT_NODE:
            if whitespace_only[0] and not all_collapsible(<CCharacterData*> node):
                whitespace_only[0] = False
        elif not is_dropped(node, options):
            break
        node = node.next
    return node


cdef bint run_removed(CNode* parent, CNode* before, CNode* after) noexcept nogil:
    """Rule 3 for a whitespace-only run between `before` and `after` (NULL:
    the parent's start or end)."""
    if html_flag(parent, MF_WS_PARENT):
        return True
    return is_block_level(parent if before == NULL else before) and \
        is_block_level(parent if after == NULL else after)


cdef CNode* kept_from(CNode* node, CNode* before, CNode* parent, bint keeps,
                      MinifyOptions* options) noexcept nogil:
    """The first node from `node` on (among its siblings) that the minified
    output writes: dropped nodes and removed whitespace runs are passed
    over. `before` is the written node before `node` (NULL: none)."""
    cdef CNode* end
    cdef bint whitespace_only
    while node != NULL:
        if node.type == TEXT_NODE:
            end = run_end(node, options, &whitespace_only)
            if keeps or not whitespace_only or not run_removed(parent, before, end):
                # the run is written: its first text with data (none: the
                # run writes nothing)
                while node != end and (node.type != TEXT_NODE
                                       or (<CCharacterData*> node).length == 0):
                    node = node.next
                if node != end:
                    return node
            node = end
        elif is_dropped(node, options):
            node = node.next
        else:
            return node
    return NULL


cdef inline CNode* kept_before(CNode* node, MinifyOptions* options) noexcept nogil:
    """The last written sibling before a run (no text: runs are maximal)."""
    node = node.prev
    while node != NULL and is_dropped(node, options):
        node = node.prev
    return node


cdef inline bint first_byte_is_whitespace(CNode* node) noexcept nogil:
    return node.type == TEXT_NODE and (<CCharacterData*> node).length > 0 \
        and is_ascii_whitespace_byte((<CCharacterData*> node).data[0])


cdef bint omits_start(CElement* element, CNode* first, bint keeps,
                      MinifyOptions* options) noexcept nogil:
    """https://html.spec.whatwg.org/multipage/syntax.html#optional-tags
    (start tags), where the reparse also gives the same tree. `first` is
    the first child the output writes."""
    cdef CNode* node = &element.node
    cdef lxp_tag_id_t tag = element.tag_id
    cdef CNode* parent = node.parent
    if element.ns != NS_HTML or element.attr_count:
        return False
    if tag == TAG_HTML:
        # ... if the first thing inside the html element is not a comment
        return not options.keep_html_and_head_opening_tags \
            and parent != NULL and parent.type == DOCUMENT_NODE \
            and first != NULL and first.type == ELEMENT_NODE
    if tag == TAG_HEAD:
        # ... if the element is empty, or the first thing inside it is an element
        return not options.keep_html_and_head_opening_tags \
            and html_tag(parent) == TAG_HTML \
            and (first == NULL or first.type == ELEMENT_NODE)
    if tag == TAG_BODY:
        # ... if the element is empty, or if the first thing inside it is not
        # ASCII whitespace or a comment, except if it is a meta, noscript,
        # link, script, style or template element (and the others that
        # "after head" puts into head)
        if html_tag(parent) != TAG_HTML:
            return False
        if first == NULL:
            return True
        if first.type == TEXT_NODE:
            return not first_byte_is_whitespace(first)
        return first.type == ELEMENT_NODE and not html_flag(first, MF_HEAD_CONTENT)
    if tag == TAG_TBODY:
        # ... if the first thing inside is a tr element, and the element is
        # not immediately preceded by a tbody, thead or tfoot element
        # (whitespace-only text in a table is removed: passed over too)
        node = node.prev
        while node != NULL and (is_dropped(node, options) or (
                not keeps and node.type == TEXT_NODE
                and all_collapsible(<CCharacterData*> node))):
            node = node.prev
        return html_tag(parent) == TAG_TABLE and html_tag(first) == TAG_TR \
            and html_tag(node) != TAG_TBODY and html_tag(node) != TAG_THEAD \
            and html_tag(node) != TAG_TFOOT
    return False


# Which elements were left open at the end of the content written last
# (their end tags omitted as "no more content"): a start tag that closes an
# element by walking the stack (li, dd, dt, option, optgroup) passes over
# only some of them.
cdef enum:
    OPEN_P = 1
    OPEN_OPTION = 2
    OPEN_OTHER = 4


cdef bint omits_end(CElement* element, CNode* after, bint in_template,
                    uint8_t open_inside, MinifyOptions* options) noexcept nogil:
    """https://html.spec.whatwg.org/multipage/syntax.html#optional-tags
    (end tags), where the reparse also gives the same tree. `after` is the
    next sibling the output writes (NULL: none); `open_inside` the OPEN_
    bits of the element's last descendants left open."""
    cdef lxp_tag_id_t tag = element.tag_id
    cdef CNode* parent = element.node.parent
    cdef lxp_tag_id_t next_tag = html_tag(after)
    cdef lxp_tag_id_t parent_tag = html_tag(parent)
    cdef bint last
    if element.ns != NS_HTML or options.keep_closing_tags:
        return False
    # "no more content in the parent element", with a parent whose end tag
    # (or the end of the input) closes the element on reparse
    last = after == NULL and (
        html_flag(parent, MF_ENDS_IMPLIED)
        or (parent != NULL and parent.type == DOCUMENT_FRAGMENT_NODE))
    if tag == TAG_HTML:
        # ... if not immediately followed by a comment (nor a processing
        # instruction, which would move into html)
        return parent != NULL and parent.type == DOCUMENT_NODE and after == NULL
    if tag == TAG_HEAD:
        # (an element that "after head" would put back into head: kept)
        return parent_tag == TAG_HTML and (after == NULL or (
            after.type == ELEMENT_NODE and not html_flag(after, MF_HEAD_CONTENT)))
    if tag == TAG_BODY:
        return parent_tag == TAG_HTML and after == NULL
    if tag == TAG_LI:
        # (an li start tag closes the li over an open p only)
        return (next_tag == TAG_LI and (open_inside & ~OPEN_P) == 0) or last
    if tag == TAG_DT or tag == TAG_DD:
        return ((next_tag == TAG_DT or next_tag == TAG_DD)
                and (open_inside & ~OPEN_P) == 0) or (last and tag == TAG_DD)
    if tag == TAG_P:
        if next_tag == TAG_FORM or next_tag == TAG_TABLE:
            # (a table start tag closes a p only outside quirks mode; in a
            # template's contents after table parts, "in table" takes form
            # and table start tags without closing the p)
            return not in_template and (next_tag == TAG_FORM
                                        or element.node.owner.quirks_mode != QUIRKS)
        if next_tag != 0 and next_tag < TAG__LAST_STATIC \
                and MODE_FLAGS[next_tag] & MF_CLOSES_P:
            return True
        return last
    if tag == TAG_RT or tag == TAG_RP:
        return parent_tag == TAG_RUBY and (
            next_tag == TAG_RT or next_tag == TAG_RP or after == NULL)
    if tag == TAG_OPTGROUP:
        return parent_tag == TAG_SELECT and (after == NULL or (
            next_tag == TAG_OPTGROUP and (open_inside & ~OPEN_OPTION) == 0))
    if tag == TAG_OPTION:
        # (an option or optgroup start tag pops an option that is the
        # current node only)
        if next_tag == TAG_OPTION:
            return open_inside == 0
        if next_tag == TAG_OPTGROUP:
            return parent_tag == TAG_SELECT and open_inside == 0
        return after == NULL and (parent_tag == TAG_SELECT or parent_tag == TAG_DATALIST
                                  or parent_tag == TAG_OPTGROUP)
    if tag == TAG_COLGROUP or tag == TAG_CAPTION:
        # ... if not immediately followed by ASCII whitespace or a comment:
        # on reparse a template (and, after a caption, anything but the
        # table parts) would go inside, so only the table parts may follow
        return parent_tag == TAG_TABLE and (
            after == NULL or next_tag == TAG_CAPTION or next_tag == TAG_COLGROUP
            or next_tag == TAG_THEAD or next_tag == TAG_TBODY
            or next_tag == TAG_TFOOT or next_tag == TAG_TR)
    if tag == TAG_THEAD:
        return parent_tag == TAG_TABLE and (next_tag == TAG_TBODY or next_tag == TAG_TFOOT)
    if tag == TAG_TBODY:
        return parent_tag == TAG_TABLE and (
            next_tag == TAG_TBODY or next_tag == TAG_TFOOT or after == NULL)
    if tag == TAG_TFOOT:
        return parent_tag == TAG_TABLE and (next_tag == TAG_TBODY or after == NULL)
    if tag == TAG_TR:
        return (parent_tag == TAG_TBODY or parent_tag == TAG_THEAD
                or parent_tag == TAG_TFOOT) and (next_tag == TAG_TR or after == NULL)
    if tag == TAG_TD or tag == TAG_TH:
        return parent_tag == TAG_TR and (
            next_tag == TAG_TD or next_tag == TAG_TH or after == NULL)
    return False


cdef int first_byte_after(CNode* node, MinifyOptions* options) noexcept nogil:
    """The first byte of the text that follows `node` in its run (the
    reparse merges them), or -1."""
    node = node.next
    while node != NULL:
        if node.type == TEXT_NODE:
            if (<CCharacterData*> node).length:
                return (<CCharacterData*> node).data[0]
        elif not is_dropped(node, options):
            return -1
        node = node.next
    return -1


# Byte classes of the minified writers, filled at import.
cdef enum:
    BC_COLLAPSIBLE = 1      # " ", TAB, LF, CR
    BC_TEXT_SPECIAL = 2     # '&', '<'
    BC_UNQUOTABLE = 4       # ASCII whitespace, '"', "'", '=', '<', '>', '`'
    BC_DOUBLE_QUOTE = 8
    BC_SINGLE_QUOTE = 16
    BC_AMPERSAND = 32

cdef uint8_t BYTE_CLASS[256]


cdef void fill_byte_classes() noexcept nogil:
    cdef int c
    for c in range(256):
        BYTE_CLASS[c] = 0
    for c in range(256):
        if c == 0x20 or c == 0x09 or c == 0x0A or c == 0x0D:
            BYTE_CLASS[c] |= BC_COLLAPSIBLE
        if is_ascii_whitespace_byte(<uint8_t> c) or c == 0x22 or c == 0x27 \
                or c == 0x3D or c == 0x3C or c == 0x3E or c == 0x60:
            BYTE_CLASS[c] |= BC_UNQUOTABLE
    BYTE_CLASS[0x26] |= BC_TEXT_SPECIAL | BC_AMPERSAND
    BYTE_CLASS[0x3C] |= BC_TEXT_SPECIAL
    BYTE_CLASS[0x22] |= BC_DOUBLE_QUOTE
    BYTE_CLASS[0x27] |= BC_SINGLE_QUOTE

fill_byte_classes()


cdef void close_open_chain(Buffer* out, CNode* deepest, CNode* element) noexcept nogil:
    """Before `element`'s end tag: the descendants left open at the end of
    its content (their end tags omitted, `deepest` the innermost) are
    closed by it on reparse unless one has its tag name, whose end tag it
    would then be: their end tags are written after all, innermost first."""
    cdef CNode* node = deepest
    cdef lxp_tag_id_t tag = html_tag(element)
    while node != NULL and node != element:
        if html_tag(node) == tag:
            break
        node = walk_parent(node)
    if node == NULL or node == element:
        return
    node = deepest
    while node != NULL and node != element:
        write_end(out, node)
        node = walk_parent(node)


cdef void write_minified_text(Buffer* out, const uint8_t* data, size_t length,
                              bint collapse, int following,
                              int* space) noexcept nogil:
    """Text with the minimal escaping ('&' before a name character, every
    '<'), and with rule 4's collapse when `collapse`. `following` is the
    byte after the text in its run (-1: none); `space` is what the output
    ends with within the current run: 0 other, 1 a collapsed space, 2 a
    collapsed LF."""
    cdef size_t start = 0
    cdef size_t i = 0
    cdef uint8_t c
    cdef uint8_t mask = BC_TEXT_SPECIAL | (BC_COLLAPSIBLE if collapse else 0)
    while True:
        # the bytes written as they are, at once
        while i < length and (BYTE_CLASS[data[i]] & mask) == 0:
            i += 1
        if i > start:
            buffer_write(out, data + start, i - start)
            space[0] = 0
        if i >= length:
            return
        c = data[i]
        if BYTE_CLASS[c] & BC_COLLAPSIBLE and collapse:
            if space[0] == 0:
                if c == 0x0A or c == 0x0D:
                    buffer_byte(out, 0x0A)
                    space[0] = 2
                else:
                    buffer_byte(out, 0x20)
                    space[0] = 1
            elif space[0] == 1 and (c == 0x0A or c == 0x0D) and out.length:
                out.data[out.length - 1] = 0x0A
                space[0] = 2
        else:
            space[0] = 0
            if c == 0x3C:
                buffer_write_c(out, "&lt;")
            elif (i + 1 < length and is_name_byte(data[i + 1])) or (
                    i + 1 == length and following >= 0
                    and is_name_byte(<uint8_t> following)):
                buffer_write_c(out, "&amp;")
            else:
                buffer_byte(out, c)
        i += 1
        start = i


cdef void write_minified_value(Buffer* out, const uint8_t* data,
                               size_t length) noexcept nogil:
    """An attribute value: unquoted where the syntax allows (not empty, no
    whitespace, quotes, '=', '<', '>' or '`'), else in the quote it holds
    fewer of; '&' escaped before a name character."""
    cdef size_t i
    cdef uint8_t c
    cdef uint8_t classes = 0
    cdef uint8_t quote = 0x22
    cdef bint needs_quotes
    cdef bint escape_quote = False
    cdef size_t start = 0
    for i in range(length):
        classes |= BYTE_CLASS[data[i]]
    needs_quotes = length == 0 or (classes & BC_UNQUOTABLE) != 0
    if needs_quotes:
        if classes & BC_DOUBLE_QUOTE:
            if classes & BC_SINGLE_QUOTE:
                escape_quote = True
            else:
                quote = 0x27
        buffer_byte(out, quote)
    if not escape_quote and not (classes & BC_AMPERSAND):
        buffer_write(out, data, length)
    else:
        for i in range(length):
            c = data[i]
            if c == quote and escape_quote:
                buffer_write(out, data + start, i - start)
                buffer_write_c(out, "&#34;")
                start = i + 1
            elif c == 0x26 and i + 1 < length and is_name_byte(data[i + 1]):
                buffer_write(out, data + start, i - start)
                buffer_write_c(out, "&amp;")
                start = i + 1
        buffer_write(out, data + start, length - start)
    if needs_quotes:
        buffer_byte(out, quote)


cdef void write_doctype_full(Buffer* out, CDocumentType* doctype,
                             const char* keyword) noexcept nogil:
    """The doctype with its public and system identifiers (the standard's
    serializer drops them, which can change the document's mode)."""
    cdef uint8_t quote
    buffer_write_c(out, keyword)
    if doctype.name_length:
        buffer_byte(out, 0x20)
        buffer_write(out, doctype.name, doctype.name_length)
    else:
        buffer_byte(out, 0x20)
    if doctype.public_id != NULL:
        buffer_write_c(out, " PUBLIC ")
        quote = 0x27 if memchr(doctype.public_id, 0x22, doctype.public_id_length) != NULL else 0x22
        buffer_byte(out, quote)
        buffer_write(out, doctype.public_id, doctype.public_id_length)
        buffer_byte(out, quote)
    elif doctype.system_id != NULL:
        buffer_write_c(out, " SYSTEM")
    if doctype.system_id != NULL:
        quote = 0x27 if memchr(doctype.system_id, 0x22, doctype.system_id_length) != NULL else 0x22
        buffer_byte(out, 0x20)
        buffer_byte(out, quote)
        buffer_write(out, doctype.system_id, doctype.system_id_length)
        buffer_byte(out, quote)
    buffer_byte(out, 0x3E)


cdef inline bint starts_with_newline(CNode* node) noexcept nogil:
    return node != NULL and node.type == TEXT_NODE \
        and (<CCharacterData*> node).length > 0 \
        and (<CCharacterData*> node).data[0] == 0x0A


cdef void write_minified_start_tag(Buffer* out, CElement* element,
                                  MinifyOptions* options) noexcept nogil:
    """A start tag, minified (the standard's is write_start_tag)."""
    cdef uint32_t i
    cdef bint quoted = False
    buffer_byte(out, 0x3C)
    write_element_name(out, element)
    for i in range(element.attr_count):
        if not quoted or not options.remove_spaces_between_attributes:
            buffer_byte(out, 0x20)
        write_attribute_name(out, element.node.owner, &element.attrs[i])
        quoted = False
        if element.attrs[i].value_length:
            buffer_byte(out, 0x3D)
            write_minified_value(out, element.attrs[i].value,
                                 element.attrs[i].value_length)
            quoted = out.length > 0 and (out.data[out.length - 1] == 0x22
                                         or out.data[out.length - 1] == 0x27)
    buffer_byte(out, 0x3E)


cdef int serialize_minified(Buffer* out, CNode* root, bint include_root,
                            MinifyOptions* options) noexcept nogil:
    """Serialize like serialize_tree, minified (see the top of this file)."""
    cdef CNode* node
    cdef CNode* child
    cdef CNode* first
    cdef CNode* end
    cdef CElement* element
    cdef CCharacterData* data
    cdef size_t keep_depth = 0      # whitespace-keeping elements open (and above)
    cdef bint in_run = False        # inside a run of text: its state below
    cdef bint run_dropped = False
    cdef bint whitespace_only
    cdef int space = 0
    cdef bint collapse
    cdef bint descend
    cdef bint parent_keeps
    cdef size_t in_template = 0     # template contents open (and above)
    cdef uint8_t open_inside = 0    # OPEN_ bits (see omits_end)
    cdef CNode* open_chain = NULL   # the deepest of them (see close_open_chain)
    cdef CNode* after
    # Whitespace-keeping elements and templates above the root count too.
    node = root.parent if include_root else root
    while node != NULL:
        if keeps_whitespace(node):
            keep_depth = 1
        if fragment_host(node) != NULL:
            in_template = 1
        node = walk_parent(node)
    if include_root:
        node = root
    else:
        if not has_serialized_children(root):
            return 0
        node = walk_first_child(root)
        if node == NULL:
            return 0
    while not out.failed:
        descend = False
        # -- what is written before the node's children
        if node.type == TEXT_NODE:
            data = <CCharacterData*> node
            if node == root:
                run_dropped = False
            elif not in_run:
                in_run = True
                space = 0
                end = run_end(node, options, &whitespace_only)
                run_dropped = whitespace_only and keep_depth == 0 and run_removed(
                    node.parent, kept_before(node, options), end)
            if not run_dropped:
                if text_is_raw(node):
                    buffer_write(out, data.data, data.length)
                else:
                    collapse = keep_depth == 0
                    write_minified_text(
                        out, data.data, data.length, collapse,
                        first_byte_after(node, options) if node != root else -1,
                        &space)
        elif is_dropped(node, options) and node != root:
            pass
        elif node.type == ELEMENT_NODE:
            in_run = False
            element = <CElement*> node
            parent_keeps = keep_depth != 0
            if keep_depth or keeps_whitespace(node):
                keep_depth += 1
            descend = has_serialized_children(node)
            first = kept_from(walk_first_child(node), NULL, node,
                              keep_depth != 0, options) if descend else NULL
            if node == root or not omits_start(element, first, parent_keeps,
                                                       options):
                write_minified_start_tag(out, element, options)
                open_inside = 0
                open_chain = NULL
            # (a leading LF of pre, textarea and listing is dropped by the
            # parser: one more keeps it)
            if (element.tag_id == TAG_PRE or element.tag_id == TAG_TEXTAREA
                    or element.tag_id == TAG_LISTING) and element.ns == NS_HTML \
                    and starts_with_newline(first):
                buffer_byte(out, 0x0A)
            if options.replacement_next < options.replacement_count \
                    and options.replacements[options.replacement_next].element == node:
                # (a hook's text for this script or style, instead of its own)
                buffer_write(out, options.replacements[options.replacement_next].data,
                             options.replacements[options.replacement_next].length)
                options.replacement_next += 1
                descend = False
        else:
            in_run = False
            if node.type == DOCUMENT_TYPE_NODE:
                write_doctype_full(out, <CDocumentType*> node, "<!doctype")
            elif node.type == COMMENT_NODE or node.type == PROCESSING_INSTRUCTION_NODE:
                write_comment_or_pi(out, node)
            elif fragment_host(node) != NULL:
                in_template += 1
            descend = has_serialized_children(node)
        child = walk_first_child(node) if descend else NULL
        if child != NULL:
            node = child
            continue
        # -- what is written after them, for it and its finished ancestors
        while True:
            if node.type == ELEMENT_NODE:
                in_run = False
                if keep_depth:
                    keep_depth -= 1
                if serializes_as_void(<CElement*> node):
                    open_inside = 0
                else:
                    after = kept_from(node.next, node, node.parent,
                                      keep_depth != 0, options) \
                        if node != root else NULL
                    if node == root or not omits_end(
                            <CElement*> node, after, in_template != 0,
                            open_inside, options):
                        if open_chain != NULL:
                            close_open_chain(out, open_chain, node)
                        write_end(out, node)
                        open_inside = 0
                        open_chain = NULL
                    elif after == NULL:
                        open_inside |= OPEN_P if html_tag(node) == TAG_P else \
                            OPEN_OPTION if html_tag(node) == TAG_OPTION else OPEN_OTHER
                        if open_chain == NULL:
                            open_chain = node
            if node == root:
                return -1 if out.failed else 0
            child = walk_next_sibling(node, False)
            if child != NULL:
                node = child
                break
            node = walk_parent(node)
            in_run = False
            if node == NULL or (node == root and not include_root):
                return -1 if out.failed else 0
            if node.type != ELEMENT_NODE:
                # (a template's contents: the template's end follows)
                if fragment_host(node) != NULL and in_template:
                    in_template -= 1
                continue
    return -1


cdef str serialize_minified_html(CNode* node, bint include_self,
                                 MinifyOptions* options):
    cdef Buffer out
    cdef CDocument* c_doc = node.owner
    memset(&out, 0, sizeof(Buffer))
    begin_reading(c_doc)
    with nogil:
        serialize_minified(&out, node, include_self, options)
    end_reading(c_doc)
    return buffer_finish(&out)


# ---------------------------------------------------------------------------
# Pretty-printed output
# ---------------------------------------------------------------------------
#
# Rules: the children of a "laid-out" element (html, head, body, the table
# parts, and any element with a block-level child) each start a line, one
# indentation level deeper: a block-level child (and every child of head)
# on its own line, the inline content between them (text, inline elements,
# comments) on one line, with whitespace runs as one space and none at the
# line's ends. Inline content elsewhere stays on its line with its
# whitespace runs as one space. Whitespace-keeping elements (rule 2 of the
# minifier) are written as they are. Only whitespace in text changes.

cdef inline bint pretty_block(CNode* node) noexcept nogil:
    """A child that starts a line of its own: a block-level element, or
    any element of head."""
    if node == NULL or node.type != ELEMENT_NODE:
        return False
    return is_block_level(node) or html_tag(node.parent) == TAG_HEAD \
        or html_tag(node) == TAG_HEAD


cdef bint has_block_layout(CNode* node) noexcept nogil:
    """Whether an element's children are laid out a line each."""
    cdef CNode* child
    if node.type != ELEMENT_NODE:
        return node.type == DOCUMENT_NODE or node.type == DOCUMENT_FRAGMENT_NODE
    if keeps_whitespace(node):
        return False
    if html_flag(node, MF_WS_PARENT) or html_tag(node) == TAG_BODY:
        return True
    child = walk_first_child(node)
    while child != NULL:
        if pretty_block(child):
            return True
        child = walk_next_sibling(child, False)
    return False


cdef bint has_written_child(CNode* node) noexcept nogil:
    """Whether a laid-out element has a child other than whitespace-only
    text (which the layout drops)."""
    cdef CNode* child = walk_first_child(node)
    while child != NULL:
        if child.type != TEXT_NODE or not all_collapsible(<CCharacterData*> child):
            return True
        child = walk_next_sibling(child, False)
    return False


cdef inline void pretty_break(Buffer* out, size_t level, size_t indent) noexcept nogil:
    buffer_byte(out, 0x0A)
    if level > PRETTY_MAX_LEVELS:
        level = PRETTY_MAX_LEVELS
    buffer_spaces(out, level * indent)


cdef struct PrettyState:
    size_t level              # indentation of new lines, in levels
    size_t indent             # spaces a level
    bint need_break           # the next thing written starts a line
    bint pending_space        # a space is owed before the next thing written
    bint started              # something was written


cdef inline void pretty_before(Buffer* out, PrettyState* state) noexcept nogil:
    """What is owed before the next thing written: a line break or a space."""
    if state.need_break:
        if state.started:
            pretty_break(out, state.level, state.indent)
        state.need_break = False
        state.pending_space = False
    elif state.pending_space:
        buffer_byte(out, 0x20)
        state.pending_space = False
    state.started = True


cdef void write_pretty_text(Buffer* out, CCharacterData* text,
                            PrettyState* state) noexcept nogil:
    """Text outside whitespace-keeping elements: each whitespace run owes
    one space (dropped at a line's start)."""
    cdef size_t i = 0
    cdef size_t run
    while i < text.length:
        if is_collapsible(text.data[i]):
            while i < text.length and is_collapsible(text.data[i]):
                i += 1
            if not state.need_break:
                state.pending_space = True
            continue
        pretty_before(out, state)
        run = i
        while i < text.length and not is_collapsible(text.data[i]):
            i += 1
        write_escaped(out, text.data + run, i - run, False)


cdef struct ByteStack:
    uint8_t* data
    size_t length
    size_t capacity
    bint failed


cdef inline void byte_stack_push(ByteStack* stack, uint8_t value) noexcept nogil:
    cdef uint8_t* data
    cdef size_t capacity
    if stack.length == stack.capacity:
        capacity = stack.capacity * 2 if stack.capacity else 256
        data = <uint8_t*> realloc(stack.data, capacity)
        if data == NULL:
            stack.failed = True
            return
        stack.data = data
        stack.capacity = capacity
    stack.data[stack.length] = value
    stack.length += 1


cdef inline uint8_t byte_stack_pop(ByteStack* stack) noexcept nogil:
    if stack.length == 0:
        return 0
    stack.length -= 1
    return stack.data[stack.length]


cdef enum:
    PRETTY_LAID_OUT = 1        # the element's children are laid out
    PRETTY_INDENTED = 2        # and indented one level (it has some)
    PRETTY_KEEPS = 4           # it counts in keep_depth


cdef int serialize_pretty(Buffer* out, CNode* root, bint include_root,
                          size_t indent) noexcept nogil:
    """Serialize like serialize_tree, with line breaks and indentation in
    the whitespace of text only (see the rules above)."""
    cdef CNode* node
    cdef CNode* child
    cdef PrettyState state
    cdef ByteStack stack                # the open elements' PRETTY_ bits
    cdef size_t keep_depth = 0
    cdef bint laid_out                  # the current node's parent lays out
    cdef bint descend
    cdef uint8_t bits
    cdef int result = 0
    memset(&state, 0, sizeof(PrettyState))
    memset(&stack, 0, sizeof(ByteStack))
    state.indent = indent
    node = root.parent if include_root else root
    while node != NULL:
        if keeps_whitespace(node):
            keep_depth = 1
            break
        node = walk_parent(node)
    if include_root:
        node = root
        laid_out = False
    else:
        if not has_serialized_children(root):
            return 0
        laid_out = keep_depth == 0 and has_block_layout(root)
        node = walk_first_child(root)
        if node == NULL:
            return 0
    while not out.failed and not stack.failed:
        descend = False
        if node.type == TEXT_NODE:
            if keep_depth or text_is_raw(node):
                pretty_before(out, &state)
                write_text(out, node)
            else:
                write_pretty_text(out, <CCharacterData*> node, &state)
                if laid_out and (node.next == NULL or pretty_block(node.next)):
                    state.pending_space = False
        else:
            if laid_out and pretty_block(node):
                state.need_break = True
            pretty_before(out, &state)
            if node.type == ELEMENT_NODE:
                write_start_tag(out, <CElement*> node)
            elif node.type == DOCUMENT_TYPE_NODE:
                # (with its identifiers, which set the document's mode)
                write_doctype_full(out, <CDocumentType*> node, "<!DOCTYPE")
            else:
                write_comment_or_pi(out, node)
            if node.type == ELEMENT_NODE and has_serialized_children(node):
                descend = True
                bits = 0
                if keep_depth or keeps_whitespace(node):
                    keep_depth += 1
                    bits = PRETTY_KEEPS
                    if (html_tag(node) == TAG_PRE or html_tag(node) == TAG_TEXTAREA
                            or html_tag(node) == TAG_LISTING) \
                            and starts_with_newline(walk_first_child(node)):
                        buffer_byte(out, 0x0A)
                elif has_block_layout(node):
                    bits = PRETTY_LAID_OUT
                    if has_written_child(node):
                        bits |= PRETTY_INDENTED
                        state.level += 1
                        state.need_break = True
                byte_stack_push(&stack, <uint8_t> (bits | (PRETTY_LAID_OUT * 8 if laid_out else 0)))
                laid_out = (bits & PRETTY_LAID_OUT) != 0
            elif node.type == DOCUMENT_NODE or node.type == DOCUMENT_FRAGMENT_NODE:
                # (a template's contents, inside the template)
                descend = True
        child = walk_first_child(node) if descend else NULL
        if child != NULL:
            node = child
            continue
        while True:
            if node.type == ELEMENT_NODE and has_serialized_children(node):
                bits = byte_stack_pop(&stack)
                laid_out = (bits & (PRETTY_LAID_OUT * 8)) != 0
                if bits & PRETTY_KEEPS:
                    keep_depth -= 1
                elif bits & PRETTY_INDENTED:
                    state.level -= 1
                    state.need_break = True
                    state.pending_space = False
                    pretty_before(out, &state)
                else:
                    # (a space owed inside the element is written inside)
                    pretty_before(out, &state)
                write_end(out, node)
            if laid_out and pretty_block(node):
                state.need_break = True
            if node == root:
                result = -1 if out.failed or stack.failed else 0
                free(stack.data)
                return result
            child = walk_next_sibling(node, False)
            if child != NULL:
                node = child
                break
            node = walk_parent(node)
            if node == NULL or (node == root and not include_root):
                result = -1 if out.failed or stack.failed else 0
                free(stack.data)
                return result
    free(stack.data)
    return -1


cdef str serialize_pretty_html(CNode* node, bint include_self, size_t indent):
    cdef Buffer out
    cdef CDocument* c_doc = node.owner
    memset(&out, 0, sizeof(Buffer))
    begin_reading(c_doc)
    with nogil:
        if serialize_pretty(&out, node, include_self, indent) != 0:
            out.failed = True
    end_reading(c_doc)
    return buffer_finish(&out)


# ---------------------------------------------------------------------------
# The Python entry: to_html(minify=..., indent=..., **options)
# ---------------------------------------------------------------------------

# https://mimesniff.spec.whatwg.org/#javascript-mime-type (and "module")
_JAVASCRIPT_TYPES = frozenset([
    "", "module", "application/ecmascript", "application/javascript",
    "application/x-ecmascript", "application/x-javascript", "text/ecmascript",
    "text/javascript", "text/javascript1.0", "text/javascript1.1",
    "text/javascript1.2", "text/javascript1.3", "text/javascript1.4",
    "text/javascript1.5", "text/jscript", "text/livescript", "text/x-ecmascript",
    "text/x-javascript"])


cdef list hook_replacements(CNode* root, bint include_root, object minify_js,
                            object minify_css):
    """(element, bytes) of the HTML script and style elements under root,
    in tree order, whose text a hook rewrote: script elements of a
    JavaScript type with minify_js, style elements of type text/css (or
    none) with minify_css. A hook's result that could end the element or
    change how its text is tokenized (a "</script", "</style" or, in a
    script, "<!--") is not used: the text stays as it was."""
    cdef list found = []
    cdef CNode* node = root if include_root else walk_first_child(root)
    cdef CElement* element
    cdef CAttr* attr
    cdef Buffer text
    cdef str kind, value, result
    while node != NULL:
        if node.type == ELEMENT_NODE and (<CElement*> node).ns == NS_HTML and (
                ((<CElement*> node).tag_id == TAG_SCRIPT and minify_js is not None)
                or ((<CElement*> node).tag_id == TAG_STYLE and minify_css is not None)):
            element = <CElement*> node
            attr = element_find_attribute(element, ATTR_TYPE, NS__UNDEF)
            kind = "" if attr == NULL else \
                decode_utf8(attr.value, attr.value_length).strip().lower()
            memset(&text, 0, sizeof(Buffer))
            write_descendant_text(&text, node)
            value = buffer_finish(&text)
            result = None
            if element.tag_id == TAG_SCRIPT and kind in _JAVASCRIPT_TYPES:
                result = minify_js(value)
                if not isinstance(result, str):
                    raise TypeError("minify_js must return a str, not %s"
                                    % type(result).__name__)
                if "</script" in result.lower() or "<!--" in result:
                    result = None
            elif element.tag_id == TAG_STYLE and kind in ("", "text/css"):
                result = minify_css(value)
                if not isinstance(result, str):
                    raise TypeError("minify_css must return a str, not %s"
                                    % type(result).__name__)
                if "</style" in result.lower():
                    result = None
            if result is not None:
                found.append((<size_t> node, encode_utf8(result, "result")))
        node = walk_next(node, root, False)
    return found


_MINIFY_OPTIONS = ("keep_closing_tags", "keep_comments",
                  "keep_conditional_comments", "keep_html_and_head_opening_tags",
                  "allow_removing_spaces_between_attributes",
                  "keep_spaces_between_attributes",
                  "remove_processing_instructions", "minify_js", "minify_css")


cdef str serialize_with_options(CNode* node, bint include_self, bint minify,
                                object indent, dict options):
    cdef MinifyOptions settings
    cdef Py_ssize_t width
    cdef list found
    cdef Py_ssize_t i
    cdef CDocument* c_doc = node.owner
    if indent is not None and minify:
        raise ValueError("to_html() takes minify=True or indent, not both")
    if indent is not None:
        if options:
            raise TypeError("to_html(indent=...) takes no other options, got %s"
                            % ", ".join(sorted(options)))
        if isinstance(indent, bool) or not isinstance(indent, int):
            raise TypeError("indent must be a non-negative int, not %s"
                            % type(indent).__name__)
        if indent < 0:
            raise ValueError("indent must be a non-negative int, not %d" % indent)
        width = min(<object> indent, 4096)
        return serialize_pretty_html(node, include_self, <size_t> width)
    if not minify:
        if options:
            raise TypeError("to_html() options %s need minify=True"
                            % ", ".join(sorted(options)))
        return serialize_html(node, include_self)
    for name in options:
        if name not in _MINIFY_OPTIONS:
            raise TypeError("unknown minify option %r (known: %s)"
                            % (name, ", ".join(_MINIFY_OPTIONS)))
    settings.keep_closing_tags = bool(options.get("keep_closing_tags", False))
    settings.keep_comments = bool(options.get("keep_comments", False))
    settings.keep_conditional_comments = bool(options.get("keep_conditional_comments", False))
    settings.keep_html_and_head_opening_tags = bool(
        options.get("keep_html_and_head_opening_tags", False))
    # minify-html's current name (the space after a quoted value is left
    # out only when allowed: without it the HTML has a parse error, the
    # same tree), and its older keep_spaces_between_attributes, which wins
    settings.remove_spaces_between_attributes = bool(
        options.get("allow_removing_spaces_between_attributes", False)) and not bool(
        options.get("keep_spaces_between_attributes", False))
    settings.remove_processing_instructions = bool(
        options.get("remove_processing_instructions", False))
    settings.replacements = NULL
    settings.replacement_count = settings.replacement_next = 0
    minify_js = options.get("minify_js")
    minify_css = options.get("minify_css")
    for name, hook in (("minify_js", minify_js), ("minify_css", minify_css)):
        if hook is not None and not callable(hook):
            raise TypeError("%s must be a callable taking and returning a str "
                            "(lexpy has no JS or CSS minifier of its own), not %r"
                            % (name, hook))
    if minify_js is None and minify_css is None:
        return serialize_minified_html(node, include_self, &settings)
    # The tree cannot change while the hooks run (nor between them and the
    # walk): the pointers collected stay good.
    begin_reading(c_doc)
    try:
        found = hook_replacements(node, include_self, minify_js, minify_css)
        settings.replacements = <RawReplacement*> malloc(
            max(1, len(found)) * sizeof(RawReplacement))
        if settings.replacements == NULL:
            raise MemoryError()
        for i in range(len(found)):
            settings.replacements[i].element = <CNode*> <size_t> found[i][0]
            settings.replacements[i].data = <const uint8_t*> <bytes> found[i][1]
            settings.replacements[i].length = len(<bytes> found[i][1])
        settings.replacement_count = len(found)
        return serialize_minified_html(node, include_self, &settings)
    finally:
        free(settings.replacements)
        end_reading(c_doc)
