# HTML's pseudo-classes on a static document
# (https://html.spec.whatwg.org/multipage/semantics-other.html#pseudo-classes),
# soupsieve's :-soup-contains(), and :lang() / :dir(). A static document has
# no user interaction: form controls are in the state their markup gives
# them (checkedness and selectedness from the checked and selected
# attributes, values from the value attribute).

# Browsers end dates at 275760-09-13, the end of a JavaScript time.
DEF LAST_YEAR = 275760

# https://html.spec.whatwg.org/multipage/custom-elements.html#valid-custom-element-name
cdef const char* RESERVED_CUSTOM_NAMES[8]
RESERVED_CUSTOM_NAMES[:] = [b"annotation-xml", b"color-profile", b"font-face",
                            b"font-face-src", b"font-face-uri", b"font-face-format",
                            b"font-face-name", b"missing-glyph"]


cdef inline bint is_html_element(CNode* node, uint32_t tag) noexcept nogil:
    return node != NULL and node.type == ELEMENT_NODE \
        and (<CElement*> node).ns == NS_HTML and (<CElement*> node).tag_id == tag


cdef inline CAttr* attribute(CElement* element, uint32_t id) noexcept nogil:
    return element_find_attribute(element, id, NS__UNDEF)


cdef bint equals_ascii_ci(const uint8_t* value, size_t length, const char* keyword) noexcept nogil:
    cdef size_t n = strlen(keyword)
    return length == n and bytes_equal(value, <const uint8_t*> keyword, n, True)


# The input element's type state (https://html.spec.whatwg.org/multipage/input.html#attr-input-type):
# a missing or unknown type is the Text state.
cdef enum InputType:
    INPUT_TEXT = 0
    INPUT_HIDDEN
    INPUT_SEARCH
    INPUT_TEL
    INPUT_URL
    INPUT_EMAIL
    INPUT_PASSWORD
    INPUT_DATE
    INPUT_MONTH
    INPUT_WEEK
    INPUT_TIME
    INPUT_DATETIME_LOCAL
    INPUT_NUMBER
    INPUT_RANGE
    INPUT_COLOR
    INPUT_CHECKBOX
    INPUT_RADIO
    INPUT_FILE
    INPUT_SUBMIT
    INPUT_IMAGE
    INPUT_RESET
    INPUT_BUTTON

cdef const char* INPUT_TYPE_NAMES[22]
INPUT_TYPE_NAMES[:] = [b"text", b"hidden", b"search", b"tel", b"url", b"email", b"password",
                       b"date", b"month", b"week", b"time", b"datetime-local", b"number",
                       b"range", b"color", b"checkbox", b"radio", b"file", b"submit",
                       b"image", b"reset", b"button"]


cdef int input_type(CElement* element) noexcept nogil:
    cdef CAttr* attr = attribute(element, ATTR_TYPE)
    cdef int i
    if attr == NULL:
        return INPUT_TEXT
    for i in range(22):
        if equals_ascii_ci(attr.value, attr.value_length, INPUT_TYPE_NAMES[i]):
            return i
    return INPUT_TEXT


cdef CNode* form_owner(CNode* node) noexcept nogil:
    """The form owner of a form-associated element
    (https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#reset-the-form-owner):
    with a form attribute, the first element of the tree with that id if it
    is a form (else none); without, the nearest ancestor form."""
    cdef CAttr* form = attribute(<CElement*> node, ATTR_FORM)
    cdef CNode* root
    cdef CNode* found
    cdef CAttr* id
    if form != NULL:
        if form.value_length == 0:
            return NULL
        root = tree_root(node)
        found = next_element_in_tree(root, root)
        while found != NULL:
            id = attribute(<CElement*> found, ATTR_ID)
            if id != NULL and id.value_length == form.value_length \
                    and bytes_equal(id.value, form.value, form.value_length, False):
                return found if is_html_element(found, TAG_FORM) else NULL
            found = next_element_in_tree(found, root)
        return NULL
    node = node.parent
    while node != NULL:
        if is_html_element(node, TAG_FORM):
            return node
        node = node.parent
    return NULL


cdef CNode* tree_root(CNode* node) noexcept nogil:
    while node.parent != NULL:
        node = node.parent
    return node


cdef bint same_radio_group(CElement* a, CElement* b, CNode* a_form) noexcept nogil:
    # https://html.spec.whatwg.org/multipage/input.html#radio-button-group
    cdef CAttr* name_a = attribute(a, ATTR_NAME)
    cdef CAttr* name_b = attribute(b, ATTR_NAME)
    if name_a == NULL or name_b == NULL or name_a.value_length == 0:
        return False
    if not is_html_element(&b.node, TAG_INPUT) or input_type(b) != INPUT_RADIO:
        return False
    if name_a.value_length != name_b.value_length or not bytes_equal(
            name_a.value, name_b.value, name_a.value_length, False):
        return False
    return form_owner(&b.node) == a_form


cdef bint radio_checked(CElement* element) noexcept nogil:
    """Checkedness of a radio button after parsing: its checked attribute,
    unless a later button of its group also has one (setting a button's
    checkedness unchecks the others of its group)."""
    cdef CNode* form
    cdef CNode* root
    cdef CNode* node
    if not has_attribute(element, ATTR_CHECKED):
        return False
    if attribute(element, ATTR_NAME) == NULL or attribute(element, ATTR_NAME).value_length == 0:
        return True
    form = form_owner(&element.node)
    root = tree_root(&element.node)
    node = next_element_in_tree(&element.node, root)
    while node != NULL:
        if is_html_element(node, TAG_INPUT) and has_attribute(<CElement*> node, ATTR_CHECKED) \
                and same_radio_group(element, <CElement*> node, form):
            return False
        node = next_element_in_tree(node, root)
    return True


