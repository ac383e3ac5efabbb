# The core function library (https://www.w3.org/TR/1999/REC-xpath-19991116/#corelib),
# EXSLT regular expressions (http://exslt.org/regexp/), parsel's has-class()
# and Python extension functions. Each costs what its arguments cost plus
# the length of its strings; id() and the context-free name functions are
# O(n) / O(1) as noted.


cdef NodeRef first_node(object value, NodeRef context, bint has_argument, str name) except *:
    cdef NodeSet nodes
    cdef NodeRef none
    none.node = NULL
    none.attr = 0
    if not has_argument:
        return context
    nodes = as_node_set(value, name + u"()")
    if nodes.nodes.count == 0:
        return none
    return nodes.nodes.items[0]


cdef str namespace_uri_of(CDocument* doc, uint32_t ns):
    cdef const uint8_t* name
    cdef size_t length
    if ns == NS__UNDEF:
        return u""
    if ns < NS__LAST_STATIC:
        return (<bytes> lxp_ns_uri[ns]).decode(u"utf-8")
    name = name_table_get(doc.namespaces, ns, &length)
    return utf8_text(name, length) if name != NULL else u""


cdef str local_name_of(CDocument* doc, NodeRef ref):
    cdef CNode* node = ref.node
    cdef const uint8_t* name
    cdef size_t length
    cdef CProcessingInstruction* pi
    if node == NULL:
        return u""
    if ref.attr:
        name = attr_name_of(doc.attr_names, (<CElement*> node).attrs[ref.attr - 1].local_name,
                            &length)
        return utf8_text(name, length)
    if node.type == ELEMENT_NODE:
        name = element_local_name(<CElement*> node, &length)
        return utf8_text(name, length)
    if node.type == PROCESSING_INSTRUCTION_NODE:
        pi = <CProcessingInstruction*> node
        return utf8_text(pi.target, pi.target_length)
    return u""


cdef str qualified_name_of(CDocument* doc, NodeRef ref):
    cdef CNode* node = ref.node
    cdef const uint8_t* prefix
    cdef size_t length
    cdef uint32_t prefix_id = 0
    if node == NULL:
        return u""
    if ref.attr:
        prefix_id = (<CElement*> node).attrs[ref.attr - 1].prefix
        if prefix_id:
            prefix = attr_name_of(doc.attr_names, prefix_id, &length)
            return utf8_text(prefix, length) + u":" + local_name_of(doc, ref)
    elif node.type == ELEMENT_NODE and (<CElement*> node).prefix:
        prefix = attr_name_of(doc.attr_names, (<CElement*> node).prefix, &length)
        return utf8_text(prefix, length) + u":" + local_name_of(doc, ref)
    return local_name_of(doc, ref)


cdef object ids_of(Evaluation ev, object value):
    """id(): every element of the context's tree whose id is one of the
    tokens, in document order (every element with that id, as the HTML
    standard's documents can have several): O(n)."""
    cdef NodeSet result = NodeSet.__new__(NodeSet)
    cdef set tokens = set()
    cdef size_t i
    cdef CNode* node
    cdef CAttr* attr
    cdef NodeRef ref
    cdef lxp_attr_id_t id_name = attr_id_by_name(ev.binding.doc.attr_names, <const uint8_t*> b"id",
                                                 2, False)
    if isinstance(value, NodeSet):
        for i in range((<NodeSet> value).nodes.count):
            tokens.update(normalize_space(string_value((<NodeSet> value).nodes.items[i])).split())
    else:
        tokens.update(normalize_space(to_string(value)).split())
    tokens.discard(u"")
    if not tokens or id_name == 0:
        return result
    node = ev.root
    ref.attr = 0
    while node != NULL:
        if node.type == ELEMENT_NODE:
            attr = element_find_attribute(<CElement*> node, id_name, NS__UNDEF)
            if attr != NULL and utf8_text(attr.value, attr.value_length) in tokens:
                ref.node = node
                if node_list_push(&result.nodes, ref) != 0:
                    raise MemoryError()
        node = next_in_tree(node, ev.root)
    return result


