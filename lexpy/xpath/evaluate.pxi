# Evaluation of a compiled program: a postfix stack machine per block.
# Values are Python floats, bools, strs, NodeSets (C arrays of NodeRef in
# document order) and, for extension results, lists.
#
# Costs (n nodes in the tree; k nodes in a step's input):
# - a step without predicates: one axis walk per input node, without the
#   GIL; the results of several input nodes are sorted (O(m log m) on m
#   results, after the O(n) ordinal table of the first sort), except on
#   the attribute and self axes, whose results are in order already;
# - '//x' (no positional predicate) is one descendant walk (parser.pxi);
# - a predicate is evaluated once per candidate node: the step's cost
#   times the predicate's; a constant [n] is a compare, and stops each
#   context's walk at the n-th match;
# - a location path whose value is only tested for emptiness (a
#   predicate, not(), boolean(), and/or operands) stops at its first node:
#   '//a[following::a]' walks to the next link only, O(n) in all, and
#   '//*[.//*[.//*]]' looks for one match per level, not all of them;
# - comparisons of node-sets: O(|A| + |B|) (a set of string-values, or the
#   extreme numbers), never the pairwise product;
# - nested evaluation (predicates within predicates) runs on an explicit
#   stack of generators (drive() below), not on the C stack.

import math
import re as _re

cdef object NUMBER_PATTERN = _re.compile(u"[ \t\r\n]*(-?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))[ \t\r\n]*\\Z")
cdef double NAN = float(u"nan")
cdef double INFINITY = float(u"inf")


cdef class NodeSet:
    """A node-set: NodeRefs in document order, without duplicates."""
    cdef NodeList nodes

    def __dealloc__(self):
        free(self.nodes.items)
        self.nodes.items = NULL


cdef NodeSet single_node(NodeRef ref):
    cdef NodeSet result = NodeSet.__new__(NodeSet)
    if node_list_push(&result.nodes, ref) != 0:
        raise MemoryError()
    return result


# -- conversions (https://www.w3.org/TR/1999/REC-xpath-19991116/#corelib) ------

cdef str utf8_text(const uint8_t* data, size_t length):
    if length == 0:
        return u""
    return PyUnicode_DecodeUTF8(<const char*> data, <Py_ssize_t> length, "surrogatepass")


cdef str string_value(NodeRef ref):
    """The string-value of a node (https://www.w3.org/TR/1999/REC-xpath-19991116/#data-model)."""
    cdef CNode* node = ref.node
    cdef CAttr* attr
    cdef CCharacterData* data
    cdef lxp_byte_buffer buffer
    cdef int status
    if ref.attr:
        attr = &(<CElement*> node).attrs[ref.attr - 1]
        return utf8_text(attr.value, attr.value_length)
    if node.type == TEXT_NODE or node.type == CDATA_SECTION_NODE or node.type == COMMENT_NODE \
            or node.type == PROCESSING_INSTRUCTION_NODE:
        data = <CCharacterData*> node
        return utf8_text(data.data, data.length)
    memset(&buffer, 0, sizeof(lxp_byte_buffer))
    with nogil:
        status = text_of_subtree(node, &buffer)
    try:
        if status != 0:
            raise MemoryError()
        return utf8_text(buffer.data, buffer.length)
    finally:
        free(buffer.data)


cdef str number_to_string(double value):
    """XPath's number -> string: no exponent, the shortest digits that
    read back to the same double (https://www.w3.org/TR/1999/REC-xpath-19991116/#function-string)."""
    cdef str text, digits, sign
    cdef long exponent
    if value != value:
        return u"NaN"
    if value == INFINITY:
        return u"Infinity"
    if value == -INFINITY:
        return u"-Infinity"
    if value == 0:
        return u"0"
    text = repr(value)
    if u"e" not in text:
        return text[:-2] if text.endswith(u".0") else text
    sign = u""
    if text[0] == u"-":
        sign = u"-"
        text = text[1:]
    mantissa, _, exp_text = text.partition(u"e")
    exponent = int(exp_text)
    whole, _, fraction = mantissa.partition(u".")
    digits = whole + fraction
    exponent += len(whole)                # the point after this many digits
    if exponent <= 0:
        return sign + u"0." + u"0" * (-exponent) + digits.rstrip(u"0")
    if exponent >= len(digits):
        return sign + digits + u"0" * (exponent - len(digits))
    return sign + digits[:exponent] + u"." + digits[exponent:].rstrip(u"0")


