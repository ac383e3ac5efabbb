# structured_data() itself and its own work, compiled into
# lexpy.extract.extractor: the syntaxes asked for, one scan_structured_c()
# walk, and the JSON-LD, microdata (microdata_of_scan, at the end) and
# OpenGraph made from it without a Python frame per page or per script
# (structured.py holds what is rarely run, which structured_data calls
# back: the lenient JSON pass, RDFa, meta, the uniform shapes).

import json

from cpython.dict cimport PyDict_GetItemWithError
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF, Py_XDECREF
from cpython.unicode cimport PyUnicode_GET_LENGTH, Py_UNICODE_ISALNUM
from libc.string cimport memchr, memcmp, memset

from lexpy.dom import Document as _Document

_STRUCTURED_SYNTAXES = ("json-ld", "microdata", "opengraph", "rdfa", "meta")
DEF WANT_JSON_LD = 1
DEF WANT_MICRODATA = 2
DEF WANT_OPENGRAPH = 4
DEF WANT_RDFA = 8
DEF WANT_META = 16

# json.loads(text, strict=False)'s scanner, called directly: decode() and
# raw_decode() are Python frames and two regex matches
_JSON_SCAN_ONCE = json.JSONDecoder(strict=False).scan_once

# OpenGraph: the namespaces of its own prefixes, and a prefix declaration
OG_NAMESPACES = {
    "og": "http://ogp.me/ns#",
    "music": "http://ogp.me/ns/music#",
    "video": "http://ogp.me/ns/video#",
    "article": "http://ogp.me/ns/article#",
    "book": "http://ogp.me/ns/book#",
    "profile": "http://ogp.me/ns/profile#",
    "product": "http://ogp.me/ns/product#",
}
# (prefix_declarations reads it in one pass; the tests hold it to this)
PREFIX_DECLARATION = re.compile(r"\s*(\w+):\s*([^\s]+)")
cdef dict _og_namespaces = OG_NAMESPACES
cdef tuple _og_prefixes = tuple(OG_NAMESPACES)
cdef Py_ssize_t _og_longest = max(len(prefix) for prefix in OG_NAMESPACES)


cdef int wanted_syntaxes(object syntaxes) except -1:
    """The WANT_ bits of `syntaxes` (None: all); ValueError naming the
    first one that is none of them."""
    cdef int wanted = 0
    if syntaxes is None:
        return WANT_JSON_LD | WANT_MICRODATA | WANT_OPENGRAPH | WANT_RDFA | WANT_META
    for syntax in syntaxes:
        if syntax == "json-ld":
            wanted |= WANT_JSON_LD
        elif syntax == "microdata":
            wanted |= WANT_MICRODATA
        elif syntax == "opengraph":
            wanted |= WANT_OPENGRAPH
        elif syntax == "rdfa":
            wanted |= WANT_RDFA
        elif syntax == "meta":
            wanted |= WANT_META
        else:
            raise ValueError("unknown syntax %r (one of %s)"
                             % (syntax, ", ".join(_STRUCTURED_SYNTAXES)))
    return wanted


# JSON as json.JSONDecoder(strict=False) reads it, decoded in one loop with
# an explicit stack (no Python frame, no per-string writer): the C scanner
# of the json module builds each string that holds an escape piece by
# piece, and JSON-LD writes "\/" in every URL. It takes only what that
# decoder accepts and gives the same value; whatever it does not know
# (an error, NaN and Infinity, a surrogate escape, an integer of more than
# 18 digits, nesting deeper than JSON_FAST_DEPTH) it refuses, and the
# decoder runs as before.
DEF JSON_FAST_DEPTH = 100
cdef object _JSON_REFUSED = object()
# refused where the decoder fails too: json_fast took all before a place
# where no JSON may stand (a character that starts no value but NaN's and
# Infinity's, a missing or wrong separator or bracket, text after the
# value), so a strict decode of the same text is known to fail
cdef object _JSON_INVALID = object()
# short strings without an escape (JSON-LD's keys, types and vocabulary
# repeat) made once per json_fast call: a table of the last one made per
# hash of the bytes
DEF JSON_STRING_CACHE = 64
DEF JSON_SHORT_STRING = 32