cdef bint lang_matches(Evaluation ev, NodeRef context, str wanted) except -1:
    """lang(): the xml:lang attribute (XML namespace) of the nearest
    ancestor-or-self element that has one."""
    cdef CNode* node = context.node
    cdef CElement* element
    cdef CAttr* attr
    cdef lxp_attr_id_t lang_name = attr_id_by_name(ev.binding.doc.attr_names,
                                                   <const uint8_t*> b"lang", 4, False)
    cdef str value
    if lang_name == 0:
        return False
    while node != NULL:
        if node.type == ELEMENT_NODE:
            attr = element_find_attribute(<CElement*> node, lang_name, NS_XML)
            if attr != NULL:
                value = utf8_text(attr.value, attr.value_length).lower()
                wanted = wanted.lower()
                return value == wanted or value.startswith(wanted + u"-")
        node = node.parent
    return False


cdef int regex_flags(object flags) except -1:
    cdef int result = 0
    if u"i" in flags:
        result |= _re.IGNORECASE
    return result


cdef list regex_matches(str text, str pattern, str flags):
    """The strings of EXSLT re:match() (https://exslt.org/regexp/functions/match/),
    as lxml gives them: without 'g', the match and then each group ('' for
    one that took no part); with 'g', each match (the concatenation of its
    groups when the expression has groups)."""
    cdef object compiled = _re.compile(pattern, regex_flags(flags))
    if u"g" in flags:
        return [u"".join(found) if isinstance(found, tuple) else found
                for found in compiled.findall(text)]
    match = compiled.search(text)
    if match is None:
        return []
    return [match.group(0)] + [g if g is not None else u"" for g in match.groups()]


cdef NodeSet match_elements(Evaluation ev, list texts):
    """re:match()'s node-set as lxml makes it: the <match> children (each
    with a text node, an empty one too) of a new <matches> element, made in
    the document's arena outside its tree (evaluate.pxi's document order
    numbers that tree after the context's)."""
    cdef CDocument* doc = ev.binding.doc
    cdef NodeSet result = NodeSet.__new__(NodeSet)
    cdef lxp_tag_id_t matches_id, match_id
    cdef CElement* matches
    cdef CElement* match
    cdef CCharacterData* data
    cdef uint8_t* room
    cdef bytes utf8
    cdef NodeRef ref
    if not texts:
        return result
    matches_id = tag_id_by_name(doc.tag_names, <const uint8_t*> b"matches", 7, False)
    match_id = tag_id_by_name(doc.tag_names, <const uint8_t*> b"match", 5, False)
    if matches_id == 0 or match_id == 0:
        # Interning changes the document's name table, which only the one
        # reader may do (the DOM's readers rule: another thread reads it now).
        if doc.readers > 1:
            raise RuntimeError("re:match() needs the names 'matches' and 'match' in the "
                               "document while another thread reads it")
        matches_id = tag_id_by_name(doc.tag_names, <const uint8_t*> b"matches", 7, True)
        match_id = tag_id_by_name(doc.tag_names, <const uint8_t*> b"match", 5, True)
        if matches_id == 0 or match_id == 0:
            raise MemoryError()
        ev.bind_names()                   # name tests of 'match' now find them
    matches = element_create(doc, matches_id, NS_HTML)
    if matches == NULL:
        raise MemoryError()
    ref.attr = 0
    for text in texts:
        utf8 = (<str> text).encode(u"utf-8", u"surrogatepass")
        match = element_create(doc, match_id, NS_HTML)
        data = text_create(doc)
        if match == NULL or data == NULL:
            raise MemoryError()
        if PyBytes_GET_SIZE(utf8):
            room = character_data_reserve(data, <size_t> PyBytes_GET_SIZE(utf8))
            if room == NULL:
                raise MemoryError()
            memcpy(room, PyBytes_AS_STRING(utf8), <size_t> PyBytes_GET_SIZE(utf8))
            character_data_commit(data, <size_t> PyBytes_GET_SIZE(utf8))
        node_append_child(<CNode*> match, <CNode*> data)
        node_append_child(<CNode*> matches, <CNode*> match)
        ref.node = <CNode*> match
        if node_list_push(&result.nodes, ref) != 0:
            raise MemoryError()
    return result


