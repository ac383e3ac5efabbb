# The grammar of XPath 1.0 (https://www.w3.org/TR/1999/REC-xpath-19991116/#section-Expressions)
# over the tokens of lexer.pxi, compiled in one pass into postfix ops
# (no syntax tree: a long chain such as 1+1+...+1 is a loop, never a deep
# structure). Python-level: it runs once per expression text.
#
# Nesting -- parentheses, predicates, function arguments -- is kept on an
# explicit stack of open contexts (Compiler.compile()), not on the C or
# Python stack: its cost is memory in proportion to the text. At most
# MAX_NESTING contexts may be open at once -- libxml2's bound
# (XPATH_MAX_RECURSION_DEPTH, 5000), so an expression lxml rejects for its
# depth is rejected here too; deeper text is an XPathSyntaxError with the
# offset, never a RecursionError or a crash.
# (The evaluator does not recurse either: evaluate.pxi, drive().)

DEF MAX_NESTING = 5000

cdef enum OpKind:
    OP_NUMBER = 1                 # push number
    OP_LITERAL                    # push strings[arg]
    OP_VARIABLE                   # push the variable strings[arg]
    OP_ROOT                       # push {the root of the context's tree}
    OP_CONTEXT                    # push {the context node}
    OP_STEP                       # node-set -> node-set through steps[arg]
    OP_FILTER                     # node-set -> node-set through steps[arg]'s predicates
    OP_UNION
    OP_OR                         # pop; true: push true and jump to arg
    OP_AND                        # pop; false: push false and jump to arg
    OP_TO_BOOLEAN
    OP_EQUAL
    OP_NOT_EQUAL
    OP_LESS
    OP_LESS_OR_EQUAL
    OP_GREATER
    OP_GREATER_OR_EQUAL
    OP_ADD
    OP_SUBTRACT
    OP_MULTIPLY
    OP_DIVIDE
    OP_MODULO
    OP_NEGATE
    OP_CALL                       # function arg with count arguments

cdef enum Axis:
    AXIS_ANCESTOR = 1
    AXIS_ANCESTOR_OR_SELF
    AXIS_ATTRIBUTE
    AXIS_CHILD
    AXIS_DESCENDANT
    AXIS_DESCENDANT_OR_SELF
    AXIS_FOLLOWING
    AXIS_FOLLOWING_SIBLING
    AXIS_NAMESPACE
    AXIS_PARENT
    AXIS_PRECEDING
    AXIS_PRECEDING_SIBLING
    AXIS_SELF
    AXIS_FILTER                   # not an axis: a filter expression's predicates

cdef dict AXES = {
    u"ancestor": AXIS_ANCESTOR, u"ancestor-or-self": AXIS_ANCESTOR_OR_SELF,
    u"attribute": AXIS_ATTRIBUTE, u"child": AXIS_CHILD, u"descendant": AXIS_DESCENDANT,
    u"descendant-or-self": AXIS_DESCENDANT_OR_SELF, u"following": AXIS_FOLLOWING,
    u"following-sibling": AXIS_FOLLOWING_SIBLING, u"namespace": AXIS_NAMESPACE,
    u"parent": AXIS_PARENT, u"preceding": AXIS_PRECEDING,
    u"preceding-sibling": AXIS_PRECEDING_SIBLING, u"self": AXIS_SELF}

cdef enum NodeTestKind:
    TEST_NAME = 1                 # [prefix:]local
    TEST_ANY_NAME                 # *
    TEST_NAMESPACE_ANY            # prefix:*
    TEST_NODE                     # node()
    TEST_TEXT                     # text()
    TEST_COMMENT                  # comment()
    TEST_PROCESSING_INSTRUCTION   # processing-instruction(['target'])

# Static types of subexpressions (what the compiler knows of a value).
DEF TYPE_NODESET = 1
DEF TYPE_NUMBER = 2
DEF TYPE_STRING = 3
DEF TYPE_BOOLEAN = 4
DEF TYPE_ANY = 5