cdef extern from "Python.h":
    object PyFloat_FromString(object text)
    object PyLong_FromLongLong(long long value)
    bint PyUnicode_IS_ASCII(object text)
    # (PyUnicode_READ is a macro that touches no object: no GIL needed)
    uint32_t unicode_read "PyUnicode_READ"(int kind, const void* data,
                                          Py_ssize_t index) noexcept nogil


cdef struct JsonText:
    int kind
    bint ascii                    # (kind 1 and no code point above U+007F)
    void* data
    Py_ssize_t length
    Py_ssize_t position
    Py_UCS4* buffer               # a string's code points once it has an escape
    Py_ssize_t capacity
    PyObject* strings[JSON_STRING_CACHE]   # (owned references, or NULL)


cdef inline uint32_t json_at(JsonText* t, Py_ssize_t i) noexcept nogil:
    return unicode_read(t.kind, t.data, i) if i < t.length else 0


cdef inline void json_skip_whitespace(JsonText* t) noexcept nogil:
    cdef uint32_t c
    cdef const uint8_t* latin1 = <const uint8_t*> t.data
    if t.kind == PyUnicode_1BYTE_KIND:
        while t.position < t.length and (latin1[t.position] == 0x20 or latin1[t.position] == 0x0A
                                         or latin1[t.position] == 0x09
                                         or latin1[t.position] == 0x0D):
            t.position += 1
        return
    while t.position < t.length:
        c = unicode_read(t.kind, t.data, t.position)
        if c != 0x20 and c != 0x09 and c != 0x0A and c != 0x0D:
            return
        t.position += 1


cdef inline int json_hex(uint32_t c) noexcept nogil:
    if 0x30 <= c <= 0x39:
        return <int> c - 0x30
    if 0x61 <= c <= 0x66:
        return <int> c - 0x61 + 10
    if 0x41 <= c <= 0x46:
        return <int> c - 0x41 + 10
    return -1


cdef object json_string(str text, JsonText* t):
    """The string whose opening quote is at t.position (strict=False: any
    character but the quote and the backslash as it is); _JSON_REFUSED
    when it is unterminated or has an escape json refuses or a surrogate
    escape (json pairs those)."""
    cdef Py_ssize_t start = t.position + 1, i = start, count = 0, end, run, k
    cdef uint32_t c, high = 0
    cdef long code
    cdef uint8_t* out
    cdef bint escaped = False, wide = False
    cdef void* grown
    cdef const uint8_t* latin1 = <const uint8_t*> t.data
    cdef const uint8_t* quote
    cdef const uint8_t* backslash
    cdef str value
    if t.kind == PyUnicode_1BYTE_KIND:
        # (the usual text: the closing quote found by memchr, then whether
        # a backslash comes before it, which escapes the byte after it;
        # linear: the quote is searched for again only once an escape took
        # the one found)
        quote = NULL
        while True:
            if i >= t.length:
                return _JSON_REFUSED
            if quote == NULL or quote < latin1 + i:
                quote = <const uint8_t*> memchr(latin1 + i, 0x22, <size_t> (t.length - i))
                if quote == NULL:
                    return _JSON_REFUSED
            backslash = <const uint8_t*> memchr(latin1 + i, 0x5C, <size_t> (quote - latin1 - i))
            if backslash == NULL:
                i = quote - latin1
                break
            escaped = True
            i = backslash - latin1 + 2
        if not escaped and t.ascii:
            t.position = i + 1
            if i - start <= JSON_SHORT_STRING:
                return short_ascii_str(t.strings, latin1 + start, i - start)
            value = PyUnicode_New(i - start, 127)
            memcpy(PyUnicode_DATA(value), latin1 + start, i - start)
            return value
    else:
        while True:
            if i >= t.length:
                return _JSON_REFUSED
            c = unicode_read(t.kind, t.data, i)
            if c == 0x22:
                break
            if c == 0x5C:
                escaped = True
                i += 2
            else:
                i += 1
    t.position = i + 1
    if not escaped:
        return text[start:i]
    if t.capacity < i - start:
        grown = realloc(t.buffer, (i - start) * sizeof(Py_UCS4))
        if grown == NULL:
            raise MemoryError()
        t.buffer = <Py_UCS4*> grown
        t.capacity = i - start
    end = i
    if t.kind == PyUnicode_1BYTE_KIND:
        # Latin-1 in, Latin-1 out unless an escape gives more (the buffer
        # read as bytes)
        out = <uint8_t*> t.buffer
        i = start
        while i < end:
            # the run up to the next backslash copied whole, then its escape
            backslash = <const uint8_t*> memchr(latin1 + i, 0x5C, <size_t> (end - i))
            run = (backslash - latin1 - i) if backslash != NULL else end - i
            memcpy(out + count, latin1 + i, <size_t> run)
            if not t.ascii:
                for k in range(run):
                    high |= latin1[i + k]
            count += run
            i += run
            if i == end:
                break
            i += 1
            code = json_escape(t, &i, end)
            if code < 0:
                return _JSON_REFUSED
            if code > 0xFF:
                wide = True
                break
            out[count] = <uint8_t> code
            high |= <uint32_t> code
            count += 1
        if not wide:
            if high < 0x80:
                value = PyUnicode_New(count, 127)
                memcpy(PyUnicode_DATA(value), out, count)
                return value
            return PyUnicode_FromKindAndData(PyUnicode_1BYTE_KIND, out, count)
        count = 0
    i = start
    while i < end:
        c = unicode_read(t.kind, t.data, i)
        i += 1
        if c == 0x5C:
            code = json_escape(t, &i, end)
            if code < 0:
                return _JSON_REFUSED
            c = <uint32_t> code
        t.buffer[count] = <Py_UCS4> c
        count += 1
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, t.buffer, count)


