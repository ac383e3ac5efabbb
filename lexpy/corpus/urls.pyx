# cython: language_level=3
"""The links and head fields of a page, in C: page_fields() finds, in one
walk, the href of every a and area element and the first base[href],
title, meta description and canonical link, matches repeated hrefs and
finds the shape of each value without the GIL (with proxies,
get_attribute, a selector query and Python's regular expressions this was
most of what a record's extraction did holding it), when asked walks the
text as lexpy.text's extract_text does in the same release, then makes the URL of
every href of a shape whose urljoin result is known and hands the others
to a fallback (extract._join: urllib.parse.urljoin). plain_resolutions()
does the same for a list of strs (extract.resolve_all; with the GIL held
for fewer than 32 of them).

The shapes (the same results as urljoin, which tests check on every link of
the corpus against many bases, and on generated ones):

- a plain absolute http(s) URL: a lowercase scheme, an authority without
  brackets, no ';' (urlparse's path parameters), no empty query or
  fragment, no whitespace or control characters (urlsplit strips or removes
  them): the href itself;
- against a plain http(s) base (extract._base gives its parts): a plain
  path-absolute reference ('/a/b?q', no empty segment: the origin and the
  href), a fragment alone ('#f', not empty: the base without its fragment
  and the href), a plain path-relative one ('a/b?q', no ':' in the path, no
  '.' first: the base's directory and the href), a plain network-path
  reference ('//host/a', as a plain absolute URL after its scheme: the
  base's scheme, ':' and the href), '#' alone (the base without its
  fragment) and a reference with a scheme other than the base's (the href
  itself).

A '.' or '..' segment anywhere sends the href to urljoin. Every href is
first stripped of ASCII whitespace, as resolve() strips it. The shapes are
read off the UTF-8 of the href: every character they name is ASCII, and
every byte of another character is one that no class of theirs excludes.
"""
from cpython.unicode cimport PyUnicode_Concat, PyUnicode_DecodeUTF8
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcmp, memcpy, memset, strlen
from lexpy.core.names cimport (TAG_A, TAG_AREA, TAG_BASE, TAG_LINK, TAG_META, TAG_TITLE,
                               ATTR_CONTENT, ATTR_HREF, ATTR_NAME, ATTR_REL, NS__UNDEF,
                               lxp_attr_id_t)
from lexpy.dom.dom cimport (CNode, CElement, CAttr, CDocument, Node, ELEMENT_NODE,
                            DOCUMENT_NODE,
                            element_has_attribute as has_attribute,
                            element_attribute_is as attribute_is, is_ascii,
                            next_in_tree, node_proxy, value_has_token, prefetch_walk_ahead,
                            element_find_attribute, document_body)
from lexpy.text.text cimport (TextWriter, TextOptions, plain_text_options,
                              extract_text_walk, writer_finish)

cdef extern from "Python.h":
    const char* PyUnicode_AsUTF8AndSize(object o, Py_ssize_t* size)
    void PyErr_Clear()
    str PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void* PyUnicode_DATA(object o)
    bint PyUnicode_IS_ASCII(object o)


cdef enum Shape:
    TO_URLJOIN = 0
    AS_IT_IS = 1              # the (stripped) href
    AFTER_ORIGIN = 2          # origin + href
    AFTER_BASE = 3            # the base without its fragment + href
    AFTER_DIRECTORY = 4       # the base's directory + href
    AFTER_SCHEME = 5          # the base's scheme + ':' + href
    BASE_ITSELF = 6           # the base without its fragment


cdef struct Href:
    const uint8_t* data       # UTF-8 (the DOM's, or a str's)
    Py_ssize_t start          # the stripped href: [start, end) of data
    Py_ssize_t end
    Shape shape
    Py_ssize_t first          # links: the index of the first equal href


cdef struct Base:
    bint plain                # an http(s) base: the shapes after it apply
    bint https
    bint has_without_fragment
    bint has_directory


# The characters the shapes look at are ASCII; every byte of a non-ASCII
# character (0x80 and up) is a character no class excludes.
cdef inline uint32_t at(const Href* h, Py_ssize_t i) noexcept nogil:
    return h.data[i]