cdef bint radio_group_has_checked(CElement* element) noexcept nogil:
    cdef CNode* form
    cdef CNode* root
    cdef CNode* node
    if has_attribute(element, ATTR_CHECKED):
        return True
    if attribute(element, ATTR_NAME) == NULL or attribute(element, ATTR_NAME).value_length == 0:
        return False
    form = form_owner(&element.node)
    root = tree_root(&element.node)
    node = next_element_in_tree(root, root)
    while node != NULL:
        if is_html_element(node, TAG_INPUT) and has_attribute(<CElement*> node, ATTR_CHECKED) \
                and same_radio_group(element, <CElement*> node, form):
            return True
        node = next_element_in_tree(node, root)
    return False


cdef CNode* option_select(CNode* option) noexcept nogil:
    """The select whose list of options holds the option, or NULL."""
    cdef CNode* node = option.parent
    while node != NULL and node.type == ELEMENT_NODE:
        if is_html_element(node, TAG_SELECT):
            return node
        if is_html_element(node, TAG_DATALIST) or is_html_element(node, TAG_OPTION):
            return NULL
        node = node.parent
    return NULL


cdef bint option_selected(CElement* option) noexcept nogil:
    """Selectedness after the selectedness setting algorithm
    (https://html.spec.whatwg.org/multipage/form-elements.html#selectedness-setting-algorithm):
    the selected attribute; in a select that shows one option (no multiple,
    display size 1), the last option with it, or else the first option
    that is not disabled."""
    cdef CNode* select = option_select(&option.node)
    cdef CNode* node
    cdef CNode* chosen = NULL
    cdef CNode* first_enabled = NULL
    cdef CAttr* size
    if select == NULL or has_attribute(<CElement*> select, ATTR_MULTIPLE):
        return has_attribute(option, ATTR_SELECTED)
    node = next_element_in_tree(select, select)
    while node != NULL:
        if is_html_element(node, TAG_OPTION) and option_select(node) == select:
            if has_attribute(<CElement*> node, ATTR_SELECTED):
                chosen = node
            if first_enabled == NULL and not option_disabled(<CElement*> node):
                first_enabled = node
        node = next_element_in_tree(node, select)
    if chosen == NULL:
        size = attribute(<CElement*> select, ATTR_SIZE)
        if size != NULL and display_size_above_one(size):
            return False                    # a list box selects nothing by itself
        chosen = first_enabled
    return chosen == &option.node


cdef bint display_size_above_one(CAttr* size) noexcept nogil:
    # https://html.spec.whatwg.org/multipage/form-elements.html#concept-select-size
    cdef size_t i = 0
    cdef int64_t value = 0
    while i < size.value_length and is_ascii_whitespace(size.value[i]):
        i += 1
    if i < size.value_length and size.value[i] == 0x2B:
        i += 1
    if i >= size.value_length or not (0x30 <= size.value[i] <= 0x39):
        return False
    while i < size.value_length and 0x30 <= size.value[i] <= 0x39:
        value = value * 10 + (size.value[i] - 0x30)
        if value > 1:
            return True
        i += 1
    return value > 1


cdef bint option_disabled(CElement* option) noexcept nogil:
    # https://html.spec.whatwg.org/multipage/form-elements.html#concept-option-disabled
    if has_attribute(option, ATTR_DISABLED):
        return True
    return is_html_element(option.node.parent, TAG_OPTGROUP) \
        and has_attribute(<CElement*> option.node.parent, ATTR_DISABLED)


cdef bint in_disabled_fieldset(CNode* node) noexcept nogil:
    """A descendant of a disabled fieldset, not inside its first legend."""
    cdef CNode* child = node
    cdef CNode* parent = node.parent
    cdef CNode* legend
    while parent != NULL and parent.type == ELEMENT_NODE:
        if is_html_element(parent, TAG_FIELDSET) and has_attribute(<CElement*> parent, ATTR_DISABLED):
            legend = parent.first_child
            while legend != NULL and not is_html_element(legend, TAG_LEGEND):
                legend = legend.next
            if legend == NULL or child != legend:
                return True
        child = parent
        parent = parent.parent
    return False


cdef int disabled_state(CElement* element) noexcept nogil:
    """1: actually disabled, 0: enabled, -1: neither applies
    (https://html.spec.whatwg.org/multipage/semantics-other.html#concept-element-disabled)."""
    cdef uint32_t tag
    if element.ns != NS_HTML:
        return -1
    tag = element.tag_id
    if tag == TAG_BUTTON or tag == TAG_INPUT or tag == TAG_SELECT or tag == TAG_TEXTAREA \
            or tag == TAG_FIELDSET:
        if has_attribute(element, ATTR_DISABLED) or in_disabled_fieldset(&element.node):
            return 1
        return 0
    if tag == TAG_OPTGROUP:
        return 1 if has_attribute(element, ATTR_DISABLED) else 0
    if tag == TAG_OPTION:
        return 1 if option_disabled(element) else 0
    return -1


