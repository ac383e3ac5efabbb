# lexpy's safe baseline, which no configuration lifts (issue 34, point 3):
# a superset of the Sanitizer API's "remove unsafe". Only C here.

cdef enum:
    SCHEME_BUFFER = 256          # bytes of a URL's start read for its scheme
                                 # and a data: URL's MIME type


cdef inline bint is_c0_or_space(uint8_t c) noexcept nogil:
    return c <= 0x20


cdef inline bint is_ascii_alpha(uint8_t c) noexcept nogil:
    return (0x41 <= c <= 0x5A) or (0x61 <= c <= 0x7A)


cdef inline bint is_ascii_alnum(uint8_t c) noexcept nogil:
    return is_ascii_alpha(c) or (0x30 <= c <= 0x39)


cdef inline bint is_css_space(uint8_t c) noexcept nogil:
    return c == 0x20 or c == 0x09 or c == 0x0A or c == 0x0C or c == 0x0D


cdef bint equals_literal(const uint8_t* data, size_t length, const char* literal,
                         size_t literal_length) noexcept nogil:
    return length == literal_length and bytes_equal(
        data, <const uint8_t*> literal, length, True)


# Whether a URL is one no safe output may hold: the scheme as the URL parser
# reads it (https://url.spec.whatwg.org/#concept-basic-url-parser: leading
# and trailing C0 controls and spaces stripped, every tab and newline
# removed) is javascript or vbscript, or data with a MIME type a browser
# runs script in (image/svg+xml only where the URL is not an image).
cdef bint url_is_dangerous(const uint8_t* value, size_t length, bint image_only) noexcept nogil:
    cdef uint8_t buffer[SCHEME_BUFFER]
    cdef size_t start = 0, end = length, n = 0, i, colon, mime_start, mime_end
    cdef uint8_t c
    while start < end and is_c0_or_space(value[start]):
        start += 1
    while end > start and is_c0_or_space(value[end - 1]):
        end -= 1
    i = start
    # The scheme: read up to its ':' (a byte no scheme has before it: none).
    while i < end and n < SCHEME_BUFFER:
        c = value[i]
        i += 1
        if c == 0x09 or c == 0x0A or c == 0x0D:
            continue
        c = ascii_lower_byte(c)
        buffer[n] = c
        n += 1
        if c == 0x3A:
            break
        if not (is_ascii_alnum(c) or c == 0x2B or c == 0x2D or c == 0x2E):
            return False
    if n == 0 or not is_ascii_alpha(buffer[0]):
        return False
    colon = n - 1
    if colon == 0 or buffer[colon] != 0x3A:
        # No scheme within the buffer: a scheme this long is none of ours.
        return False
    if equals_literal(buffer, colon, "javascript", 10) \
            or equals_literal(buffer, colon, "vbscript", 8):
        return True
    if not equals_literal(buffer, colon, "data", 4):
        return False
    # data: the rest of the buffer, for the MIME type.
    while i < end and n < SCHEME_BUFFER:
        c = value[i]
        i += 1
        if c == 0x09 or c == 0x0A or c == 0x0D:
            continue
        buffer[n] = ascii_lower_byte(c)
        n += 1
    # https://fetch.spec.whatwg.org/#data-url-processor: the MIME type runs
    # to the first ',' (parameters after ';'), trimmed of ASCII whitespace.
    mime_start = colon + 1
    mime_end = mime_start
    while mime_end < n and buffer[mime_end] != 0x2C and buffer[mime_end] != 0x3B:
        mime_end += 1
    if mime_end >= n:
        return n >= SCHEME_BUFFER     # cut off: fail closed
    while mime_start < mime_end and is_c0_or_space(buffer[mime_start]):
        mime_start += 1
    while mime_end > mime_start and is_c0_or_space(buffer[mime_end - 1]):
        mime_end -= 1
    n = mime_end - mime_start
    if equals_literal(buffer + mime_start, n, "text/html", 9) \
            or equals_literal(buffer + mime_start, n, "application/xhtml+xml", 21) \
            or equals_literal(buffer + mime_start, n, "text/xml", 8) \
            or equals_literal(buffer + mime_start, n, "application/xml", 15) \
            or equals_literal(buffer + mime_start, n, "text/javascript", 15) \
            or equals_literal(buffer + mime_start, n, "application/javascript", 22):
        return True
    if equals_literal(buffer + mime_start, n, "image/svg+xml", 13):
        return not image_only
    return False


