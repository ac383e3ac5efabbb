# cython: language_level=3
"""The C pass of lexpy.extract's records: the items a compiled selector
matches and, for each, the values of fields ending in ::text or
::attr(name), matched and collected as pointers into the tree without the
GIL; only the strings returned are made (no proxies, unless a field asks
for the item element). records.Extractor drives it."""
import re

cimport cython
from libc.stdint cimport uint8_t, uint32_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy
from cpython.unicode cimport (Py_UNICODE_ISSPACE, PyUnicode_KIND,
                             PyUnicode_FromKindAndData, PyUnicode_1BYTE_KIND,
                             PyUnicode_4BYTE_KIND)
from lexpy.core.core cimport (attr_id_by_name, attr_name_of, tag_id_by_name,
                              lxp_byte_buffer, lxp_byte_buffer_append)
from lexpy.core.names cimport (
    NS__UNDEF, NS_HTML, lxp_attr_id_t, lxp_tag_id_t,
    TAG_A, TAG_AREA, TAG_AUDIO, TAG_BODY, TAG_DATA, TAG_EMBED, TAG_HEAD, TAG_HTML, TAG_IFRAME, TAG_IMG,
    TAG_LINK, TAG_META, TAG_METER, TAG_OBJECT, TAG_SCRIPT, TAG_SOURCE, TAG_TIME, TAG_TRACK,
    TAG_VIDEO, TAG_ARTICLE, TAG_ASIDE, TAG_BR, TAG_DD, TAG_DETAILS, TAG_DIV, TAG_DT, TAG_FIELDSET,
    TAG_FIGCAPTION, TAG_FOOTER, TAG_FORM, TAG_HEADER, TAG_HR, TAG_LEGEND, TAG_LI, TAG_MAIN,
    TAG_NAV, TAG_TABLE, TAG_TR, TAG_BLOCKQUOTE, TAG_DL, TAG_FIGURE, TAG_H1, TAG_H2, TAG_H3,
    TAG_H4, TAG_H5, TAG_H6, TAG_OL, TAG_P, TAG_PRE, TAG_TITLE, TAG_UL, TAG_STYLE, ATTR_CONTENT, ATTR_DATA, ATTR_DATETIME, ATTR_HREF, ATTR_ID, ATTR_ITEMID, ATTR_ITEMPROP,
    ATTR_ITEMREF, ATTR_ITEMSCOPE, ATTR_ITEMTYPE, ATTR_NAME, ATTR_REQUIRED, ATTR_SRC, ATTR_TYPE,
    ATTR_VALUE, ATTR__LAST_STATIC)
from lexpy.dom.dom cimport (Node, CNode, CDocument, CElement, CAttr, CCharacterData,
                            is_ascii_whitespace_byte, bytes_equal, ELEMENT_NODE, TEXT_NODE, DOCUMENT_NODE, DOCUMENT_FRAGMENT_NODE,
                            element_find_attribute, next_in_tree, next_element_in_tree,
                            next_walk_event,
                            node_proxy,
                            utf8_measure, measured_utf8_str)
from lexpy.selectors.selectors cimport (Selector, Program, select_nodes, select_context_new,
                                        select_nodes_in, select_matches_in, select_context_free)

DEF FIELD_TEXT = 1
DEF FIELD_ATTRIBUTE = 2


cdef struct Value:
    const uint8_t* data
    size_t length


cdef struct Values:
    Value* items
    size_t count
    size_t capacity


# Room for one more item in a growable array (`items[0]`, `capacity[0]`
# items of `size` bytes, `count` used), doubling from `first`: the one
# growth step of this module's arrays. 0, or -1 when out of memory.
cdef int room_for_one(void** items, size_t* capacity, size_t count, size_t size,
                      size_t first) noexcept nogil:
    cdef size_t grown_capacity
    cdef void* grown
    if count < capacity[0]:
        return 0
    grown_capacity = capacity[0] * 2 if capacity[0] else first
    grown = realloc(items[0], grown_capacity * size)
    if grown == NULL:
        return -1
    items[0] = grown
    capacity[0] = grown_capacity
    return 0


cdef int values_push(Values* values, const uint8_t* data, size_t length) noexcept nogil:
    if room_for_one(<void**> &values.items, &values.capacity, values.count, sizeof(Value),
                    256) != 0:
        return -1
    values.items[values.count].data = data
    values.items[values.count].length = length
    values.count += 1
    return 0


cdef struct FieldSpec:
    void* program                 # the Program of the field's selector, or NULL
    int kind                      # FIELD_TEXT / FIELD_ATTRIBUTE
    const uint8_t* name           # the attribute's name (lowercase UTF-8)
    size_t name_length
    bint descendants              # "a ::text": the element and its descendants
    bint all_values               # [selector]: every value, else the first
    const uint8_t* subject        # the type its subject must have (lowercase and
    size_t subject_length         # as written: an element of neither name cannot
    const uint8_t* subject_exact  # match), or NULL


cdef class CompiledFields:
    """Fields for the C pass: each (selector or None, kind, attribute name,
    descendants, all values)."""
    cdef list selectors           # keeps the Selectors (and their programs) alive
    cdef list names
    cdef FieldSpec* specs
    cdef Py_ssize_t count

    def __cinit__(self, list fields):
        cdef Py_ssize_t i
        self.count = len(fields)
        self.specs = <FieldSpec*> malloc((self.count + 1) * sizeof(FieldSpec))
        if self.specs == NULL:
            raise MemoryError()
        self.selectors = []
        self.names = []
        for i, (selector, kind, name, descendants, all_values) in enumerate(fields):
            self.selectors.append(selector)
            encoded = (name or "").lower().encode("utf-8")
            self.names.append(encoded)
            subject = subject_type(selector)
            self.specs[i].subject = NULL
            self.specs[i].subject_exact = NULL
            self.specs[i].subject_length = 0
            if subject is not None:
                lower = subject.lower().encode("utf-8")
                exact = subject.encode("utf-8")
                self.names.append(lower)
                self.names.append(exact)
                self.specs[i].subject = <const uint8_t*> (<bytes> lower)
                self.specs[i].subject_exact = <const uint8_t*> (<bytes> exact)
                self.specs[i].subject_length = len(lower)
            self.specs[i].program = (<Selector> selector).program if selector is not None \
                else NULL
            self.specs[i].kind = kind
            self.specs[i].name = <const uint8_t*> (<bytes> encoded)
            self.specs[i].name_length = len(encoded)
            self.specs[i].descendants = descendants
            self.specs[i].all_values = all_values

    def __init__(self, list fields):
        pass                      # (made by __cinit__)

    def __dealloc__(self):
        free(self.specs)


