# Building a Program (selectors.pxd): the parser hands over each selector
# list as Python tuples; ProgramBuilder lays them out in flat arrays and
# copies them into C memory once, at the end.

from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memset


# Attribute names whose values HTML compares ASCII value_case-insensitively on
# HTML elements (https://html.spec.whatwg.org/multipage/semantics-other.html#value_case-sensitivity-of-selectors).
cdef frozenset HTML_CASE_INSENSITIVE_ATTRIBUTES = frozenset([
    u"accept", u"accept-charset", u"align", u"alink", u"axis", u"bgcolor",
    u"charset", u"checked", u"clear", u"codetype", u"color", u"compact",
    u"declare", u"defer", u"dir", u"direction", u"disabled", u"enctype",
    u"face", u"frame", u"hreflang", u"http-equiv", u"lang", u"language",
    u"link", u"media", u"method", u"multiple", u"nohref", u"noresize",
    u"noshade", u"nowrap", u"readonly", u"rel", u"rev", u"rules", u"scope",
    u"scrolling", u"selected", u"shape", u"target", u"text", u"type",
    u"valign", u"valuetype", u"vlink"])

# SimpleSelector.op bit: the attribute is on HTML's list above.
DEF HTML_CASE_INSENSITIVE_NAME = 0x10000