cdef inline bint is_ascii_whitespace(uint32_t c) noexcept nogil:
    return c == 0x09 or c == 0x0A or c == 0x0C or c == 0x0D or c == 0x20


cdef inline bint is_control(uint32_t c) noexcept nogil:
    # urlsplit's stripped and removed characters, and DEL
    return c <= 0x20 or c == 0x7F


cdef bint has_dot_segment(const Href* h) noexcept nogil:
    """'/.' or '/..' followed by '/', '?', '#' or the end."""
    cdef Py_ssize_t k, after
    cdef uint32_t c
    for k in range(h.start, h.end - 1):
        if at(h, k) != '/' or at(h, k + 1) != '.':
            continue
        after = k + 2
        if after < h.end and at(h, after) == '.':
            if after + 1 == h.end:
                return True
            c = at(h, after + 1)
            if c == '/' or c == '?' or c == '#':
                return True
        if after == h.end:
            return True
        c = at(h, after)
        if c == '/' or c == '?' or c == '#':
            return True
    return False


cdef bint has_double_slash(const Href* h) noexcept nogil:
    cdef Py_ssize_t k
    for k in range(h.start, h.end - 1):
        if at(h, k) == '/' and at(h, k + 1) == '/':
            return True
    return False


cdef Py_ssize_t path_query_fragment(const Href* h, Py_ssize_t i,
                                    bint colon_in_path) noexcept nogil:
    """From i: path characters (not '?', '#', ';', a control; nor ':' unless
    colon_in_path), then an optional non-empty '?query' (not '#', ';', a
    control), then an optional non-empty '#fragment' (not ';', a control):
    the index after them, or -1 when an empty query or fragment stops the
    shape."""
    cdef uint32_t c
    cdef Py_ssize_t begin
    while i < h.end:
        c = at(h, i)
        if c == '?' or c == '#' or c == ';' or is_control(c) \
                or (c == ':' and not colon_in_path):
            break
        i += 1
    if i < h.end and at(h, i) == '?':
        i += 1
        begin = i
        while i < h.end:
            c = at(h, i)
            if c == '#' or c == ';' or is_control(c):
                break
            i += 1
        if i == begin:
            return -1
    if i < h.end and at(h, i) == '#':
        i += 1
        begin = i
        while i < h.end:
            c = at(h, i)
            if c == ';' or is_control(c):
                break
            i += 1
        if i == begin:
            return -1
    return i


cdef Py_ssize_t after_http_scheme(const Href* h) noexcept nogil:
    """The index after a leading 'http:' or 'https:' (lowercase), or -1."""
    cdef Py_ssize_t i = h.start
    if h.end - i < 5 or at(h, i) != 'h' or at(h, i + 1) != 't' \
            or at(h, i + 2) != 't' or at(h, i + 3) != 'p':
        return -1
    i += 4
    if at(h, i) == 's':
        i += 1
    if i >= h.end or at(h, i) != ':':
        return -1
    return i + 1


cdef Py_ssize_t authority_end(const Href* h, Py_ssize_t i,
                              bint ascii_only) noexcept nogil:
    """From i, the end of an authority's characters (not '/', '?', '#',
    ';', brackets, controls); -1 at a non-ASCII one when ascii_only."""
    cdef uint32_t c
    while i < h.end:
        c = at(h, i)
        if c == '/' or c == '?' or c == '#' or c == ';' or c == '[' \
                or c == ']' or is_control(c):
            break
        if ascii_only and c >= 0x80:
            return -1
        i += 1
    return i


cdef bint is_plain_absolute(const Href* h) noexcept nogil:
    cdef Py_ssize_t i = after_http_scheme(h)
    return i >= 0 and is_plain_network_path(h, i, False)