# A selector of one complex selector whose subject compound starts with a
# type selector: the type (the other simple selectors and the compounds on
# the left only narrow what it matches). Written conservatively: selectors
# with anything but names, classes, IDs, attribute selectors and
# combinators (or with a backslash anywhere) give None.
_PLAIN_SELECTOR = re.compile(r"[A-Za-z0-9_\-.#*\s>+~]+")
_SUBJECT_TYPE = re.compile(r"([A-Za-z][A-Za-z0-9_\-]*)(?:[.#][^\s>+~]*)?")
# An attribute selector (its value quoted or not): like a class, it only
# narrows its compound, so it is read as one (".a").
_ATTRIBUTE_SELECTOR = re.compile(r"""\[(?:[^\]"']|"[^"]*"|'[^']*')*\]""")


cdef object subject_type(object selector):
    if selector is None:
        return None
    source = (<Selector> selector).source
    if source is None or "\\" in source:
        return None
    if "[" in source:
        source = _ATTRIBUTE_SELECTOR.sub(".a", source)
    if _PLAIN_SELECTOR.fullmatch(source) is None:
        return None
    compounds = re.split(r"[\s>+~]+", source.strip())
    found = _SUBJECT_TYPE.fullmatch(compounds[len(compounds) - 1])   # (no wraparound)
    return found.group(1) if found is not None else None


cdef int first_target(FieldSpec* spec, void* context, CNode* item, lxp_tag_id_t lower,
                      lxp_tag_id_t exact, CNode** found) noexcept nogil:
    """The first element below `item` that the field's selector matches
    (select_nodes_in's first), trying only elements of the subject's type
    when it has one. 0, or -1 when out of memory."""
    cdef CNode* node = next_element_in_tree(item, item)
    cdef lxp_tag_id_t tag
    cdef int matched
    found[0] = NULL
    while node != NULL:
        tag = (<CElement*> node).tag_id
        if spec.subject == NULL or tag == lower or tag == exact:
            matched = select_matches_in(context, item, node)
            if matched < 0:
                return -1
            if matched:
                found[0] = node
                return 0
        node = next_element_in_tree(node, item)
    return 0


cdef bint inside(CNode* node, CNode* root) noexcept nogil:
    while node != NULL:
        if node == root:
            return True
        node = node.parent
    return False


cdef int target_values(FieldSpec* spec, lxp_attr_id_t attribute, CNode* target,
                       Values* out) noexcept nogil:
    cdef CNode* node
    cdef CAttr* attr
    cdef CCharacterData* text
    if spec.kind == FIELD_TEXT:
        if spec.descendants:
            node = next_in_tree(target, target)
        else:
            node = target.first_child
        while node != NULL:
            if node.type == TEXT_NODE:
                text = <CCharacterData*> node
                if values_push(out, text.data, text.length) != 0:
                    return -1
            node = next_in_tree(node, target) if spec.descendants else node.next
        return 0
    if spec.descendants:
        node = target
        while node != NULL:
            if node.type == ELEMENT_NODE and attribute != 0:
                attr = element_find_attribute(<CElement*> node, attribute, NS__UNDEF)
                if attr != NULL and values_push(out, attr.value, attr.value_length) != 0:
                    return -1
            node = next_in_tree(node, target)
        return 0
    if target.type == ELEMENT_NODE and attribute != 0:
        attr = element_find_attribute(<CElement*> target, attribute, NS__UNDEF)
        if attr != NULL:
            return values_push(out, attr.value, attr.value_length)
    return 0


cdef int field_values(FieldSpec* spec, lxp_attr_id_t attribute, void* context, CNode* item,
                      lxp_tag_id_t lower, lxp_tag_id_t exact, Values* out) noexcept nogil:
    """The values of one field of one item, appended to `out`. A field
    that wants its first value tries the first match alone, and selects
    every match only when that one has no value."""
    cdef CNode** targets = NULL
    cdef CNode* single[1]
    cdef size_t count = 0
    cdef size_t i
    cdef size_t start = out.count
    cdef CNode* last_root = NULL
    cdef int status = 0
    if spec.program == NULL:
        single[0] = item
        targets = single
        count = 1
    elif not spec.all_values:
        if first_target(spec, context, item, lower, exact, &single[0]) != 0:
            return -1
        if single[0] != NULL:
            status = target_values(spec, attribute, single[0], out)
            if status != 0 or out.count > start:
                if out.count > start:
                    out.count = start + 1
                return status
        targets = NULL
        count = 0
        if select_nodes_in(context, item, False, &targets, &count) != 0:
            return -1
    elif select_nodes_in(context, item, False, &targets, &count) != 0:
        return -1
    for i in range(count):
        if spec.descendants:
            if last_root != NULL and inside(targets[i], last_root):
                continue
            last_root = targets[i]
        if target_values(spec, attribute, targets[i], out) != 0:
            status = -1
            break
        if not spec.all_values and out.count > start:
            out.count = start + 1
            break
    return status


cdef extern from "Python.h":
    str PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void* PyUnicode_DATA(object o)


cdef str value_str(Value* value):
    cdef size_t code_points, i
    cdef uint32_t max_char
    cdef str text
    if value.length <= 64:
        # a short ASCII value (names, tokens, URLs) copied as it is
        i = 0
        while i < value.length and value.data[i] < 0x80:
            i += 1
        if i == value.length:
            text = PyUnicode_New(<Py_ssize_t> value.length, 127)
            memcpy(PyUnicode_DATA(text), value.data, value.length)
            return text
    utf8_measure(value.data, value.length, &code_points, &max_char)
    return measured_utf8_str(value.data, value.length, code_points, max_char, False)


def selector_subject_type(Selector selector not None):
    """The type a selector's matches must have (see subject_type), or None."""
    return subject_type(selector)


cdef int items_of_type(Program* program, CDocument* doc, CNode* root, lxp_tag_id_t lower,
                       lxp_tag_id_t exact, CNode*** items, size_t* count) noexcept nogil:
    """select_nodes for a selector whose matches have one type: the
    elements of that type are the only ones tried."""
    cdef void* context = select_context_new(program, doc)
    cdef CNode* node
    cdef size_t capacity = 0
    cdef int matched
    items[0] = NULL
    count[0] = 0
    if context == NULL:
        return -1
    node = next_element_in_tree(root, root)
    while node != NULL:
        if (<CElement*> node).tag_id == lower or (<CElement*> node).tag_id == exact:
            matched = select_matches_in(context, root, node)
            if matched < 0:
                select_context_free(context)
                return -1
            if matched:
                if room_for_one(<void**> items, &capacity, count[0], sizeof(CNode*), 64) != 0:
                    select_context_free(context)
                    return -1
                items[0][count[0]] = node
                count[0] += 1
        node = next_element_in_tree(node, root)
    select_context_free(context)
    return 0


