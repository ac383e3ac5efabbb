# The Python face: compile_xpath(), XPath, the smart strings of attribute
# and text results, and the function behind the DOM's xpath() methods.

import threading
from collections.abc import Mapping


class XPathString(str):
    """An attribute's value or a text node's data in a node-set result, as
    lxml's "smart strings": a str that knows where it came from.

    `parent` is the element of the attribute or the parent of the text
    node; `is_attribute` / `is_text` say which it is; `attrname` is the
    attribute's qualified name (None for text)."""

    is_tail = False

    def getparent(self):
        """The parent (lxml's spelling of `parent`)."""
        return self.parent


# The two kinds, with what does not vary as class attributes (two
# attributes set per result instead of five: results are made by the
# thousand).
class _XPathAttributeString(XPathString):
    is_attribute = True
    is_text = False
    _node = None


class _XPathTextString(XPathString):
    is_attribute = False
    is_text = True
    attrname = None


cdef object make_string(str value, object parent, bint attribute, object attrname,
                        object node):
    cdef object result
    if attribute:
        result = _XPathAttributeString(value)
        result.parent = parent
        result.attrname = attrname
    else:
        result = _XPathTextString(value)
        result.parent = parent
        result._node = node               # the Text node
    return result


cdef object node_result(Evaluation ev, NodeRef ref):
    """The Python value of one node: the proxy, or an XPathString for an
    attribute or a text node."""
    cdef CNode* node = ref.node
    cdef CAttr* attr
    cdef CCharacterData* data
    if ref.attr:
        attr = &(<CElement*> node).attrs[ref.attr - 1]
        return make_string(utf8_text(attr.value, attr.value_length), node_proxy(node), True,
                           qualified_name_of(ev.binding.doc, ref), None)
    if node.type == TEXT_NODE or node.type == CDATA_SECTION_NODE:
        data = <CCharacterData*> node
        return make_string(utf8_text(data.data, data.length),
                           node_proxy(node.parent) if node.parent != NULL else None, False,
                           None, node_proxy(node))
    return node_proxy(node)


cdef list to_python(Evaluation ev, NodeSet nodes):
    cdef list result = PyList_New(<Py_ssize_t> nodes.nodes.count)
    cdef object item
    cdef size_t i
    for i in range(nodes.nodes.count):
        item = node_result(ev, nodes.nodes.items[i])
        Py_INCREF(item)
        PyList_SET_ITEM(result, <Py_ssize_t> i, item)
    return result


cdef bint is_node_value(object item):
    if isinstance(item, Node):
        return True
    return isinstance(item, XPathString) and (item._node is not None or item.is_attribute)


cdef NodeRef node_ref_of(object item, CDocument* doc) except *:
    """The NodeRef of a node value (a proxy, or an XPathString of a node of
    this document); ValueError for anything else."""
    cdef NodeRef ref
    cdef CElement* element
    cdef uint32_t i
    ref.attr = 0
    if isinstance(item, XPathString):
        if item._node is not None:
            item = item._node
        elif item.is_attribute and isinstance(item.parent, Node):
            ref.node = (<Node> item.parent)._node()
            element = <CElement*> ref.node
            for i in range(element.attr_count):
                ref.attr = i + 1
                if qualified_name_of(element.node.owner, ref) == item.attrname:
                    return ref
            raise XPathEvalError(u"the attribute %r is no longer on its element" % item.attrname)
    if not isinstance(item, Node):
        raise TypeError(u"a node must be a lexpy Node or an XPath attribute/text result, not %s"
                        % type(item).__name__)
    ref.node = (<Node> item)._node()
    if doc != NULL and ref.node.owner != doc:
        raise XPathEvalError(u"a node of another document")
    return ref


cdef NodeSet node_set_from_python(Evaluation ev, object items):
    cdef NodeSet result = NodeSet.__new__(NodeSet)
    for item in items:
        if node_list_push(&result.nodes, node_ref_of(item, ev.binding.doc)) != 0:
            raise MemoryError()
    ev.sort(result)
    return result


