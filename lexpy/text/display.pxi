# The user-agent stylesheet's display values, as a switch over tag ids.
#
# Rendering, https://html.spec.whatwg.org/multipage/rendering.html#rendering
# lexpy applies no author CSS: `style` attributes and <style> sheets are
# ignored, so these boxes are the whole of "the computed display value".

cdef Box html_box(CElement* element, bint scripting) noexcept nogil:
    """The box an HTML element generates under the UA stylesheet: the
    table of ua_tag_box's answers, then the rules that read attributes."""
    cdef lxp_tag_id_t tag = element.tag_id
    cdef Box box
    # Hidden elements, https://html.spec.whatwg.org/multipage/rendering.html#hidden-elements
    # ([hidden] applies to every element but embed; until-found content is
    # content-visibility: hidden, not rendered either)
    if element.attr_count and tag != TAG_EMBED and has_attribute(element, ATTR_HIDDEN):
        return BOX_NONE
    box = <Box> UA_BOXES[tag] if tag < TAG__LAST_STATIC else BOX_INLINE
    if box != BOX_DEPENDS:
        return box
    if tag == TAG_NOSCRIPT:
        # (@media (scripting) { noscript { display: none !important } })
        return BOX_NONE if scripting else BOX_INLINE
    if tag == TAG_DIALOG:
        return BOX_BLOCK if has_attribute(element, ATTR_OPEN) else BOX_NONE
    if tag == TAG_INPUT:
        return BOX_NONE if attribute_equals(element, ATTR_TYPE, "hidden") \
            else BOX_REPLACED
    if tag == TAG_AUDIO:
        return BOX_REPLACED if has_attribute(element, ATTR_CONTROLS) else BOX_NONE
    return BOX_INLINE


# The box of each static tag id, filled at import from ua_tag_box.
cdef uint8_t UA_BOXES[TAG__LAST_STATIC]


cdef void fill_ua_boxes() noexcept nogil:
    cdef uint32_t tag
    for tag in range(TAG__LAST_STATIC):
        UA_BOXES[tag] = ua_tag_box(tag)


cdef Box ua_tag_box(lxp_tag_id_t tag) noexcept nogil:
    """The UA stylesheet's box for an HTML element by its name alone;
    BOX_DEPENDS where an attribute or the scripting flag decides (see
    html_box)."""
    if tag == TAG_AREA or tag == TAG_BASE or tag == TAG_BASEFONT \
            or tag == TAG_DATALIST or tag == TAG_HEAD or tag == TAG_LINK \
            or tag == TAG_META or tag == TAG_NOEMBED or tag == TAG_NOFRAMES \
            or tag == TAG_PARAM or tag == TAG_RP or tag == TAG_SCRIPT \
            or tag == TAG_STYLE or tag == TAG_TEMPLATE or tag == TAG_TITLE \
            or tag == TAG_SOURCE or tag == TAG_TRACK:
        return BOX_NONE
    if tag == TAG_NOSCRIPT:
        return BOX_DEPENDS
    # Flow content, https://html.spec.whatwg.org/multipage/rendering.html#flow-content-3
    if tag == TAG_P:
        return BOX_PARAGRAPH
    if tag == TAG_DIALOG:
        return BOX_DEPENDS            # (dialog:not([open]) { display: none })
    if tag == TAG_ADDRESS or tag == TAG_BLOCKQUOTE or tag == TAG_CENTER \
            or tag == TAG_DIV or tag == TAG_FIGURE or tag == TAG_FIGCAPTION \
            or tag == TAG_FOOTER or tag == TAG_FORM or tag == TAG_HEADER \
            or tag == TAG_HR or tag == TAG_LEGEND or tag == TAG_LISTING \
            or tag == TAG_MAIN or tag == TAG_PLAINTEXT or tag == TAG_PRE \
            or tag == TAG_SEARCH or tag == TAG_XMP \
            or tag == TAG_HTML or tag == TAG_BODY:          # (the page)
        return BOX_BLOCK
    if tag == TAG_SLOT:
        return BOX_CONTENTS
    # Sections and headings, https://html.spec.whatwg.org/multipage/rendering.html#sections-and-headings
    if tag == TAG_ARTICLE or tag == TAG_ASIDE or tag == TAG_H1 \
            or tag == TAG_H2 or tag == TAG_H3 or tag == TAG_H4 \
            or tag == TAG_H5 or tag == TAG_H6 or tag == TAG_HGROUP \
            or tag == TAG_NAV or tag == TAG_SECTION:
        return BOX_BLOCK
    # Lists, https://html.spec.whatwg.org/multipage/rendering.html#lists
    if tag == TAG_DIR or tag == TAG_DD or tag == TAG_DL or tag == TAG_DT \
            or tag == TAG_MENU or tag == TAG_OL or tag == TAG_UL:
        return BOX_BLOCK
    if tag == TAG_LI:
        return BOX_LIST_ITEM
    # Tables, https://html.spec.whatwg.org/multipage/rendering.html#tables-2
    if tag == TAG_TABLE:
        return BOX_TABLE
    if tag == TAG_CAPTION:
        return BOX_TABLE_CAPTION
    if tag == TAG_COLGROUP or tag == TAG_COL:
        return BOX_TABLE_COLUMN
    if tag == TAG_THEAD or tag == TAG_TBODY or tag == TAG_TFOOT:
        return BOX_TABLE_ROW_GROUP
    if tag == TAG_TR:
        return BOX_TABLE_ROW
    if tag == TAG_TD or tag == TAG_TH:
        return BOX_TABLE_CELL
    # Form controls, https://html.spec.whatwg.org/multipage/rendering.html#form-controls
    if tag == TAG_INPUT:
        return BOX_DEPENDS            # (input[type=hidden i] { display: none })
    if tag == TAG_TEXTAREA:
        return BOX_REPLACED
    if tag == TAG_SELECT or tag == TAG_BUTTON:
        return BOX_INLINE_BLOCK
    # The select element's boxes (innerText's own rule for select, optgroup
    # and option: https://html.spec.whatwg.org/multipage/dom.html#rendered-text-collection-steps)
    if tag == TAG_OPTGROUP or tag == TAG_OPTION:
        return BOX_BLOCK
    # The fieldset and legend elements, https://html.spec.whatwg.org/multipage/rendering.html#the-fieldset-and-legend-elements
    if tag == TAG_FIELDSET:
        return BOX_BLOCK
    # The details and summary elements, https://html.spec.whatwg.org/multipage/rendering.html#the-details-and-summary-elements
    if tag == TAG_DETAILS:
        return BOX_BLOCK
    if tag == TAG_SUMMARY:
        return BOX_LIST_ITEM
    # Frames and framesets, https://html.spec.whatwg.org/multipage/rendering.html#frames-and-framesets
    if tag == TAG_FRAMESET or tag == TAG_FRAME:
        return BOX_BLOCK
    # Embedded content, https://html.spec.whatwg.org/multipage/rendering.html#embedded-content-rendering-rules
    # (replaced elements: their children are fallback content, not rendered)
    if tag == TAG_AUDIO:
        return BOX_DEPENDS            # (audio:not([controls]) { display: none })
    if tag == TAG_IMG or tag == TAG_IFRAME or tag == TAG_VIDEO \
            or tag == TAG_CANVAS or tag == TAG_OBJECT or tag == TAG_EMBED \
            or tag == TAG_METER or tag == TAG_PROGRESS or tag == TAG_APPLET:
        return BOX_REPLACED
    if tag == TAG_MARQUEE:            # (the marquee element: inline-block)
        return BOX_INLINE_BLOCK
    if tag == TAG_BR:
        return BOX_LINE_BREAK
    return BOX_INLINE