def extract_values(Node root not None, Selector items not None, CompiledFields fields not None,
                   bint want_items, list names=None, str item_type=None):
    """(the item elements or None, one list per item of one entry per
    field: the first value or None, or the list of values); with `names`
    (one per field) each item's entries come as a dict of them instead;
    `item_type` is selector_subject_type(items), when it has one."""
    cdef bytes item_lower = None, item_exact = None
    cdef const uint8_t* item_lower_p = NULL
    cdef const uint8_t* item_exact_p = NULL
    cdef size_t item_length = 0
    cdef lxp_tag_id_t item_lower_id = 0, item_exact_id = 0
    cdef CNode* c_root = root.c_node
    cdef CDocument* doc
    cdef CNode** item_nodes = NULL
    cdef size_t item_count = 0
    cdef size_t* bounds = NULL          # per (item, field): end of its values
    cdef Values values
    cdef size_t i, start, end, k
    cdef Py_ssize_t f
    cdef int status = 0
    cdef FieldSpec* spec
    cdef list rows, row, found
    cdef list proxies = None
    # The fields' attribute ids in this document (0: no element has it), per
    # call: a compiled extractor is shared by threads over other documents.
    cdef lxp_attr_id_t* attribute_ids = NULL
    # each field's selector bound to this document once (its names' ids),
    # for every item
    cdef void** contexts = NULL
    # each field's subject type's ids in this document (lowercase, as written)
    cdef lxp_tag_id_t* subject_ids = NULL
    cdef dict record
    if names is not None and len(names) != fields.count:
        raise ValueError("one name per field")
    if c_root == NULL:
        raise ValueError("this node belongs to no document")
    if c_root.type != ELEMENT_NODE and c_root.type != DOCUMENT_NODE \
            and c_root.type != DOCUMENT_FRAGMENT_NODE:
        raise TypeError("node must be a Document, DocumentFragment or Element")
    doc = c_root.owner
    values.items = NULL
    values.count = 0
    values.capacity = 0
    attribute_ids = <lxp_attr_id_t*> malloc((fields.count + 1) * sizeof(lxp_attr_id_t))
    contexts = <void**> calloc(fields.count + 1, sizeof(void*))
    subject_ids = <lxp_tag_id_t*> calloc(2 * fields.count + 1, sizeof(lxp_tag_id_t))
    if attribute_ids == NULL or contexts == NULL or subject_ids == NULL:
        free(attribute_ids)
        free(contexts)
        free(subject_ids)
        raise MemoryError()
    if item_type is not None:
        item_lower = item_type.lower().encode("utf-8")
        item_exact = item_type.encode("utf-8")
        item_lower_p = <const uint8_t*> item_lower
        item_exact_p = <const uint8_t*> item_exact
        item_length = len(item_lower)
    doc.readers += 1
    with nogil:
        for f in range(fields.count):
            spec = &fields.specs[f]
            attribute_ids[f] = 0
            if spec.kind == FIELD_ATTRIBUTE:
                attribute_ids[f] = attr_id_by_name(doc.attr_names, spec.name,
                                                   spec.name_length, False)
            if spec.subject != NULL:
                subject_ids[2 * f] = tag_id_by_name(doc.tag_names, spec.subject,
                                                    spec.subject_length, False)
                subject_ids[2 * f + 1] = tag_id_by_name(doc.tag_names, spec.subject_exact,
                                                        spec.subject_length, False)
        if item_lower_p != NULL:
            item_lower_id = tag_id_by_name(doc.tag_names, item_lower_p, item_length, False)
            item_exact_id = tag_id_by_name(doc.tag_names, item_exact_p, item_length, False)
            status = items_of_type(items.program, doc, c_root, item_lower_id, item_exact_id,
                                   &item_nodes, &item_count)
        else:
            status = select_nodes(items.program, doc, c_root, False, &item_nodes, &item_count)
        if status == 0 and item_count:
            bounds = <size_t*> malloc(item_count * fields.count * sizeof(size_t) + 1)
            if bounds == NULL:
                status = -1
            for f in range(fields.count):
                if status == 0 and fields.specs[f].program != NULL:
                    contexts[f] = select_context_new(<Program*> fields.specs[f].program, doc)
                    if contexts[f] == NULL:
                        status = -1
        if status == 0:
            for i in range(item_count):
                for f in range(fields.count):
                    if field_values(&fields.specs[f], attribute_ids[f], contexts[f],
                                    item_nodes[i], subject_ids[2 * f], subject_ids[2 * f + 1],
                                    &values) != 0:
                        status = -1
                        break
                    bounds[i * fields.count + f] = values.count
                if status != 0:
                    break
    try:
        if status != 0:
            raise MemoryError()
        rows = []
        start = 0
        for i in range(item_count):
            if names is not None:
                record = {}
                for f in range(fields.count):
                    end = bounds[i * fields.count + f]
                    if fields.specs[f].all_values:
                        record[names[f]] = [value_str(&values.items[k])
                                            for k in range(start, end)]
                    else:
                        record[names[f]] = value_str(&values.items[start]) \
                            if end > start else None
                    start = end
                rows.append(record)
                continue
            row = []
            for f in range(fields.count):
                end = bounds[i * fields.count + f]
                if fields.specs[f].all_values:
                    found = [value_str(&values.items[k]) for k in range(start, end)]
                    row.append(found)
                else:
                    row.append(value_str(&values.items[start]) if end > start else None)
                start = end
            rows.append(row)
        if want_items:
            proxies = [node_proxy(item_nodes[i]) for i in range(item_count)]
        return proxies, rows
    finally:
        doc.readers -= 1
        for f in range(fields.count):
            select_context_free(contexts[f])
        free(contexts)
        free(subject_ids)
        free(item_nodes)
        free(attribute_ids)
        free(bounds)
        free(values.items)


# ---------------------------------------------------------------------------
# The structured data's candidates in one walk (structured.py drives it):
# the items (itemscope) with their property elements (itemprop, owned by
# the nearest item around them), the JSON-LD scripts and the heads with
# their OpenGraph meta children, found without the GIL; proxies only for
# the items (a property whose value is its text gets that text from the
# element, without a proxy).

DEF VALUE_STRING = 0              # payload: the string
DEF VALUE_URL = 1                 # payload: the attribute as written
DEF VALUE_ITEM = 2                # payload: the index of the item
DEF VALUE_ACTION = 3              # payload: (required, name or None)


cdef struct Found:
    CNode* node
    Py_ssize_t owner              # properties: the index of their item
    Py_ssize_t scope              # properties that are items: their index


cdef struct FoundList:
    Found* items
    size_t count
    size_t capacity


cdef int found_push(FoundList* found, CNode* node, Py_ssize_t owner,
                    Py_ssize_t scope) noexcept nogil:
    if room_for_one(<void**> &found.items, &found.capacity, found.count, sizeof(Found),
                    32) != 0:
        return -1
    found.items[found.count].node = node
    found.items[found.count].owner = owner
    found.items[found.count].scope = scope
    found.count += 1
    return 0