cdef object python_value(Evaluation ev, object value):
    if isinstance(value, NodeSet):
        return to_python(ev, <NodeSet> value)
    return value


cdef object variable_value(Evaluation ev, str name, object value):
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, (list, tuple)):
        return node_set_from_python(ev, value)
    raise TypeError(u"the variable $%s must be a str, a number, a bool or a list of nodes, not %s"
                    % (name, type(value).__name__))


cdef object evaluate(XPath program, object node, dict variables):
    """The value of the program at `node` (a Document, DocumentFragment or
    any node; an attribute or text result of an earlier evaluation too).
    The document counts as read meanwhile (its Python API refuses changes)."""
    cdef NodeRef context = node_ref_of(node, NULL)
    cdef CDocument* doc = context.node.owner
    cdef Evaluation ev = Evaluation.__new__(Evaluation)
    ev.context_object = node
    doc.readers += 1
    try:
        ev.bind(program, doc, tree_root(context.node))
        if variables:
            ev.variables = {name: variable_value(ev, name, value)
                            for name, value in variables.items()}
        if program.root_flat:
            return python_value(ev, run_flat(ev, program.root_first, program.root_count,
                                             context, 1, 1))
        return python_value(ev, drive(_block_machine(
            ev, program.root_first, program.root_count, <size_t> context.node, context.attr,
            1, 1)))
    finally:
        doc.readers -= 1


cdef class XPath:
    """A compiled XPath 1.0 expression, reusable and safe to share between
    threads: each evaluation binds its names to the document it runs on,
    in memory of its own.

    Made by lexpy.compile_xpath(); called as ``xp(node, **variables)``.
    `path` is the source text."""

    def __cinit__(self):
        self.ops = NULL
        self.steps = NULL
        self.predicates = NULL
        self.names = NULL

    def __init__(self, *args, **kwargs):
        raise TypeError("XPath objects are made by lexpy.compile_xpath()")

    def __dealloc__(self):
        free(self.ops)
        free(self.steps)
        free(self.predicates)
        free(self.names)

    def __repr__(self):
        return "XPath(%r)" % self.source

    @property
    def path(self):
        """The expression it was compiled from."""
        return self.source

    def __call__(self, node, **variables):
        """The value at `node`: a list (a node-set, in document order), a
        float, a bool or a str."""
        return evaluate(self, node, variables)

    def __reduce__(self):
        return (compile_xpath, (self.source, self.namespaces_key and dict(self.namespaces_key)))


cdef bint block_is_trivial(XPath program, uint32_t first, uint32_t count):
    """Whether every step and filter of the block has only predicates that
    run no block (C shapes, constant [n])."""
    cdef uint32_t pc, p
    cdef Op* op
    cdef Step* step
    cdef Predicate* predicate
    for pc in range(first, first + count):
        op = &program.ops[pc]
        if op.kind == OP_FILTER or op.kind == OP_STEP:
            step = &program.steps[op.arg]
            for p in range(step.predicate_count):
                predicate = &program.predicates[step.first_predicate + p]
                if predicate.shape == SHAPE_NONE and predicate.index == 0:
                    return False
    return True


cdef bint block_is_flat(XPath program, uint32_t first, uint32_t count):
    """Whether no op of the block needs the machine: every step or filter
    in it has flat predicates only (no nesting below one predicate)."""
    cdef uint32_t pc
    cdef Op* op
    for pc in range(first, first + count):
        op = &program.ops[pc]
        if (op.kind == OP_FILTER or op.kind == OP_STEP) \
                and not step_is_flat(program, &program.steps[op.arg]):
            return False
    return True