# Whether any URL of a list is dangerous: srcset's candidates (each token
# between ASCII whitespace and commas is judged: stricter than the srcset
# parser, never laxer) or an SVG animation's values (split on ';' too).
cdef bint url_list_is_dangerous(const uint8_t* value, size_t length, bint image_only,
                                uint8_t separator) noexcept nogil:
    cdef size_t i = 0, start
    while i < length:
        while i < length and (is_css_space(value[i]) or value[i] == separator):
            i += 1
        start = i
        while i < length and not is_css_space(value[i]) and value[i] != separator:
            i += 1
        if i > start and url_is_dangerous(value + start, i - start, image_only):
            return True
    # A separator can also be inside a URL (data:text/html,...): judge the
    # whole value as well.
    return url_is_dangerous(value, length, image_only)


cdef inline int hex_value(uint8_t c) noexcept nogil:
    if 0x30 <= c <= 0x39:
        return c - 0x30
    if 0x61 <= c <= 0x66:
        return c - 0x61 + 10
    if 0x41 <= c <= 0x46:
        return c - 0x41 + 10
    return -1


cdef bint find_word(const uint8_t* text, size_t length, const char* word,
                    size_t word_length, uint8_t then) noexcept nogil:
    """Whether `word` occurs in `text`, followed (after CSS white space) by
    `then` when `then` is not 0."""
    cdef size_t i, j
    if length < word_length:
        return False
    for i in range(length - word_length + 1):
        if memcmp(text + i, word, word_length) != 0:
            continue
        if then == 0:
            return True
        j = i + word_length
        while j < length and is_css_space(text[j]):
            j += 1
        if j < length and text[j] == then:
            return True
    return False


# Whether CSS text can run script: after removing comments, decoding escapes
# (https://drafts.csswg.org/css-syntax-3/#consume-escaped-code-point) and
# ASCII-lower-casing, it holds expression(, javascript:, vbscript:,
# -moz-binding or behavior:. Characters beyond ASCII become 0x80.
cdef bint css_is_dangerous(const uint8_t* data, size_t length) noexcept nogil:
    cdef uint8_t* text
    cdef size_t i = 0, n = 0, k
    cdef uint32_t code_point
    cdef int digit
    cdef bint found
    cdef uint8_t c
    if length == 0:
        return False
    text = <uint8_t*> malloc(length)
    if text == NULL:
        return True                  # out of memory: fail closed
    while i < length:
        c = data[i]
        if c == 0x2F and i + 1 < length and data[i + 1] == 0x2A:
            i += 2
            while i + 1 < length and not (data[i] == 0x2A and data[i + 1] == 0x2F):
                i += 1
            i += 2
            continue
        if c == 0x5C and i + 1 < length:
            i += 1
            if hex_value(data[i]) >= 0:
                code_point = 0
                k = 0
                while k < 6 and i < length and hex_value(data[i]) >= 0:
                    code_point = code_point * 16 + <uint32_t> hex_value(data[i])
                    i += 1
                    k += 1
                if i < length and is_css_space(data[i]):
                    i += 1
                text[n] = ascii_lower_byte(<uint8_t> code_point) if code_point < 0x80 else 0x80
                n += 1
                continue
            if data[i] == 0x0A or data[i] == 0x0C or data[i] == 0x0D:
                i += 1
                continue
            c = data[i]
        text[n] = ascii_lower_byte(c) if c < 0x80 else 0x80
        n += 1
        i += 1
    found = (find_word(text, n, "expression", 10, 0x28)
             or find_word(text, n, "javascript", 10, 0x3A)
             or find_word(text, n, "vbscript", 8, 0x3A)
             or find_word(text, n, "-moz-binding", 12, 0)
             or find_word(text, n, "behavior", 8, 0x3A))
    free(text)
    return found


