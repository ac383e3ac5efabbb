# Python strings <-> UTF-8 bytes of the DOM, and the name checks of the DOM
# standard. Internal text is UTF-8 (DESIGN.md decision 1); a lone surrogate
# a user puts in a str survives the round trip ("surrogatepass").

from libc.stdint cimport uint16_t
from cpython.unicode cimport PyUnicode_DecodeUTF8

cdef extern from "Python.h":
    str PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void* PyUnicode_DATA(object o)
    const char* PyUnicode_AsUTF8AndSize(object o, Py_ssize_t* size) noexcept
    void PyErr_Clear() noexcept


cdef inline str decode_utf8(const uint8_t* data, size_t length):
    cdef str text
    if length == 0:
        return ""
    if is_ascii(data, length):
        # An ASCII str is its bytes: one allocation and a copy, no decoder.
        text = PyUnicode_New(<Py_ssize_t> length, 127)
        memcpy(PyUnicode_DATA(text), data, length)
        return text
    return PyUnicode_DecodeUTF8(<const char*> data, <Py_ssize_t> length,
                                "surrogatepass")


# Long texts (text_content, to_html, dump) are decoded by lexpy's own UTF-8
# reader: one pass finds the number of code points and the str's kind, a
# second writes the code points straight into the str (Python's decoder
# would be the second pass after decode_utf8's scan for ASCII, which every
# corpus page's text fails). The GIL is released for the two passes only
# over a very long text: below that, the passes take less time than
# handing the GIL to another thread and getting it back. Anything that is not UTF-8 (lone surrogates
# excepted, as "surrogatepass" reads them) goes to Python's decoder, which
# judges it. (From 256 KiB the passes take a tenth of a millisecond or
# more: other threads may run meanwhile, as DESIGN.md decision 8 wants,
# at the price of a wait for the GIL afterwards when they are busy.)
cdef enum:
    DECODE_LONG = 4096                    # bytes from which a text is long
    DECODE_WITHOUT_GIL = 256 * 1024       # ... and very long

cdef extern from "Python.h":
    int PyUnicode_KIND(object o)

cdef extern from "utf8_decode.h" nogil:
    void lxp_utf8_measure(const uint8_t* s, size_t n, size_t* code_points,
                          uint32_t* max_char)
    int lxp_utf8_to_ucs1(const uint8_t* s, size_t n, uint8_t* out, size_t count)
    int lxp_utf8_to_ucs2(const uint8_t* s, size_t n, uint16_t* out, size_t count)
    int lxp_utf8_to_ucs4(const uint8_t* s, size_t n, uint32_t* out, size_t count)


cdef str decode_long_utf8(const uint8_t* data, size_t length):
    """decode_utf8 for a long text."""
    cdef size_t code_points
    cdef uint32_t max_char
    cdef bint release = length >= DECODE_WITHOUT_GIL
    if release:
        with nogil:
            utf8_measure(data, length, &code_points, &max_char)
    else:
        utf8_measure(data, length, &code_points, &max_char)
    return measured_utf8_str(data, length, code_points, max_char, release)


cdef void utf8_measure(const uint8_t* data, size_t length, size_t* code_points,
                       uint32_t* max_char) noexcept nogil:
    lxp_utf8_measure(data, length, code_points, max_char)