cdef XPath make_xpath(str text, dict namespaces, dict extensions):
    cdef Compiler compiler = Compiler(text, namespaces, extensions)
    cdef XPath program = XPath.__new__(XPath)
    cdef list ops = []
    cdef list offsets = []
    cdef Py_ssize_t i
    cdef list step, predicate, op
    compiler.compile()
    # Flatten the blocks; a block's jumps are relative to its start.
    for block in compiler.blocks:
        offsets.append(len(ops))
        ops.extend(block)
    program.op_count = len(ops)
    program.ops = <Op*> calloc(len(ops) + 1, sizeof(Op))
    program.steps = <Step*> calloc(len(compiler.steps) + 1, sizeof(Step))
    program.predicates = <Predicate*> calloc(len(compiler.predicates) + 1, sizeof(Predicate))
    program.names = <NameSlot*> calloc(len(compiler.names) + 1, sizeof(NameSlot))
    if program.ops == NULL or program.steps == NULL or program.predicates == NULL \
            or program.names == NULL:
        raise MemoryError()
    for i in range(len(ops)):
        op = ops[i]
        program.ops[i].kind = op[0]
        program.ops[i].arg = op[1]
        program.ops[i].count = op[2]
        program.ops[i].number = op[3]
    # Jumps (and/or) become absolute within their block's run: the
    # machine adds the block's first op.
    program.step_count = len(compiler.steps)
    cdef list flat_predicates = []
    for i in range(len(compiler.steps)):
        step = compiler.steps[i]
        program.steps[i].axis = step[0]
        program.steps[i].test = step[1]
        program.steps[i].name = step[2]
        program.steps[i].ns = step[3]
        program.steps[i].target = step[4]
        program.steps[i].first_predicate = len(flat_predicates)
        program.steps[i].predicate_count = len(step[5])
        flat_predicates.extend(step[5])
        program.steps[i].exists = step[6]
        program.steps[i].positional = step[7]
    program.predicates = <Predicate*> realloc(program.predicates,
                                              (len(flat_predicates) + 1) * sizeof(Predicate))
    if program.predicates == NULL:
        raise MemoryError()
    program.predicate_count = len(flat_predicates)
    for i in range(len(flat_predicates)):
        predicate = compiler.predicates[flat_predicates[i]]
        program.predicates[i].first = offsets[predicate[0]]
        program.predicates[i].count = len(compiler.blocks[predicate[0]])
        program.predicates[i].positional = predicate[1]
        program.predicates[i].index = predicate[2]
        shape = predicate_shape(compiler, compiler.blocks[predicate[0]])
        program.predicates[i].shape = shape[0]
        program.predicates[i].shape_step = shape[1]
        program.predicates[i].shape_string = shape[2]
    for i in range(program.step_count):
        program.steps[i].c_only = not program.steps[i].positional and all(
            program.predicates[program.steps[i].first_predicate + p].shape != SHAPE_NONE
            for p in range(program.steps[i].predicate_count))
    # A predicate is flat when it runs no block (a C shape, a constant [n])
    # or when every step and filter of its block has only such predicates:
    # a flat predicate runs by a plain loop that nests no further block.
    # A step whose predicates are all flat runs by a plain loop too (one
    # block level below it at most); anything deeper goes through drive()'s
    # explicit stack, so the C stack stays two levels deep.
    for i in range(program.predicate_count):
        program.predicates[i].flat = program.predicates[i].shape != SHAPE_NONE \
            or program.predicates[i].index != 0 or block_is_trivial(
                program, program.predicates[i].first, program.predicates[i].count)
    program.root_first = offsets[len(compiler.blocks) - 1]
    program.root_count = len(compiler.blocks[len(compiler.blocks) - 1])
    program.root_flat = block_is_flat(program, program.root_first, program.root_count)
    program.name_count = len(compiler.names)
    for i in range(len(compiler.names)):
        program.names[i].lower = compiler.names[i][0]
        program.names[i].exact = compiler.names[i][1]
    program.namespace_count = len(compiler.namespace_slots)
    program.namespace_strings = compiler.namespace_slots
    program.strings = compiler.strings
    program.utf8 = [s.encode(u"utf-8", u"surrogatepass") for s in compiler.strings]
    program.extension_functions = compiler.extension_functions
    program.source = text
    program.namespaces_key = tuple(sorted(namespaces.items())) if namespaces else None
    program.extensions_key = None
    return program