# https://html.spec.whatwg.org/multipage/form-elements.html#concept-submit-button
# A button is a submit button in the Submit Button state, or in the Auto
# state (type missing or invalid) with neither a command nor a commandfor
# attribute and a parent that is not a select (whatwg/html#10960, #11048).
cdef bint is_submit_button(CNode* node) noexcept nogil:
    cdef int type
    cdef CElement* element
    if is_html_element(node, TAG_BUTTON):
        element = <CElement*> node
        if attribute_is(element, ATTR_TYPE, b"submit"):
            return True
        if attribute(element, ATTR_TYPE) != NULL and (
                attribute_is(element, ATTR_TYPE, b"reset")
                or attribute_is(element, ATTR_TYPE, b"button")):
            return False
        return attribute(element, ATTR_COMMAND) == NULL \
            and attribute(element, ATTR_COMMANDFOR) == NULL \
            and not (node.parent != NULL and is_html_element(node.parent, TAG_SELECT))
    if is_html_element(node, TAG_INPUT):
        type = input_type(<CElement*> node)
        return type == INPUT_SUBMIT or type == INPUT_IMAGE
    return False


cdef bint is_default_button(CElement* element) noexcept nogil:
    # https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#default-button
    cdef CNode* form = form_owner(&element.node)
    cdef CNode* root
    cdef CNode* node
    if form == NULL:
        return False
    root = tree_root(form)
    node = next_element_in_tree(root, root)
    while node != NULL:
        if is_submit_button(node) and form_owner(node) == form:
            return node == &element.node
        node = next_element_in_tree(node, root)
    return False


cdef bint readonly_applies(int type) noexcept nogil:
    return type == INPUT_TEXT or type == INPUT_SEARCH or type == INPUT_URL \
        or type == INPUT_TEL or type == INPUT_EMAIL or type == INPUT_PASSWORD \
        or type == INPUT_DATE or type == INPUT_MONTH or type == INPUT_WEEK \
        or type == INPUT_TIME or type == INPUT_DATETIME_LOCAL or type == INPUT_NUMBER


cdef bint is_editable(CNode* node) noexcept nogil:
    """contenteditable, inherited (https://html.spec.whatwg.org/multipage/interaction.html#attr-contenteditable)."""
    cdef CAttr* attr
    while node != NULL and node.type == ELEMENT_NODE:
        if (<CElement*> node).ns == NS_HTML:
            attr = attribute(<CElement*> node, ATTR_CONTENTEDITABLE)
            if attr != NULL:
                if attr.value_length == 0 or equals_ascii_ci(attr.value, attr.value_length, b"true") \
                        or equals_ascii_ci(attr.value, attr.value_length, b"plaintext-only"):
                    return True
                if equals_ascii_ci(attr.value, attr.value_length, b"false"):
                    return False
        node = node.parent
    return False


cdef bint is_read_write(CElement* element) noexcept nogil:
    cdef int type
    if element.ns != NS_HTML:
        return False
    if is_html_element(&element.node, TAG_INPUT):
        type = input_type(element)
        if readonly_applies(type):
            return not has_attribute(element, ATTR_READONLY) and disabled_state(element) != 1
    elif is_html_element(&element.node, TAG_TEXTAREA):
        return not has_attribute(element, ATTR_READONLY) and disabled_state(element) != 1
    return is_editable(&element.node)


cdef bint placeholder_shown(CElement* element) noexcept nogil:
    cdef CAttr* value
    cdef int type
    cdef CNode* child
    value = attribute(element, ATTR_PLACEHOLDER)
    if value == NULL or value.value_length == 0:
        return False                    # no placeholder text to show
    if is_html_element(&element.node, TAG_INPUT):
        type = input_type(element)
        if not (type == INPUT_TEXT or type == INPUT_SEARCH or type == INPUT_URL
                or type == INPUT_TEL or type == INPUT_EMAIL or type == INPUT_PASSWORD
                or type == INPUT_NUMBER):
            return False
        value = attribute(element, ATTR_VALUE)
        return value == NULL or sanitized_value_empty(type, value.value, value.value_length)
    if is_html_element(&element.node, TAG_TEXTAREA):
        child = element.node.first_child
        while child != NULL:
            if child.type == TEXT_NODE and (<CCharacterData*> child).length != 0:
                return False
            child = child.next
        return True
    return False


cdef bint sanitized_value_empty(int type, const uint8_t* s, size_t length) noexcept nogil:
    """Whether the value sanitization algorithm of the input's type leaves
    the value empty (https://html.spec.whatwg.org/multipage/input.html#value-sanitization-algorithm)."""
    cdef size_t i
    cdef double number
    if type == INPUT_NUMBER:
        return not parse_number(s, length, &number)
    for i in range(length):
        if s[i] == 0x0A or s[i] == 0x0D:
            continue                    # line breaks are stripped
        if (type == INPUT_URL or type == INPUT_EMAIL) and is_ascii_whitespace(s[i]):
            continue                    # so is surrounding whitespace here
        return False
    return True


cdef bint is_defined(CElement* element) noexcept nogil:
    """Built-in elements are defined; an HTML element with a valid custom
    element name, or a customized built-in one (an `is` attribute), is not:
    a static document defines no custom element."""
    cdef size_t length
    cdef const uint8_t* name
    cdef size_t i
    cdef bint dash = False
    cdef uint8_t c
    if element.ns != NS_HTML:
        return True
    if has_attribute(element, ATTR_IS):
        return False
    # https://html.spec.whatwg.org/multipage/custom-elements.html#valid-custom-element-name
    name = element_local_name(element, &length)
    if length == 0 or not (0x61 <= name[0] <= 0x7A):
        return True
    for i in range(length):
        c = name[i]
        if c == 0x2D:
            dash = True
        elif not (0x61 <= c <= 0x7A or 0x30 <= c <= 0x39 or c == 0x2E or c == 0x5F
                  or c >= 0x80):
            return True
    if not dash:
        return True
    for i in range(8):
        if equals_ascii_ci(name, length, RESERVED_CUSTOM_NAMES[i]):
            return True
    return False


