# The configuration as tables over one document's name ids. A Program holds
# the configuration's names (as UTF-8, made once); resolve() looks each up in
# a document's name tables (static ids are the same in every document, the
# rest are the document's own) and fills sorted key arrays the walk
# binary-searches without the GIL.

# url_relative and the verdicts of urls.pxi
cdef enum:
    URL_RELATIVE_KEEP = 0
    URL_RELATIVE_DROP = 1
    URL_RELATIVE_PYTHON = 2       # resolve: the Python pass with ada
    URL_SCHEME_MAX = 64           # a longer scheme is in no list (checked at construction)

    URL_KEEP = 0
    URL_REMOVE = 1
    URL_TO_PYTHON = 2


cdef enum Action:
    ACT_KEEP = 0
    ACT_REMOVE = 1
    ACT_UNWRAP = 2
    ACT_ESCAPE = 3                # the element's tags become text (on_disallowed="escape")
    ACT_DROP = 4                  # (Program only) removed with its content whatever
                                  # on_disallowed says (remove_with_content)

cdef enum:
    RULE_SHIFT = 2                # an element entry's value: action | (rule + 1) << 2
    KEY_NS_SHIFT = 32
    KEY_RULE_SHIFT = 44           # local attribute keys: (rule + 1) << 44 | ns << 32 | id
    MAX_NS = 4096


cdef struct Entry:
    uint64_t key
    int32_t value


cdef struct Tables:
    Entry* elements               # (ns << 32 | tag id) -> action and rule
    size_t element_count
    int32_t default_value         # the value of an element in no entry
    uint64_t* attributes          # (ns << 32 | attribute id), sorted
    size_t attribute_count
    bint attributes_allow         # the global list allows (else removes)
    uint64_t* local_allow         # ((rule + 1) << 44 | ns << 32 | id), sorted
    size_t local_allow_count
    uint64_t* local_remove
    size_t local_remove_count
    uint8_t* rule_has_allow       # by rule: the element has an attributes list
    int32_t rule_count
    bint comments
    bint data_attributes
    bint safe                     # the safe methods: lexpy's baseline too
    const uint8_t** pi_targets
    size_t* pi_lengths
    size_t pi_count
    bint pi_allow
    int32_t baseline_action       # what the baseline does to an element it
                                  # forbids (ACT_REMOVE, or ACT_ESCAPE)
    uint32_t max_depth            # elements deeper are replaced by their
                                  # children (0: no limit)
    bint report                   # record what is removed (Report)
    const uint8_t** prefixes      # attribute name prefixes allowed on every
    size_t* prefix_lengths        # element (in no namespace)
    size_t prefix_count
    int context_kind              # ParentKind of a fragment root's context
    bint url_active               # url_schemes or url_relative (urls.pxi)
    int url_relative              # URL_RELATIVE_KEEP, _DROP, _PYTHON
    size_t url_group_count        # url_schemes by attribute: each group's
    const uint8_t** url_group_names   # qualified name (NULL: "*"), and its
    size_t* url_group_name_lengths    # schemes, each followed by a space
    const uint8_t** url_group_schemes
    size_t* url_group_lengths
    bint borrowed                 # the arrays are a Program's (tables_free leaves them)
    bint merged                   # borrowed, but elements, attributes, local_allow
                                  # and local_remove are this walk's own (a
                                  # document with the configuration's dynamic names)
    int32_t* html_values          # elements' values by tag id for the HTML
                                  # namespace's static names (TAG__LAST_STATIC)
    bint keep_removed             # removed nodes stay in the arena (the document
                                  # is thrown away after the walk: no reclaim)


cdef int compare_entries(const void* a, const void* b) noexcept nogil:
    cdef uint64_t x = (<Entry*> a).key
    cdef uint64_t y = (<Entry*> b).key
    return -1 if x < y else (1 if x > y else 0)


cdef int compare_keys(const void* a, const void* b) noexcept nogil:
    cdef uint64_t x = (<uint64_t*> a)[0]
    cdef uint64_t y = (<uint64_t*> b)[0]
    return -1 if x < y else (1 if x > y else 0)