cdef str measured_utf8_str(const uint8_t* data, size_t length, size_t code_points,
                           uint32_t max_char, bint release):
    cdef str text = PyUnicode_New(<Py_ssize_t> code_points, max_char)
    cdef void* out = PyUnicode_DATA(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef int status
    if release:
        with nogil:
            status = utf8_write_code_points(data, length, out, kind, code_points,
                                            max_char)
    else:
        status = utf8_write_code_points(data, length, out, kind, code_points, max_char)
    if status != 0:
        return PyUnicode_DecodeUTF8(<const char*> data, <Py_ssize_t> length,
                                    "surrogatepass")
    return text


cdef inline int utf8_write_code_points(const uint8_t* data, size_t length,
                                       void* out, int kind, size_t code_points,
                                       uint32_t max_char) noexcept nogil:
    """Write the code points of data (as utf8_measure counted them) into a
    str's buffer of `kind` (1, 2 or 4 bytes each): 0, or -1 (not UTF-8)."""
    if max_char == 127:
        if code_points != length:
            return -1
        memcpy(out, data, length)
        return 0
    if kind == 1:
        return lxp_utf8_to_ucs1(data, length, <uint8_t*> out, code_points)
    if kind == 2:
        return lxp_utf8_to_ucs2(data, length, <uint16_t*> out, code_points)
    return lxp_utf8_to_ucs4(data, length, <uint32_t*> out, code_points)


cdef inline const uint8_t* utf8_or_null(str value, Py_ssize_t* length) noexcept:
    """The UTF-8 of a str without a copy (CPython's cached UTF-8, or the
    data of an ASCII str), or NULL for a str with a lone surrogate (then
    encode_utf8 it)."""
    cdef const char* data = PyUnicode_AsUTF8AndSize(value, length)
    if data == NULL:
        PyErr_Clear()
    return <const uint8_t*> data


cdef bytes encode_utf8(object value, str what):
    if not isinstance(value, str):
        raise TypeError("%s must be a str, not %s" % (what, type(value).__name__))
    return (<str> value).encode("utf-8", "surrogatepass")


cdef inline bint is_ascii_whitespace(Py_UCS4 c) noexcept:
    return c == u'\t' or c == u'\n' or c == u'\x0c' or c == u'\r' or c == u' '


cdef inline bint is_ascii_alpha(Py_UCS4 c) noexcept:
    return (u'a' <= c <= u'z') or (u'A' <= c <= u'Z')


cdef inline bint is_ascii_alphanumeric(Py_UCS4 c) noexcept:
    return is_ascii_alpha(c) or (u'0' <= c <= u'9')


cdef str ascii_lowercase(str value):
    # str.lower() would also fold non-ASCII letters; the DOM folds ASCII only.
    if value.isascii():
        return value.lower()
    return "".join([c.lower() if c.isascii() else c for c in value])


cdef str ascii_uppercase(str value):
    if value.isascii():
        return value.upper()
    return "".join([c.upper() if c.isascii() else c for c in value])


# https://dom.spec.whatwg.org/#valid-element-local-name
cdef bint is_valid_element_local_name(str name) except -1:
    cdef Py_UCS4 c
    cdef Py_ssize_t i
    if len(name) == 0:
        return False
    c = name[0]
    if is_ascii_alpha(c):
        for c in name:
            if is_ascii_whitespace(c) or c == u'\0' or c == u'/' or c == u'>':
                return False
        return True
    if not (c == u':' or c == u'_' or c >= 0x80):
        return False
    for i in range(1, len(name)):
        c = name[i]
        if not (is_ascii_alphanumeric(c) or c == u'-' or c == u'.' or c == u':'
                or c == u'_' or c >= 0x80):
            return False
    return True


# https://dom.spec.whatwg.org/#valid-attribute-local-name
cdef bint is_valid_attribute_local_name(str name) except -1:
    cdef Py_UCS4 c
    if len(name) == 0:
        return False
    for c in name:
        if is_ascii_whitespace(c) or c == u'\0' or c == u'/' or c == u'=' \
                or c == u'>':
            return False
    return True


# https://dom.spec.whatwg.org/#valid-namespace-prefix
cdef bint is_valid_namespace_prefix(str name) except -1:
    cdef Py_UCS4 c
    if len(name) == 0:
        return False
    for c in name:
        if is_ascii_whitespace(c) or c == u'\0' or c == u'/' or c == u'>':
            return False
    return True


# https://dom.spec.whatwg.org/#valid-doctype-name
cdef bint is_valid_doctype_name(str name) except -1:
    cdef Py_UCS4 c
    for c in name:
        if is_ascii_whitespace(c) or c == u'\0' or c == u'>':
            return False
    return True


cdef str XML_NAMESPACE = "http://www.w3.org/XML/1998/namespace"
cdef str XMLNS_NAMESPACE = "http://www.w3.org/2000/xmlns/"


# https://dom.spec.whatwg.org/#validate-and-extract
cdef tuple validate_and_extract(object namespace, object qualified_name,
                                bint for_element):
    """(namespace or None, prefix or None, local name) of a qualified name,
    or InvalidCharacterError / NamespaceError."""
    cdef str prefix = None
    cdef str local_name
    if namespace is not None and not isinstance(namespace, str):
        raise TypeError("namespace must be a str or None, not %s"
                        % type(namespace).__name__)
    if not isinstance(qualified_name, str):
        raise TypeError("qualified name must be a str, not %s"
                        % type(qualified_name).__name__)
    if namespace == "":
        namespace = None
    local_name = qualified_name
    if u":" in qualified_name:
        prefix, _, local_name = (<str> qualified_name).partition(u":")
        if not is_valid_namespace_prefix(prefix):
            raise InvalidCharacterError("invalid namespace prefix %r" % prefix)
    if for_element:
        if not is_valid_element_local_name(local_name):
            raise InvalidCharacterError("invalid element name %r" % local_name)
    elif not is_valid_attribute_local_name(local_name):
        raise InvalidCharacterError("invalid attribute name %r" % local_name)
    if prefix is not None and namespace is None:
        raise NamespaceError("prefix %r needs a namespace" % prefix)
    if prefix == "xml" and namespace != XML_NAMESPACE:
        raise NamespaceError("the prefix 'xml' is bound to %s" % XML_NAMESPACE)
    if (qualified_name == "xmlns" or prefix == "xmlns") \
            and namespace != XMLNS_NAMESPACE:
        raise NamespaceError("'xmlns' is bound to %s" % XMLNS_NAMESPACE)
    if namespace == XMLNS_NAMESPACE and qualified_name != "xmlns" \
            and prefix != "xmlns":
        raise NamespaceError("the namespace %s needs the name or prefix 'xmlns'"
                             % XMLNS_NAMESPACE)
    return namespace, prefix, local_name