cdef inline object short_ascii_str(PyObject** strings, const uint8_t* data, Py_ssize_t length):
    """The str of `length` ASCII bytes: the one `strings` (a table of
    JSON_STRING_CACHE owned references or NULL) holds for a hash of them
    when it has these bytes, else a new one put there."""
    cdef uint32_t h = 2166136261u
    cdef Py_ssize_t k
    cdef PyObject* cached
    cdef str value
    for k in range(length):
        h = (h ^ data[k]) * 16777619u
    h = (h ^ (h >> 15)) & (JSON_STRING_CACHE - 1)
    cached = strings[h]
    if cached != NULL and PyUnicode_GET_LENGTH(<str> cached) == length \
            and memcmp(PyUnicode_DATA(<str> cached), data, length) == 0:
        return <str> cached
    value = PyUnicode_New(length, 127)
    memcpy(PyUnicode_DATA(value), data, length)
    Py_XDECREF(cached)
    Py_INCREF(value)
    strings[h] = <PyObject*> value
    return value


cdef inline long json_escape(JsonText* t, Py_ssize_t* position, Py_ssize_t end) noexcept nogil:
    """The code point of the escape whose backslash is just before
    position[0] (position moved past it), or -1 for an escape json refuses
    and for a surrogate's (json pairs those)."""
    cdef Py_ssize_t i = position[0]
    cdef uint32_t c, code = 0
    cdef int k, digit
    if i >= end:
        return -1
    c = unicode_read(t.kind, t.data, i)
    position[0] = i + 1
    if c == 0x22 or c == 0x5C or c == 0x2F:
        return c
    if c == 0x62:
        return 0x08
    if c == 0x66:
        return 0x0C
    if c == 0x6E:
        return 0x0A
    if c == 0x72:
        return 0x0D
    if c == 0x74:
        return 0x09
    if c != 0x75 or i + 5 > end:
        return -1
    for k in range(4):
        digit = json_hex(unicode_read(t.kind, t.data, i + 1 + k))
        if digit < 0:
            return -1
        code = (code << 4) | <uint32_t> digit
    if 0xD800 <= code <= 0xDFFF:
        return -1
    position[0] = i + 5
    return code