cdef bint has_class(NodeRef context, list classes) except -1:
    """parsel's has-class(): the context element's class attribute has every
    one of the classes (split on ASCII whitespace)."""
    cdef CAttr* attr
    cdef set present
    if context.attr or context.node == NULL or context.node.type != ELEMENT_NODE:
        return False
    attr = element_find_attribute(<CElement*> context.node, ATTR_CLASS, NS__UNDEF)
    if attr == NULL:
        return False
    present = set(utf8_text(attr.value, attr.value_length).split())
    for name in classes:
        if name not in present:
            return False
    return True


cdef object call_function(Evaluation ev, uint32_t function, Py_ssize_t extension, list args,
                          NodeRef context, size_t position, size_t size):
    cdef Py_ssize_t count = len(args)
    cdef NodeRef ref
    cdef NodeSet nodes
    cdef str text, other
    cdef double total
    cdef size_t i
    cdef Py_ssize_t found
    if function == FN_LAST:
        return <double> size
    if function == FN_POSITION:
        return <double> position
    if function == FN_COUNT:
        return <double> as_node_set(args[0], u"count()").nodes.count
    if function == FN_STRING:
        return string_value(context) if count == 0 else to_string(args[0])
    if function == FN_CONCAT:
        return u"".join([to_string(a) for a in args])
    if function == FN_CONTAINS:
        return to_string(args[1]) in to_string(args[0])
    if function == FN_STARTS_WITH:
        return to_string(args[0]).startswith(to_string(args[1]))
    if function == FN_NORMALIZE_SPACE:
        return normalize_space(string_value(context) if count == 0 else to_string(args[0]))
    if function == FN_NOT:
        return not to_boolean(args[0])
    if function == FN_TRUE:
        return True
    if function == FN_FALSE:
        return False
    if function == FN_BOOLEAN:
        return to_boolean(args[0])
    if function == FN_NUMBER:
        return string_to_number(string_value(context)) if count == 0 else to_number(args[0])
    if function == FN_LOCAL_NAME:
        return local_name_of(ev.binding.doc, first_node(args[0] if count else None, context,
                                                        count != 0, u"local-name"))
    if function == FN_NAME:
        return qualified_name_of(ev.binding.doc, first_node(args[0] if count else None, context,
                                                            count != 0, u"name"))
    if function == FN_NAMESPACE_URI:
        ref = first_node(args[0] if count else None, context, count != 0, u"namespace-uri")
        if ref.node == NULL:
            return u""
        if ref.attr:
            return namespace_uri_of(ev.binding.doc,
                                    (<CElement*> ref.node).attrs[ref.attr - 1].ns)
        if ref.node.type == ELEMENT_NODE:
            return namespace_uri_of(ev.binding.doc, (<CElement*> ref.node).ns)
        return u""
    if function == FN_STRING_LENGTH:
        return <double> len(string_value(context) if count == 0 else to_string(args[0]))
    if function == FN_SUBSTRING_BEFORE:
        text = to_string(args[0])
        found = text.find(to_string(args[1]))
        return text[:found] if found >= 0 else u""
    if function == FN_SUBSTRING_AFTER:
        text = to_string(args[0])
        other = to_string(args[1])
        found = text.find(other)
        return text[found + len(other):] if found >= 0 else u""
    if function == FN_SUBSTRING:
        return xpath_substring(to_string(args[0]), to_number(args[1]),
                               to_number(args[2]) if count == 3 else 0.0, count == 3)
    if function == FN_TRANSLATE:
        return xpath_translate(to_string(args[0]), to_string(args[1]), to_string(args[2]))
    if function == FN_SUM:
        nodes = as_node_set(args[0], u"sum()")
        total = 0.0
        for i in range(nodes.nodes.count):
            total += string_to_number(string_value(nodes.nodes.items[i]))
        return total
    if function == FN_FLOOR:
        total = to_number(args[0])
        return <double> math.floor(total) if total == total \
            and total not in (INFINITY, -INFINITY) and total != 0 else total
    if function == FN_CEILING:
        total = to_number(args[0])
        if total != total or total in (INFINITY, -INFINITY) or total == 0:
            return total
        if -1 < total < 0:
            return -0.0
        return <double> math.ceil(total)
    if function == FN_ROUND:
        return xpath_round(to_number(args[0]))
    if function == FN_ID:
        return ids_of(ev, args[0])
    if function == FN_LANG:
        return lang_matches(ev, context, to_string(args[0]))
    if function == FN_HAS_CLASS:
        if not all(isinstance(a, str) for a in args):
            raise XPathEvalError(u"has-class arguments must be strings")      # parsel's words
        return has_class(context, args)
    if function == FN_RE_TEST:
        return _re.search(to_string(args[1]), to_string(args[0]),
                          regex_flags(to_string(args[2]) if count == 3 else u"")) is not None
    if function == FN_RE_MATCH:
        return match_elements(ev, regex_matches(
            to_string(args[0]), to_string(args[1]), to_string(args[2]) if count == 3 else u""))
    if function == FN_RE_REPLACE:
        # As lxml has it (what parsel's users write): the replacement is a
        # template of Python's re.sub, so a backslash and a digit is a group.
        flags = to_string(args[2])
        return _re.sub(to_string(args[1]), to_string(args[3]),
                       to_string(args[0]), 0 if u"g" in flags else 1, regex_flags(flags))
    if function >= FN_SET_DIFFERENCE and function <= FN_SET_TRAILING:
        return set_function(ev, function, args)
    if function == FN_EXTENSION:
        return call_extension(ev, ev.program.extension_functions[extension], args, context)
    raise XPathEvalError(u"unknown function")