cdef int32_t find_entry(Entry* entries, size_t count, uint64_t key,
                        int32_t missing) noexcept nogil:
    cdef size_t low = 0, high = count, middle
    while low < high:
        middle = (low + high) // 2
        if entries[middle].key < key:
            low = middle + 1
        elif entries[middle].key > key:
            high = middle
        else:
            return entries[middle].value
    return missing


cdef bint has_key(uint64_t* keys, size_t count, uint64_t key) noexcept nogil:
    cdef size_t low = 0, high = count, middle
    while low < high:
        middle = (low + high) // 2
        if keys[middle] < key:
            low = middle + 1
        elif keys[middle] > key:
            high = middle
        else:
            return True
    return False


cdef void tables_free(Tables* t) noexcept nogil:
    if t.borrowed:
        if t.merged:
            free(t.elements)
            free(t.attributes)
            free(t.local_allow)
            free(t.local_remove)
        memset(t, 0, sizeof(Tables))
        return
    free(t.elements)
    free(t.html_values)
    free(t.attributes)
    free(t.local_allow)
    free(t.local_remove)
    free(t.rule_has_allow)
    free(t.pi_targets)
    free(t.pi_lengths)
    free(t.prefixes)
    free(t.prefix_lengths)
    free(t.url_group_names)
    free(t.url_group_name_lengths)
    free(t.url_group_schemes)
    free(t.url_group_lengths)
    memset(t, 0, sizeof(Tables))


# A configuration name whose id is not static: looked up in each document
# that has names beyond the static ones (bytes a Program keeps alive).
cdef struct DynName:
    const uint8_t* ns             # the namespace URI (length 0: none)
    size_t ns_length
    const uint8_t* local
    size_t local_length
    uint64_t extra                # elements: the entry's value; local
                                  # attributes: (rule + 1) << KEY_RULE_SHIFT


cdef uint64_t dyn_key(CDocument* doc, DynName* name, bint tag) noexcept nogil:
    """The key of `name` in `doc`, or 0 when nothing in `doc` can have it."""
    cdef lxp_ns_id_t n = NS__UNDEF
    cdef uint32_t id
    if name.ns_length:
        n = namespace_id(doc, name.ns, name.ns_length, False)
        if n == 0 or n >= MAX_NS:
            return 0
    if tag:
        id = tag_id_by_name(doc.tag_names, name.local, name.local_length, False)
    else:
        id = attr_id_by_name(doc.attr_names, name.local, name.local_length, False)
    if id == 0:
        return 0
    return (<uint64_t> n << KEY_NS_SHIFT) | id


cdef inline bint document_has_dynamic_names(CDocument* doc) noexcept nogil:
    return (doc.tag_names != NULL and doc.tag_names.count != 0) \
        or (doc.attr_names != NULL and doc.attr_names.count != 0) \
        or (doc.namespaces != NULL and doc.namespaces.count != 0)


cdef uint64_t* merged_keys(uint64_t* static_keys, size_t static_count, CDocument* doc,
                           DynName* names, size_t name_count, size_t* count) noexcept nogil:
    """The static keys and those of the dynamic attribute names `doc` has,
    sorted (malloc'ed; NULL when out of memory)."""
    cdef uint64_t* keys = <uint64_t*> malloc((static_count + name_count + 1) * sizeof(uint64_t))
    cdef size_t n = static_count, i
    cdef uint64_t key
    if keys == NULL:
        return NULL
    memcpy(keys, static_keys, static_count * sizeof(uint64_t))
    for i in range(name_count):
        key = dyn_key(doc, &names[i], False)
        if key != 0:
            keys[n] = key | names[i].extra
            n += 1
    if n > static_count:
        qsort(keys, n, sizeof(uint64_t), compare_keys)
    count[0] = n
    return keys