cdef double string_to_number(str text):
    match = NUMBER_PATTERN.match(text)
    if match is None:
        return NAN
    return float(match.group(1))


cdef str to_string(object value):
    if isinstance(value, str):
        return <str> value
    if isinstance(value, NodeSet):
        if (<NodeSet> value).nodes.count == 0:
            return u""
        return string_value((<NodeSet> value).nodes.items[0])
    if isinstance(value, bool):
        return u"true" if value else u"false"
    if isinstance(value, float):
        return number_to_string(<double> value)
    if isinstance(value, list):
        return u"" if not value else to_string((<list> value)[0])
    return number_to_string(float(value))


cdef double to_number(object value) except? -1:
    if isinstance(value, float):
        return <double> value
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, str):
        return string_to_number(<str> value)
    return string_to_number(to_string(value))


cdef bint to_boolean(object value) except -1:
    if isinstance(value, bool):
        return value
    if isinstance(value, NodeSet):
        return (<NodeSet> value).nodes.count != 0
    if isinstance(value, float):
        return value == value and value != 0
    if isinstance(value, str):
        return len(<str> value) != 0
    return bool(value)


cdef NodeSet as_node_set(object value, str what):
    if isinstance(value, NodeSet):
        return <NodeSet> value
    raise XPathEvalError(u"%s needs a node-set, not a %s" % (what, value_type_name(value)))


cdef str value_type_name(object value):
    if isinstance(value, bool):
        return u"boolean"
    if isinstance(value, float):
        return u"number"
    if isinstance(value, str):
        return u"string"
    return u"list"


# -- comparisons (https://www.w3.org/TR/1999/REC-xpath-19991116/#booleans) ----

cdef inline bint compare_numbers(int op, double a, double b):
    if op == OP_EQUAL:
        return a == b
    if op == OP_NOT_EQUAL:
        return a != b
    if op == OP_LESS:
        return a < b
    if op == OP_LESS_OR_EQUAL:
        return a <= b
    if op == OP_GREATER:
        return a > b
    return a >= b


cdef list string_values(NodeSet nodes):
    cdef size_t i
    return [string_value(nodes.nodes.items[i]) for i in range(nodes.nodes.count)]


cdef bint compare_values(int op, object left, object right) except -1:
    cdef bint equality = op == OP_EQUAL or op == OP_NOT_EQUAL
    cdef list values, numbers
    cdef double number
    cdef set others
    if isinstance(left, NodeSet) and isinstance(right, NodeSet):
        values = string_values(<NodeSet> left)
        if equality:
            others = set(string_values(<NodeSet> right))
            if op == OP_EQUAL:
                return any(v in others for v in values)
            # != : some pair differs
            return any(len(others) > 1 or (others and v not in others) for v in values)
        numbers = [string_to_number(v) for v in values]
        others_numbers = [string_to_number(v) for v in string_values(<NodeSet> right)]
        numbers = [x for x in numbers if x == x]
        others_numbers = [x for x in others_numbers if x == x]
        if not numbers or not others_numbers:
            return False
        # Some pair compares true iff the extreme pair does.
        if op == OP_LESS or op == OP_LESS_OR_EQUAL:
            return compare_numbers(op, min(numbers), max(others_numbers))
        return compare_numbers(op, max(numbers), min(others_numbers))
    if isinstance(left, NodeSet) or isinstance(right, NodeSet):
        if isinstance(right, NodeSet):
            return compare_node_set(op, <NodeSet> right, left, True)
        return compare_node_set(op, <NodeSet> left, right, False)
    if equality:
        if isinstance(left, bool) or isinstance(right, bool):
            return (to_boolean(left) == to_boolean(right)) == (op == OP_EQUAL)
        if isinstance(left, float) or isinstance(right, float):
            return compare_numbers(op, to_number(left), to_number(right))
        return (to_string(left) == to_string(right)) == (op == OP_EQUAL)
    return compare_numbers(op, to_number(left), to_number(right))