cdef object json_number(str text, JsonText* t):
    """The number at t.position as json's number pattern reads it (a minus,
    0 or digits without a leading zero, a fraction, an exponent: what
    follows an incomplete part is left); _JSON_REFUSED when there is no
    digit (json's -Infinity among them) or an integer of more than 18
    digits."""
    cdef Py_ssize_t start = t.position, i = start, j
    cdef bint is_float = False
    cdef long long value = 0
    cdef bint negative = json_at(t, i) == 0x2D
    if negative:
        i += 1
    if json_at(t, i) == 0x30:
        i += 1
    elif 0x31 <= json_at(t, i) <= 0x39:
        while 0x30 <= json_at(t, i) <= 0x39:
            value = value * 10 + <long long> json_at(t, i) - 0x30
            i += 1
            if i - start - negative > 18:
                return _JSON_REFUSED
    else:
        return _JSON_REFUSED
    if json_at(t, i) == 0x2E and 0x30 <= json_at(t, i + 1) <= 0x39:
        is_float = True
        i += 2
        while 0x30 <= json_at(t, i) <= 0x39:
            i += 1
    if json_at(t, i) == 0x65 or json_at(t, i) == 0x45:
        j = i + 1
        if json_at(t, j) == 0x2B or json_at(t, j) == 0x2D:
            j += 1
        if 0x30 <= json_at(t, j) <= 0x39:
            is_float = True
            i = j
            while 0x30 <= json_at(t, i) <= 0x39:
                i += 1
    t.position = i
    if is_float:
        return PyFloat_FromString(text[start:i])
    return PyLong_FromLongLong(-value if negative else value)


cdef inline bint json_word(JsonText* t, const char* word, Py_ssize_t length) noexcept nogil:
    cdef Py_ssize_t k
    if t.position + length > t.length:
        return False
    for k in range(length):
        if unicode_read(t.kind, t.data, t.position + k) != <uint32_t> word[k]:
            return False
    t.position += length
    return True


cdef object json_fast(str text):
    """The value of `text` (its whole length) as json.JSONDecoder(strict=
    False).decode would give it, or _JSON_REFUSED (see above)."""
    cdef JsonText t
    cdef list stack = []          # the open arrays and objects
    cdef list keys = []           # each open object's pending key
    cdef uint32_t c
    cdef Py_ssize_t k
    cdef object value, container
    t.kind = PyUnicode_KIND(text)
    t.ascii = PyUnicode_IS_ASCII(text)
    t.data = PyUnicode_DATA(text)
    t.length = len(text)
    t.position = 0
    t.buffer = NULL
    t.capacity = 0
    memset(t.strings, 0, sizeof(t.strings))
    try:
        while True:
            # a value at t.position
            c = json_at(&t, t.position)
            if c == 0x7B:                             # {
                t.position += 1
                json_skip_whitespace(&t)
                if json_at(&t, t.position) == 0x7D:
                    t.position += 1
                    value = {}
                else:
                    if len(stack) == JSON_FAST_DEPTH:
                        return _JSON_REFUSED
                    if json_at(&t, t.position) != 0x22:
                        return _JSON_INVALID
                    key = json_string(text, &t)
                    if key is _JSON_REFUSED:
                        return _JSON_REFUSED
                    json_skip_whitespace(&t)
                    if json_at(&t, t.position) != 0x3A:
                        return _JSON_INVALID
                    t.position += 1
                    json_skip_whitespace(&t)
                    stack.append({})
                    keys.append(key)
                    continue
            elif c == 0x5B:                           # [
                t.position += 1
                json_skip_whitespace(&t)
                if json_at(&t, t.position) == 0x5D:
                    t.position += 1
                    value = []
                else:
                    if len(stack) == JSON_FAST_DEPTH:
                        return _JSON_REFUSED
                    stack.append([])
                    keys.append(None)
                    continue
            elif c == 0x22:
                value = json_string(text, &t)
            elif c == 0x2D or 0x30 <= c <= 0x39:
                value = json_number(text, &t)
            elif c == 0x74 and json_word(&t, "true", 4):
                value = True
            elif c == 0x66 and json_word(&t, "false", 5):
                value = False
            elif c == 0x6E and json_word(&t, "null", 4):
                value = None
            elif c == 0x4E or c == 0x49:
                return _JSON_REFUSED          # (NaN and Infinity: the decoder's)
            else:
                return _JSON_INVALID
            if value is _JSON_REFUSED:
                return _JSON_REFUSED
            # the value complete: into the containers it closes
            while True:
                if not stack:
                    return value if t.position == t.length else _JSON_INVALID
                container = stack[len(stack) - 1]
                json_skip_whitespace(&t)
                c = json_at(&t, t.position)
                if type(container) is dict:
                    (<dict> container)[keys[len(keys) - 1]] = value
                    if c == 0x2C:
                        t.position += 1
                        json_skip_whitespace(&t)
                        if json_at(&t, t.position) != 0x22:
                            return _JSON_INVALID
                        key = json_string(text, &t)
                        if key is _JSON_REFUSED:
                            return _JSON_REFUSED
                        keys[len(keys) - 1] = key
                        json_skip_whitespace(&t)
                        if json_at(&t, t.position) != 0x3A:
                            return _JSON_INVALID
                        t.position += 1
                        json_skip_whitespace(&t)
                        break
                    if c != 0x7D:
                        return _JSON_INVALID
                else:
                    (<list> container).append(value)
                    if c == 0x2C:
                        t.position += 1
                        json_skip_whitespace(&t)
                        break
                    if c != 0x5D:
                        return _JSON_INVALID
                t.position += 1
                value = stack.pop()
                keys.pop()
    finally:
        free(t.buffer)
        for k in range(JSON_STRING_CACHE):
            Py_XDECREF(t.strings[k])