cdef int resolve_tables(Tables* shared, bint has_shared, DynName** dyn, size_t* dyn_count,
                        CDocument* doc, Tables* t) noexcept nogil:
    """A Program's tables for `doc` (Program.resolve without the GIL, and
    t.report False): its shared tables, with the dynamic names `doc` has
    merged in. -1 when out of memory."""
    cdef size_t i, count
    cdef uint64_t key
    memcpy(t, shared, sizeof(Tables))
    t.borrowed = True
    t.merged = False
    t.report = False
    if has_shared or doc == NULL or not document_has_dynamic_names(doc):
        return 0
    t.merged = True
    t.attributes = NULL
    t.local_allow = NULL
    t.local_remove = NULL
    t.elements = <Entry*> malloc((shared.element_count + dyn_count[0] + 1) * sizeof(Entry))
    if t.elements == NULL:
        tables_free(t)
        return -1
    memcpy(t.elements, shared.elements, shared.element_count * sizeof(Entry))
    count = shared.element_count
    for i in range(dyn_count[0]):
        key = dyn_key(doc, &dyn[0][i], True)
        if key != 0:
            t.elements[count].key = key
            t.elements[count].value = <int32_t> dyn[0][i].extra
            count += 1
    if count > shared.element_count:
        qsort(t.elements, count, sizeof(Entry), compare_entries)
    t.element_count = count
    t.attributes = merged_keys(shared.attributes, shared.attribute_count, doc,
                               dyn[3], dyn_count[3], &t.attribute_count)
    t.local_allow = merged_keys(shared.local_allow, shared.local_allow_count,
                                doc, dyn[1], dyn_count[1], &t.local_allow_count)
    t.local_remove = merged_keys(shared.local_remove, shared.local_remove_count,
                                 doc, dyn[2], dyn_count[2], &t.local_remove_count)
    if t.attributes == NULL or t.local_allow == NULL or t.local_remove == NULL:
        tables_free(t)
        return -1
    return 0


cdef bytes utf8(object text):
    return (<str> text).encode("utf-8", "surrogatepass")