cdef bint match_html_pseudo_class(MatchContext* ctx, SimpleSelector* simple,
                                  CElement* element) noexcept nogil:
    cdef uint32_t kind = simple.kind
    cdef CNode* node = &element.node
    cdef int type
    cdef int state
    if kind == S_LINK:
        return (is_html_element(node, TAG_A) or is_html_element(node, TAG_AREA)) \
            and has_attribute(element, ATTR_HREF)
    if kind == S_CHECKED:
        if is_html_element(node, TAG_INPUT):
            type = input_type(element)
            if type == INPUT_CHECKBOX:
                return has_attribute(element, ATTR_CHECKED)
            if type == INPUT_RADIO:
                return radio_checked(element)
            return False
        if is_html_element(node, TAG_OPTION):
            return option_selected(element)
        return False
    if kind == S_DEFAULT:
        if is_html_element(node, TAG_INPUT):
            type = input_type(element)
            if type == INPUT_CHECKBOX or type == INPUT_RADIO:
                return has_attribute(element, ATTR_CHECKED)
            if type == INPUT_SUBMIT or type == INPUT_IMAGE:
                return is_default_button(element)
            return False
        if is_html_element(node, TAG_BUTTON):
            return is_submit_button(node) and is_default_button(element)
        if is_html_element(node, TAG_OPTION):
            return has_attribute(element, ATTR_SELECTED)
        return False
    if kind == S_DISABLED:
        return disabled_state(element) == 1
    if kind == S_ENABLED:
        return disabled_state(element) == 0
    if kind == S_INDETERMINATE:
        if is_html_element(node, TAG_INPUT):
            type = input_type(element)
            if type == INPUT_RADIO:
                return not radio_group_has_checked(element)
            return False
        if is_html_element(node, TAG_PROGRESS):
            return not has_attribute(element, ATTR_VALUE)
        return False
    if kind == S_REQUIRED or kind == S_OPTIONAL:
        if is_html_element(node, TAG_INPUT):
            type = input_type(element)
            # https://html.spec.whatwg.org/multipage/input.html#the-required-attribute
            return (has_attribute(element, ATTR_REQUIRED) and not (
                type == INPUT_HIDDEN or type == INPUT_RANGE or type == INPUT_COLOR
                or type == INPUT_SUBMIT or type == INPUT_IMAGE or type == INPUT_RESET
                or type == INPUT_BUTTON)) == (kind == S_REQUIRED)
        if is_html_element(node, TAG_SELECT) or is_html_element(node, TAG_TEXTAREA):
            return has_attribute(element, ATTR_REQUIRED) == (kind == S_REQUIRED)
        return False
    if kind == S_READ_WRITE:
        return is_read_write(element)
    if kind == S_READ_ONLY:
        return element.ns == NS_HTML and not is_read_write(element)
    if kind == S_PLACEHOLDER_SHOWN:
        return placeholder_shown(element)
    if kind == S_DEFINED:
        return is_defined(element)
    if kind == S_OPEN:
        return (is_html_element(node, TAG_DETAILS) or is_html_element(node, TAG_DIALOG)) \
            and has_attribute(element, ATTR_OPEN)
    if kind == S_IN_RANGE or kind == S_OUT_OF_RANGE:
        state = range_state(element)
        if state < 0:
            return False
        return (state == 0) == (kind == S_IN_RANGE)
    if kind == S_LANG:
        return match_lang(ctx, simple, element)
    if kind == S_DIR:
        return simple.op != DIR_NONE and directionality(element) == simple.op
    if kind == S_CONTAINS or kind == S_CONTAINS_OWN:
        return match_contains(ctx, simple, element, kind == S_CONTAINS_OWN)
    return False


# -- :lang() ------------------------------------------------------------------

cdef CAttr* language_attribute(CNode* node) noexcept nogil:
    """xml:lang (in the XML namespace, on any element), else lang (no
    namespace, on HTML and SVG elements), of the node itself
    (https://html.spec.whatwg.org/multipage/dom.html#the-lang-and-xml:lang-attributes)."""
    cdef CAttr* attr = element_find_attribute(<CElement*> node, ATTR_LANG, NS_XML)
    cdef uint32_t ns = (<CElement*> node).ns
    if attr != NULL:
        return attr
    if ns == NS_HTML or ns == NS_SVG:
        return element_find_attribute(<CElement*> node, ATTR_LANG, NS__UNDEF)
    return NULL


cdef inline bint is_ascii_alpha_byte(uint8_t c) noexcept nogil:
    return 0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A


cdef bint well_formed_language(const uint8_t* s, size_t length, bint is_range) noexcept nogil:
    """A language tag (or, `is_range`, an extended language range: '*'
    subtags allowed) made of 1-8 character ASCII alphanumeric subtags, the
    first alphabetic (https://www.rfc-editor.org/rfc/rfc4647#section-2.2)."""
    cdef size_t i = 0, start, j
    cdef bint first = True
    while True:
        start = i
        while i < length and s[i] != 0x2D:
            i += 1
        if i == start or i - start > 8:
            return False
        if not (is_range and i - start == 1 and s[start] == 0x2A):
            for j in range(start, i):
                if not (is_ascii_alpha_byte(s[j]) or (not first and 0x30 <= s[j] <= 0x39)):
                    return False
        first = False
        if i == length:
            return True
        i += 1