# what json_ld_of hands the lenient pass for the error of a strict decode
# known to fail without making it (the JSONDecodeError is a Python frame)
STRICT_DECODE_FAILS = ValueError("the strict decode fails")


def json_fast_decode(str text not None):
    """(True, value) when json_fast takes `text`; (False,
    STRICT_DECODE_FAILS) when it refuses it where the json module's scanner
    fails too (from the first character, that scanner takes no value
    ending at the end of `text`); else (False, None). structured.py tries
    it before the json module's decoder; the tests hold it to that
    decoder."""
    value = json_fast(text)
    if value is _JSON_REFUSED:
        return (False, None)
    if value is _JSON_INVALID:
        return (False, STRICT_DECODE_FAILS)
    return (True, value)


cpdef list json_ld_of(list texts, object lenient):
    """The JSON-LD items of the ld+json script texts: each text without a
    leading BOM and surrounding whitespace, decoded (an array's members one
    by one; empty bodies, null and empty values skipped); a text the strict
    decode (json_fast, then the json module's scanner) refuses goes to
    `lenient` (structured.py's _parse_lenient_json) with the decode's
    ValueError (None when it found no value, or more than one;
    STRICT_DECODE_FAILS when json_fast knows that decode fails), and
    lenient's ValueError (or RecursionError: arrays or objects nested
    deeper than the decoder goes) makes an error entry {"@error": message,
    "@text": text}."""
    cdef list items = []
    cdef str stripped
    cdef Py_ssize_t end
    for text in texts:
        stripped = (<str> text).lstrip("\ufeff").strip()
        if not stripped:
            continue
        data = json_fast(stripped)
        accepted = data is not _JSON_REFUSED and data is not _JSON_INVALID
        strict_error = None
        if data is _JSON_INVALID:
            # (a comment, a wrapper, a trailing comma: the strict decode
            # fails too, and its error is made only if the lenient pass
            # fails as well)
            strict_error = STRICT_DECODE_FAILS
        elif not accepted:
            try:
                data, end = _JSON_SCAN_ONCE(stripped, 0)
                accepted = end == len(stripped)
            except ValueError as error:
                # (the error _parse_lenient_json's own first decode would raise)
                strict_error = error
                accepted = False
            except (StopIteration, RecursionError):
                accepted = False
        if not accepted:
            try:
                data = lenient(text, strict_error)
            except (ValueError, RecursionError) as error:
                # (RecursionError: nested deeper than the decoder goes)
                items.append({"@error": str(error), "@text": text})
                continue
        if isinstance(data, list):
            for item in data:
                if item:
                    items.append(item)
        elif data:
            items.append(data)
    return items