cdef bint is_ld_json(CElement* element) noexcept nogil:
    # the type as consumers read it: ASCII case-insensitive, trimmed
    cdef CAttr* attr = element_find_attribute(element, ATTR_TYPE, NS__UNDEF)
    cdef size_t start = 0
    cdef size_t end
    if attr == NULL:
        return False
    end = attr.value_length
    while start < end and is_ascii_whitespace_byte(attr.value[start]):
        start += 1
    while end > start and is_ascii_whitespace_byte(attr.value[end - 1]):
        end -= 1
    return end - start == 19 and bytes_equal(attr.value + start,
                                             <const uint8_t*> b"application/ld+json", 19, True)


# The RDFa attributes (https://www.w3.org/TR/rdfa-core/#s_syntax) of a
# document, as ids in its name tables (0: no element has it); the first
# five make triples (rdfa.py's _MAKERS).
DEF RDFA_NAMES = 14
DEF RDFA_MAKERS = 5
DEF RDFA_REL = 2
DEF RDFA_REV = 3
DEF RDFA_PROPERTY = 1
DEF RDFA_CONTENT = 12
_RDFA_NAMES = ("typeof", "property", "rel", "rev", "vocab", "prefix", "xml:lang", "lang",
               "about", "resource", "href", "src", "content", "datatype")


cdef struct RdfaIds:
    lxp_attr_id_t ids[RDFA_NAMES]


cdef void rdfa_ids_of(CDocument* doc, RdfaIds* out):
    cdef Py_ssize_t k
    cdef bytes name
    for k in range(RDFA_NAMES):
        name = _RDFA_NAMES[k].encode("ascii")
        out.ids[k] = attr_id_by_name(doc.attr_names, <const uint8_t*> name, len(name), False)


cdef inline bint rdfa_has(CElement* element, RdfaIds* rdfa, int k) noexcept nogil:
    return rdfa.ids[k] != 0 and element_find_attribute(element, rdfa.ids[k],
                                                       NS__UNDEF) != NULL


cdef struct OpenElement:
    CNode* node
    bint rel                      # RDFa: it has rel or rev
    bint bare                     # once found: it changes nothing (rdfa_bare)
    Py_ssize_t level              # once found: its depth among those that do


cdef bint rdfa_bare(CDocument* doc, CElement* element, RdfaIds* rdfa) noexcept nogil:
    """Whether an element below the first has no attribute the RDFa
    sequence reads and is no HTML head or body: the sequence then gives
    no triple and hands its children the context it got (rdfa.py's
    element(): no subject of its own, so "skip element" is set), so the
    walk leaves it out (its children count their depth without it)."""
    cdef uint32_t a
    cdef CAttr* attr
    cdef size_t k, length = 0
    cdef const uint8_t* name
    if element.ns == NS_HTML and (element.tag_id == TAG_HEAD or element.tag_id == TAG_BODY):
        return False
    for a in range(element.attr_count):
        attr = &element.attrs[a]
        if attr.prefix != 0:
            return False              # xmlns:, xml:lang (and, to be safe, any other)
        for k in range(RDFA_NAMES):
            if rdfa.ids[k] != 0 and attr.local_name == rdfa.ids[k]:
                return False
        if attr.local_name >= ATTR__LAST_STATIC:
            name = attr_name_of(doc.attr_names, attr.local_name, &length)
            if name != NULL and length >= 6 and bytes_equal(
                    name, <const uint8_t*> b"xmlns:", 6, False):
                return False
    return True


cdef int scan_tree(CNode* root, bint microdata, bint json_ld, bint opengraph,
                   RdfaIds* rdfa, FoundList* scopes, FoundList* props, FoundList* scripts,
                   FoundList* heads, FoundList* rdfa_found) noexcept nogil:
    """One walk in tree order from `root` (itself included): the items, the
    property elements with the item that owns them (the nearest item around
    them: an item's property walk does not go into a nested item), the
    ld+json scripts, the HTML heads and, when `rdfa` is given, the elements
    the RDFa processing sequence visits (rdfa.py): those with an attribute
    that makes triples, those below an element with rel or rev, and the
    elements around them but those that change nothing (rdfa_bare), each
    with its depth among them (0: the first element) as
    its owner. Explicit stacks of the open items and of the open elements
    (any depth). 0, or -1 when out of memory."""
    cdef CNode* node = root
    cdef CElement* element
    cdef CAttr* attr
    cdef Py_ssize_t* open_items = NULL      # indices into scopes
    cdef size_t open_count = 0
    cdef size_t open_capacity = 0
    cdef OpenElement* path = NULL           # RDFa: the open elements
    cdef size_t depth = 0
    cdef size_t path_capacity = 0
    cdef size_t emitted = 0                 # the open elements already found
    cdef size_t rel_open = 0                # the open elements with rel or rev
    cdef size_t k
    cdef uint32_t a
    cdef bint maker, has_scope, has_prop
    cdef Py_ssize_t scope
    cdef int status = 0
    # (pre-order: a node is entered once; an element is left when the walk
    # climbs past it, its subtree done. A Text node costs a type test and
    # a step.)
    while True:
        if node.type == ELEMENT_NODE:
            element = <CElement*> node
            if microdata and element.attr_count:
                # (itemscope and itemprop in one pass over the attributes)
                has_scope = has_prop = False
                for a in range(element.attr_count):
                    attr = &element.attrs[a]
                    if attr.ns == NS__UNDEF:
                        if attr.local_name == ATTR_ITEMSCOPE:
                            has_scope = True
                        elif attr.local_name == ATTR_ITEMPROP:
                            has_prop = True
                scope = -1
                if has_scope:
                    scope = <Py_ssize_t> scopes.count
                    if found_push(scopes, node, -1, scope) != 0:
                        status = -1
                        break
                if open_count and has_prop:
                    if found_push(props, node, open_items[open_count - 1], scope) != 0:
                        status = -1
                        break
                if has_scope:
                    if room_for_one(<void**> &open_items, &open_capacity, open_count,
                                    sizeof(Py_ssize_t), 16) != 0:
                        status = -1
                        break
                    open_items[open_count] = scope
                    open_count += 1
            if element.ns == NS_HTML:
                if json_ld and element.tag_id == TAG_SCRIPT and is_ld_json(element):
                    if found_push(scripts, node, -1, -1) != 0:
                        status = -1
                        break
                elif opengraph and element.tag_id == TAG_HEAD:
                    if found_push(heads, node, -1, -1) != 0:
                        status = -1
                        break
            if rdfa != NULL:
                if room_for_one(<void**> &path, &path_capacity, depth, sizeof(OpenElement),
                                64) != 0:
                    status = -1
                    break
                maker = rel_open > 0
                k = 0
                while not maker and k < RDFA_MAKERS:
                    maker = rdfa_has(element, rdfa, <int> k)
                    k += 1
                path[depth].node = node
                path[depth].rel = rdfa_has(element, rdfa, RDFA_REL) \
                    or rdfa_has(element, rdfa, RDFA_REV)
                if path[depth].rel:
                    rel_open += 1
                depth += 1
                if maker:
                    # it and the elements around it not found yet, in tree order
                    while emitted < depth:
                        path[emitted].bare = emitted > 0 and rdfa_bare(
                            root.owner if root.type != DOCUMENT_NODE else <CDocument*> root,
                            <CElement*> path[emitted].node, rdfa)
                        path[emitted].level = 0 if emitted == 0 else \
                            path[emitted - 1].level + (0 if path[emitted - 1].bare else 1)
                        if not path[emitted].bare and found_push(
                                rdfa_found, path[emitted].node, path[emitted].level, -1) != 0:
                            status = -1
                            break
                        emitted += 1
                    if status != 0:
                        break
        if node.first_child != NULL:
            node = node.first_child
            continue
        # a leaf: left, then each ancestor whose last child is left, up to
        # the next sibling
        while True:
            if (open_count or depth) and node.type == ELEMENT_NODE:
                if open_count and scopes.items[open_items[open_count - 1]].node == node:
                    open_count -= 1
                if depth and path[depth - 1].node == node:
                    depth -= 1
                    if path[depth].rel:
                        rel_open -= 1
                    if emitted > depth:
                        emitted = depth
            if node == root:
                node = NULL
                break
            if node.next != NULL:
                node = node.next
                break
            node = node.parent
        if node == NULL:
            break
    free(open_items)
    free(path)
    return status