cdef bint content_language(CDocument* doc, const uint8_t** value, size_t* length) noexcept nogil:
    """The pragma-set default language: the first <meta http-equiv=content-language>
    with a content of one language tag (https://html.spec.whatwg.org/multipage/semantics.html#attr-meta-http-equiv-content-language)."""
    cdef CNode* node = next_element_in_tree(&doc.node, &doc.node)
    cdef CAttr* content
    cdef size_t i, start
    while node != NULL:
        if is_html_element(node, TAG_META) \
                and attribute_is(<CElement*> node, ATTR_HTTP_EQUIV, b"content-language"):
            content = attribute(<CElement*> node, ATTR_CONTENT)
            if content != NULL:
                i = 0
                while i < content.value_length and is_ascii_whitespace(content.value[i]):
                    i += 1
                start = i
                while i < content.value_length and content.value[i] != 0x2C \
                        and not is_ascii_whitespace(content.value[i]):
                    i += 1
                if i > start:
                    value[0] = content.value + start
                    length[0] = i - start
                    return True
        node = next_element_in_tree(node, &doc.node)
    return False


cdef inline size_t subtag_end(const uint8_t* s, size_t length, size_t start) noexcept nogil:
    while start < length and s[start] != 0x2D:
        start += 1
    return start


cdef bint extended_filter(const uint8_t* range_, size_t range_length,
                          const uint8_t* tag, size_t tag_length) noexcept nogil:
    """RFC 4647 extended filtering (https://www.rfc-editor.org/rfc/rfc4647#section-3.3.2),
    ASCII value_case-insensitive, as Selectors 4's :lang() uses it."""
    cdef size_t r = 0, t = 0, r_end, t_end
    if range_length == 0:
        return tag_length == 0
    if tag_length == 0:
        return False
    r_end = subtag_end(range_, range_length, 0)
    t_end = subtag_end(tag, tag_length, 0)
    if not (r_end == 1 and range_[0] == 0x2A):
        if r_end != t_end or not bytes_equal(range_, tag, r_end, True):
            return False
    r = r_end + 1
    t = t_end + 1
    while r < range_length + 1 and r <= range_length:
        if r > range_length:
            break
        r_end = subtag_end(range_, range_length, r)
        if r_end - r == 1 and range_[r] == 0x2A:
            r = r_end + 1
            continue
        if r_end == r:                       # empty subtag: malformed range
            return False
        while True:
            if t > tag_length:
                return False
            t_end = subtag_end(tag, tag_length, t)
            if t_end - t == r_end - r and bytes_equal(range_ + r, tag + t, r_end - r, True):
                t = t_end + 1
                break
            if t_end - t == 1:                # a singleton stops the search
                return False
            t = t_end + 1
        r = r_end + 1
    return True


cdef bint match_lang(MatchContext* ctx, SimpleSelector* simple, CElement* element) noexcept nogil:
    cdef CNode* node = &element.node
    cdef CAttr* attr = NULL
    cdef const uint8_t* value = NULL
    cdef size_t length = 0
    cdef uint32_t i
    cdef StringRef* range_
    cdef bint known = True
    while node != NULL and node.type == ELEMENT_NODE:
        attr = language_attribute(node)
        if attr != NULL:
            value = attr.value
            length = attr.value_length
            break
        node = node.parent
    if attr == NULL:
        if not content_language(ctx.doc, &value, &length):
            known = False
    for i in range(simple.string_count):
        range_ = &ctx.program.strings[simple.strings + i]
        if range_.length == 0:
            # :lang("") is the empty language: lang="" or none known.
            if not known or length == 0:
                return True
            continue
        if not known or length == 0:
            continue
        if not well_formed_language(ctx.program.text + range_.offset, range_.length, True) \
                or not well_formed_language(value, length, False):
            continue
        if extended_filter(ctx.program.text + range_.offset, range_.length, value, length):
            return True
    return False


# -- :dir() -------------------------------------------------------------------

cdef uint32_t decode_utf8_at(const uint8_t* s, size_t length, size_t* i) noexcept nogil:
    cdef uint8_t c = s[i[0]]
    cdef uint32_t cp
    cdef int extra
    if c < 0x80:
        i[0] += 1
        return c
    if c >= 0xF0:
        cp = c & 0x07
        extra = 3
    elif c >= 0xE0:
        cp = c & 0x0F
        extra = 2
    else:
        cp = c & 0x1F
        extra = 1
    i[0] += 1
    while extra > 0 and i[0] < length:
        cp = (cp << 6) | (s[i[0]] & 0x3F)
        i[0] += 1
        extra -= 1
    return cp


cdef extern from "bidi_table.h" nogil:
    # Generated by tools/gen_bidi.py: (first, last, class) ranges, sorted.
    const uint32_t LXP_BIDI_RANGE_COUNT
    const uint32_t lxp_bidi_ranges[]