cdef inline bint is_re_word(Py_UCS4 c):
    # \w of a str pattern (sre's SRE_UNI_IS_WORD)
    return Py_UNICODE_ISALNUM(c) or c == 0x5F


cpdef list prefix_declarations(str text):
    """PREFIX_DECLARATION.findall(text): the (prefix, IRI) pairs of a
    prefix attribute, in one pass (the regex cost ~6,000 instructions a
    short attribute). A declaration is tried from each position; one that
    fails at the end of a word run fails from every position before that
    end, so the next try starts there (linear where the regex is not)."""
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t n = len(text), p = 0, i, name_start, name_end, value_start
    cdef list found = []
    while p < n:
        i = p
        while i < n and Py_UNICODE_ISSPACE(unicode_read(kind, data, i)):
            i += 1
        name_start = i
        while i < n and is_re_word(unicode_read(kind, data, i)):
            i += 1
        name_end = i
        if name_end == name_start or i == n or unicode_read(kind, data, i) != 0x3A:
            p = name_end if name_end > p else p + 1
            continue
        i += 1
        while i < n and Py_UNICODE_ISSPACE(unicode_read(kind, data, i)):
            i += 1
        if i == n:
            break                 # (only whitespace after the colon: nothing further matches)
        value_start = i
        while i < n and not Py_UNICODE_ISSPACE(unicode_read(kind, data, i)):
            i += 1
        found.append((text[name_start:name_end], text[value_start:i]))
        p = i
    return found


cdef Py_ssize_t og_prefix_index(str name):
    """The index in _og_prefixes of the prefix of a property name (before
    its first colon, or the whole name without one), or -1 when it is none
    of OpenGraph's."""
    cdef int kind = PyUnicode_KIND(name)
    cdef void* data = PyUnicode_DATA(name)
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(name), end = 0, k, i
    cdef str prefix
    while end < length and end <= _og_longest and unicode_read(kind, data, end) != 0x3A:
        end += 1
    if end > _og_longest:
        return -1
    for k in range(len(_og_prefixes)):
        prefix = <str> _og_prefixes[k]
        if PyUnicode_GET_LENGTH(prefix) != end:
            continue
        for i in range(end):
            if unicode_read(kind, data, i) != <uint32_t> (<const char*> PyUnicode_DATA(prefix))[i]:
                break
        else:
            return k
    return -1


cpdef list opengraph_of(list heads):
    """OpenGraph as extruct gives it from scan_structured()'s heads: per
    head with a property, the prefixes its html element and it declare plus
    the OpenGraph namespaces used, and the (property, content) pairs whose
    prefix is declared or OpenGraph's."""
    cdef list found = []
    cdef list properties
    cdef dict namespaces
    cdef str name, prefix
    cdef Py_ssize_t colon, og
    cdef tuple pair
    for html_prefix, head_prefix, pairs in heads:
        if not pairs:
            continue                      # no property: nothing to give
        namespaces = {}
        if html_prefix:
            namespaces.update(prefix_declarations(html_prefix))
        if head_prefix:
            namespaces.update(prefix_declarations(head_prefix))
        properties = []
        for pair in pairs:
            name = pair[0]
            og = og_prefix_index(name)
            if og >= 0:
                # (an OpenGraph prefix, read in place: no str made, no hash)
                prefix = <str> _og_prefixes[og]
                namespaces[prefix] = _og_namespaces[prefix]
                properties.append(pair)
                continue
            colon = name.find(":")
            prefix = name if colon < 0 else name[:colon]
            if prefix in namespaces:
                properties.append(pair)
        if properties:
            found.append({"namespace": namespaces, "properties": properties})
    return found


# structured.py's Python helpers, which structured_data calls back:
# (_parse_lenient_json, _rdfa_of, rdfa, meta, _flatten_item,
# _uniform_opengraph); set once by structured.py (set_structured_hooks)
cdef tuple _structured_hooks = None


def set_structured_hooks(tuple hooks not None):
    """structured.py's helpers for structured_data (see _structured_hooks)."""
    global _structured_hooks
    _structured_hooks = hooks