cdef Box foreign_box(CElement* element) noexcept nogil:
    """The box of an SVG or MathML element: SVG's never-rendered elements
    (https://svgwg.org/svg2-draft/render.html#Rendering: paint servers,
    definitions, descriptive and resource elements) have none."""
    cdef lxp_tag_id_t tag = element.tag_id
    if element.ns != NS_SVG:
        return BOX_INLINE
    if tag == TAG_DEFS or tag == TAG_STOP or tag == TAG_LINEAR_GRADIENT \
            or tag == TAG_RADIAL_GRADIENT or tag == TAG_PATTERN \
            or tag == TAG_CLIP_PATH or tag == TAG_MASK or tag == TAG_MARKER \
            or tag == TAG_SYMBOL or tag == TAG_FILTER or tag == TAG_TITLE \
            or tag == TAG_DESC or tag == TAG_METADATA or tag == TAG_STYLE \
            or tag == TAG_SCRIPT:
        return BOX_NONE
    return BOX_INLINE


cdef inline bint is_preformatted(CElement* element) noexcept nogil:
    """white-space: pre (or pre-wrap) in the UA stylesheet: listing,
    plaintext, pre, xmp (flow content) and textarea (form controls)."""
    cdef lxp_tag_id_t tag = element.tag_id
    return element.ns == NS_HTML and (
        tag == TAG_PRE or tag == TAG_LISTING or tag == TAG_PLAINTEXT
        or tag == TAG_XMP or tag == TAG_TEXTAREA)


cdef inline bint is_block_level(Box box) noexcept nogil:
    return box == BOX_BLOCK or box == BOX_PARAGRAPH or box == BOX_LIST_ITEM \
        or box == BOX_TABLE or box == BOX_TABLE_CAPTION


cdef bint child_has_box(CNode* parent, CNode* child) noexcept nogil:
    """Whether a child's boxes are among its parent's: the select element's
    rule (select: only optgroup and option children; optgroup: only option
    children), closed details (only the first summary child), and HTML
    elements in SVG outside foreignObject (never rendered)."""
    cdef CElement* p
    cdef CElement* c
    cdef CNode* sibling
    if parent == NULL or parent.type != ELEMENT_NODE:
        return True
    p = <CElement*> parent
    if p.ns == NS_HTML:
        if p.tag_id == TAG_SELECT:
            if child.type != ELEMENT_NODE:
                return False
            c = <CElement*> child
            return c.ns == NS_HTML and (c.tag_id == TAG_OPTION or c.tag_id == TAG_OPTGROUP)
        if p.tag_id == TAG_OPTGROUP:
            if child.type != ELEMENT_NODE:
                return False
            c = <CElement*> child
            return c.ns == NS_HTML and c.tag_id == TAG_OPTION
        if p.tag_id == TAG_DETAILS and not has_attribute(p, ATTR_OPEN):
            if child.type != ELEMENT_NODE:
                return False
            c = <CElement*> child
            if not (c.ns == NS_HTML and c.tag_id == TAG_SUMMARY):
                return False
            sibling = child.prev
            while sibling != NULL:
                if sibling.type == ELEMENT_NODE \
                        and (<CElement*> sibling).ns == NS_HTML \
                        and (<CElement*> sibling).tag_id == TAG_SUMMARY:
                    return False
                sibling = sibling.prev
            return True
        return True
    if p.ns == NS_SVG and child.type == ELEMENT_NODE \
            and (<CElement*> child).ns == NS_HTML:
        return p.tag_id == TAG_FOREIGN_OBJECT
    return True