cdef enum Function:
    FN_LAST = 1
    FN_POSITION
    FN_COUNT
    FN_ID
    FN_LOCAL_NAME
    FN_NAMESPACE_URI
    FN_NAME
    FN_STRING
    FN_CONCAT
    FN_STARTS_WITH
    FN_CONTAINS
    FN_SUBSTRING_BEFORE
    FN_SUBSTRING_AFTER
    FN_SUBSTRING
    FN_STRING_LENGTH
    FN_NORMALIZE_SPACE
    FN_TRANSLATE
    FN_BOOLEAN
    FN_NOT
    FN_TRUE
    FN_FALSE
    FN_LANG
    FN_NUMBER
    FN_SUM
    FN_FLOOR
    FN_CEILING
    FN_ROUND
    FN_RE_TEST                    # EXSLT regular expressions
    FN_RE_MATCH
    FN_RE_REPLACE
    FN_SET_DIFFERENCE             # EXSLT sets
    FN_SET_INTERSECTION
    FN_SET_DISTINCT
    FN_SET_HAS_SAME_NODE
    FN_SET_LEADING
    FN_SET_TRAILING
    FN_HAS_CLASS                  # parsel's has-class()
    FN_EXTENSION                  # a Python function (extensions=); count args

# name -> (id, minimum arguments, maximum (-1: any), result type)
cdef dict CORE_FUNCTIONS = {
    u"last": (FN_LAST, 0, 0, TYPE_NUMBER),
    u"position": (FN_POSITION, 0, 0, TYPE_NUMBER),
    u"count": (FN_COUNT, 1, 1, TYPE_NUMBER),
    u"id": (FN_ID, 1, 1, TYPE_NODESET),
    u"local-name": (FN_LOCAL_NAME, 0, 1, TYPE_STRING),
    u"namespace-uri": (FN_NAMESPACE_URI, 0, 1, TYPE_STRING),
    u"name": (FN_NAME, 0, 1, TYPE_STRING),
    u"string": (FN_STRING, 0, 1, TYPE_STRING),
    u"concat": (FN_CONCAT, 2, -1, TYPE_STRING),
    u"starts-with": (FN_STARTS_WITH, 2, 2, TYPE_BOOLEAN),
    u"contains": (FN_CONTAINS, 2, 2, TYPE_BOOLEAN),
    u"substring-before": (FN_SUBSTRING_BEFORE, 2, 2, TYPE_STRING),
    u"substring-after": (FN_SUBSTRING_AFTER, 2, 2, TYPE_STRING),
    u"substring": (FN_SUBSTRING, 2, 3, TYPE_STRING),
    u"string-length": (FN_STRING_LENGTH, 0, 1, TYPE_NUMBER),
    u"normalize-space": (FN_NORMALIZE_SPACE, 0, 1, TYPE_STRING),
    u"translate": (FN_TRANSLATE, 3, 3, TYPE_STRING),
    u"boolean": (FN_BOOLEAN, 1, 1, TYPE_BOOLEAN),
    u"not": (FN_NOT, 1, 1, TYPE_BOOLEAN),
    u"true": (FN_TRUE, 0, 0, TYPE_BOOLEAN),
    u"false": (FN_FALSE, 0, 0, TYPE_BOOLEAN),
    u"lang": (FN_LANG, 1, 1, TYPE_BOOLEAN),
    u"number": (FN_NUMBER, 0, 1, TYPE_NUMBER),
    u"sum": (FN_SUM, 1, 1, TYPE_NUMBER),
    u"floor": (FN_FLOOR, 1, 1, TYPE_NUMBER),
    u"ceiling": (FN_CEILING, 1, 1, TYPE_NUMBER),
    u"round": (FN_ROUND, 1, 1, TYPE_NUMBER),
    u"has-class": (FN_HAS_CLASS, 1, -1, TYPE_BOOLEAN),
}