def structured_data(Node doc not None, *, base_url=None, syntaxes=None, bint uniform=False,
                    schema_context="http://schema.org", bint with_og_array=False):
    """The structured data of `doc` (a Document, or an element for the
    syntaxes that look below it) as a dict with a key per syntax, each shaped
    as extruct.extract() shapes it: ``json-ld`` (the parsed script bodies; a
    block that does not parse is an error entry ``{"@error": message,
    "@text": source}``), ``microdata`` (extruct's nested items), ``opengraph``
    (``{"namespace": ..., "properties": [[name, value], ...]}``), ``rdfa``
    (expanded JSON-LD of the RDFa Lite 1.1 triples) and ``meta`` (every meta
    element with a name or property and a content, in tree order, as
    ``{"name" or "property": key, "content": value}``). `uniform` gives
    extruct's uniform shapes for microdata and OpenGraph. `base_url` is the
    document's URL: relative URLs are resolved against the document base URL
    it gives (and <base href>), and left relative without either, as extruct
    does. Never raises on what a page contains."""
    # (compiled, with the scan and what is made from it: a small page's
    # time is mostly such fixed costs, a Python frame among them)
    cdef tuple hooks = _structured_hooks
    cdef dict output = structured_of(doc, base_url, syntaxes, hooks)
    if uniform:
        if "microdata" in output:
            output["microdata"] = [hooks[4](item, schema_context, True)
                                   for item in output["microdata"]]
        if "opengraph" in output:
            output["opengraph"] = hooks[5](output["opengraph"], with_og_array)
    return output


cdef dict structured_of(Node doc, base_url, syntaxes, tuple hooks):
    """structured_data()'s dict but for the uniform shapes: `syntaxes` as
    structured_data() takes them; `hooks` are structured.py's
    (_structured_hooks). RDFa is found in the same walk when `doc` is a
    Document (from the document element)."""
    cdef int wanted = wanted_syntaxes(syntaxes)
    cdef dict output = {}
    cdef bint rdfa_in_walk = (wanted & WANT_RDFA) != 0 and isinstance(doc, _Document)
    cdef tuple scanned = scan_structured_c(
        doc, (wanted & WANT_MICRODATA) != 0, (wanted & WANT_JSON_LD) != 0,
        (wanted & WANT_OPENGRAPH) != 0, rdfa_in_walk, True, base_url)
    cdef list items = scanned[0], texts = scanned[1], heads = scanned[2]
    if wanted & WANT_MICRODATA:
        if scanned[4] or not items:
            output["microdata"] = items
        else:
            output["microdata"] = ExtructMicrodata(doc, base_url, False, True, False,
                                                   items).items()
    if wanted & WANT_JSON_LD:
        output["json-ld"] = json_ld_of(texts, hooks[0]) if texts else []
    if wanted & WANT_OPENGRAPH:
        output["opengraph"] = opengraph_of(heads) if heads else []
    if rdfa_in_walk:
        output["rdfa"] = hooks[1](scanned[3], doc, base_url)
    elif wanted & WANT_RDFA:
        output["rdfa"] = hooks[2](doc, base_url=base_url)
    if wanted & WANT_META:
        output["meta"] = hooks[3](doc)
    return output


# extruct's microdata as structured_data asks for it (nested, not strict,
# without text content) built straight from the scan's lists: no tuple per
# property or item, no proxy, no frame object; the same items in the same
# order as ExtructMicrodata.items() (which serves the other options, and
# itemref: it reads the referenced elements through proxies).