cdef bint is_plain_network_path(const Href* h, Py_ssize_t i,
                                bint ascii_authority) noexcept nogil:
    """From i: '//', an authority (not empty; with ascii_authority, ASCII
    only), then the path, query and fragment."""
    cdef Py_ssize_t end
    if i + 2 > h.end or at(h, i) != '/' or at(h, i + 1) != '/':
        return False
    end = authority_end(h, i + 2, ascii_authority)
    if end <= i + 2:
        return False
    if end < h.end and at(h, end) != '/' and at(h, end) != '?' and at(h, end) != '#':
        return False
    return path_query_fragment(h, end, True) == h.end


cdef bint is_plain_path(const Href* h) noexcept nogil:
    # '/' not followed by '/', then the path, query and fragment
    if h.end - h.start < 1 or at(h, h.start) != '/':
        return False
    if h.start + 1 < h.end and at(h, h.start + 1) == '/':
        return False
    return path_query_fragment(h, h.start + 1, True) == h.end


cdef bint is_plain_fragment(const Href* h) noexcept nogil:
    cdef Py_ssize_t i
    cdef uint32_t c
    if h.end - h.start < 2 or at(h, h.start) != '#':
        return False
    for i in range(h.start + 1, h.end):
        c = at(h, i)
        if c == ';' or is_control(c):
            return False
    return True


cdef bint is_plain_relative(const Href* h) noexcept nogil:
    cdef uint32_t c
    if h.end - h.start < 1:
        return False
    c = at(h, h.start)
    if c == '/' or c == '?' or c == '#' or c == ';' or c == ':' \
            or c == '.' or is_control(c):
        return False
    return path_query_fragment(h, h.start + 1, False) == h.end


cdef int scheme_end(const Href* h) noexcept nogil:
    """urlsplit's scheme: [A-Za-z][A-Za-z0-9+.-]* then ':'. The index of the
    ':' (relative to start), or -1."""
    cdef Py_ssize_t i = h.start
    cdef uint32_t c
    if i >= h.end:
        return -1
    c = at(h, i)
    if not (('a' <= c <= 'z') or ('A' <= c <= 'Z')):
        return -1
    i += 1
    while i < h.end:
        c = at(h, i)
        if c == ':':
            return <int> (i - h.start)
        if not (('a' <= c <= 'z') or ('A' <= c <= 'Z') or ('0' <= c <= '9')
                or c == '+' or c == '.' or c == '-'):
            return -1
        i += 1
    return -1


cdef bint scheme_is(const Href* h, int length, bint https) noexcept nogil:
    """Whether the href's scheme (`length` characters) is the base's, ASCII
    case-insensitively."""
    cdef const char* name = "http"
    cdef int k
    if https:
        name = "https"
    if length != (5 if https else 4):
        return False
    for k in range(length):
        if (at(h, h.start + k) | 0x20) != <uint8_t> name[k]:
            return False
    return True


cdef Shape shape_of(Href* h, const Base* base) noexcept nogil:
    cdef uint32_t first
    cdef int colon
    while h.start < h.end and is_ascii_whitespace(at(h, h.start)):
        h.start += 1
    while h.end > h.start and is_ascii_whitespace(at(h, h.end - 1)):
        h.end -= 1
    if has_dot_segment(h):
        return TO_URLJOIN
    if is_plain_absolute(h):
        return AS_IT_IS
    if not base.plain:
        return TO_URLJOIN
    first = at(h, h.start) if h.start < h.end else 0
    if first == '/':
        if not has_double_slash(h) and is_plain_path(h):
            return AFTER_ORIGIN
        if is_plain_network_path(h, h.start, True):
            # '//host/path': urljoin keeps it all and takes the scheme (a
            # non-ASCII authority may be one urlsplit rejects: it decides)
            return AFTER_SCHEME
    elif first == '#':
        if base.has_without_fragment:
            if is_plain_fragment(h):
                return AFTER_BASE
            if h.end - h.start == 1:
                return BASE_ITSELF          # '#': urljoin drops the empty fragment
    else:
        colon = scheme_end(h)
        if colon >= 0:
            if not scheme_is(h, colon, base.https):
                return AS_IT_IS
        elif base.has_directory and not has_double_slash(h) and is_plain_relative(h):
            return AFTER_DIRECTORY
    return TO_URLJOIN