# Whether the baseline removes an element with its subtree: script in any
# namespace; the HTML elements that load or run other documents or change
# the page (iframe, frame, frameset, object, embed, applet, base, meta,
# link), those whose content is markup with scripting off (noscript,
# noembed, noframes); svg use (as the Standard's remove unsafe does).
cdef bint baseline_removes_element(CElement* element) noexcept nogil:
    cdef lxp_tag_id_t tag = element.tag_id
    if tag == TAG_SCRIPT:
        return True
    if element.ns == NS_HTML:
        return (tag == TAG_IFRAME or tag == TAG_FRAME or tag == TAG_FRAMESET
                or tag == TAG_OBJECT or tag == TAG_EMBED or tag == TAG_APPLET
                or tag == TAG_BASE or tag == TAG_META or tag == TAG_LINK
                or tag == TAG_NOSCRIPT or tag == TAG_NOEMBED or tag == TAG_NOFRAMES)
    if element.ns == NS_SVG:
        return tag == TAG_USE
    return False


# Whether an element's children would not serialize back to themselves: an
# HTML element whose text the serializer writes raw (style, xmp, plaintext,
# ...) holding an element, a comment, or text with its own end tag
# (https://html.spec.whatwg.org/#serialising-html-fragments). A DOM-built
# tree can hold these; a parse cannot.
cdef bint raw_text_is_unsafe(CElement* element) noexcept nogil:
    cdef CNode* child
    cdef CCharacterData* text
    cdef size_t name_length, i
    cdef const uint8_t* name
    cdef uint8_t after
    if element.ns != NS_HTML or not (lxp_tag_category_of(element.tag_id, NS_HTML)
                                     & CAT_SERIALIZE_RAWTEXT):
        return False
    name = element_local_name(element, &name_length)
    child = element.node.first_child
    while child != NULL:
        if child.type != TEXT_NODE:
            return True
        text = <CCharacterData*> child
        i = 0
        while i + 2 + name_length <= text.length:
            if text.data[i] == 0x3C and text.data[i + 1] == 0x2F and bytes_equal(
                    text.data + i + 2, name, name_length, True):
                if i + 2 + name_length == text.length:
                    return True
                after = text.data[i + 2 + name_length]
                if is_css_space(after) or after == 0x2F or after == 0x3E:
                    return True
            i += 1
        child = child.next
    return False


# Whether an HTML or SVG style element's text can run script: its Text
# children together (the text of several nodes can spell a keyword
# together; the walk removes the other children of a style element first).
cdef bint style_element_is_dangerous(CElement* element) noexcept nogil:
    cdef CNode* root = &element.node
    cdef CNode* node
    cdef size_t total = 0, at = 0
    cdef uint8_t* text
    cdef bint found
    if element.tag_id != TAG_STYLE or (element.ns != NS_HTML and element.ns != NS_SVG):
        return False
    node = root.first_child
    while node != NULL:
        if node.type == TEXT_NODE:
            total += (<CCharacterData*> node).length
        node = node.next
    if total == 0:
        return False
    text = <uint8_t*> malloc(total)
    if text == NULL:
        return True                       # out of memory: fail closed
    node = root.first_child
    while node != NULL:
        if node.type == TEXT_NODE:
            memcpy(text + at, (<CCharacterData*> node).data, (<CCharacterData*> node).length)
            at += (<CCharacterData*> node).length
        node = node.next
    found = css_is_dangerous(text, total)
    free(text)
    return found


cdef inline bint is_svg_animation(CElement* element) noexcept nogil:
    return element.ns == NS_SVG and (
        element.tag_id == TAG_ANIMATE or element.tag_id == TAG_SET
        or element.tag_id == TAG_ANIMATE_MOTION or element.tag_id == TAG_ANIMATE_TRANSFORM)