cdef int bidi_strong(uint32_t cp) noexcept nogil:
    """1: strong left-to-right (Bidi_Class L), 2: strong right-to-left (R,
    AL), 0: neither. A binary search of the generated ranges."""
    cdef uint32_t low = 0
    cdef uint32_t high = LXP_BIDI_RANGE_COUNT
    cdef uint32_t middle
    if cp < 0x80:                     # ASCII: letters only
        return 1 if (0x41 <= cp <= 0x5A or 0x61 <= cp <= 0x7A) else 0
    while low < high:
        middle = (low + high) >> 1
        if cp < lxp_bidi_ranges[3 * middle]:
            high = middle
        elif cp > lxp_bidi_ranges[3 * middle + 1]:
            low = middle + 1
        else:
            return lxp_bidi_ranges[3 * middle + 2]
    return 0


cdef int text_direction(const uint8_t* s, size_t length) noexcept nogil:
    cdef size_t i = 0
    cdef int strong
    while i < length:
        strong = bidi_strong(decode_utf8_at(s, length, &i))
        if strong:
            return strong
    return 0


cdef int auto_directionality(CNode* element) noexcept nogil:
    """The first strong character of the element's text, skipping
    bdi, script, style, textarea and elements with a dir of their own
    (https://html.spec.whatwg.org/multipage/dom.html#auto-directionality):
    0 when there is none."""
    cdef CNode* node = element.first_child
    cdef int strong
    while node != NULL:
        if node.type == TEXT_NODE:
            strong = text_direction((<CCharacterData*> node).data, (<CCharacterData*> node).length)
            if strong:
                return strong
        if node.type == ELEMENT_NODE and (
                is_html_element(node, TAG_BDI) or is_html_element(node, TAG_SCRIPT)
                or is_html_element(node, TAG_STYLE) or is_html_element(node, TAG_TEXTAREA)
                or ((<CElement*> node).ns == NS_HTML
                    and has_valid_dir(<CElement*> node))):
            node = next_after(node, element)
            continue
        node = next_in_tree(node, element)
    return 0


cdef inline CNode* next_after(CNode* node, CNode* root) noexcept nogil:
    while node != root and node != NULL:
        if node.next != NULL:
            return node.next
        node = node.parent
    return NULL


cdef bint has_valid_dir(CElement* element) noexcept nogil:
    return attribute_is(element, ATTR_DIR, b"ltr") or attribute_is(element, ATTR_DIR, b"rtl") \
        or attribute_is(element, ATTR_DIR, b"auto")


cdef uint32_t directionality(CElement* element) noexcept nogil:
    # https://html.spec.whatwg.org/multipage/dom.html#the-directionality
    cdef CNode* node = &element.node
    cdef CElement* e
    cdef CAttr* value
    cdef int type
    cdef int strong
    while node != NULL and node.type == ELEMENT_NODE:
        e = <CElement*> node
        if e.ns == NS_HTML:
            if attribute_is(e, ATTR_DIR, b"ltr"):
                return DIR_LTR
            if attribute_is(e, ATTR_DIR, b"rtl"):
                return DIR_RTL
            if attribute_is(e, ATTR_DIR, b"auto") or (
                    e.tag_id == TAG_BDI and not has_valid_dir(e)):
                if e.tag_id == TAG_INPUT or e.tag_id == TAG_TEXTAREA:
                    if e.tag_id == TAG_INPUT:
                        # https://html.spec.whatwg.org/multipage/dom.html#auto-directionality-form-associated-elements
                        type = input_type(e)
                        if not (type == INPUT_HIDDEN or type == INPUT_TEXT or type == INPUT_SEARCH
                                or type == INPUT_TEL or type == INPUT_URL or type == INPUT_EMAIL
                                or type == INPUT_PASSWORD or type == INPUT_SUBMIT
                                or type == INPUT_RESET or type == INPUT_BUTTON):
                            return DIR_LTR
                        value = attribute(e, ATTR_VALUE)
                        strong = text_direction(value.value, value.value_length) \
                            if value != NULL else 0
                    else:
                        strong = auto_directionality(node)
                    return DIR_RTL if strong == 2 else DIR_LTR
                strong = auto_directionality(node)
                return DIR_RTL if strong == 2 else DIR_LTR
            if e.tag_id == TAG_INPUT and input_type(e) == INPUT_TEL:
                return DIR_LTR
        node = node.parent
    return DIR_LTR


# -- :in-range / :out-of-range ------------------------------------------------

cdef bint parse_number(const uint8_t* s, size_t length, double* out) noexcept nogil:
    """A valid floating-point number (https://html.spec.whatwg.org/multipage/common-microsyntaxes.html#rules-for-parsing-floating-point-number-values),
    the whole value."""
    cdef size_t i = 0
    cdef double value = 0, scale = 1, sign = 1
    cdef int exponent = 0, exponent_sign = 1
    cdef bint digits = False
    if length == 0:
        return False
    if s[0] == 0x2D:
        sign = -1
        i = 1
    while i < length and 0x30 <= s[i] <= 0x39:
        value = value * 10 + (s[i] - 0x30)
        digits = True
        i += 1
    if i < length and s[i] == 0x2E:
        i += 1
        if i >= length or not (0x30 <= s[i] <= 0x39):
            return False
        while i < length and 0x30 <= s[i] <= 0x39:
            scale /= 10
            value += (s[i] - 0x30) * scale
            digits = True
            i += 1
    if not digits:
        return False
    if i < length and (s[i] == 0x65 or s[i] == 0x45):
        i += 1
        if i < length and (s[i] == 0x2D or s[i] == 0x2B):
            exponent_sign = -1 if s[i] == 0x2D else 1
            i += 1
        if i >= length or not (0x30 <= s[i] <= 0x39):
            return False
        while i < length and 0x30 <= s[i] <= 0x39:
            if exponent < 10000:
                exponent = exponent * 10 + (s[i] - 0x30)
            i += 1
        value *= pow(10.0, exponent_sign * exponent)
    if i != length or value > 1.7976931348623157e308:
        return False                    # not the whole value, or beyond a double
    out[0] = sign * value
    return True