cdef int base_of(Base* base, str scheme, str origin, str without_fragment,
                 str directory) except -1:
    if scheme is not None and scheme not in ("http", "https"):
        raise ValueError("scheme must be 'http', 'https' or None, not %r" % (scheme,))
    base.plain = scheme is not None and origin is not None
    base.https = scheme == "https"
    base.has_without_fragment = base.plain and without_fragment is not None
    base.has_directory = base.plain and directory is not None
    return 0


cdef object made(const Href* h, object text, str scheme, str origin,
                 str without_fragment, str directory):
    """The URL of an href of a shape (not TO_URLJOIN); `text` is the stripped
    href as a str."""
    if h.shape == AS_IT_IS:
        return text
    if h.shape == AFTER_ORIGIN:
        return PyUnicode_Concat(origin, text)
    if h.shape == AFTER_BASE:
        return PyUnicode_Concat(without_fragment, text)
    if h.shape == AFTER_DIRECTORY:
        return PyUnicode_Concat(directory, text)
    if h.shape == AFTER_SCHEME:
        return scheme + ":" + text
    return without_fragment                 # BASE_ITSELF


cdef object made_from_utf8(const Href* h, str scheme, str origin, str without_fragment,
                           str directory):
    """made() of an href still in UTF-8: an ASCII href after an ASCII
    prefix (most links) is copied into its URL in one allocation."""
    cdef str prefix
    cdef Py_ssize_t n = h.end - h.start, length
    cdef str url
    if h.shape == BASE_ITSELF:
        return without_fragment
    prefix = origin if h.shape == AFTER_ORIGIN else \
        without_fragment if h.shape == AFTER_BASE else \
        directory if h.shape == AFTER_DIRECTORY else \
        "" if h.shape == AS_IT_IS else None
    if prefix is None or not PyUnicode_IS_ASCII(prefix) or not is_ascii(
            h.data + h.start, <size_t> (h.end - h.start)):
        return made(h, stripped_text(h), scheme, origin, without_fragment, directory)
    length = len(prefix)
    url = PyUnicode_New(length + n, 127)
    memcpy(PyUnicode_DATA(url), PyUnicode_DATA(prefix), <size_t> length)
    memcpy(<char*> PyUnicode_DATA(url) + length, h.data + h.start, <size_t> n)
    return url


cdef inline str stripped_text(const Href* h):
    return PyUnicode_DecodeUTF8(<const char*> h.data + h.start, h.end - h.start,
                                "surrogatepass")


def base_parts(str base_url):
    """What the shapes take from a base URL, as (scheme, origin,
    without_fragment, directory): its scheme and origin ('https',
    'https://host:port') when it starts as an http(s) URL with an ASCII
    authority (a non-ASCII one may be one urlsplit rejects: urljoin
    decides), else all None; and, when the whole URL is a plain absolute
    one, the URL without its fragment, and with no empty or dot segment in
    its path, its directory (up to the last '/' of the path), else None."""
    cdef bytes utf8 = base_url.encode("utf-8", "surrogatepass")
    cdef Href h
    cdef Py_ssize_t i, origin_end, fragment, query, slash, k
    h.data = utf8
    h.start = 0
    h.end = len(utf8)
    # the origin: 'http:' or 'https:', '//', an ASCII authority, then '/',
    # '?', '#', the end, or a newline that ends the URL (a regular
    # expression's $)
    i = after_http_scheme(&h)
    if i < 0 or h.end - i < 2 or at(&h, i) != '/' or at(&h, i + 1) != '/':
        return (None, None, None, None)
    k = origin_end = authority_end(&h, i + 2, True)
    if origin_end <= i + 2 or not (
            k == h.end or at(&h, k) == '/' or at(&h, k) == '?' or at(&h, k) == '#'
            or (k == h.end - 1 and at(&h, k) == '\n')):
        return (None, None, None, None)
    scheme = "https" if i == 6 else "http"
    origin = base_url[:origin_end]              # (ASCII up to there)
    if not is_plain_absolute(&h):
        return (scheme, origin, None, None)
    fragment = h.end
    for k in range(origin_end, h.end):
        if at(&h, k) == '#':
            fragment = k
            break
    query = fragment
    for k in range(origin_end, fragment):
        if at(&h, k) == '?':
            query = k
            break
    without_fragment = utf8[:fragment].decode("utf-8", "surrogatepass")
    h.start = origin_end
    h.end = query
    if has_double_slash(&h) or has_dot_segment(&h):
        return (scheme, origin, without_fragment, None)
    if query == origin_end:
        return (scheme, origin, without_fragment, origin + "/")
    slash = origin_end
    for k in range(origin_end, query):
        if at(&h, k) == '/':
            slash = k
    return (scheme, origin, without_fragment,
            utf8[:slash + 1].decode("utf-8", "surrogatepass"))


