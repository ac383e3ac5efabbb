# The url_schemes and url_relative options in the walk: a URL attribute's
# scheme read as the URL parser reads it, in C; only what needs a real URL
# parse (url_relative="resolve", srcset's candidate lists) is left to the
# Python pass (ada-url).
#
# https://url.spec.whatwg.org/#concept-basic-url-parser: the input loses its
# leading and trailing C0 controls and spaces and every ASCII tab or
# newline; "scheme start state": an ASCII alpha starts a scheme, which runs
# over ASCII alphanumerics, "+", "-" and "." to a ":" (lower-cased). Without
# that ":" there is no scheme: with no base URL, the parser fails ("missing
# scheme, non-relative URL"): the URL is relative. With a scheme, the URL is
# judged by it: one not in the allowed list is removed whatever the rest of
# the URL would parse to (an invalid URL with an allowed scheme navigates
# nowhere).

# Whether `name` (n bytes) is an attribute whose value is one URL
# (options.URL_ATTRIBUTES).
cdef bint is_url_attribute_name(const uint8_t* name, size_t n) noexcept nogil:
    return (equals_literal(name, n, "href", 4) or equals_literal(name, n, "src", 3)
            or equals_literal(name, n, "action", 6) or equals_literal(name, n, "formaction", 10)
            or equals_literal(name, n, "data", 4) or equals_literal(name, n, "poster", 6)
            or equals_literal(name, n, "background", 10) or equals_literal(name, n, "cite", 4)
            or equals_literal(name, n, "longdesc", 8) or equals_literal(name, n, "codebase", 8)
            or equals_literal(name, n, "icon", 4) or equals_literal(name, n, "manifest", 8)
            or equals_literal(name, n, "lowsrc", 6) or equals_literal(name, n, "dynsrc", 6)
            or equals_literal(name, n, "archive", 7) or equals_literal(name, n, "classid", 7))


# The scheme of a URL value into `scheme` (lower-cased, without ":"): its
# length, 0 when the value has none (relative), -1 when it is longer than
# URL_SCHEME_MAX.
cdef int read_scheme(const uint8_t* value, size_t length, uint8_t* scheme) noexcept nogil:
    cdef size_t start = 0, end = length, i
    cdef int n = 0
    cdef uint8_t c
    while start < end and is_c0_or_space(value[start]):
        start += 1
    while end > start and is_c0_or_space(value[end - 1]):
        end -= 1
    for i in range(start, end):
        c = value[i]
        if c == 0x09 or c == 0x0A or c == 0x0D:
            continue
        if c == 0x3A:
            return n
        if n == 0:
            if not is_ascii_alpha(c):
                return 0
        elif not (is_ascii_alnum(c) or c == 0x2B or c == 0x2D or c == 0x2E):
            return 0
        if n == URL_SCHEME_MAX:
            return -1
        scheme[n] = ascii_lower_byte(c)
        n += 1
    return 0


# What url_schemes and url_relative do to a kept attribute.
cdef int url_option_verdict(Tables* t, CDocument* doc, CAttr* attr) noexcept nogil:
    cdef size_t n, i, group_length, at, token
    cdef const uint8_t* name
    cdef const uint8_t* schemes = NULL
    cdef uint8_t scheme[URL_SCHEME_MAX]
    cdef int length
    cdef bint xlink
    if attr.ns != NS__UNDEF and attr.ns != NS_XLINK:
        return URL_KEEP
    name = attr_name_of(doc.attr_names, attr.local_name, &n)
    if name == NULL:
        return URL_KEEP
    xlink = attr.ns == NS_XLINK
    if xlink and not equals_literal(name, n, "href", 4):
        return URL_KEEP
    if not xlink and (equals_literal(name, n, "srcset", 6)
                      or equals_literal(name, n, "imagesrcset", 11)):
        return URL_TO_PYTHON
    if not is_url_attribute_name(name, n):
        return URL_KEEP
    length = read_scheme(attr.value, attr.value_length, scheme)
    if length == 0:
        if t.url_relative == URL_RELATIVE_DROP:
            return URL_REMOVE
        return URL_TO_PYTHON if t.url_relative == URL_RELATIVE_PYTHON else URL_KEEP
    if t.url_group_count == 0:
        return URL_KEEP
    # the schemes of this attribute's group (by its qualified name), else "*"
    group_length = 0
    for i in range(t.url_group_count):
        if t.url_group_names[i] == NULL:
            if schemes == NULL:
                schemes = t.url_group_schemes[i]
                group_length = t.url_group_lengths[i]
        elif (xlink and t.url_group_name_lengths[i] == n + 6
              and memcmp(t.url_group_names[i], b"xlink:", 6) == 0
              and memcmp(t.url_group_names[i] + 6, name, n) == 0) or (
                not xlink and t.url_group_name_lengths[i] == n
                and memcmp(t.url_group_names[i], name, n) == 0):
            schemes = t.url_group_schemes[i]
            group_length = t.url_group_lengths[i]
            break
    if schemes == NULL:
        return URL_KEEP
    if length < 0:
        return URL_REMOVE
    # the group's schemes: each followed by a space
    at = 0
    while at < group_length:
        token = at
        while token < group_length and schemes[token] != 0x20:
            token += 1
        if token - at == <size_t> length and memcmp(schemes + at, scheme, length) == 0:
            return URL_KEEP
        at = token + 1
    return URL_REMOVE