EXSLT_REGULAR_EXPRESSIONS = u"http://exslt.org/regular-expressions"
XHTML_NAMESPACE = u"http://www.w3.org/1999/xhtml"
XML_NAMESPACE = u"http://www.w3.org/XML/1998/namespace"

EXSLT_SETS = u"http://exslt.org/sets"

cdef dict EXSLT_SET_FUNCTIONS = {
    u"difference": (FN_SET_DIFFERENCE, 2, 2, TYPE_NODESET),
    u"intersection": (FN_SET_INTERSECTION, 2, 2, TYPE_NODESET),
    u"distinct": (FN_SET_DISTINCT, 1, 1, TYPE_NODESET),
    u"has-same-node": (FN_SET_HAS_SAME_NODE, 2, 2, TYPE_BOOLEAN),
    u"leading": (FN_SET_LEADING, 2, 2, TYPE_NODESET),
    u"trailing": (FN_SET_TRAILING, 2, 2, TYPE_NODESET),
}

cdef dict EXSLT_FUNCTIONS = {
    u"test": (FN_RE_TEST, 2, 3, TYPE_BOOLEAN),
    u"match": (FN_RE_MATCH, 2, 3, TYPE_NODESET),
    u"replace": (FN_RE_REPLACE, 4, 4, TYPE_STRING),
}


# The compiler's contexts (an expression open until its closing token) and
# states (what the next tokens may be).
DEF CTX_TOP = 0                   # the whole expression, up to the end
DEF CTX_PAREN = 1                 # '(' Expr ')'
DEF CTX_PREDICATE = 2             # '[' Expr ']'
DEF CTX_ARGUMENTS = 3             # FunctionName '(' Expr (',' Expr)* ')'

DEF S_OPERAND = 0                 # a UnaryExpr (a PathExpr after '|')
DEF S_STEP = 1                    # a location step
DEF S_AFTER_STEP = 2              # '/' or '//' and a step, or the path's end
DEF S_AFTER_PRIMARY = 3           # a filter's predicates
DEF S_AFTER_FILTER = 4            # '/' or '//' after a filter expression, or its end
DEF S_OPERATOR = 5                # a binary operator, or the context's end

# Binding strength of the binary operators (OrExpr ... UnionExpr) and of
# unary minus, which binds below '|' and above '*' (UnaryExpr).
DEF PREC_NEGATE = 7
cdef dict BINARY_OPERATORS = {
    u"or": (1, OP_OR), u"and": (2, OP_AND),
    u"=": (3, OP_EQUAL), u"!=": (3, OP_NOT_EQUAL),
    u"<": (4, OP_LESS), u"<=": (4, OP_LESS_OR_EQUAL),
    u">": (4, OP_GREATER), u">=": (4, OP_GREATER_OR_EQUAL),
    u"+": (5, OP_ADD), u"-": (5, OP_SUBTRACT),
    u"*": (6, OP_MULTIPLY), u"div": (6, OP_DIVIDE), u"mod": (6, OP_MODULO),
    u"|": (8, OP_UNION),
}


cdef class _Context:
    """An open context of the compiler: its pending operators
    ([precedence, op, the or/and jump op, negations]) and the static types
    of its finished operands."""
    cdef int kind
    cdef list operators
    cdef list types
    cdef list owner                # CTX_PREDICATE: the step or filter it belongs to
    cdef list saved_block          # CTX_PREDICATE: the enclosing block
    cdef bint saved_uses_position
    cdef tuple call                # CTX_ARGUMENTS: the function's token
    cdef list argument_types

    def __cinit__(self, int kind):
        self.kind = kind
        self.operators = []
        self.types = []
        self.argument_types = []