cdef inline int swapped(int op):
    if op == OP_LESS:
        return OP_GREATER
    if op == OP_LESS_OR_EQUAL:
        return OP_GREATER_OR_EQUAL
    if op == OP_GREATER:
        return OP_LESS
    if op == OP_GREATER_OR_EQUAL:
        return OP_LESS_OR_EQUAL
    return op


cdef bint compare_node_set(int op, NodeSet nodes, object other, bint node_set_on_right) except -1:
    """A node-set against a number, string or boolean: true when some node's
    string-value compares true."""
    cdef size_t i
    cdef double number
    cdef str text
    if node_set_on_right:
        op = swapped(op)
    if isinstance(other, bool):
        if op == OP_EQUAL or op == OP_NOT_EQUAL:
            return ((nodes.nodes.count != 0) == <bint> other) == (op == OP_EQUAL)
        return compare_numbers(op, 1.0 if nodes.nodes.count else 0.0, 1.0 if other else 0.0)
    if isinstance(other, str) and (op == OP_EQUAL or op == OP_NOT_EQUAL):
        text = <str> other
        for i in range(nodes.nodes.count):
            if (string_value(nodes.nodes.items[i]) == text) == (op == OP_EQUAL):
                return True
        return False
    number = to_number(other)
    for i in range(nodes.nodes.count):
        if compare_numbers(op, string_to_number(string_value(nodes.nodes.items[i])), number):
            return True
    return False


cdef double xpath_round(double x):
    # https://www.w3.org/TR/1999/REC-xpath-19991116/#function-round
    cdef double r
    if x != x or x == INFINITY or x == -INFINITY or x == 0:
        return x
    if -0.5 <= x < 0:
        return -0.0
    r = math.floor(x)
    if x - r >= 0.5:
        r += 1
    return r


cdef str xpath_substring(str text, double start, double length, bint has_length):
    # https://www.w3.org/TR/1999/REC-xpath-19991116/#function-substring
    cdef double first = xpath_round(start)
    cdef double end
    cdef Py_ssize_t n = len(text)
    if first != first:
        return u""
    if has_length:
        end = first + xpath_round(length)
        if end != end:
            return u""
    else:
        end = INFINITY
    if first < 1:
        first = 1
    if end > n + 1:
        end = n + 1
    if end <= first:
        return u""
    return text[<Py_ssize_t> first - 1:<Py_ssize_t> end - 1]


cdef str normalize_space(str text):
    cdef str spaced = text.replace(u"\t", u" ").replace(u"\r", u" ").replace(u"\n", u" ")
    return u" ".join([word for word in spaced.split(u" ") if word])


cdef str xpath_translate(str text, str source, str target):
    cdef dict table = {}
    cdef Py_ssize_t i
    for i in range(len(source)):
        if source[i] in table:
            continue                      # the first occurrence decides
        table[source[i]] = target[i] if i < len(target) else None
    return text.translate({ord(k): v for k, v in table.items()})


# -- the machine -------------------------------------------------------------------