cdef bint parse_digits(const uint8_t* s, size_t length, size_t* i, int count,
                       int64_t* out) noexcept nogil:
    """Exactly `count` ASCII digits (count < 0: at least -count)."""
    cdef int64_t value = 0
    cdef int n = 0
    while i[0] < length and 0x30 <= s[i[0]] <= 0x39 and (count < 0 or n < count):
        value = value * 10 + (s[i[0]] - 0x30)
        i[0] += 1
        n += 1
    if (count >= 0 and n != count) or (count < 0 and n < -count):
        return False
    out[0] = value
    return True


cdef bint parse_year(const uint8_t* s, size_t length, size_t* i, int64_t* year) noexcept nogil:
    cdef size_t start = i[0]
    cdef size_t j
    while i[0] < length and 0x30 <= s[i[0]] <= 0x39:
        i[0] += 1
    if i[0] - start < 4 or i[0] - start > 6:
        return False
    year[0] = 0
    for j in range(start, i[0]):
        year[0] = year[0] * 10 + (s[j] - 0x30)
    return 0 < year[0] <= LAST_YEAR


cdef inline bint is_leap(int64_t year) noexcept nogil:
    return (year % 4 == 0 and year % 100 != 0) or year % 400 == 0


cdef int days_in_month(int64_t year, int64_t month) noexcept nogil:
    if month == 2:
        return 29 if is_leap(year) else 28
    if month == 4 or month == 6 or month == 9 or month == 11:
        return 30
    return 31


cdef int64_t days_from_civil(int64_t y, int64_t m, int64_t d) noexcept nogil:
    # days since 1970-01-01 (proleptic Gregorian); not in the standard
    y -= m <= 2
    cdef int64_t era = (y if y >= 0 else y - 399) // 400
    cdef int64_t yoe = y - era * 400
    cdef int64_t doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    cdef int64_t doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468




cdef bint parse_month_part(const uint8_t* s, size_t length, size_t* i, int64_t* year,
                           int64_t* month) noexcept nogil:
    if not parse_year(s, length, i, year):
        return False
    if i[0] >= length or s[i[0]] != 0x2D:
        return False
    i[0] += 1
    return parse_digits(s, length, i, 2, month) and 1 <= month[0] <= 12


cdef bint parse_date_part(const uint8_t* s, size_t length, size_t* i, double* out) noexcept nogil:
    cdef int64_t year, month, day
    if not parse_month_part(s, length, i, &year, &month):
        return False
    if i[0] >= length or s[i[0]] != 0x2D:
        return False
    i[0] += 1
    if not parse_digits(s, length, i, 2, &day) or day < 1 or day > days_in_month(year, month):
        return False
    out[0] = days_from_civil(year, month, day)
    return out[0] <= days_from_civil(LAST_YEAR, 9, 13)


cdef bint parse_time_part(const uint8_t* s, size_t length, size_t* i, double* out) noexcept nogil:
    cdef int64_t hour, minute, second = 0
    cdef double fraction = 0, scale = 1
    if not parse_digits(s, length, i, 2, &hour) or hour > 23:
        return False
    if i[0] >= length or s[i[0]] != 0x3A:
        return False
    i[0] += 1
    if not parse_digits(s, length, i, 2, &minute) or minute > 59:
        return False
    if i[0] < length and s[i[0]] == 0x3A:
        i[0] += 1
        if not parse_digits(s, length, i, 2, &second) or second > 59:
            return False
        if i[0] < length and s[i[0]] == 0x2E:
            i[0] += 1
            if i[0] >= length or not (0x30 <= s[i[0]] <= 0x39):
                return False
            while i[0] < length and 0x30 <= s[i[0]] <= 0x39:
                if scale < 0.0015:
                    return False                # at most three digits (milliseconds)
                scale /= 10
                fraction += (s[i[0]] - 0x30) * scale
                i[0] += 1
    out[0] = hour * 3600 + minute * 60 + second + fraction
    return True