cdef bint names_href(const uint8_t* value, size_t length) noexcept nogil:
    """Whether an animation's attributeName (trimmed, ASCII-lower-cased) is
    href or ends in :href."""
    cdef size_t start = 0, end = length
    while start < end and is_css_space(value[start]):
        start += 1
    while end > start and is_css_space(value[end - 1]):
        end -= 1
    if end - start < 4 or not bytes_equal(value + end - 4, <const uint8_t*> b"href", 4, True):
        return False
    return end - start == 4 or value[end - 5] == 0x3A


# Whether the baseline removes an attribute: every on* attribute, srcdoc,
# shadowrootmode, <template for>, a dangerous URL in any URL-bearing
# attribute of any element in any namespace, an SVG animation of href or
# towards a dangerous URL, CSS that can run script.
cdef bint baseline_removes_attribute(CElement* element, CAttr* attr) noexcept nogil:
    cdef size_t n
    cdef const uint8_t* name = attr_name_of(element.node.owner.attr_names, attr.local_name, &n)
    cdef bint image
    if name == NULL:
        return False
    if n >= 2 and (name[0] | 0x20) == 0x6F and (name[1] | 0x20) == 0x6E:
        return True                                            # on*
    if equals_literal(name, n, "srcdoc", 6) or equals_literal(name, n, "shadowrootmode", 14):
        return True
    if element.ns == NS_HTML and element.tag_id == TAG_TEMPLATE \
            and equals_literal(name, n, "for", 3):
        return True
    if equals_literal(name, n, "style", 5):
        return css_is_dangerous(attr.value, attr.value_length)
    if is_svg_animation(element):
        if equals_literal(name, n, "attributename", 13):
            return names_href(attr.value, attr.value_length)
        if equals_literal(name, n, "values", 6):
            return url_list_is_dangerous(attr.value, attr.value_length, False, 0x3B)
        if equals_literal(name, n, "to", 2) or equals_literal(name, n, "from", 4) \
                or equals_literal(name, n, "by", 2):
            return url_is_dangerous(attr.value, attr.value_length, False)
    if equals_literal(name, n, "srcset", 6) or equals_literal(name, n, "imagesrcset", 11):
        return url_list_is_dangerous(attr.value, attr.value_length,
                                     element.ns == NS_HTML and element.tag_id == TAG_IMG, 0x2C)
    if (equals_literal(name, n, "href", 4) or equals_literal(name, n, "src", 3)
            or equals_literal(name, n, "action", 6) or equals_literal(name, n, "formaction", 10)
            or equals_literal(name, n, "data", 4) or equals_literal(name, n, "poster", 6)
            or equals_literal(name, n, "background", 10)
            or equals_literal(name, n, "codebase", 8) or equals_literal(name, n, "cite", 4)
            or equals_literal(name, n, "ping", 4) or equals_literal(name, n, "lowsrc", 6)
            or equals_literal(name, n, "dynsrc", 6) or equals_literal(name, n, "longdesc", 8)
            or equals_literal(name, n, "manifest", 8) or equals_literal(name, n, "icon", 4)
            or equals_literal(name, n, "archive", 7) or equals_literal(name, n, "classid", 7)
            or equals_literal(name, n, "base", 4) or equals_literal(name, n, "xmlbase", 7)):
        image = ((element.ns == NS_HTML and element.tag_id == TAG_IMG
                  and equals_literal(name, n, "src", 3))
                 or (element.ns == NS_SVG and element.tag_id == TAG_IMAGE
                     and equals_literal(name, n, "href", 4)))
        return url_is_dangerous(attr.value, attr.value_length, image)
    return False


# Whether a comment's or processing instruction's data would end it early
# when serialized (a DOM-built node; a parse cannot make one).
cdef bint comment_is_unsafe(CCharacterData* comment) noexcept nogil:
    cdef size_t i
    cdef const uint8_t* d = comment.data
    for i in range(comment.length):
        if d[i] == 0x3E and i >= 2 and d[i - 1] == 0x2D and d[i - 2] == 0x2D:
            return True
        if d[i] == 0x3E and i >= 3 and d[i - 1] == 0x21 and d[i - 2] == 0x2D \
                and d[i - 3] == 0x2D:
            return True
    return False