cdef class Evaluation:
    """One evaluation of a program on one tree: the names bound to the
    document's ids, the variables, the ordinal table (made on first sort)."""
    cdef XPath program
    cdef Binding binding
    cdef CNode* root
    cdef OrderMap order
    cdef dict variables
    cdef object context_object            # the Python context given (for extensions)

    def __dealloc__(self):
        free(self.binding.tag_lower)
        free(self.binding.tag_exact)
        free(self.binding.attr_lower)
        free(self.binding.attr_exact)
        free(self.binding.namespace_ids)
        free(self.binding.namespace_is_xhtml)
        free(self.binding.string_data)
        free(self.binding.string_length)
        free(self.order.keys)
        free(self.order.ordinals)

    cdef int bind(self, XPath program, CDocument* doc, CNode* root) except -1:
        cdef uint32_t i, count = program.name_count + 1
        cdef Py_ssize_t strings = len(program.utf8) + 1
        cdef bytes data
        self.program = program
        self.root = root
        memset(&self.binding, 0, sizeof(Binding))
        memset(&self.order, 0, sizeof(OrderMap))
        self.binding.doc = doc
        self.binding.tag_lower = <uint32_t*> malloc(count * sizeof(uint32_t))
        self.binding.tag_exact = <uint32_t*> malloc(count * sizeof(uint32_t))
        self.binding.attr_lower = <uint32_t*> malloc(count * sizeof(uint32_t))
        self.binding.attr_exact = <uint32_t*> malloc(count * sizeof(uint32_t))
        self.binding.namespace_ids = <uint32_t*> malloc(
            (program.namespace_count + 1) * sizeof(uint32_t))
        self.binding.namespace_is_xhtml = <uint8_t*> malloc(program.namespace_count + 1)
        self.binding.string_data = <const uint8_t**> malloc(strings * sizeof(uint8_t*))
        self.binding.string_length = <size_t*> malloc(strings * sizeof(size_t))
        if self.binding.tag_lower == NULL or self.binding.tag_exact == NULL \
                or self.binding.attr_lower == NULL or self.binding.attr_exact == NULL \
                or self.binding.namespace_ids == NULL or self.binding.namespace_is_xhtml == NULL \
                or self.binding.string_data == NULL or self.binding.string_length == NULL:
            raise MemoryError()
        for i in range(len(program.utf8)):
            data = <bytes> program.utf8[i]
            self.binding.string_data[i] = <const uint8_t*> PyBytes_AS_STRING(data)
            self.binding.string_length[i] = <size_t> PyBytes_GET_SIZE(data)
        self.bind_names()
        for i in range(program.namespace_count):
            index = program.namespace_strings[i]
            self.binding.namespace_ids[i] = document_namespace_lookup(
                doc, self.binding.string_data[index], self.binding.string_length[index])
            self.binding.namespace_is_xhtml[i] = self.binding.namespace_ids[i] == NS_HTML
        return 0

    cdef int bind_names(self) except -1:
        """The document's ids of the program's names (0: no node has it);
        again when the evaluation interns names (re:match())."""
        cdef XPath program = self.program
        cdef CDocument* doc = self.binding.doc
        cdef NameSlot* slot
        cdef uint32_t i
        for i in range(program.name_count):
            slot = &program.names[i]
            self.binding.tag_lower[i] = tag_id_by_name(
                doc.tag_names, self.binding.string_data[slot.lower],
                self.binding.string_length[slot.lower], False)
            self.binding.tag_exact[i] = tag_id_by_name(
                doc.tag_names, self.binding.string_data[slot.exact],
                self.binding.string_length[slot.exact], False)
            self.binding.attr_lower[i] = attr_id_by_name(
                doc.attr_names, self.binding.string_data[slot.lower],
                self.binding.string_length[slot.lower], False)
            self.binding.attr_exact[i] = attr_id_by_name(
                doc.attr_names, self.binding.string_data[slot.exact],
                self.binding.string_length[slot.exact], False)
        return 0

    cdef int ensure_order(self) except -1:
        """The ordinal table (made once per evaluation: O(n))."""
        cdef int status = 0
        if self.order.capacity == 0:
            with nogil:
                status = order_map_build(&self.order, self.root)
            if status != 0:
                raise MemoryError()
        return 0

    cdef int sort(self, NodeSet nodes) except -1:
        cdef int status = 0
        if nodes.nodes.count < 2:
            return 0
        with nogil:
            if self.order.capacity == 0:
                status = order_map_build(&self.order, self.root)
            if status == 0:
                status = sort_node_list(&nodes.nodes, &self.order)
        if status != 0:
            raise MemoryError()
        return 0

    cdef object variable(self, str name):
        if self.variables is None or name not in self.variables:
            raise XPathEvalError(u"undefined variable $%s" % name)
        return self.variables[name]

    cdef int quick_predicate(self, Predicate* predicate, NodeRef node,
                             size_t position) except -2:
        """A predicate's verdict when no expression has to run: 1 or 0, or
        -1 (evaluate it)."""
        if predicate.index > 0:
            return <size_t> predicate.index == position
        if predicate.index < 0:
            return 0
        if predicate.shape:
            return shape_true(&self.binding, self.program, predicate, node)
        return -1

    cdef NodeSet step_in_c(self, Step* step, NodeSet input):
        """A location step (https://www.w3.org/TR/1999/REC-xpath-19991116/#location-paths)
        whose predicates, if any, are fast.pxi's shapes: walks and compares
        only, without the GIL."""
        cdef NodeSet result = NodeSet.__new__(NodeSet)
        cdef NodeList* out = &result.nodes
        cdef AxisWalk walk
        cdef NodeRef node
        cdef size_t i
        cdef bint principal_attribute = step.axis == AXIS_ATTRIBUTE
        cdef int status = 0
        cdef Binding* binding = &self.binding
        with nogil:
            for i in range(input.nodes.count):
                axis_start(&walk, step.axis, input.nodes.items[i])
                while axis_next(&walk, &node):
                    if node_test(binding, step, node, principal_attribute) \
                            and shapes_true(binding, self.program, step, node):
                        if node_list_push(out, node) != 0:
                            status = -1
                            break
                        if step.exists:
                            break
                if status != 0 or (step.exists and out.count):
                    break
        if status != 0:
            raise MemoryError()
        self.step_order(step, input, result)
        return result

    cdef int step_order(self, Step* step, NodeSet input, NodeSet result) except -1:
        """A step's result in document order (one input node: the axis's
        order, reversed on a reverse axis; several: sorted, except on the
        attribute and self axes, whose results are in order already)."""
        if step.exists and result.nodes.count > 1:
            result.nodes.count = 1
        elif input.nodes.count > 1:
            if step.axis != AXIS_ATTRIBUTE and step.axis != AXIS_SELF:
                self.sort(result)
        elif axis_is_reverse(step.axis):
            node_list_reverse(&result.nodes)
        return 0

    cdef NodeSet union(self, NodeSet left, NodeSet right):
        cdef NodeSet result = NodeSet.__new__(NodeSet)
        cdef size_t i
        for i in range(left.nodes.count):
            if node_list_push(&result.nodes, left.nodes.items[i]) != 0:
                raise MemoryError()
        for i in range(right.nodes.count):
            if node_list_push(&result.nodes, right.nodes.items[i]) != 0:
                raise MemoryError()
        self.sort(result)
        return result

    cdef int call(self, Op* op, list stack, NodeRef context, size_t position,
                  size_t size) except -1:
        cdef uint32_t count = op.count
        cdef list args = stack[len(stack) - count:] if count else []
        if count:
            del stack[len(stack) - count:]
        stack.append(call_function(self, op.arg, <Py_ssize_t> op.number, args, context,
                                   position, size))
        return 0