cdef object attribute_str(CElement* element, lxp_attr_id_t name):
    cdef CAttr* attr = element_find_attribute(element, name, NS__UNDEF)
    cdef Value value
    if attr == NULL:
        return None
    value.data = attr.value
    value.length = attr.value_length
    return value_str(&value)


cdef list attribute_tokens(CElement* element, lxp_attr_id_t name):
    """The value of the attribute `name` split on ASCII whitespace
    (https://infra.spec.whatwg.org/#split-on-ascii-whitespace), split over
    its UTF-8 (ASCII bytes are never part of a longer sequence); [] when
    the element has no such attribute."""
    cdef CAttr* attr = element_find_attribute(element, name, NS__UNDEF)
    cdef list tokens = []
    cdef size_t i = 0, start, length
    if attr == NULL:
        return tokens
    length = attr.value_length
    while i < length:
        while i < length and is_ascii_whitespace_byte(attr.value[i]):
            i += 1
        start = i
        while i < length and not is_ascii_whitespace_byte(attr.value[i]):
            i += 1
        if i > start:
            tokens.append(name_str(attr.value + start, i - start))
    return tokens


cdef bint attribute_ends_with(CAttr* attr, const char* suffix, size_t length) noexcept nogil:
    return attr != NULL and attr.value_length >= length and bytes_equal(
        attr.value + attr.value_length - length, <const uint8_t*> suffix, length, False)


cdef tuple property_entry(CElement* element, Py_ssize_t scope):
    """(itemprop's tokens, kind, payload): the value of a property element
    as extruct's microdata reads it (ExtructMicrodata.value)."""
    cdef int kind = VALUE_ITEM
    itemprop = attribute_tokens(element, ATTR_ITEMPROP)
    if scope >= 0:
        return itemprop, VALUE_ITEM, scope
    payload = property_payload(element, &kind)
    return itemprop, kind, payload


cdef object property_payload(CElement* element, int* kind):
    """The payload of the value of a property element that is no item (or
    of an item's own value) as extruct reads it, its kind in kind[0]."""
    cdef lxp_tag_id_t tag = element.tag_id
    cdef CAttr* attr
    kind[0] = VALUE_STRING
    if tag == TAG_META:
        return attribute_str(element, ATTR_CONTENT) or ""
    if tag == TAG_AUDIO or tag == TAG_EMBED or tag == TAG_IFRAME or tag == TAG_IMG \
            or tag == TAG_SOURCE or tag == TAG_TRACK or tag == TAG_VIDEO:
        kind[0] = VALUE_URL
        return attribute_str(element, ATTR_SRC) or ""
    if tag == TAG_A or tag == TAG_AREA or tag == TAG_LINK:
        kind[0] = VALUE_URL
        return attribute_str(element, ATTR_HREF) or ""
    if tag == TAG_OBJECT:
        kind[0] = VALUE_URL
        return attribute_str(element, ATTR_DATA) or ""
    if tag == TAG_DATA or tag == TAG_METER:
        return attribute_str(element, ATTR_VALUE) or ""
    if tag == TAG_TIME:
        return attribute_str(element, ATTR_DATETIME) or ""
    attr = element_find_attribute(element, ATTR_CONTENT, NS__UNDEF)
    if attr != NULL and attr.value_length:
        return attribute_str(element, ATTR_CONTENT)
    attr = element_find_attribute(element, ATTR_ITEMPROP, NS__UNDEF)
    if attribute_ends_with(attr, "-input", 6) or attribute_ends_with(attr, "-output", 7):
        kind[0] = VALUE_ACTION
        return (element_find_attribute(element, ATTR_REQUIRED, NS__UNDEF) != NULL,
                attribute_str(element, ATTR_NAME))
    return node_html_text(<CNode*> element)


def elements_by_id(Node node not None, set wanted not None):
    """{ID: the first element in tree order with that ID} for the IDs of
    `wanted`, in the tree of `node` (from its top): one walk in C, a str
    made only for the elements that have an ID."""
    cdef CNode* top = node.c_node
    cdef CNode* current
    cdef CAttr* attr
    cdef Value value
    cdef dict found = {}
    if top == NULL:
        raise ValueError("this node belongs to no document")
    while top.parent != NULL:
        top = top.parent
    if not wanted:
        return found
    current = top if top.type == ELEMENT_NODE else next_element_in_tree(top, top)
    while current != NULL:
        attr = element_find_attribute(<CElement*> current, ATTR_ID, NS__UNDEF)
        if attr != NULL and attr.value_length:
            value.data = attr.value
            value.length = attr.value_length
            key = value_str(&value)
            if key in wanted and key not in found:
                found[key] = node_proxy(current)
        current = next_element_in_tree(current, top)
    return found


def referenced_properties(Node referenced not None):
    """(itemprop's tokens, kind, payload) of the property elements an itemref to
    `referenced` brings in, in tree order, as extruct takes them: itself
    when it has itemprop and itemscope; else it and its descendants with
    itemprop that no item between them and it holds (an item's own
    properties stay its). An item's payload is its element."""
    cdef CNode* root = referenced.c_node
    cdef CNode* node
    cdef CElement* element
    cdef list found = []
    cdef bint entering = True
    if root == NULL or root.type != ELEMENT_NODE:
        return found
    element = <CElement*> root
    if element_find_attribute(element, ATTR_ITEMPROP, NS__UNDEF) != NULL \
            and element_find_attribute(element, ATTR_ITEMSCOPE, NS__UNDEF) != NULL:
        return [item_entry(element)]
    node = root
    while node != NULL:
        if entering and node.type == ELEMENT_NODE:
            element = <CElement*> node
            if node != root and element_find_attribute(element, ATTR_ITEMSCOPE,
                                                       NS__UNDEF) != NULL:
                if element_find_attribute(element, ATTR_ITEMPROP, NS__UNDEF) != NULL:
                    found.append(item_entry(element))
                entering = False      # on past it: an item's descendants are its own
            elif element_find_attribute(element, ATTR_ITEMPROP, NS__UNDEF) != NULL:
                found.append(property_entry(element, -1))
        node = next_walk_event(node, root, &entering)
    return found