# plain_resolutions finds the shapes of fewer hrefs than this with the GIL
# held (the base URL's, a canonical link's: one shape takes less time than
# letting the GIL go and waiting to get it back).
cdef enum:
    WITHOUT_GIL = 32


cdef void find_shapes(Href* items, Py_ssize_t count, const Base* base) noexcept nogil:
    cdef Py_ssize_t k
    for k in range(count):
        if items[k].data != NULL:
            items[k].shape = shape_of(&items[k], base)


def plain_resolutions(list hrefs, str scheme, str origin, str without_fragment,
                      str directory):
    """For each href of `hrefs` (each a str), its resolution against a base
    whose parts are given (extract._Base: `scheme` 'http' or 'https', or
    None for a base of another kind, and then the others are None too; the
    base's `origin`, its URL `without_fragment` and its `directory`, each
    None when the base is not plain enough for it), or None where urljoin
    decides. A list of the same length."""
    cdef Py_ssize_t count = len(hrefs), k, length
    cdef Href* items
    cdef Base base
    cdef object href, result
    cdef list out
    cdef const char* utf8
    for href in hrefs:
        if not isinstance(href, str):
            raise TypeError("hrefs must be str, not %s" % type(href).__name__)
    base_of(&base, scheme, origin, without_fragment, directory)
    out = PyList_New(count)
    if count == 0:
        return out
    items = <Href*> malloc(count * sizeof(Href))
    if items == NULL:
        raise MemoryError()
    try:
        for k in range(count):
            # (the UTF-8 of a str is its data or cached with it; the list
            # keeps the strs alive)
            utf8 = PyUnicode_AsUTF8AndSize(hrefs[k], &length)
            if utf8 == NULL:        # a lone surrogate: urljoin decides
                PyErr_Clear()
                length = 0
            items[k].data = <const uint8_t*> utf8
            items[k].start = 0
            items[k].end = length
            items[k].shape = TO_URLJOIN
        if count < WITHOUT_GIL:
            find_shapes(items, count, &base)
        else:
            with nogil:
                find_shapes(items, count, &base)
        for k in range(count):
            if items[k].shape == TO_URLJOIN:
                result = None
            else:
                href = hrefs[k]
                if items[k].start != 0 or items[k].end != length_of(href):
                    href = stripped_text(&items[k])
                result = made(&items[k], href, scheme, origin, without_fragment,
                              directory)
            Py_INCREF(result)
            PyList_SET_ITEM(out, k, result)
    finally:
        free(items)
    return out


cdef inline Py_ssize_t length_of(str text):
    cdef Py_ssize_t length
    PyUnicode_AsUTF8AndSize(text, &length)
    return length


# -- the links of a page ---------------------------------------------------------

cdef struct Links:
    Href* items
    Py_ssize_t count
    Py_ssize_t capacity


cdef struct Head:
    # The first, in tree order, of what each selector matches (type
    # selectors without a namespace match every namespace; an attribute
    # selector without one, the attributes in none)
    CElement* base            # base[href]
    CElement* title           # title
    CElement* description     # meta[name="description" i][content]
    CElement* canonical       # link[rel~="canonical" i][href]