# -- steps and filters whose predicates are all flat: plain loops ---------------------

cdef inline bint step_is_flat(XPath program, Step* step) noexcept nogil:
    cdef uint32_t p
    for p in range(step.predicate_count):
        if not program.predicates[step.first_predicate + p].flat:
            return False
    return True


cdef bint flat_predicate_true(Evaluation ev, Predicate* predicate, NodeRef node,
                              size_t position, size_t size) except -1:
    cdef int verdict = ev.quick_predicate(predicate, node, position)
    if verdict >= 0:
        return verdict
    return predicate_verdict(run_flat(ev, predicate.first, predicate.count, node, position,
                                      size), position)


cdef int apply_flat(Evaluation ev, Step* step, NodeList* candidates, uint32_t from_predicate,
                    NodeList* out) except -1:
    """The candidates (in the axis's proximity order) that pass the step's
    predicates from `from_predicate` on, appended to out."""
    cdef NodeList current = candidates[0]
    cdef NodeList kept
    cdef uint32_t p
    cdef size_t i, size
    cdef Predicate* predicate
    cdef bint owned = False
    try:
        for p in range(from_predicate, step.predicate_count):
            predicate = &ev.program.predicates[step.first_predicate + p]
            memset(&kept, 0, sizeof(NodeList))
            size = current.count
            for i in range(size):
                if flat_predicate_true(ev, predicate, current.items[i], i + 1, size):
                    if node_list_push(&kept, current.items[i]) != 0:
                        free(kept.items)
                        raise MemoryError()
            if owned:
                free(current.items)
            current = kept
            owned = True
        for i in range(current.count):
            if node_list_push(out, current.items[i]) != 0:
                raise MemoryError()
    finally:
        if owned:
            free(current.items)
    return 0