class XPathExtensionContext:
    """What an extension function gets as its first argument (as lxml's
    context): `context_node`, the node the function was called at."""
    __slots__ = ("context_node",)

    def __init__(self, context_node):
        self.context_node = context_node


cdef object call_extension(Evaluation ev, object function, list args, NodeRef context):
    cdef list converted = [to_python(ev, a) if isinstance(a, NodeSet) else a for a in args]
    result = function(XPathExtensionContext(node_result(ev, context)), *converted)
    if result is None:
        return u""
    if isinstance(result, bool):
        return bool(result)
    if isinstance(result, str):
        return str(result)
    if isinstance(result, (int, float)):
        return float(result)
    if isinstance(result, (list, tuple)):
        if all(is_node_value(item) for item in result):
            return node_set_from_python(ev, result)
        return list(result)
    return to_string(str(result))


cdef object set_function(Evaluation ev, uint32_t function, list args):
    """EXSLT sets (http://exslt.org/set/): O(|A| + |B|) with a set of
    nodes, leading/trailing by document order."""
    cdef NodeSet first = as_node_set(args[0], u"an EXSLT set function")
    cdef NodeSet second
    cdef NodeSet result = NodeSet.__new__(NodeSet)
    cdef set other = set()
    cdef set seen
    cdef size_t i
    cdef size_t boundary
    cdef NodeRef ref
    cdef str value
    if function == FN_SET_DISTINCT:
        seen = set()
        for i in range(first.nodes.count):
            value = string_value(first.nodes.items[i])
            if value not in seen:
                seen.add(value)
                if node_list_push(&result.nodes, first.nodes.items[i]) != 0:
                    raise MemoryError()
        return result
    second = as_node_set(args[1], u"an EXSLT set function")
    for i in range(second.nodes.count):
        other.add((<size_t> second.nodes.items[i].node, second.nodes.items[i].attr))
    if function == FN_SET_HAS_SAME_NODE:
        for i in range(first.nodes.count):
            if (<size_t> first.nodes.items[i].node, first.nodes.items[i].attr) in other:
                return True
        return False
    if function == FN_SET_LEADING or function == FN_SET_TRAILING:
        if second.nodes.count == 0:
            return first
        ref = second.nodes.items[0]
        key = (<size_t> ref.node, ref.attr)
        if not any((<size_t> first.nodes.items[i].node, first.nodes.items[i].attr) == key
                   for i in range(first.nodes.count)):
            return result                  # B's first node is not in A: empty
        ev.ensure_order()
        boundary = order_of(&ev.order, ref.node)
        bound = (boundary, ref.attr)
        for i in range(first.nodes.count):
            ref = first.nodes.items[i]
            position = (order_of(&ev.order, ref.node), ref.attr)
            if (position < bound) if function == FN_SET_LEADING else (position > bound):
                if node_list_push(&result.nodes, ref) != 0:
                    raise MemoryError()
        return result
    for i in range(first.nodes.count):
        ref = first.nodes.items[i]
        if ((<size_t> ref.node, ref.attr) in other) == (function == FN_SET_INTERSECTION):
            if node_list_push(&result.nodes, ref) != 0:
                raise MemoryError()
    return result