cdef inline bint attribute_has_word(CElement* element, lxp_attr_id_t name,
                                    const char* lower) noexcept nogil:
    """Whether the whitespace-separated words of the element's attribute
    `name` include `lower`, ASCII case-insensitively ([name~="word" i])."""
    cdef CAttr* attr = element_find_attribute(element, name, NS__UNDEF)
    return attr != NULL and value_has_token(attr.value, attr.value_length,
                                            <const uint8_t*> lower, strlen(lower), True)


cdef void note_head(CElement* element, Head* head) noexcept nogil:
    if element.tag_id == TAG_BASE:
        if head.base == NULL and has_attribute(element, ATTR_HREF):
            head.base = element
    elif element.tag_id == TAG_TITLE:
        if head.title == NULL:
            head.title = element
    elif element.tag_id == TAG_META:
        if head.description == NULL and has_attribute(element, ATTR_CONTENT) \
                and attribute_is(element, ATTR_NAME, b"description"):
            head.description = element
    elif element.tag_id == TAG_LINK:
        if head.canonical == NULL and has_attribute(element, ATTR_HREF) \
                and attribute_has_word(element, ATTR_REL, b"canonical"):
            head.canonical = element


cdef int collect_page(CNode* root, Links* links, Head* head) noexcept nogil:
    """The href attribute (no namespace) of every a and area element under
    root, in tree order (what query_selector_all("a[href], area[href]")
    finds), and the elements of `head`: 0, or -1 out of memory."""
    cdef CNode* node = root.first_child
    cdef CElement* element
    cdef CAttr* attr
    cdef Href* items
    while node != NULL:
        prefetch_walk_ahead(node)
        if node.type == ELEMENT_NODE:
            element = <CElement*> node
            if element.tag_id == TAG_A or element.tag_id == TAG_AREA:
                attr = element_find_attribute(element, ATTR_HREF, NS__UNDEF)
                if attr != NULL:
                    if links.count == links.capacity:
                        links.capacity = links.capacity * 2 if links.capacity else 64
                        items = <Href*> realloc(links.items, links.capacity * sizeof(Href))
                        if items == NULL:
                            return -1
                        links.items = items
                    links.items[links.count].data = attr.value
                    links.items[links.count].start = 0
                    links.items[links.count].end = <Py_ssize_t> attr.value_length
                    links.items[links.count].shape = TO_URLJOIN
                    links.items[links.count].first = links.count
                    links.count += 1
            else:
                note_head(element, head)
        node = next_in_tree(node, root)
    return 0


cdef inline uint64_t fnv1a(const uint8_t* data, Py_ssize_t length) noexcept nogil:
    cdef uint64_t h = 1469598103934665603ULL
    cdef Py_ssize_t i
    for i in range(length):
        h = (h ^ data[i]) * 1099511628211ULL
    return h


cdef int mark_repeats(Links* links) noexcept nogil:
    """Set each link's `first` to the index of the first link with the same
    value (pages repeat their links: each value is resolved once): 0, or -1
    out of memory."""
    cdef Py_ssize_t size = 64, mask, k, slot, other
    cdef Py_ssize_t* table
    cdef Href* h
    while size < 2 * links.count:
        size *= 2
    mask = size - 1
    table = <Py_ssize_t*> malloc(size * sizeof(Py_ssize_t))
    if table == NULL:
        return -1
    for k in range(size):
        table[k] = -1
    for k in range(links.count):
        h = &links.items[k]
        slot = <Py_ssize_t> (fnv1a(h.data, h.end) & <uint64_t> mask)
        while True:
            other = table[slot]
            if other < 0:
                table[slot] = k
                break
            if links.items[other].end == h.end and (h.end == 0 or memcmp(
                    links.items[other].data, h.data, <size_t> h.end) == 0):
                h.first = other
                break
            slot = (slot + 1) & mask
    free(table)
    return 0


cdef void find_link_shapes(Links* links, const Base* base, bint whatwg) noexcept nogil:
    cdef Py_ssize_t k
    for k in range(links.count):
        if links.items[k].first == k:
            links.items[k].shape = shape_of(&links.items[k], base)
            if whatwg and not same_in_the_url_standard(&links.items[k]):
                links.items[k].shape = TO_URLJOIN