cdef NodeSet step_flat(Evaluation ev, Step* step, NodeSet input):
    """A location step whose predicates are flat."""
    cdef NodeSet result = NodeSet.__new__(NodeSet)
    cdef NodeList* out = &result.nodes
    cdef NodeList candidates
    cdef AxisWalk walk
    cdef NodeRef node
    cdef size_t i, limit
    cdef uint32_t p
    cdef bint principal_attribute = step.axis == AXIS_ATTRIBUTE
    cdef bint passed
    cdef Binding* binding = &ev.binding
    cdef Predicate* first_predicate
    if not step.positional:
        for i in range(input.nodes.count):
            axis_start(&walk, step.axis, input.nodes.items[i])
            while axis_next(&walk, &node):
                if not node_test(binding, step, node, principal_attribute):
                    continue
                passed = True
                for p in range(step.predicate_count):
                    if not flat_predicate_true(
                            ev, &ev.program.predicates[step.first_predicate + p], node, 0, 0):
                        passed = False
                        break
                if passed:
                    if node_list_push(out, node) != 0:
                        raise MemoryError()
                    if step.exists:
                        break
            if step.exists and out.count:
                break
    else:
        first_predicate = &ev.program.predicates[step.first_predicate]
        limit = <size_t> first_predicate.index if first_predicate.index > 0 else 0
        memset(&candidates, 0, sizeof(NodeList))
        try:
            for i in range(input.nodes.count):
                candidates.count = 0
                axis_start(&walk, step.axis, input.nodes.items[i])
                while axis_next(&walk, &node):
                    if node_test(binding, step, node, principal_attribute):
                        if node_list_push(&candidates, node) != 0:
                            raise MemoryError()
                        if limit and candidates.count == limit:
                            break
                if candidates.count == 0:
                    continue
                if limit:
                    if candidates.count == limit:
                        candidates.items[0] = candidates.items[limit - 1]
                        candidates.count = 1
                        apply_flat(ev, step, &candidates, 1, out)
                else:
                    apply_flat(ev, step, &candidates, 0, out)
        finally:
            free(candidates.items)
    ev.step_order(step, input, result)
    return result


# -- the machines: nested evaluation without recursion on the C stack ------------
#
# A block, a step with predicates and a filter are generators that yield
# the evaluation they need next (a predicate's block at a node) instead of
# calling it; drive() keeps them on an explicit stack and hands each value
# back. However deep the predicates nest, the C stack holds drive(), one
# machine and at most two plain loops below it: a flat predicate (one that
# nests nothing, api.pxi) runs by run_flat()/step_flat() directly, which
# keeps the common cases as fast as a direct call.

cdef object drive(object machine):
    """The value of `machine`, running the machines it asks for first."""
    cdef list frames = [machine]
    cdef object value = None
    cdef object request
    while True:
        try:
            request = (<object> frames[len(frames) - 1]).send(value)
        except StopIteration as done:
            frames.pop()
            value = done.value
            if not frames:
                return value
            continue
        frames.append(request)
        value = None


cdef inline NodeRef make_ref(size_t address, uint32_t attr):
    cdef NodeRef ref
    ref.node = <CNode*> address
    ref.attr = attr
    return ref


cdef inline bint predicate_verdict(object value, size_t position) except -1:
    # A number is true at its position; anything else by boolean().
    if isinstance(value, float):
        return <double> value == <double> position
    return to_boolean(value)