cdef tuple item_entry(CElement* element):
    return attribute_tokens(element, ATTR_ITEMPROP), VALUE_ITEM, node_proxy(<CNode*> element)


cdef list opengraph_pairs(CNode* head, lxp_attr_id_t property_id):
    """[property, content] of the HTML meta children of `head` that have
    both."""
    cdef list pairs = []
    cdef CNode* child = head.first_child
    cdef CElement* element
    while child != NULL:
        if child.type == ELEMENT_NODE:
            element = <CElement*> child
            if element.ns == NS_HTML and element.tag_id == TAG_META and property_id != 0 \
                    and element_find_attribute(element, property_id, NS__UNDEF) != NULL \
                    and element_find_attribute(element, ATTR_CONTENT, NS__UNDEF) != NULL:
                pairs.append((attribute_str(element, property_id),
                              attribute_str(element, ATTR_CONTENT)))
        child = child.next
    return pairs


cdef object script_text(CNode* script):
    # the descendant text content (https://dom.spec.whatwg.org/#concept-descendant-text-content)
    cdef CNode* node = next_in_tree(script, script)
    cdef list parts = []
    cdef Value value
    while node != NULL:
        if node.type == TEXT_NODE:
            value.data = (<CCharacterData*> node).data
            value.length = (<CCharacterData*> node).length
            parts.append(value_str(&value))
        node = next_in_tree(node, script)
    return parts[0] if len(parts) == 1 else "".join(parts)


cdef str name_str(const uint8_t* data, size_t length):
    cdef Value value
    value.data = data
    value.length = length
    return value_str(&value)


cdef tuple rdfa_entry(CDocument* doc, CElement* element, Py_ssize_t depth, RdfaIds* rdfa):
    """(depth, {RDFa attribute: value}, [(prefix, IRI) of its xmlns:
    attributes], whether it is an HTML head or body, its descendant text
    content when it has property, else None) of an element the RDFa
    sequence visits. Names as get_attribute reads them (qualified)."""
    cdef dict attrs = {}
    cdef list xmlns = []
    cdef uint32_t a
    cdef CAttr* attr
    cdef Py_ssize_t k
    cdef size_t length = 0, prefix_length = 0
    cdef const uint8_t* name
    cdef const uint8_t* prefix
    cdef Value value
    for a in range(element.attr_count):
        attr = &element.attrs[a]
        value.data = attr.value
        value.length = attr.value_length
        if attr.prefix == 0:
            for k in range(RDFA_NAMES):
                if rdfa.ids[k] != 0 and attr.local_name == rdfa.ids[k]:
                    if _RDFA_NAMES[k] not in attrs:
                        attrs[_RDFA_NAMES[k]] = value_str(&value)
                    break
            else:
                name = attr_name_of(doc.attr_names, attr.local_name, &length)
                if name != NULL and length >= 6 and bytes_equal(
                        name, <const uint8_t*> b"xmlns:", 6, False):
                    xmlns.append((name_str(name + 6, length - 6), value_str(&value)))
            continue
        prefix = attr_name_of(doc.attr_names, attr.prefix, &prefix_length)
        name = attr_name_of(doc.attr_names, attr.local_name, &length)
        if prefix == NULL or name == NULL:
            continue
        if prefix_length == 5 and bytes_equal(prefix, <const uint8_t*> b"xmlns", 5, False):
            xmlns.append((name_str(name, length), value_str(&value)))
        elif prefix_length == 3 and bytes_equal(prefix, <const uint8_t*> b"xml", 3, False) \
                and length == 4 and bytes_equal(name, <const uint8_t*> b"lang", 4, False) \
                and "xml:lang" not in attrs:
            attrs["xml:lang"] = value_str(&value)
    return (depth, attrs, xmlns,
            element.ns == NS_HTML and (element.tag_id == TAG_HEAD or element.tag_id == TAG_BODY),
            script_text(<CNode*> element) if "property" in attrs else None)


def scan_structured(Node root not None, bint microdata, bint json_ld, bint opengraph,
                    bint rdfa=False):
    """(items, scripts, heads, rdfa) of the tree of `root` from `root` on,
    as scan_structured_c() gives them."""
    return scan_structured_c(root, microdata, json_ld, opengraph, rdfa)[:4]


DEF SCAN_NOGIL_BYTES = 65536