cdef bint same_in_the_url_standard(const Href* h) noexcept nogil:
    """Whether the URL Standard's parser gives what the shape makes, the
    base being a URL it serialized: a path-absolute or path-relative
    reference or a fragment of ASCII letters, digits and -._~!$&()*+,/:=?@#%
    only (nothing it percent-encodes, no backslash, no %2e dot segment). A
    plain absolute URL, a network-path reference or an empty fragment goes
    to the parser: it lowercases hosts, writes an empty path '/' and keeps
    an empty fragment."""
    cdef Py_ssize_t k
    cdef uint32_t c
    if h.shape == AS_IT_IS:
        k = absolute_end_of_authority(h)
        if k < 0:
            return False
    elif h.shape != AFTER_ORIGIN and h.shape != AFTER_DIRECTORY and h.shape != AFTER_BASE:
        return False
    else:
        k = h.start
    while k < h.end:
        c = at(h, k)
        k += 1
        if ('a' <= c <= 'z') or ('A' <= c <= 'Z') or ('0' <= c <= '9'):
            continue
        if c == '%':
            if k + 1 < h.end and at(h, k) == '2' and (at(h, k + 1) == 'e'
                                                    or at(h, k + 1) == 'E'):
                return False
            continue
        if c == '-' or c == '.' or c == '_' or c == '~' or c == '!' or c == '$' \
                or c == '&' or c == '(' or c == ')' or c == '*' or c == '+' or c == ',' \
                or c == '/' or c == ':' or c == '=' or c == '?' or c == '@' or c == '#':
            continue
        return False
    return True


cdef Py_ssize_t absolute_end_of_authority(const Href* h) noexcept nogil:
    """For an absolute URL the URL Standard serializes as it is written
    (but for what same_in_the_url_standard checks after): where its path
    starts, else -1. http(s)://host/ with a host of lowercase letters,
    digits, '-' and '.' (no empty label, no xn-- label, the last label not
    starting with a digit: not an IPv4 address) and no port or userinfo;
    or a non-special scheme of lowercase letters and digits followed by an
    opaque path (not '/')."""
    cdef Py_ssize_t k = h.start
    cdef Py_ssize_t label
    cdef uint32_t c
    while k < h.end and (('a' <= at(h, k) <= 'z') or ('0' <= at(h, k) <= '9' and k > h.start)):
        k += 1
    if k == h.start or k >= h.end or at(h, k) != ':':
        return -1
    if span_is(h, h.start, k, "http") or span_is(h, h.start, k, "https"):
        k += 1
        if k + 2 > h.end or at(h, k) != '/' or at(h, k + 1) != '/':
            return -1
        k += 2
        label = k
        while k < h.end and at(h, k) != '/':
            c = at(h, k)
            if c == '.':
                if k == label:
                    return -1               # an empty label
                label = k + 1
            elif not (('a' <= c <= 'z') or ('0' <= c <= '9') or c == '-'):
                return -1
            elif c == '-' and k == label + 3 and at(h, label) == 'x' \
                    and at(h, label + 1) == 'n' and at(h, label + 2) == '-':
                return -1                   # xn--: punycode the parser checks
            k += 1
        if k >= h.end or k == h.start or label == k or ('0' <= at(h, label) <= '9'):
            return -1                       # no path, an empty or numeric last label
        return k
    if span_is(h, h.start, k, "ftp") or span_is(h, h.start, k, "file") \
            or span_is(h, h.start, k, "ws") or span_is(h, h.start, k, "wss"):
        return -1
    k += 1
    if k < h.end and at(h, k) == '/':
        return -1
    return k


cdef bint span_is(const Href* h, Py_ssize_t start, Py_ssize_t end, const char* text) noexcept nogil:
    cdef Py_ssize_t n = <Py_ssize_t> strlen(text)
    cdef Py_ssize_t i
    if end - start != n:
        return False
    for i in range(n):
        if at(h, start + i) != <uint8_t> text[i]:
            return False
    return True