cdef dict check_namespaces(object namespaces):
    if namespaces is None:
        return None
    if not isinstance(namespaces, Mapping):
        raise TypeError("namespaces must be a mapping of prefix to namespace URI, not %s"
                        % type(namespaces).__name__)
    result = {}
    for prefix, uri in namespaces.items():
        if not isinstance(prefix, str) or not isinstance(uri, str):
            raise TypeError("namespaces must map str prefixes to str URIs, not %r: %r"
                            % (prefix, uri))
        result[prefix] = uri
    return result


cdef dict check_extensions(object extensions):
    """extensions= as lxml takes it: a mapping (or a list of mappings) of
    (namespace URI or None, name) or a plain name to a callable."""
    cdef dict result = {}
    if extensions is None:
        return None
    if isinstance(extensions, Mapping):
        extensions = [extensions]
    for mapping in extensions:
        if not isinstance(mapping, Mapping):
            raise TypeError("extensions must be a mapping of names to functions, not %s"
                            % type(mapping).__name__)
        for key, function in mapping.items():
            if not callable(function):
                raise TypeError("the extension %r is not callable" % (key,))
            if isinstance(key, tuple) and len(key) == 2 and isinstance(key[1], str):
                result[(key[0], key[1])] = function
                if key[0] is None:
                    result[key[1]] = function
            elif isinstance(key, str):
                result[key] = function
            else:
                raise TypeError("an extension key must be a name or (namespace, name), not %r"
                                % (key,))
    return result


def compile_xpath(path, namespaces=None, extensions=None):
    """Compile an XPath 1.0 expression once, for reuse.

    `namespaces` maps prefixes to namespace URIs (unprefixed element names
    are HTML elements, matched ASCII case-insensitively, as the HTML
    standard has it; `re:` is EXSLT's regular expressions unless bound
    otherwise); `extensions` maps (namespace URI or None, name) -- or a
    name -- to a Python function called as ``f(context, *arguments)``.
    Raises XPathSyntaxError (a ValueError) for text the grammar rejects."""
    if not isinstance(path, str):
        raise TypeError("path must be a str, not %s" % type(path).__name__)
    return make_xpath(path, check_namespaces(namespaces), check_extensions(extensions))


# The bounded cache of the string-taking DOM method: (text, namespaces)
# -> XPath, the oldest compiled dropped first.
CACHE_SIZE = 512
cdef dict _cache = {}
cdef object _cache_lock = threading.Lock()


cdef XPath cached_xpath(object path, object namespaces):
    cdef dict checked = None
    cdef object key
    cdef XPath program
    if not isinstance(path, str):
        raise TypeError("expr must be a str, not %s" % type(path).__name__)
    if namespaces is None:
        key = path
    else:
        checked = check_namespaces(namespaces)
        key = (path, tuple(sorted(checked.items())))
    found = _cache.get(key)
    if found is not None:
        return <XPath> found
    program = make_xpath(path, checked, None)
    with _cache_lock:
        if len(_cache) >= CACHE_SIZE:
            del _cache[next(iter(_cache))]
        _cache[key] = program
    return program


def xpath(node, expr, namespaces=None, variables=None):
    """node.xpath(expr, namespaces=..., **variables) of the DOM."""
    cdef XPath program = cached_xpath(expr, namespaces)
    if not isinstance(node, Node):
        raise TypeError("node must be a lexpy Node, not %s" % type(node).__name__)
    return evaluate(program, node, variables)



def _smart_string(node, attribute=None):
    """The XPathString a node-set result holds for a Text node, or for the
    attribute named `attribute` (its qualified name) of the element `node`
    (lexpy.parsel's ::text and ::attr() results, made as XPath makes them)."""
    if attribute is None:
        return make_string(node.data, node.parent, False, None, node)
    return make_string(node.get_attribute(attribute), node, True, attribute, None)