cdef int execute_op(Evaluation ev, Op* op, list stack, NodeRef context, size_t position,
                    size_t size, uint32_t first, uint32_t* pc) except -1:
    """One op of a block, but a step or filter whose predicates need the
    machine (the callers run those)."""
    cdef int kind = op.kind
    cdef object left, right, value
    cdef NodeRef root_ref
    cdef XPath program = ev.program
    if kind == OP_STEP:
        if program.steps[op.arg].predicate_count == 0 or program.steps[op.arg].c_only:
            stack[-1] = ev.step_in_c(&program.steps[op.arg],
                                     as_node_set(stack[-1], u"a location step"))
        else:
            stack[-1] = step_flat(ev, &program.steps[op.arg],
                                  as_node_set(stack[-1], u"a location step"))
    elif kind == OP_FILTER:
        value = as_node_set(stack[-1], u"a predicate")
        result = NodeSet.__new__(NodeSet)
        apply_flat(ev, &program.steps[op.arg], &(<NodeSet> value).nodes, 0,
                   &(<NodeSet> result).nodes)
        stack[-1] = result
    elif kind == OP_CONTEXT:
        stack.append(single_node(context))
    elif kind == OP_ROOT:
        root_ref.node = ev.root
        root_ref.attr = 0
        stack.append(single_node(root_ref))
    elif kind == OP_NUMBER:
        stack.append(op.number)
    elif kind == OP_LITERAL:
        stack.append(program.strings[op.arg])
    elif kind == OP_EQUAL or kind == OP_NOT_EQUAL or kind == OP_LESS \
            or kind == OP_LESS_OR_EQUAL or kind == OP_GREATER \
            or kind == OP_GREATER_OR_EQUAL:
        right = stack.pop()
        stack[-1] = compare_values(kind, stack[-1], right)
    elif kind == OP_AND or kind == OP_OR:
        value = stack.pop()
        if to_boolean(value) == (kind == OP_OR):
            stack.append(kind == OP_OR)
            pc[0] = first + op.arg
    elif kind == OP_TO_BOOLEAN:
        stack[-1] = to_boolean(stack[-1])
    elif kind == OP_CALL:
        ev.call(op, stack, context, position, size)
    elif kind == OP_UNION:
        right = stack.pop()
        stack[-1] = ev.union(as_node_set(stack[-1], u"'|'"), as_node_set(right, u"'|'"))
    elif kind == OP_VARIABLE:
        stack.append(ev.variable(program.strings[op.arg]))
    elif kind == OP_NEGATE:
        stack[-1] = -to_number(stack[-1])
    else:
        right = to_number(stack.pop())
        left = to_number(stack[-1])
        if kind == OP_ADD:
            stack[-1] = <double> left + <double> right
        elif kind == OP_SUBTRACT:
            stack[-1] = <double> left - <double> right
        elif kind == OP_MULTIPLY:
            stack[-1] = <double> left * <double> right
        elif kind == OP_DIVIDE:
            stack[-1] = divide(left, right)
        else:
            stack[-1] = fmod(left, right) if right != 0 else NAN
    return 0


cdef object run_flat(Evaluation ev, uint32_t first, uint32_t count, NodeRef context,
                     size_t position, size_t size):
    """The value of a flat block (no step or filter in it needs the
    machine: it nests nothing) by a plain loop."""
    cdef list stack = []
    cdef uint32_t pc = first
    cdef uint32_t end = first + count
    cdef Op* op
    while pc < end:
        op = &ev.program.ops[pc]
        pc += 1
        execute_op(ev, op, stack, context, position, size, first, &pc)
    return stack[-1]


def _block_machine(Evaluation ev, uint32_t first, uint32_t count, size_t context_address,
                   uint32_t context_attr, size_t position, size_t size):
    """The value of the block of ops [first, first + count) at the context
    (node, position, size), asking drive() for what nests."""
    cdef list stack = []
    cdef uint32_t pc = first
    cdef uint32_t end = first + count
    cdef Op* op
    cdef NodeRef context = make_ref(context_address, context_attr)
    cdef Step* step
    cdef XPath program = ev.program
    while pc < end:
        op = &program.ops[pc]
        pc += 1
        if op.kind == OP_STEP:
            step = &program.steps[op.arg]
            if not step_is_flat(program, step):
                stack[-1] = yield _step_machine(ev, op.arg,
                                                as_node_set(stack[-1], u"a location step"))
                continue
        elif op.kind == OP_FILTER and not step_is_flat(program, &program.steps[op.arg]):
            value = as_node_set(stack[-1], u"a predicate")
            result = NodeSet.__new__(NodeSet)
            yield from _apply_machine(ev, op.arg, value, 0, result)
            stack[-1] = result
            continue
        execute_op(ev, op, stack, context, position, size, first, &pc)
    return stack[-1]