cdef inline object proxy_or_none(CElement* element):
    return node_proxy(<CNode*> element) if element != NULL else None


def page_fields(Node root, str url, parts_of, resolve, join, bint text=False,
                bint shapes=True, bint whatwg=False):
    """What extract_record takes from a page (a Document, DocumentFragment
    or Element), in one walk: (base_url, links, title, description,
    canonical, text). Title, description and canonical are the first
    element, in tree order, that 'title', 'meta[name="description"
    i][content]' and 'link[rel~="canonical" i][href]' match (None when
    none does); base_url is resolve(url, href) of the first base[href] (url
    when there is none); links is the resolved href of every a and area
    element, in tree order; text (None unless asked for) is
    lexpy.extract_text(root.body or root, main_content=True) for a
    Document, else of root, its walk in the same release of the GIL.

    parts_of(base_url) gives a base URL's parts (extract._base:
    (scheme, origin, without_fragment, directory), as base_parts makes
    them), for the shapes of the hrefs; an href of no shape is given,
    stripped, to join(base_url, href), which returns its URL. Each value is
    resolved once (repeats share the str). The walk, the matching of
    repeats and the shapes against url's parts run in one release of the
    GIL (again against the base's after a <base href> that changes the
    base URL); meanwhile the document counts as read (its Python API
    refuses changes). With shapes false, every distinct href, as written,
    goes to join; with whatwg, only the shapes whose result the URL
    Standard's parser also gives are made here, the others go to join
    (extract_record: lexpy.extract's resolution, `url` a URL that parser
    serialized)."""
    cdef CNode* c_root = root._node()
    cdef CDocument* doc = c_root.owner
    cdef Links links
    cdef Head head
    cdef Base base
    cdef TextWriter writer
    cdef TextOptions options
    cdef CNode* text_root = c_root
    cdef Py_ssize_t k
    cdef int status
    cdef list out, made_urls
    cdef str base_url = url, scheme, origin, without_fragment, directory
    cdef object link
    cdef CAttr* href
    scheme, origin, without_fragment, directory = parts_of(url)
    base_of(&base, scheme, origin, without_fragment, directory)
    links.items = NULL
    links.count = links.capacity = 0
    memset(&head, 0, sizeof(Head))
    if text:
        plain_text_options(&options, doc, False, False, True)
        if c_root.type == DOCUMENT_NODE and document_body(c_root) != NULL:
            text_root = document_body(c_root)
    doc.readers += 1
    try:
        with nogil:
            status = collect_page(c_root, &links, &head)
            if status == 0:
                status = mark_repeats(&links)
            if status == 0 and shapes:
                find_link_shapes(&links, &base, whatwg)
            if text:
                extract_text_walk(&writer, text_root, &options, True)
        made_text = writer_finish(&writer) if text else None
        if status != 0:
            raise MemoryError()
        if head.base != NULL:
            href = element_find_attribute(head.base, ATTR_HREF, NS__UNDEF)
            base_url = resolve(url, PyUnicode_DecodeUTF8(
                <const char*> href.value, <Py_ssize_t> href.value_length, "surrogatepass"))
            if base_url != url and shapes:
                scheme, origin, without_fragment, directory = parts_of(base_url)
                base_of(&base, scheme, origin, without_fragment, directory)
                with nogil:
                    find_link_shapes(&links, &base, whatwg)
        out = PyList_New(links.count)
        made_urls = [None] * links.count
        for k in range(links.count):
            if links.items[k].first == k:
                if links.items[k].shape == TO_URLJOIN:
                    link = join(base_url, stripped_text(&links.items[k]))
                else:
                    link = made_from_utf8(&links.items[k], scheme, origin, without_fragment,
                                          directory)
                made_urls[k] = link
            else:
                link = made_urls[links.items[k].first]
            Py_INCREF(link)
            PyList_SET_ITEM(out, k, link)
        return (base_url, out, proxy_or_none(head.title),
                proxy_or_none(head.description), proxy_or_none(head.canonical), made_text)
    finally:
        doc.readers -= 1
        free(links.items)