cdef bint processing_instruction_is_unsafe(CProcessingInstruction* pi) noexcept nogil:
    cdef size_t i
    cdef size_t n = pi.target_length
    if equals_literal(pi.target, n, "marker", 6) or equals_literal(pi.target, n, "start", 5) \
            or equals_literal(pi.target, n, "end", 3):
        return True
    for i in range(pi.character_data.length):
        if pi.character_data.data[i] == 0x3E:
            return True
    return False


# Namespace integrity (issue 34 point 3): a kept element's namespace must be
# one the tree construction rules could give it under its kept parent
# (https://html.spec.whatwg.org/#tree-construction-dispatcher): HTML
# elements hold HTML elements, svg and math; SVG elements hold SVG elements,
# but for the HTML integration points (foreignObject, desc, title); MathML
# elements hold MathML elements, but for the text integration points (mi, mo,
# mn, ms, mtext: HTML elements but mglyph and malignmark, which stay MathML)
# and annotation-xml (svg; HTML too with an HTML encoding). A parse cannot
# give anything else; unwrapping a parent or removing an attribute can.
cdef enum ParentKind:
    PARENT_HTML = 0
    PARENT_SVG = 1
    PARENT_SVG_HTML_INTEGRATION = 2
    PARENT_MATHML = 3
    PARENT_MATHML_TEXT_INTEGRATION = 4
    PARENT_ANNOTATION_XML = 5
    PARENT_ANNOTATION_XML_HTML = 6
    PARENT_OTHER = 7


cdef bint annotation_encoding_is_html(CElement* element) noexcept nogil:
    cdef CAttr* attr = element_find_attribute(element, ATTR_ENCODING, NS__UNDEF)
    if attr == NULL:
        return False
    return equals_literal(attr.value, attr.value_length, "text/html", 9) or equals_literal(
        attr.value, attr.value_length, "application/xhtml+xml", 21)


cdef int parent_kind_of(CElement* parent) noexcept nogil:
    cdef lxp_tag_id_t tag = parent.tag_id
    if parent.ns == NS_HTML:
        return PARENT_HTML
    if parent.ns == NS_SVG:
        if tag == TAG_FOREIGN_OBJECT or tag == TAG_DESC or tag == TAG_TITLE:
            return PARENT_SVG_HTML_INTEGRATION
        return PARENT_SVG
    if parent.ns == NS_MATHML:
        if tag == TAG_MI or tag == TAG_MO or tag == TAG_MN or tag == TAG_MS or tag == TAG_MTEXT:
            return PARENT_MATHML_TEXT_INTEGRATION
        if tag == TAG_ANNOTATION_XML:
            return PARENT_ANNOTATION_XML_HTML if annotation_encoding_is_html(parent) \
                else PARENT_ANNOTATION_XML
        return PARENT_MATHML
    return PARENT_OTHER


cdef bint namespace_fits(CElement* element, int parent_kind) noexcept nogil:
    cdef lxp_tag_id_t tag = element.tag_id
    cdef bint foreign_root = (element.ns == NS_SVG and tag == TAG_SVG) or (
        element.ns == NS_MATHML and tag == TAG_MATH)
    if parent_kind == PARENT_HTML or parent_kind == PARENT_SVG_HTML_INTEGRATION \
            or parent_kind == PARENT_ANNOTATION_XML_HTML:
        return element.ns == NS_HTML or foreign_root
    if parent_kind == PARENT_SVG:
        return element.ns == NS_SVG
    if parent_kind == PARENT_MATHML_TEXT_INTEGRATION:
        if tag == TAG_MGLYPH or tag == TAG_MALIGNMARK:
            return element.ns == NS_MATHML
        return element.ns == NS_HTML or foreign_root
    if parent_kind == PARENT_ANNOTATION_XML:
        return element.ns == NS_MATHML or (element.ns == NS_SVG and tag == TAG_SVG)
    if parent_kind == PARENT_MATHML:
        return element.ns == NS_MATHML
    return True