cdef class Program:
    """A configuration compiled for the walk: its names as UTF-8, with the
    action of each element and the attribute lists.

    Program(elements, default_remove, attributes, attributes_allow, rules,
    comments, data_attributes, pi_targets, pi_allow, safe) where elements is
    a list of (namespace or None, local name, action, rule), rules a list
    of (has an attributes list, [(ns, name)] allowed, [(ns, name)] removed),
    attributes a list of (ns, name)."""
    cdef list elements            # [(ns bytes, name bytes, action, rule)]
    cdef int32_t default_value
    cdef list attributes          # [(ns bytes, name bytes)]
    cdef bint attributes_allow
    cdef list rules               # [(has_allow, [(ns, name)], [(ns, name)])]
    cdef bint comments
    cdef bint data_attributes
    cdef list pi_targets          # [bytes]
    cdef bint pi_allow
    cdef readonly bint safe
    cdef int32_t disallowed       # ACT_REMOVE, ACT_UNWRAP or ACT_ESCAPE
    cdef uint32_t max_depth
    cdef list prefixes            # [bytes]
    cdef list url_groups          # [(attribute name bytes or None, b"scheme scheme ")]
    cdef bint url_active
    cdef int url_relative
    # The names whose ids are static (the same in every document), as
    # sorted keys made once; the others are looked up in each document.
    cdef Entry* static_elements
    cdef size_t static_element_count
    cdef list dynamic_elements    # [(ns, name, action, rule)]
    cdef uint64_t* static_attributes
    cdef size_t static_attribute_count
    cdef list dynamic_attributes  # [(ns, name)]
    cdef uint64_t* static_local[3]    # [1]: allowed, [2]: removed (by rule)
    cdef size_t static_local_count[3]
    cdef list dynamic_local       # [None, [(rule, ns, name)], [(rule, ns, name)]]
    cdef list dynamic_kept        # the bytes behind dyn
    # The tables of the static names, made once here and lent to each walk
    # (resolve copies the struct); with no dynamic names (has_shared), or
    # for a document with none of its own, they are the walk's tables.
    # Else resolve merges in the dynamic names the document has (C arrays
    # of them: 0 elements, 1 and 2 local allowed / removed, 3 attributes),
    # without Python objects and without the GIL.
    cdef Tables shared
    cdef bint has_shared
    cdef DynName* dyn[4]
    cdef size_t dyn_count[4]

    def __dealloc__(self):
        cdef int which
        self.has_shared = False
        self.shared.borrowed = False
        tables_free(&self.shared)
        for which in range(4):
            free(self.dyn[which])
            self.dyn[which] = NULL
        free(self.static_elements)
        free(self.static_attributes)
        free(self.static_local[1])
        free(self.static_local[2])

    def __init__(self, elements, bint default_remove, attributes, bint attributes_allow,
                 rules, bint comments, bint data_attributes, pi_targets, bint pi_allow,
                 bint safe, int disallowed=ACT_REMOVE, unsigned int max_depth=0,
                 prefixes=(), url_schemes=None, int url_relative=0):
        def name(ns, local):
            return (b"" if ns is None else utf8(ns), utf8(local))
        if disallowed not in (ACT_REMOVE, ACT_UNWRAP, ACT_ESCAPE):
            raise ValueError("disallowed must be 1, 2 or 3")
        self.disallowed = disallowed
        self.max_depth = max_depth
        self.elements = [name(ns, local) + (disallowed if action == ACT_REMOVE else (
            ACT_REMOVE if action == ACT_DROP else action), rule)
                         for ns, local, action, rule in elements]
        self.prefixes = [utf8(prefix) for prefix in prefixes]
        # url_schemes: {attribute name or "*": schemes}, None: not checked
        if url_relative not in (URL_RELATIVE_KEEP, URL_RELATIVE_DROP, URL_RELATIVE_PYTHON):
            raise ValueError("url_relative must be 0, 1 or 2")
        self.url_relative = url_relative
        self.url_active = url_schemes is not None or url_relative != URL_RELATIVE_KEEP
        self.url_groups = []
        for attribute, schemes in sorted((url_schemes or {}).items()):
            if any(len(utf8(scheme)) > URL_SCHEME_MAX or " " in scheme for scheme in schemes):
                raise ValueError("a URL scheme longer than %d bytes" % URL_SCHEME_MAX)
            self.url_groups.append((None if attribute == "*" else utf8(attribute),
                                    b"".join(utf8(scheme.lower()) + b" "
                                             for scheme in sorted(schemes))))
        self.default_value = disallowed if default_remove else ACT_KEEP
        self.attributes = [name(ns, local) for ns, local in attributes]
        self.attributes_allow = attributes_allow
        self.rules = [(bool(has_allow), [name(ns, local) for ns, local in allowed],
                       [name(ns, local) for ns, local in removed])
                      for has_allow, allowed, removed in rules]
        self.comments = comments
        self.data_attributes = data_attributes
        self.pi_targets = [utf8(t) for t in pi_targets]
        self.pi_allow = pi_allow
        self.safe = safe
        self.split_static()
        self.build_shared(&self.shared)
        self.shared.borrowed = True
        self.has_shared = not (self.dynamic_elements or self.dynamic_attributes
                               or self.dynamic_local[1] or self.dynamic_local[2])
        self.dynamic_names()

    cdef int dynamic_names(self) except -1:
        cdef int which
        cdef size_t i
        cdef DynName* name
        lists = [[(ns, local, <uint64_t> (<int32_t> action | ((<int32_t> rule + 1) << RULE_SHIFT)))
                  for ns, local, action, rule in self.dynamic_elements],
                 [(ns, local, (<uint64_t> r + 1) << KEY_RULE_SHIFT)
                  for r, ns, local in self.dynamic_local[1]],
                 [(ns, local, (<uint64_t> r + 1) << KEY_RULE_SHIFT)
                  for r, ns, local in self.dynamic_local[2]],
                 [(ns, local, 0) for ns, local in self.dynamic_attributes]]
        # (the bytes stay alive in these lists)
        self.dynamic_kept = lists
        for which in range(4):
            self.dyn[which] = <DynName*> malloc((len(lists[which]) + 1) * sizeof(DynName))
            if self.dyn[which] == NULL:
                raise MemoryError()
            for i in range(len(lists[which])):
                ns, local, extra = lists[which][i]
                name = &self.dyn[which][i]
                name.ns = <const uint8_t*> (<bytes> ns)
                name.ns_length = len(<bytes> ns)
                name.local = <const uint8_t*> (<bytes> local)
                name.local_length = len(<bytes> local)
                name.extra = extra
            self.dyn_count[which] = len(lists[which])
        return 0

    cdef uint64_t static_key(self, bytes ns, bytes local, bint tag):
        """The key of a name whose namespace and local name are static, or
        0."""
        cdef lxp_ns_id_t n = NS__UNDEF
        cdef lxp_ns_id_t candidate
        cdef uint32_t id
        if len(ns):
            n = 0
            for candidate in range(1, NS__LAST_STATIC):
                if strlen(lxp_ns_uri[candidate]) == <size_t> len(ns) and memcmp(
                        lxp_ns_uri[candidate], <const char*> ns, len(ns)) == 0:
                    n = candidate
                    break
            if n == 0:
                return 0
        if tag:
            id = tag_id_by_name(NULL, local, len(local), False)
        else:
            id = attr_id_by_name(NULL, local, len(local), False)
        if id == 0:
            return 0
        return (<uint64_t> n << KEY_NS_SHIFT) | id

    cdef split_static(self):
        cdef size_t count = 0, which, n
        cdef uint64_t key
        cdef int32_t r
        self.static_elements = <Entry*> malloc((len(self.elements) + 1) * sizeof(Entry))
        self.static_attributes = <uint64_t*> malloc((len(self.attributes) + 1)
                                                    * sizeof(uint64_t))
        if self.static_elements == NULL or self.static_attributes == NULL:
            raise MemoryError()
        self.dynamic_elements = []
        for ns, local, action, rule in self.elements:
            key = self.static_key(ns, local, True)
            if key == 0:
                self.dynamic_elements.append((ns, local, action, rule))
                continue
            self.static_elements[count].key = key
            self.static_elements[count].value = <int32_t> action | (
                (<int32_t> rule + 1) << RULE_SHIFT)
            count += 1
        self.static_element_count = count
        qsort(self.static_elements, count, sizeof(Entry), compare_entries)
        count = 0
        self.dynamic_attributes = []
        for ns, local in self.attributes:
            key = self.static_key(ns, local, False)
            if key == 0:
                self.dynamic_attributes.append((ns, local))
                continue
            self.static_attributes[count] = key
            count += 1
        self.static_attribute_count = count
        qsort(self.static_attributes, count, sizeof(uint64_t), compare_keys)
        self.dynamic_local = [None, [], []]
        for which in (1, 2):
            n = sum(len(rule[which]) for rule in self.rules)
            self.static_local[which] = <uint64_t*> malloc((n + 1) * sizeof(uint64_t))
            if self.static_local[which] == NULL:
                raise MemoryError()
            count = 0
            for r in range(len(self.rules)):
                for ns, local in self.rules[r][which]:
                    key = self.static_key(ns, local, False)
                    if key == 0:
                        self.dynamic_local[which].append((r, ns, local))
                        continue
                    self.static_local[which][count] = key | (
                        (<uint64_t> r + 1) << KEY_RULE_SHIFT)
                    count += 1
            self.static_local_count[which] = count
            qsort(self.static_local[which], count, sizeof(uint64_t), compare_keys)

    cdef int build_shared(self, Tables* t) except -1:
        """Fill `t` with the static names' tables (tables_free releases it)."""
        cdef size_t i, count, n
        cdef int32_t r
        cdef uint64_t key
        cdef bytes ns, local
        memset(t, 0, sizeof(Tables))
        t.default_value = self.default_value
        t.attributes_allow = self.attributes_allow
        t.comments = self.comments
        t.data_attributes = self.data_attributes
        t.safe = self.safe
        t.pi_allow = self.pi_allow
        t.rule_count = len(self.rules)
        # What the baseline does: remove (with the content: script source is
        # no text to show), or show as text with on_disallowed="escape".
        t.baseline_action = ACT_ESCAPE if self.disallowed == ACT_ESCAPE else ACT_REMOVE
        t.max_depth = self.max_depth
        try:
            t.elements = <Entry*> malloc((len(self.elements) + 1) * sizeof(Entry))
            t.attributes = <uint64_t*> malloc((len(self.attributes) + 1) * sizeof(uint64_t))
            t.rule_has_allow = <uint8_t*> malloc(t.rule_count + 1)
            t.pi_targets = <const uint8_t**> malloc((len(self.pi_targets) + 1) * sizeof(void*))
            t.pi_lengths = <size_t*> malloc((len(self.pi_targets) + 1) * sizeof(size_t))
            if t.elements == NULL or t.attributes == NULL or t.rule_has_allow == NULL \
                    or t.pi_targets == NULL or t.pi_lengths == NULL:
                raise MemoryError()
            memcpy(t.elements, self.static_elements, self.static_element_count * sizeof(Entry))
            t.element_count = self.static_element_count
            t.html_values = <int32_t*> malloc(TAG__LAST_STATIC * sizeof(int32_t))
            if t.html_values == NULL:
                raise MemoryError()
            for i in range(TAG__LAST_STATIC):
                t.html_values[i] = t.default_value
            for i in range(t.element_count):
                key = t.elements[i].key
                if key >> KEY_NS_SHIFT == NS_HTML and (key & 0xFFFFFFFF) < TAG__LAST_STATIC:
                    t.html_values[key & 0xFFFFFFFF] = t.elements[i].value
            memcpy(t.attributes, self.static_attributes,
                   self.static_attribute_count * sizeof(uint64_t))
            t.attribute_count = self.static_attribute_count
            t.local_allow = self.local_keys(1, &t.local_allow_count)
            t.local_remove = self.local_keys(2, &t.local_remove_count)
            for r in range(t.rule_count):
                t.rule_has_allow[r] = 1 if self.rules[r][0] else 0
            for i in range(len(self.pi_targets)):
                t.pi_targets[i] = <const uint8_t*> (<bytes> self.pi_targets[i])
                t.pi_lengths[i] = len(<bytes> self.pi_targets[i])
            t.pi_count = len(self.pi_targets)
            t.prefixes = <const uint8_t**> malloc((len(self.prefixes) + 1) * sizeof(void*))
            t.prefix_lengths = <size_t*> malloc((len(self.prefixes) + 1) * sizeof(size_t))
            if t.prefixes == NULL or t.prefix_lengths == NULL:
                raise MemoryError()
            for i in range(len(self.prefixes)):
                t.prefixes[i] = <const uint8_t*> (<bytes> self.prefixes[i])
                t.prefix_lengths[i] = len(<bytes> self.prefixes[i])
            t.prefix_count = len(self.prefixes)
            t.url_active = self.url_active
            t.url_relative = self.url_relative
            n = len(self.url_groups) + 1
            t.url_group_names = <const uint8_t**> malloc(n * sizeof(void*))
            t.url_group_name_lengths = <size_t*> malloc(n * sizeof(size_t))
            t.url_group_schemes = <const uint8_t**> malloc(n * sizeof(void*))
            t.url_group_lengths = <size_t*> malloc(n * sizeof(size_t))
            if t.url_group_names == NULL or t.url_group_name_lengths == NULL \
                    or t.url_group_schemes == NULL or t.url_group_lengths == NULL:
                raise MemoryError()
            for i in range(len(self.url_groups)):
                name, schemes = self.url_groups[i]
                t.url_group_names[i] = NULL if name is None else <const uint8_t*> (<bytes> name)
                t.url_group_name_lengths[i] = 0 if name is None else len(<bytes> name)
                t.url_group_schemes[i] = <const uint8_t*> (<bytes> schemes)
                t.url_group_lengths[i] = len(<bytes> schemes)
            t.url_group_count = len(self.url_groups)
        except BaseException:
            tables_free(t)
            raise
        return 0

    cdef int resolve(self, CDocument* doc, Tables* t, bint report) except -1:
        """Fill `t` for `doc` (tables_free releases it)."""
        if self.resolve_nogil(doc, t) != 0:
            raise MemoryError()
        t.report = report
        return 0

    cdef int resolve_nogil(self, CDocument* doc, Tables* t) noexcept nogil:
        return resolve_tables(&self.shared, self.has_shared, self.dyn, self.dyn_count, doc, t)

    cdef uint64_t* local_keys(self, int which, size_t* count) except? NULL:
        cdef size_t n = self.static_local_count[which]
        cdef uint64_t* keys
        keys = <uint64_t*> malloc((n + 1) * sizeof(uint64_t))
        if keys == NULL:
            raise MemoryError()
        memcpy(keys, self.static_local[which], n * sizeof(uint64_t))
        count[0] = n
        return keys