cdef tuple scan_structured_c(Node root, bint microdata, bint json_ld, bint opengraph,
                             bint rdfa, bint build_microdata=False, object base_url=None):
    """(items, scripts, heads, rdfa) of the tree of `root` from `root` on,
    in tree order. items: (element, itemtype's tokens, itemid, itemref,
    properties) for each element with itemscope, properties being
    (itemprop's tokens, kind, payload) for the elements with itemprop it
    owns; scripts: the text of
    each ld+json script; heads: (html's prefix or None, head's prefix or
    None, [(property, content), ...]) for each HTML head (the prefixes None
    too when no element of the document has a property attribute); rdfa:
    rdfa_entry() of each element the RDFa processing sequence visits (its
    depth counted from the first element, `root` or the document
    element); then whether items is instead the finished microdata
    (build_microdata: microdata_of_scan() with `base_url`, when no item has
    itemref)."""
    cdef CNode* c_root = root.c_node
    cdef CDocument* doc
    cdef FoundList scopes, props, scripts, heads, rdfa_found
    cdef RdfaIds rdfa_ids
    cdef RdfaIds* rdfa_wanted = NULL
    cdef int status
    cdef size_t i
    cdef CElement* element
    cdef CNode* parent
    cdef lxp_attr_id_t property_id, prefix_id
    cdef list items = [], texts = [], head_list = [], entries, rdfa_list = []
    if c_root == NULL:
        raise ValueError("this node belongs to no document")
    doc = c_root.owner if c_root.type != DOCUMENT_NODE else <CDocument*> c_root
    scopes.items = props.items = scripts.items = heads.items = rdfa_found.items = NULL
    scopes.count = props.count = scripts.count = heads.count = rdfa_found.count = 0
    scopes.capacity = props.capacity = scripts.capacity = heads.capacity = 0
    rdfa_found.capacity = 0
    if rdfa:
        rdfa_ids_of(doc, &rdfa_ids)
        rdfa_wanted = &rdfa_ids
    doc.readers += 1
    # (without the GIL on a document of some size: giving it up and taking
    # it back cost more than the walk of a small page)
    if doc.arena.bytes_reserved >= SCAN_NOGIL_BYTES:
        with nogil:
            status = scan_tree(c_root, microdata, json_ld, opengraph, rdfa_wanted, &scopes,
                               &props, &scripts, &heads, &rdfa_found)
    else:
        status = scan_tree(c_root, microdata, json_ld, opengraph, rdfa_wanted, &scopes,
                           &props, &scripts, &heads, &rdfa_found)
    # (looked up only where they can matter: without a property attribute
    # in the document no head has a pair)
    property_id = prefix_id = 0
    if heads.count:
        property_id = attr_id_by_name(doc.attr_names, <const uint8_t*> b"property", 8, False)
        if property_id != 0:
            prefix_id = attr_id_by_name(doc.attr_names, <const uint8_t*> b"prefix", 6, False)
    try:
        if status != 0:
            raise MemoryError()
        if build_microdata and scopes.count:
            # (structured_data's microdata made here, as
            # ExtructMicrodata.items() would; None: an item has itemref)
            built = microdata_of_scan(&scopes, &props, base_url)
            if built is not None:
                items = built
                scopes.count = props.count = 0
            else:
                build_microdata = False
        for i in range(scopes.count):
            element = <CElement*> scopes.items[i].node
            items.append((node_proxy(scopes.items[i].node),
                          attribute_tokens(element, ATTR_ITEMTYPE),
                          attribute_str(element, ATTR_ITEMID),
                          attribute_str(element, ATTR_ITEMREF), []))
        for i in range(props.count):
            entries = items[props.items[i].owner][4]
            entries.append(property_entry(<CElement*> props.items[i].node, props.items[i].scope))
        for i in range(scripts.count):
            texts.append(script_text(scripts.items[i].node))
        for i in range(heads.count):
            parent = heads.items[i].node.parent
            html_prefix = None
            if parent != NULL and parent.type == ELEMENT_NODE \
                    and (<CElement*> parent).ns == NS_HTML \
                    and (<CElement*> parent).tag_id == TAG_HTML and prefix_id != 0:
                html_prefix = attribute_str(<CElement*> parent, prefix_id)
            head_list.append((html_prefix,
                              attribute_str(<CElement*> heads.items[i].node, prefix_id)
                              if prefix_id != 0 else None,
                              opengraph_pairs(heads.items[i].node, property_id)))
        for i in range(rdfa_found.count):
            rdfa_list.append(rdfa_entry(doc, <CElement*> rdfa_found.items[i].node,
                                        rdfa_found.items[i].owner, &rdfa_ids))
        return items, texts, head_list, rdfa_list, build_microdata
    finally:
        doc.readers -= 1
        free(scopes.items)
        free(props.items)
        free(scripts.items)
        free(heads.items)
        free(rdfa_found.items)


# ---------------------------------------------------------------------------
# The text of a microdata property as extruct reads it (html_text's
# etree_to_text): a walk in C over the text between element boundaries
# and the boundaries of the elements that start a line (1) or a paragraph
# (2), the text written into one buffer.

DEF TEXT_REMOVED = -1             # script, style, link, meta: not read


cdef int text_tag_class(CElement* element) noexcept nogil:
    cdef lxp_tag_id_t tag = element.tag_id
    if tag == TAG_SCRIPT or tag == TAG_STYLE or tag == TAG_LINK or tag == TAG_META:
        return TEXT_REMOVED
    if tag == TAG_ARTICLE or tag == TAG_ASIDE or tag == TAG_BR or tag == TAG_DD \
            or tag == TAG_DETAILS or tag == TAG_DIV or tag == TAG_DT or tag == TAG_FIELDSET \
            or tag == TAG_FIGCAPTION or tag == TAG_FOOTER or tag == TAG_FORM \
            or tag == TAG_HEADER or tag == TAG_HR or tag == TAG_LEGEND or tag == TAG_LI \
            or tag == TAG_MAIN or tag == TAG_NAV or tag == TAG_TABLE or tag == TAG_TR:
        return 1
    if tag == TAG_BLOCKQUOTE or tag == TAG_DL or tag == TAG_FIGURE or tag == TAG_H1 \
            or tag == TAG_H2 or tag == TAG_H3 or tag == TAG_H4 or tag == TAG_H5 \
            or tag == TAG_H6 or tag == TAG_OL or tag == TAG_P or tag == TAG_PRE \
            or tag == TAG_TITLE or tag == TAG_UL:
        return 2
    return 0


DEF TEXT_AFTER_TEXT = 0          # what the text so far ends in: a chunk,
DEF TEXT_AFTER_NEWLINE = 1       # a line's mark,
DEF TEXT_AFTER_DOUBLE = 2        # a paragraph's mark (or nothing yet)


cdef struct TextState:
    lxp_byte_buffer out           # the text so far (UTF-8)
    lxp_byte_buffer chunk         # the pending chunk's Text nodes, as written
    int after                     # TEXT_AFTER_*
    bint last_space               # the latest chunk as written ends in whitespace
    bint last_paren               # ... in "("


cdef inline Py_UCS4 utf8_code_point(const uint8_t* data, size_t i, size_t length,
                                    size_t* width) noexcept nogil:
    # one code point of the arena's UTF-8 (a sequence cut short reads as
    # U+FFFD, which is no whitespace)
    cdef uint8_t lead = data[i]
    cdef size_t w, k
    cdef uint32_t c
    if lead < 0x80:
        width[0] = 1
        return lead
    if lead < 0xE0:
        w = 2
        c = lead & 0x1F
    elif lead < 0xF0:
        w = 3
        c = lead & 0x0F
    else:
        w = 4
        c = lead & 0x07
    if i + w > length:
        width[0] = length - i
        return 0xFFFD
    for k in range(1, w):
        c = (c << 6) | (data[i + k] & 0x3F)
    width[0] = w
    return <Py_UCS4> c


cdef int text_close_chunk(TextState* state) except -1:
    """The pending chunk, its whitespace collapsed to single spaces and
    trimmed (str.split()'s whitespace), added after a space unless the text
    so far ends in a mark, or the chunk starts with punctuation and the one
    before does not end in whitespace (or it ends in "("); a chunk that is
    only whitespace adds nothing and changes nothing. Each word is copied
    whole."""
    cdef const uint8_t* raw = state.chunk.data
    cdef size_t length = state.chunk.length, i = 0, width = 1
    cdef size_t word = 0              # where the current word starts
    cdef bint in_word = False, started = False, space
    cdef Py_UCS4 c = 0
    state.chunk.length = 0
    while i < length:
        if raw[i] < 0x80:
            c = raw[i]
            width = 1
        else:
            c = utf8_code_point(raw, i, length, &width)
        if Py_UNICODE_ISSPACE(c):
            if in_word:
                in_word = False
                if lxp_byte_buffer_append(&state.out, raw + word, i - word) != 0:
                    raise MemoryError()
        elif not in_word:
            in_word = True
            word = i
            if started:
                space = True              # (whitespace came before it)
            else:
                started = True
                space = state.after == TEXT_AFTER_TEXT and (
                    state.last_space or (
                        c != 0x2C and c != 0x3A and c != 0x3B and c != 0x2E and c != 0x21
                        and c != 0x3F and c != 0x22 and c != 0x29 and not state.last_paren))
            if space and lxp_byte_buffer_append(&state.out, <const uint8_t*> b" ", 1) != 0:
                raise MemoryError()
        i += width
    if in_word and lxp_byte_buffer_append(&state.out, raw + word, length - word) != 0:
        raise MemoryError()
    if started:
        state.after = TEXT_AFTER_TEXT
        state.last_space = Py_UNICODE_ISSPACE(c)
        state.last_paren = c == 0x28
    return 0