cdef bint parse_typed_value(int type, const uint8_t* s, size_t length, double* out) noexcept nogil:
    """The value of an input of a numeric or date/time type as a number
    (https://html.spec.whatwg.org/multipage/input.html#concept-input-value-string-number),
    or False when it is not a valid string of its type."""
    cdef size_t i = 0
    cdef int64_t year, month, week
    cdef double date, time
    cdef int64_t jan1, weekday, weeks
    if type == INPUT_NUMBER or type == INPUT_RANGE:
        return parse_number(s, length, out)
    if type == INPUT_DATE:
        return parse_date_part(s, length, &i, out) and i == length
    if type == INPUT_MONTH:
        if not parse_month_part(s, length, &i, &year, &month) or i != length:
            return False
        if year == LAST_YEAR and month > 9:
            return False
        out[0] = (year - 1970) * 12 + month - 1
        return True
    if type == INPUT_WEEK:
        if not parse_year(s, length, &i, &year):
            return False
        if i + 1 >= length or s[i] != 0x2D or s[i + 1] != 0x57:
            return False
        i += 2
        if not parse_digits(s, length, &i, 2, &week) or i != length or week < 1:
            return False
        # 53 weeks when January 1st is a Thursday, or a Wednesday in a leap year.
        jan1 = days_from_civil(year, 1, 1)
        weekday = ((jan1 % 7) + 7 + 3) % 7           # 0 = Monday
        weeks = 53 if weekday == 3 or (weekday == 2 and is_leap(year)) else 52
        if week > weeks:
            return False
        # the Monday that starts the week (week 1 holds January 4th)
        out[0] = jan1 + 3 - (((jan1 + 3) % 7 + 7 + 3) % 7) + (week - 1) * 7
        return out[0] <= days_from_civil(LAST_YEAR, 9, 13)
    if type == INPUT_TIME:
        return parse_time_part(s, length, &i, out) and i == length
    if type == INPUT_DATETIME_LOCAL:
        if not parse_date_part(s, length, &i, &date):
            return False
        if i >= length or (s[i] != 0x54 and s[i] != 0x20):
            return False
        i += 1
        if not parse_time_part(s, length, &i, &time) or i != length:
            return False
        out[0] = date * 86400 + time
        return out[0] <= days_from_civil(LAST_YEAR, 9, 13) * 86400.0
    return False


cdef int range_state(CElement* element) noexcept nogil:
    """0: in range, 1: out of range, -1: neither applies (not an input with
    range limitations, or barred from constraint validation)
    (https://html.spec.whatwg.org/multipage/semantics-other.html#selector-in-range)."""
    cdef int type
    cdef CAttr* attr
    cdef double value, minimum = 0, maximum = 0
    cdef bint has_min = False, has_max = False
    if not is_html_element(&element.node, TAG_INPUT):
        return -1
    type = input_type(element)
    if not (type == INPUT_NUMBER or type == INPUT_RANGE or type == INPUT_DATE
            or type == INPUT_MONTH or type == INPUT_WEEK or type == INPUT_TIME
            or type == INPUT_DATETIME_LOCAL):
        return -1
    attr = attribute(element, ATTR_MIN)
    if attr != NULL and parse_typed_value(type, attr.value, attr.value_length, &minimum):
        has_min = True
    attr = attribute(element, ATTR_MAX)
    if attr != NULL and parse_typed_value(type, attr.value, attr.value_length, &maximum):
        has_max = True
    if disabled_state(element) == 1 or has_attribute(element, ATTR_READONLY) \
            or in_datalist(&element.node):
        return -1                       # barred from constraint validation
    if type == INPUT_RANGE:
        # The value is clamped to [min, max] (0 and 100 by default): out of
        # range only when the maximum is below the minimum.
        if not has_min:
            minimum = 0
        if not has_max:
            maximum = 100
        return 1 if maximum < minimum else 0
    if not has_min and not has_max:
        return -1
    attr = attribute(element, ATTR_VALUE)
    if attr == NULL or not parse_typed_value(type, attr.value, attr.value_length, &value):
        return 0                        # no value: neither underflow nor overflow
    if type == INPUT_TIME and has_min and has_max and minimum > maximum:
        # a reversed range wraps around midnight
        return 1 if (value < minimum and value > maximum) else 0
    if has_min and value < minimum:
        return 1
    if has_max and value > maximum:
        return 1
    return 0


cdef bint in_datalist(CNode* node) noexcept nogil:
    node = node.parent
    while node != NULL:
        if is_html_element(node, TAG_DATALIST):
            return True
        node = node.parent
    return False


# -- :-soup-contains() ----------------------------------------------------------

cdef bint match_contains(MatchContext* ctx, SimpleSelector* simple, CElement* element,
                         bint own) noexcept nogil:
    """Whether the text (own: of the element's Text children only) holds
    one of the strings, as soupsieve's :-soup-contains() does."""
    cdef CNode* root = &element.node
    cdef CNode* node
    cdef uint8_t* text = NULL
    cdef uint8_t* grown
    cdef size_t length = 0, capacity = 0, need
    cdef CCharacterData* data
    cdef uint32_t i
    cdef StringRef* wanted
    cdef bint found = False
    if own:
        # soupsieve's own text: each Text child by itself (not joined).
        node = root.first_child
        while node != NULL and not found:
            if node.type == TEXT_NODE or node.type == CDATA_SECTION_NODE:
                data = <CCharacterData*> node
                for i in range(simple.string_count):
                    wanted = &ctx.program.strings[simple.strings + i]
                    if find_bytes(data.data, data.length, ctx.program.text + wanted.offset,
                                  wanted.length, False):
                        found = True
                        break
            node = node.next
        return found
    node = root.first_child
    while node != NULL:
        if node.type == TEXT_NODE or node.type == CDATA_SECTION_NODE:
            data = <CCharacterData*> node
            need = length + data.length
            if need > capacity:
                capacity = need * 2 + 64
                grown = <uint8_t*> realloc(text, capacity)
                if grown == NULL:
                    free(text)
                    ctx.out_of_memory = True
                    return False
                text = grown
            if data.length:
                memcpy(text + length, data.data, data.length)
            length = need
        node = node.next if own else next_in_tree(node, root)
    for i in range(simple.string_count):
        wanted = &ctx.program.strings[simple.strings + i]
        if find_bytes(text, length, ctx.program.text + wanted.offset, wanted.length, False):
            found = True
            break
    free(text)
    return found