def _apply_machine(Evaluation ev, uint32_t step_index, NodeSet candidates,
                  uint32_t from_predicate, NodeSet out):
    """The candidates (in the axis's proximity order) that pass the step's
    predicates from `from_predicate` on, appended to out."""
    cdef Step* step = &ev.program.steps[step_index]
    cdef NodeSet current = candidates
    cdef NodeSet kept
    cdef uint32_t p
    cdef size_t i, size
    cdef Predicate* predicate
    cdef int verdict
    cdef NodeRef node
    for p in range(from_predicate, step.predicate_count):
        predicate = &ev.program.predicates[step.first_predicate + p]
        kept = NodeSet.__new__(NodeSet)
        size = current.nodes.count
        for i in range(size):
            node = current.nodes.items[i]
            verdict = ev.quick_predicate(predicate, node, i + 1)
            if verdict < 0:
                if predicate.flat:
                    value = run_flat(ev, predicate.first, predicate.count, node, i + 1, size)
                else:
                    value = yield _block_machine(ev, predicate.first, predicate.count,
                                                 <size_t> node.node, node.attr, i + 1, size)
                predicate = &ev.program.predicates[step.first_predicate + p]
                verdict = predicate_verdict(value, i + 1)
            if verdict:
                if node_list_push(&kept.nodes, current.nodes.items[i]) != 0:
                    raise MemoryError()
        current = kept
    for i in range(current.nodes.count):
        if node_list_push(&out.nodes, current.nodes.items[i]) != 0:
            raise MemoryError()


def _step_machine(Evaluation ev, uint32_t step_index, NodeSet input):
    """A location step with predicates that need the machine."""
    cdef Step* step = &ev.program.steps[step_index]
    cdef NodeSet result = NodeSet.__new__(NodeSet)
    cdef NodeSet candidates
    cdef AxisWalk walk
    cdef NodeRef node
    cdef size_t i, limit
    cdef uint32_t p
    cdef bint principal_attribute = step.axis == AXIS_ATTRIBUTE
    cdef bint passed
    cdef int verdict
    cdef Predicate* predicate
    if not step.positional:
        for i in range(input.nodes.count):
            axis_start(&walk, step.axis, input.nodes.items[i])
            while axis_next(&walk, &node):
                if not node_test(&ev.binding, step, node, principal_attribute):
                    continue
                passed = True
                for p in range(step.predicate_count):
                    predicate = &ev.program.predicates[step.first_predicate + p]
                    verdict = ev.quick_predicate(predicate, node, 0)
                    if verdict < 0:
                        if predicate.flat:
                            value = run_flat(ev, predicate.first, predicate.count, node, 0, 0)
                        else:
                            value = yield _block_machine(ev, predicate.first, predicate.count,
                                                         <size_t> node.node, node.attr, 0, 0)
                        verdict = to_boolean(value)
                    if not verdict:
                        passed = False
                        break
                if passed:
                    if node_list_push(&result.nodes, node) != 0:
                        raise MemoryError()
                    if step.exists:
                        break
            if step.exists and result.nodes.count:
                break
    else:
        predicate = &ev.program.predicates[step.first_predicate]
        # [n] first: each context's walk stops at its n-th node.
        limit = <size_t> predicate.index if predicate.index > 0 else 0
        for i in range(input.nodes.count):
            candidates = NodeSet.__new__(NodeSet)
            axis_start(&walk, step.axis, input.nodes.items[i])
            while axis_next(&walk, &node):
                if node_test(&ev.binding, step, node, principal_attribute):
                    if node_list_push(&candidates.nodes, node) != 0:
                        raise MemoryError()
                    if limit and candidates.nodes.count == limit:
                        break
            if limit:
                if candidates.nodes.count == limit:
                    candidates.nodes.items[0] = candidates.nodes.items[limit - 1]
                    candidates.nodes.count = 1
                    yield from _apply_machine(ev, step_index, candidates, 1, result)
            else:
                yield from _apply_machine(ev, step_index, candidates, 0, result)
    ev.step_order(step, input, result)
    return result


cdef inline bint shapes_true(Binding* binding, XPath program, Step* step,
                             NodeRef node) noexcept nogil:
    cdef uint32_t p
    for p in range(step.predicate_count):
        if not shape_true(binding, program, &program.predicates[step.first_predicate + p], node):
            return False
    return True


cdef double divide(double left, double right):
    # IEEE 754 division: x div 0 is an infinity (signed by both zeros), 0 div 0 NaN.
    if right == 0:
        if left == 0 or left != left:
            return NAN
        return INFINITY if (left > 0) == (copysign(1.0, right) > 0) else -INFINITY
    return left / right