cdef int text_mark(TextState* state, int kind) except -1:
    # a line's (1) or a paragraph's (2) boundary: nothing at the start or
    # after a paragraph's; one newline after a line's
    if state.after == TEXT_AFTER_DOUBLE:
        return 0
    if kind == 2:
        if lxp_byte_buffer_append(&state.out, <const uint8_t*> b"\n\n",
                                  1 if state.after == TEXT_AFTER_NEWLINE else 2) != 0:
            raise MemoryError()
        state.after = TEXT_AFTER_DOUBLE
    elif state.after != TEXT_AFTER_NEWLINE:
        if lxp_byte_buffer_append(&state.out, <const uint8_t*> b"\n", 1) != 0:
            raise MemoryError()
        state.after = TEXT_AFTER_NEWLINE
    return 0


cdef int text_walk(CNode* top, TextState* state) except -1:
    """The descendants of `top` in tree order: the Text nodes between two
    element boundaries make a chunk, the boundaries of elements of a line
    or a paragraph (text_tag_class) a mark; script, style, link and meta
    are left out with what they hold (and break no chunk)."""
    cdef CNode* node = top
    cdef bint entering = True
    cdef Py_ssize_t skipping = 0
    cdef int kind
    cdef CCharacterData* text
    while node != NULL:
        if node != top:
            if node.type == ELEMENT_NODE:
                if skipping:
                    if entering and node.first_child != NULL:
                        skipping += 1
                    elif not entering:
                        skipping -= 1
                else:
                    kind = text_tag_class(<CElement*> node)
                    if kind == TEXT_REMOVED:
                        if entering and node.first_child != NULL:
                            skipping = 1
                    else:
                        text_close_chunk(state)
                        if kind:
                            text_mark(state, kind)
            elif node.type == TEXT_NODE and entering and not skipping:
                text = <CCharacterData*> node
                if lxp_byte_buffer_append(&state.chunk, text.data, text.length) != 0:
                    raise MemoryError()
        node = next_walk_event(node, top, &entering)
    text_close_chunk(state)
    return 0


cpdef str html_text(root):
    """extruct's text of a property (html_text's etree_to_text): the
    chunks of text_walk() with their whitespace collapsed, a space between
    two unless punctuation follows, a newline at a line's mark and two at a
    paragraph's, trimmed; written in one buffer, one str made."""
    cdef CNode* top = (<Node?> root).c_node
    if top == NULL:
        raise ValueError("this node belongs to no document")
    return node_html_text(top)


cdef str node_html_text(CNode* top):
    # html_text() of the node `top` (no proxy: the microdata scan's)
    cdef TextState state
    cdef Value value
    state.out.data = state.chunk.data = NULL
    state.out.length = state.chunk.length = 0
    state.out.capacity = state.chunk.capacity = 0
    state.after = TEXT_AFTER_DOUBLE
    state.last_space = state.last_paren = False
    try:
        text_walk(top, &state)
        # (only marks can end it: each chunk is trimmed)
        while state.out.length and state.out.data[state.out.length - 1] == 0x0A:
            state.out.length -= 1
        if state.out.length == 0:
            return ""
        value.data = state.out.data
        value.length = state.out.length
        return value_str(&value)
    finally:
        free(state.out.data)
        free(state.chunk.data)


# ---------------------------------------------------------------------------
# JSON-LD's lenient pass (structured.py's _parse_lenient_json): what is not
# JSON outside strings, dropped in one pass over the code points (a regex
# tried at each position cost ~100 instructions a character).

@cython.boundscheck(False)
@cython.wraparound(False)
cpdef str json_without_comments(str text):
    """`text` without // and /* */ comments, <!-- --> comments (each to
    the end of `text` when not closed) and CDATA markers outside strings
    (a string: from a double quote to the next one not escaped by a
    backslash, or to the end; kept as written), then without each comma
    whose next character other than whitespace (str.isspace) is ] or }
    (anywhere, strings included). A helper of structured.py, not a
    standard's algorithm."""
    cdef Py_ssize_t length = len(text), i = 0, start = 0, end
    cdef Py_UCS4 c
    cdef list parts = []
    cdef str kept
    while i < length:
        c = text[i]
        if c == 0x22:                           # "
            i += 1
            while i < length:
                c = text[i]
                if c == 0x22:
                    i += 1
                    break
                i += 2 if c == 0x5C else 1      # a backslash and what it escapes
            if i > length:
                i = length
            continue
        end = -1
        if c == 0x2F and i + 1 < length:        # /
            c = text[i + 1]
            if c == 0x2F:
                end = text.find("\n", i + 2)
                if end < 0:
                    end = length
            elif c == 0x2A:
                end = text.find("*/", i + 2)
                end = length if end < 0 else end + 2
        elif c == 0x3C:                         # <
            if text.startswith("<!--", i):
                end = text.find("-->", i + 4)
                end = length if end < 0 else end + 3
            elif text.startswith("<![CDATA[", i):
                end = i + 9
        elif c == 0x5D and text.startswith("]]>", i):
            end = i + 3
        if end < 0:
            i += 1
            continue
        parts.append(text[start:i])
        start = i = end
    if parts:
        parts.append(text[start:length])
        kept = "".join(parts)
        parts = []
    else:
        kept = text
    # the trailing commas
    length = len(kept)
    start = 0
    i = kept.find(",")
    while i >= 0:
        end = i + 1
        while end < length and Py_UNICODE_ISSPACE(kept[end]):
            end += 1
        if end < length and (kept[end] == 0x5D or kept[end] == 0x7D):
            parts.append(kept[start:i])
            start = i + 1
        i = kept.find(",", i + 1)
    if not parts:
        return kept
    parts.append(kept[start:length])
    return "".join(parts)


# ---------------------------------------------------------------------------
# RDFa's processing sequence (rdfa.pxi)

include "rdfa.pxi"


# ---------------------------------------------------------------------------
# extruct's microdata (microdata.pxi)

include "microdata.pxi"


# ---------------------------------------------------------------------------
# structured_data()'s own work over the scan (structured.pxi)

include "structured.pxi"