cdef class ProgramBuilder:
    cdef list simples          # tuples (kind, op_, name, ns, strings, count, a, b, list)
    cdef list compounds        # (first, count, combinator)
    cdef list complexes        # (first, count)
    cdef list lists            # (first, count)
    cdef list strings          # bytes
    cdef dict string_index
    cdef list names            # (lower bytes, exact bytes, is_attribute)
    cdef dict name_index
    cdef list namespaces       # bytes
    cdef dict namespace_index
    cdef list name_texts       # lowercased names (for the HTML value_case rule)
    cdef public int has_count
    cdef public bint needs_text
    cdef uint32_t max_compounds

    def __init__(self):
        self.simples = []
        self.compounds = []
        self.complexes = []
        self.lists = []
        self.strings = []
        self.string_index = {}
        self.names = []
        self.name_index = {}
        self.name_texts = []
        self.namespaces = []
        self.namespace_index = {}
        self.has_count = 0
        self.needs_text = False
        self.max_compounds = 0

    cdef uint32_t add_string(self, str value):
        cdef bytes data = value.encode("utf-8", "surrogatepass")
        cdef object index = self.string_index.get(data)
        if index is None:
            index = len(self.strings)
            self.strings.append(data)
            self.string_index[data] = index
        return index

    cdef tuple add_strings(self, list values):
        """(first, count): consecutive entries, one per value."""
        cdef uint32_t first = len(self.strings)
        for value in values:
            self.strings.append((<str> value).encode("utf-8", "surrogatepass"))
        return (first, len(values))

    cdef uint32_t add_name(self, str name, bint attribute):
        cdef tuple key = (name, attribute)
        cdef object index = self.name_index.get(key)
        if index is None:
            index = len(self.names)
            self.names.append((ascii_lower(name).encode("utf-8", "surrogatepass"),
                               name.encode("utf-8", "surrogatepass"), attribute))
            self.name_texts.append(ascii_lower(name))
            self.name_index[key] = index
        return index

    cdef uint32_t add_namespace(self, str uri):
        cdef bytes data = uri.encode("utf-8", "surrogatepass")
        cdef object index = self.namespace_index.get(data)
        if index is None:
            index = len(self.namespaces)
            self.namespaces.append(data)
            self.namespace_index[data] = index
        return index

    cdef tuple simple_fields(self, tuple simple):
        cdef int kind = simple[0]
        cdef uint32_t op_ = 0
        if kind == S_TYPE:
            return (kind, 0, simple[2], simple[1], 0, 0, 0, 0, -1)
        if kind == S_UNIVERSAL:
            return (kind, 0, 0, simple[1], 0, 0, 0, 0, -1)
        if kind == S_ID or kind == S_CLASS:
            return (kind, 0, 0, 0, simple[1], 1, 0, 0, -1)
        if kind == S_ATTRIBUTE:
            op_ = simple[3]
            if self.name_texts[simple[2]] in HTML_CASE_INSENSITIVE_ATTRIBUTES:
                op_ |= HTML_CASE_INSENSITIVE_NAME
            return (kind, op_, simple[2], simple[1],
                    simple[4] if len(simple) > 4 else 0, 1 if len(simple) > 4 else 0,
                    0, 0, -1)
        if kind == S_IS or kind == S_NOT or kind == S_HAS:
            return (kind, 0, 0, 0, 0, 0, 0, 0, simple[1])
        if kind == S_NTH_CHILD or kind == S_NTH_LAST_CHILD or kind == S_NTH_OF_TYPE \
                or kind == S_NTH_LAST_OF_TYPE:
            return (kind, 0, 0, 0, 0, 0, simple[1], simple[2], simple[3])
        if kind == S_LANG or kind == S_CONTAINS or kind == S_CONTAINS_OWN:
            return (kind, 0, 0, 0, simple[1], simple[2], 0, 0, -1)
        if kind == S_DIR:
            return (kind, simple[1], 0, 0, 0, 0, 0, 0, -1)
        return (kind, 0, 0, 0, 0, 0, 0, 0, -1)

    cdef int add_list(self, list complexes) except -1:
        """Lay out a selector list: complexes = [[(combinator, [simple, ...]),
        ...] from the left, ...]. Returns the list index."""
        cdef uint32_t first_complex = len(self.complexes)
        cdef uint32_t first_compound, first_simple
        cdef list parts
        cdef Py_ssize_t j
        cdef tuple simple
        laid_out = []
        for parts in complexes:
            first_compound = len(self.compounds)
            for j in range(len(parts) - 1, -1, -1):
                first_simple = len(self.simples)
                for simple in parts[j][1]:
                    self.simples.append(self.simple_fields(simple))
                self.compounds.append((first_simple, len(parts[j][1]), parts[j][0]))
            laid_out.append((first_compound, len(parts)))
            if len(parts) > self.max_compounds:
                self.max_compounds = len(parts)
        self.complexes.extend(laid_out)
        self.lists.append((first_complex, len(complexes)))
        return len(self.lists) - 1

    cdef Program* build(self, uint32_t root) except NULL:
        cdef Program* p = <Program*> calloc(1, sizeof(Program))
        cdef size_t text_size = 0
        cdef size_t at = 0
        cdef Py_ssize_t i
        cdef bytes data
        if p == NULL:
            raise MemoryError()
        try:
            for data in self.strings:
                text_size += len(data)
            for lower, exact, _ in self.names:
                text_size += len(lower) + len(exact)
            for data in self.namespaces:
                text_size += len(data)
            p.simple_count = len(self.simples)
            p.compound_count = len(self.compounds)
            p.complex_count = len(self.complexes)
            p.list_count = len(self.lists)
            p.string_count = len(self.strings)
            p.name_count = len(self.names)
            p.namespace_count = len(self.namespaces)
            p.simples = <SimpleSelector*> calloc(p.simple_count + 1, sizeof(SimpleSelector))
            p.compounds = <Compound*> calloc(p.compound_count + 1, sizeof(Compound))
            p.complexes = <ComplexSelector*> calloc(p.complex_count + 1, sizeof(ComplexSelector))
            p.lists = <SelectorList*> calloc(p.list_count + 1, sizeof(SelectorList))
            p.strings = <StringRef*> calloc(p.string_count + 1, sizeof(StringRef))
            p.names = <NameSlot*> calloc(p.name_count + 1, sizeof(NameSlot))
            p.namespaces = <StringRef*> calloc(p.namespace_count + 1, sizeof(StringRef))
            p.text = <uint8_t*> malloc(text_size + 1)
            if p.simples == NULL or p.compounds == NULL or p.complexes == NULL \
                    or p.lists == NULL or p.strings == NULL or p.names == NULL \
                    or p.namespaces == NULL or p.text == NULL:
                raise MemoryError()
            for i, s in enumerate(self.simples):
                p.simples[i].kind = s[0]
                p.simples[i].op = s[1]
                p.simples[i].name = s[2]
                p.simples[i].ns = s[3]
                p.simples[i].strings = s[4]
                p.simples[i].string_count = s[5]
                p.simples[i].a = s[6]
                p.simples[i].b = s[7]
                p.simples[i].list = s[8]
            for i, c in enumerate(self.compounds):
                p.compounds[i].first = c[0]
                p.compounds[i].count = c[1]
                p.compounds[i].combinator = c[2]
            for i, c in enumerate(self.complexes):
                p.complexes[i].first = c[0]
                p.complexes[i].count = c[1]
            for i, c in enumerate(self.lists):
                p.lists[i].first = c[0]
                p.lists[i].count = c[1]
            for i, data in enumerate(self.strings):
                p.strings[i].offset = at
                p.strings[i].length = len(data)
                memcpy(p.text + at, <const char*> data, len(data))
                at += len(data)
            for i, (lower, exact, attribute) in enumerate(self.names):
                p.names[i].lower.offset = at
                p.names[i].lower.length = len(lower)
                memcpy(p.text + at, <const char*> lower, len(lower))
                at += len(lower)
                p.names[i].exact.offset = at
                p.names[i].exact.length = len(exact)
                memcpy(p.text + at, <const char*> exact, len(exact))
                at += len(exact)
                p.names[i].is_attribute = attribute
            for i, data in enumerate(self.namespaces):
                p.namespaces[i].offset = at
                p.namespaces[i].length = len(data)
                memcpy(p.text + at, <const char*> data, len(data))
                at += len(data)
            p.root = root
            p.max_compounds = self.max_compounds
            p.has_count = self.has_count
            p.needs_text = self.needs_text
        except BaseException:
            program_free(p)
            raise
        return p


cdef void program_free(Program* p) noexcept nogil:
    if p == NULL:
        return
    free(p.simples)
    free(p.compounds)
    free(p.complexes)
    free(p.lists)
    free(p.strings)
    free(p.names)
    free(p.namespaces)
    free(p.text)
    free(p)