cdef object microdata_of_scan(FoundList* scopes, FoundList* props, object base_url):
    """The items, or None when an item has itemref."""
    cdef size_t count = scopes.count, i
    cdef Py_ssize_t j, scope, top, child
    cdef Py_ssize_t* first = NULL           # per item: its first property, or -1
    cdef Py_ssize_t* last = NULL            # per item: its last one so far
    cdef Py_ssize_t* following = NULL       # per property: the item's next one
    cdef Py_ssize_t* stack = NULL           # the open items ...
    cdef Py_ssize_t* cursor = NULL          # ... and the next property of each
    cdef uint8_t* seen = NULL
    cdef PyObject* names[JSON_STRING_CACHE]
    cdef CElement* element
    cdef CAttr* attr
    cdef size_t k, start, length
    cdef int kind = VALUE_STRING
    cdef PyObject* existing
    cdef list found = [], open_items = [], open_properties = []
    cdef dict joined = {}, properties
    for i in range(count):
        if element_find_attribute(<CElement*> scopes.items[i].node, ATTR_ITEMREF,
                                  NS__UNDEF) != NULL:
            return None
    memset(names, 0, sizeof(names))
    first = <Py_ssize_t*> malloc((count * 4 + props.count + 1) * sizeof(Py_ssize_t))
    seen = <uint8_t*> calloc(count + 1, 1)
    try:
        if first == NULL or seen == NULL:
            raise MemoryError()
        last = first + count
        stack = last + count
        cursor = stack + count
        following = cursor + count
        for i in range(count):
            first[i] = -1
        for j in range(<Py_ssize_t> props.count):
            scope = props.items[j].owner
            following[j] = -1
            if first[scope] < 0:
                first[scope] = j
            else:
                following[last[scope]] = j
            last[scope] = j
        for i in range(count):
            if seen[i]:
                continue
            seen[i] = 1
            found.append(new_item(<CElement*> scopes.items[i].node))
            open_items.append(found[len(found) - 1])
            open_properties.append({})
            stack[0] = <Py_ssize_t> i
            cursor[0] = first[i]
            top = 0
            while top >= 0:
                j = cursor[top]
                if j < 0:
                    properties = open_properties.pop()
                    item = open_items.pop()
                    if properties:
                        item["properties"] = properties
                    else:
                        kind = VALUE_STRING
                        value = property_payload(<CElement*> scopes.items[stack[top]].node,
                                                 &kind)
                        item["value"] = entry_value(kind, value, joined, base_url)
                    top -= 1
                    continue
                cursor[top] = following[j]
                element = <CElement*> props.items[j].node
                child = props.items[j].scope
                if child >= 0:
                    if seen[child]:
                        value = None
                        child = -1
                    else:
                        seen[child] = 1
                        value = new_item(<CElement*> scopes.items[child].node)
                else:
                    kind = VALUE_STRING
                    value = property_payload(element, &kind)
                    value = entry_value(kind, value, joined, base_url)
                # each of itemprop's tokens: a name's only value as it is, a
                # list from its second on (values are never lists themselves)
                properties = <dict> open_properties[top]
                attr = element_find_attribute(element, ATTR_ITEMPROP, NS__UNDEF)
                length = attr.value_length
                k = 0
                while k < length:
                    while k < length and is_ascii_whitespace_byte(attr.value[k]):
                        k += 1
                    start = k
                    while k < length and not is_ascii_whitespace_byte(attr.value[k]):
                        k += 1
                    if k == start:
                        break
                    name = token_str(names, attr.value + start, k - start)
                    existing = PyDict_GetItemWithError(properties, name)
                    if existing == NULL:
                        properties[name] = value
                    elif (<object> existing).__class__ is list:
                        (<list> existing).append(value)
                    else:
                        properties[name] = [<object> existing, value]
                if child >= 0:
                    top += 1
                    stack[top] = child
                    cursor[top] = first[child]
                    open_items.append(value)
                    open_properties.append({})
        return found
    finally:
        free(first)
        free(seen)
        for k in range(JSON_STRING_CACHE):
            Py_XDECREF(names[k])


cdef dict new_item(CElement* element):
    # an item's dict before its properties: its type and id
    cdef dict item = {}
    types = attribute_tokens(element, ATTR_ITEMTYPE)
    if types:
        item["type"] = types[0] if len(types) == 1 else types
        itemid = attribute_str(element, ATTR_ITEMID)
        if itemid:
            item["id"] = itemid.strip()
    return item


cdef str token_str(PyObject** names, const uint8_t* data, size_t length):
    # a token of itemprop: the names of a page repeat (one str each)
    cdef size_t i
    if length <= JSON_SHORT_STRING:
        for i in range(length):
            if data[i] >= 0x80:
                return name_str(data, length)
        return short_ascii_str(names, data, <Py_ssize_t> length)
    return name_str(data, length)