cdef class Compiler:
    """One pass over the tokens without recursion, emitting postfix ops
    into the block being compiled."""
    cdef list tokens
    cdef Py_ssize_t pos
    cdef str text
    cdef dict namespaces
    cdef dict extensions
    cdef list block                # ops of the block being compiled: [kind, arg, count, number]
    cdef list block_stack
    cdef list position_stack       # per open block: uses position()/last()
    cdef bint uses_position
    cdef list blocks               # finished blocks (lists of ops)
    cdef list steps                # [axis, test, name, ns, target, [predicates], exists, positional]
    cdef list predicates           # [block index, positional, index]
    cdef list strings
    cdef dict string_index
    cdef list names                # (lower string, exact string)
    cdef dict name_index
    cdef list namespace_slots      # string index of each URI
    cdef dict namespace_index
    cdef list extension_functions
    cdef bint last_was_double_slash

    def __init__(self, str text, dict namespaces, dict extensions):
        self.text = text
        self.tokens = tokenize_xpath(text)
        self.pos = 0
        self.namespaces = namespaces or {}
        self.extensions = extensions or {}
        self.block = []
        self.block_stack = []
        self.position_stack = []
        self.uses_position = False
        self.blocks = []
        self.steps = []
        self.predicates = []
        self.strings = []
        self.string_index = {}
        self.names = []
        self.name_index = {}
        self.namespace_slots = []
        self.namespace_index = {}
        self.extension_functions = []
        self.last_was_double_slash = False

    # -- tokens ------------------------------------------------------------

    cdef inline tuple peek(self):
        return <tuple> self.tokens[self.pos]

    cdef inline bint at(self, int kind, object value):
        cdef tuple token = <tuple> self.tokens[self.pos]
        return token[0] == kind and token[1] == value

    cdef error(self, str message, Py_ssize_t offset=-1):
        if offset < 0:
            offset = (<tuple> self.tokens[self.pos])[2]
        raise XPathSyntaxError(message, self.text, offset)

    cdef expect_punct(self, str value):
        if not self.at(T_PUNCT, value):
            self.error(u"expected %r" % value)
        self.pos += 1

    # -- emission ----------------------------------------------------------

    cdef inline void emit(self, int kind, long arg=0, long count=0, double number=0.0):
        self.block.append([kind, arg, count, number])
        self.last_was_double_slash = False

    cdef uint32_t intern_string(self, str value):
        found = self.string_index.get(value)
        if found is None:
            found = len(self.strings)
            self.strings.append(value)
            self.string_index[value] = found
        return found

    cdef int name_slot(self, str name):
        found = self.name_index.get(name)
        if found is None:
            found = len(self.names)
            self.names.append((self.intern_string(ascii_lower(name)), self.intern_string(name)))
            self.name_index[name] = found
        return found

    cdef str resolve_prefix(self, str prefix, Py_ssize_t offset):
        uri = self.namespaces.get(prefix)
        if uri is None:
            if prefix == u"xml":
                return XML_NAMESPACE
            self.error(u"undeclared namespace prefix %r" % prefix, offset)
        return uri

    cdef int namespace_slot(self, str uri):
        found = self.namespace_index.get(uri)
        if found is None:
            found = len(self.namespace_slots)
            self.namespace_slots.append(self.intern_string(uri))
            self.namespace_index[uri] = found
        return found

    cdef void mark_exists(self, int value_type):
        """The value just compiled is only used as a boolean: a location
        path's last step may stop at its first node."""
        cdef list op
        if value_type == TYPE_NODESET and self.block:
            op = self.block[-1]
            if op[0] == OP_STEP:
                (<list> self.steps[op[1]])[6] = True

    # -- the grammar -------------------------------------------------------

    cdef compile(self):
        """The whole expression: a loop over an explicit stack of open
        contexts (the expression itself, '(', '[', a call's arguments)
        with an operator stack each (precedence climbing), emitting the
        same postfix ops a recursive descent would. Nesting costs memory
        in proportion to the text, never C or Python stack; it is bounded
        by MAX_NESTING open contexts."""
        cdef list contexts = [_Context(CTX_TOP)]
        cdef _Context ctx
        cdef int state = S_OPERAND
        cdef int value_type = 0
        cdef bint after_union = False
        cdef Py_ssize_t negations
        cdef tuple token
        cdef object binary
        cdef list owner
        while True:
            ctx = <_Context> contexts[len(contexts) - 1]
            if state == S_OPERAND:
                # UnaryExpr ::= UnionExpr | '-' UnaryExpr (after '|': a PathExpr).
                if not after_union:
                    negations = 0
                    while self.at(T_OPERATOR, u"-"):
                        self.pos += 1
                        negations += 1
                    if negations:
                        ctx.operators.append([PREC_NEGATE, OP_NEGATE, None, negations])
                after_union = False
                # PathExpr: an absolute or relative location path, or a filter.
                if self.at(T_OPERATOR, u"/"):
                    self.pos += 1
                    self.emit(OP_ROOT)
                    state = S_STEP if self.starts_step() else S_AFTER_STEP
                elif self.at(T_OPERATOR, u"//"):
                    self.pos += 1
                    self.emit(OP_ROOT)
                    self.emit_double_slash()
                    state = S_STEP
                elif self.starts_step():
                    self.emit(OP_CONTEXT)
                    state = S_STEP
                else:
                    token = self.peek()
                    if token[0] == T_VARIABLE:
                        self.pos += 1
                        self.emit(OP_VARIABLE, self.intern_string(token[1]))
                        value_type = TYPE_ANY
                        state = S_AFTER_PRIMARY
                    elif token[0] == T_LITERAL:
                        self.pos += 1
                        self.emit(OP_LITERAL, self.intern_string(token[1]))
                        value_type = TYPE_STRING
                        state = S_AFTER_PRIMARY
                    elif token[0] == T_NUMBER:
                        self.pos += 1
                        self.emit(OP_NUMBER, 0, 0, token[1])
                        value_type = TYPE_NUMBER
                        state = S_AFTER_PRIMARY
                    elif token[0] == T_PUNCT and token[1] == u"(":
                        self.pos += 1
                        self.open(contexts, _Context(CTX_PAREN))
                    elif token[0] == T_FUNCTION:
                        self.pos += 1
                        self.expect_punct(u"(")
                        ctx = _Context(CTX_ARGUMENTS)
                        ctx.call = token
                        if self.at(T_PUNCT, u")"):
                            self.pos += 1
                            value_type = self.finish_call(ctx)
                            state = S_AFTER_PRIMARY
                        else:
                            self.open(contexts, ctx)
                    elif token[0] == T_END:
                        self.error(u"unexpected end of the expression")
                    else:
                        self.error(u"expected an expression, not %r" % (token[1],))
            elif state == S_STEP:
                owner = self.begin_step()
                if owner is None:
                    state = S_AFTER_STEP
                elif self.at(T_PUNCT, u"["):
                    self.open_predicate(contexts, owner)
                    state = S_OPERAND
                else:
                    self.finish_step(owner)
                    state = S_AFTER_STEP
            elif state == S_AFTER_STEP or state == S_AFTER_FILTER:
                # '/' or '//' continues the path with a step (after a step,
                # or after a filter: PathExpr ::= FilterExpr '/' ...); else
                # the path ends, a node-set after a step, the filter's own
                # value after a filter.
                if self.at(T_OPERATOR, u"/"):
                    self.pos += 1
                    state = S_STEP
                elif self.at(T_OPERATOR, u"//"):
                    self.pos += 1
                    self.emit_double_slash()
                    state = S_STEP
                else:
                    ctx.types.append(TYPE_NODESET if state == S_AFTER_STEP else value_type)
                    state = S_OPERATOR
            elif state == S_AFTER_PRIMARY:
                # FilterExpr ::= PrimaryExpr Predicate*
                if self.at(T_PUNCT, u"["):
                    self.open_predicate(contexts, [AXIS_FILTER, []])
                    state = S_OPERAND
                else:
                    state = S_AFTER_FILTER
            else:
                # S_OPERATOR: a binary operator continues the context's
                # expression; anything else ends it.
                token = self.peek()
                binary = BINARY_OPERATORS.get(token[1]) if token[0] == T_OPERATOR else None
                if binary is not None:
                    self.pos += 1
                    self.reduce(ctx, (<tuple> binary)[0])
                    if (<tuple> binary)[1] == OP_OR or (<tuple> binary)[1] == OP_AND:
                        self.mark_exists(<int> ctx.types[len(ctx.types) - 1])
                        self.emit((<tuple> binary)[1])
                        ctx.operators.append([(<tuple> binary)[0], (<tuple> binary)[1],
                                              self.block[len(self.block) - 1], 0])
                    else:
                        ctx.operators.append([(<tuple> binary)[0], (<tuple> binary)[1], None, 0])
                    after_union = (<tuple> binary)[1] == OP_UNION
                    state = S_OPERAND
                    continue
                self.reduce(ctx, 0)
                value_type = ctx.types.pop()
                if ctx.kind == CTX_TOP:
                    if token[0] != T_END:
                        self.error(u"unexpected %r" % (token[1],))
                    self.blocks.append(self.block)
                    return value_type
                if ctx.kind == CTX_PAREN:
                    self.expect_punct(u")")
                    contexts.pop()
                    state = S_AFTER_PRIMARY
                elif ctx.kind == CTX_ARGUMENTS:
                    ctx.argument_types.append(value_type)
                    if self.at(T_PUNCT, u","):
                        self.pos += 1
                        state = S_OPERAND
                    else:
                        self.expect_punct(u")")
                        contexts.pop()
                        value_type = self.finish_call(ctx)
                        state = S_AFTER_PRIMARY
                else:
                    self.expect_punct(u"]")
                    contexts.pop()
                    owner = ctx.owner
                    (<list> owner[1 if owner[0] == AXIS_FILTER else 5]).append(
                        self.finish_predicate(ctx, value_type))
                    if self.at(T_PUNCT, u"["):
                        self.open_predicate(contexts, owner)
                        state = S_OPERAND
                    elif owner[0] == AXIS_FILTER:
                        self.finish_filter(owner)
                        value_type = TYPE_NODESET
                        state = S_AFTER_FILTER
                    else:
                        self.finish_step(owner)
                        state = S_AFTER_STEP

    cdef int open(self, list contexts, _Context ctx) except -1:
        # (The whole expression is not nesting; the error points at the
        # '(' or '[' just read, the one too deep.)
        if len(contexts) > MAX_NESTING:
            self.error(u"expression nested more than %d deep" % MAX_NESTING,
                       (<tuple> self.tokens[self.pos - 1])[2])
        contexts.append(ctx)
        return 0

    cdef int reduce(self, _Context ctx, int precedence) except -1:
        """Emits the context's pending operators that bind at least as
        tightly as `precedence` (all of them are left-associative)."""
        cdef list operator
        cdef int kind
        cdef list types = ctx.types
        while ctx.operators and (<list> ctx.operators[len(ctx.operators) - 1])[0] >= precedence:
            operator = ctx.operators.pop()
            kind = operator[1]
            if kind == OP_NEGATE:
                # -(-x) is still number(x): negate twice at most.
                self.emit(OP_NEGATE)
                if operator[3] % 2 == 0:
                    self.emit(OP_NEGATE)
                types[len(types) - 1] = TYPE_NUMBER
                continue
            if kind == OP_OR or kind == OP_AND:
                self.mark_exists(<int> types.pop())
                self.emit(OP_TO_BOOLEAN)
                (<list> operator[2])[1] = len(self.block)
                types[len(types) - 1] = TYPE_BOOLEAN
                continue
            types.pop()
            self.emit(kind)
            types[len(types) - 1] = (
                TYPE_NODESET if kind == OP_UNION
                else TYPE_NUMBER if kind >= OP_ADD else TYPE_BOOLEAN)
        return 0

    cdef bint starts_step(self):
        cdef tuple token = self.peek()
        if token[0] == T_NAME_TEST or token[0] == T_AXIS or token[0] == T_NODE_TYPE:
            return True
        return token[0] == T_PUNCT and token[1] in (u"@", u".", u"..")

    cdef void emit_double_slash(self):
        self.steps.append([AXIS_DESCENDANT_OR_SELF, TEST_NODE, -1, -1, -1, [], False, False])
        self.emit(OP_STEP, len(self.steps) - 1)
        self.last_was_double_slash = True

    cdef list begin_step(self):
        """A step's axis and node test; returns the step under construction
        (its predicates follow), or None for '.' and '..' (emitted)."""
        cdef tuple token = self.peek()
        cdef int axis = AXIS_CHILD
        cdef int test, name = -1, ns = -1, target = -1
        cdef str prefix, local
        cdef bint after_double_slash = self.last_was_double_slash
        if token[0] == T_PUNCT and token[1] == u".":
            self.pos += 1
            self.steps.append([AXIS_SELF, TEST_NODE, -1, -1, -1, [], False, False])
            self.emit(OP_STEP, len(self.steps) - 1)
            return None
        if token[0] == T_PUNCT and token[1] == u"..":
            self.pos += 1
            self.steps.append([AXIS_PARENT, TEST_NODE, -1, -1, -1, [], False, False])
            self.emit(OP_STEP, len(self.steps) - 1)
            return None
        if token[0] == T_PUNCT and token[1] == u"@":
            self.pos += 1
            axis = AXIS_ATTRIBUTE
        elif token[0] == T_AXIS:
            if token[1] not in AXES:
                self.error(u"unknown axis %r" % token[1])
            axis = AXES[token[1]]
            self.pos += 1
            self.expect_punct(u"::")
        token = self.peek()
        if token[0] == T_NAME_TEST:
            prefix, local = token[1]
            if prefix is not None:
                ns = self.namespace_slot(self.resolve_prefix(prefix, token[2]))
            if local == u"*":
                test = TEST_ANY_NAME if prefix is None else TEST_NAMESPACE_ANY
            else:
                test = TEST_NAME
                name = self.name_slot(local)
            self.pos += 1
        elif token[0] == T_NODE_TYPE:
            self.pos += 1
            self.expect_punct(u"(")
            if token[1] == u"node":
                test = TEST_NODE
            elif token[1] == u"text":
                test = TEST_TEXT
            elif token[1] == u"comment":
                test = TEST_COMMENT
            else:
                test = TEST_PROCESSING_INSTRUCTION
                if self.peek()[0] == T_LITERAL:
                    target = self.intern_string(self.peek()[1])
                    self.pos += 1
            self.expect_punct(u")")
        else:
            self.error(u"expected a node test")
        return [axis, test, name, ns, target, [], after_double_slash]

    cdef int finish_step(self, list owner) except -1:
        cdef int axis = owner[0], test = owner[1], name = owner[2], ns = owner[3]
        cdef int target = owner[4]
        cdef list predicates = owner[5]
        cdef bint positional = False
        cdef list previous
        for index in predicates:
            if (<list> self.predicates[index])[1]:
                positional = True
        # '//x' without a positional predicate is 'descendant::x' (one walk
        # instead of the children of every node, and already in order).
        if owner[6] and axis == AXIS_CHILD and not positional \
                and self.block and self.block[-1][0] == OP_STEP:
            previous = self.steps[self.block[-1][1]]
            if previous[0] == AXIS_DESCENDANT_OR_SELF and previous[1] == TEST_NODE \
                    and not previous[5]:
                previous[:] = [AXIS_DESCENDANT, test, name, ns, target, predicates, False, False]
                return 0
        self.steps.append([axis, test, name, ns, target, predicates, False, positional])
        self.emit(OP_STEP, len(self.steps) - 1)
        return 0

    cdef int open_predicate(self, list contexts, list owner) except -1:
        """'[' Expr ']': compiled into a block of its own (the context
        keeps the enclosing block until its ']')."""
        cdef _Context ctx = _Context(CTX_PREDICATE)
        self.pos += 1
        ctx.owner = owner
        ctx.saved_block = self.block
        ctx.saved_uses_position = self.uses_position
        self.open(contexts, ctx)
        self.block = []
        self.uses_position = False
        return 0

    cdef int finish_predicate(self, _Context ctx, int value_type) except -1:
        """Closes the predicate's block; returns the predicate's index."""
        cdef list block = self.block
        cdef bint positional
        cdef long index = 0
        positional = self.uses_position or value_type == TYPE_NUMBER or value_type == TYPE_ANY
        if not positional:
            self.mark_exists(value_type)
        if len(block) == 1 and block[0][0] == OP_NUMBER:
            number = block[0][3]
            # A position is a whole number from 1 (and far below 2^62):
            # anything else selects nothing.
            index = <long> number if 1 <= number < 4e18 and number == <long> number else -1
        self.blocks.append(block)
        self.predicates.append([len(self.blocks) - 1, positional, index])
        self.block = ctx.saved_block
        self.uses_position = ctx.saved_uses_position
        return len(self.predicates) - 1

    cdef int finish_filter(self, list owner) except -1:
        cdef list predicates = owner[1]
        cdef bint positional = False
        for index in predicates:
            if (<list> self.predicates[index])[1]:
                positional = True
        self.steps.append([AXIS_FILTER, TEST_NODE, -1, -1, -1, predicates, False, positional])
        self.emit(OP_FILTER, len(self.steps) - 1)
        return 0

    cdef int finish_call(self, _Context ctx) except 0:
        """The call whose arguments are compiled; returns its type."""
        cdef tuple token = ctx.call
        cdef object prefix = token[1][0]
        cdef str local = token[1][1]
        cdef Py_ssize_t offset = token[2]
        cdef list types = ctx.argument_types
        cdef int count = len(types)
        cdef object spec = None
        cdef object uri = None
        cdef str shown = local if prefix is None else u"%s:%s" % (prefix, local)
        if prefix is not None:
            uri = self.namespaces.get(prefix)
            if uri is None and prefix == u"re":
                uri = EXSLT_REGULAR_EXPRESSIONS     # parsel binds re: and set: by default
            if uri is None and prefix == u"set":
                uri = EXSLT_SETS
            if uri is None:
                self.error(u"undeclared namespace prefix %r" % prefix, offset)
        extension = self.extensions.get((uri, local))
        if extension is None and uri is None:
            extension = self.extensions.get(local)
        if extension is not None:
            self.extension_functions.append(extension)
            self.emit(OP_CALL, FN_EXTENSION, count, len(self.extension_functions) - 1)
            return TYPE_ANY
        if uri is None:
            spec = CORE_FUNCTIONS.get(local)
        elif uri == EXSLT_REGULAR_EXPRESSIONS:
            spec = EXSLT_FUNCTIONS.get(local)
        elif uri == EXSLT_SETS:
            spec = EXSLT_SET_FUNCTIONS.get(local)
        if spec is None:
            self.error(u"unknown function %s()" % shown, offset)
        if spec[0] == FN_HAS_CLASS and count == 0:
            self.error(u"has-class must have at least 1 argument", offset)     # parsel's words
        if count < spec[1] or (spec[2] >= 0 and count > spec[2]):
            self.error(u"wrong number of arguments to %s(): %d" % (shown, count), offset)
        if spec[0] == FN_LAST or spec[0] == FN_POSITION:
            self.uses_position = True
        if (spec[0] == FN_NOT or spec[0] == FN_BOOLEAN) and types[0] == TYPE_NODESET:
            self.mark_exists(TYPE_NODESET)
        self.emit(OP_CALL, spec[0], count)
        return spec[3]


cdef str ascii_lower(str text):
    return u"".join([c.lower() if u"A" <= c <= u"Z" else c for c in text]) \
        if not text.isascii() else text.lower()
