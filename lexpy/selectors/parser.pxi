# The grammar of Selectors Level 4 (https://drafts.csswg.org/selectors-4/#grammar)
# over CSS tokens, compiled straight into a ProgramBuilder. Python-level:
# it runs once per selector text (the API caches compiled selectors).
#
# Nesting (:is(:not(:has(...)))) is parsed by recursion bounded by
# MAX_NESTING: deeper text is a SelectorSyntaxError, so neither the parser
# nor the matcher (whose recursion follows the nesting) can exhaust a stack.

DEF MAX_NESTING = 64

cdef enum SimpleKind:
    S_TYPE = 1                    # name slot + namespace constraint
    S_UNIVERSAL                   # namespace constraint only
    S_ID
    S_CLASS
    S_ATTRIBUTE
    S_NEVER                       # pseudo-elements, user-action and other
                                  # states a static document never has
    S_ROOT
    S_EMPTY
    S_FIRST_CHILD
    S_LAST_CHILD
    S_ONLY_CHILD
    S_FIRST_OF_TYPE
    S_LAST_OF_TYPE
    S_ONLY_OF_TYPE
    S_NTH_CHILD                   # a, b, list (of S) or -1
    S_NTH_LAST_CHILD
    S_NTH_OF_TYPE
    S_NTH_LAST_OF_TYPE
    S_SCOPE
    S_RELATIVE_ANCHOR             # the element a :has() argument is relative to
    S_IS                          # also :where(), :matches(), custom selectors
    S_NOT
    S_HAS
    S_LINK                        # :link, :any-link
    S_CHECKED
    S_DEFAULT
    S_DISABLED
    S_ENABLED
    S_INDETERMINATE
    S_REQUIRED
    S_OPTIONAL
    S_READ_ONLY
    S_READ_WRITE
    S_PLACEHOLDER_SHOWN
    S_DEFINED
    S_IN_RANGE
    S_OUT_OF_RANGE
    S_OPEN
    S_LANG                        # strings: the language ranges
    S_DIR                         # op_: DIR_LTR / DIR_RTL / 0 (never)
    S_CONTAINS                    # strings: any of them in the text content
    S_CONTAINS_OWN                # ... in the element's own text


cdef enum AttributeOperator:
    A_EXISTS = 0
    A_EQUALS                      # [a=v]
    A_INCLUDES                    # [a~=v]
    A_DASH_MATCH                  # [a|=v]
    A_PREFIX                      # [a^=v]
    A_SUFFIX                      # [a$=v]
    A_SUBSTRING                   # [a*=v]
    A_NOT_EQUAL                   # [a!=v] (soupsieve's :not([a=v]))

# Case of an attribute value comparison (SimpleSelector.op >> 8).
cdef enum AttributeCase:
    CASE_HTML_RULES = 0           # the HTML standard's list decides
    CASE_INSENSITIVE = 1          # the i flag
    CASE_SENSITIVE = 2            # the s flag

cdef enum Direction:
    DIR_NONE = 0
    DIR_LTR = 1
    DIR_RTL = 2

DEF NS_CONSTRAINT_ANY = 0x7FFFFFFF
DEF NS_CONSTRAINT_NONE = 0x7FFFFFFE


class SelectorSyntaxError(ValueError):
    """A selector that the grammar of Selectors Level 4 rejects.

    `text` is the selector text, `offset` the index in it where the
    problem is, `expected` what the grammar expected there."""

    def __init__(self, message, text=u"", offset=0, expected=u""):
        self.text = text
        self.offset = offset
        self.expected = expected
        self.message = message
        ValueError.__init__(self, u"%s at offset %d of %r%s" % (
            message, offset, text if len(text) <= 200 else text[:197] + u"...",
            u" (expected %s)" % expected if expected else u""))


class _NestingTooDeep(Exception):
    pass


# Pseudo-elements a browser knows (https://drafts.csswg.org/css-pseudo-4/ and
# friends): they parse, and match no element (an element is never a
# pseudo-element). Any other ::name is an error, as in browsers.
cdef frozenset PSEUDO_ELEMENTS = frozenset([
    u"before", u"after", u"first-line", u"first-letter", u"marker",
    u"placeholder", u"selection", u"backdrop", u"file-selector-button",
    u"cue", u"cue-region", u"target-text", u"spelling-error", u"grammar-error",
    u"details-content", u"view-transition", u"search-text", u"column",
    u"checkmark", u"picker-icon", u"scroll-marker", u"scroll-marker-group",
    u"scroll-button"])
cdef frozenset PSEUDO_ELEMENT_FUNCTIONS = frozenset([
    u"part", u"slotted", u"highlight", u"cue", u"cue-region", u"picker",
    u"view-transition-group", u"view-transition-image-pair",
    u"view-transition-old", u"view-transition-new", u"scroll-button"])
# CSS 2's pseudo-elements keep their one-colon syntax.
cdef frozenset LEGACY_PSEUDO_ELEMENTS = frozenset([
    u"before", u"after", u"first-line", u"first-letter"])

cdef dict PLAIN_PSEUDO_CLASSES = {
    u"root": S_ROOT, u"empty": S_EMPTY,
    u"first-child": S_FIRST_CHILD, u"last-child": S_LAST_CHILD,
    u"only-child": S_ONLY_CHILD, u"first-of-type": S_FIRST_OF_TYPE,
    u"last-of-type": S_LAST_OF_TYPE, u"only-of-type": S_ONLY_OF_TYPE,
    u"scope": S_SCOPE, u"link": S_LINK, u"any-link": S_LINK,
    u"checked": S_CHECKED, u"default": S_DEFAULT, u"disabled": S_DISABLED,
    u"enabled": S_ENABLED, u"indeterminate": S_INDETERMINATE,
    u"required": S_REQUIRED, u"optional": S_OPTIONAL,
    u"read-only": S_READ_ONLY, u"read-write": S_READ_WRITE,
    u"placeholder-shown": S_PLACEHOLDER_SHOWN, u"defined": S_DEFINED,
    u"in-range": S_IN_RANGE, u"out-of-range": S_OUT_OF_RANGE,
    u"open": S_OPEN,
    # States a static document never has: no history, no URL fragment,
    # no pointer, no focus, no media playing, no shadow tree.
    u"visited": S_NEVER, u"target": S_NEVER, u"target-within": S_NEVER,
    u"hover": S_NEVER, u"focus": S_NEVER, u"active": S_NEVER,
    u"focus-visible": S_NEVER, u"focus-within": S_NEVER,
    u"current": S_NEVER, u"past": S_NEVER, u"future": S_NEVER,
    u"paused": S_NEVER, u"playing": S_NEVER, u"local-link": S_NEVER,
    u"user-invalid": S_NEVER, u"user-valid": S_NEVER, u"autofill": S_NEVER,
    u"modal": S_NEVER, u"fullscreen": S_NEVER, u"picture-in-picture": S_NEVER,
    u"popover-open": S_NEVER, u"host": S_NEVER, u"blank": S_NEVER,
}

cdef dict NTH_PSEUDO_CLASSES = {
    u"nth-child": S_NTH_CHILD, u"nth-last-child": S_NTH_LAST_CHILD,
    u"nth-of-type": S_NTH_OF_TYPE, u"nth-last-of-type": S_NTH_LAST_OF_TYPE,
}

# Kept well inside int64 so that index - B cannot overflow.
cdef int64_t AN_PLUS_B_LIMIT = 1 << 60


cdef inline int64_t clamp_int(object value):
    # CSS clamps out-of-range integers (https://www.w3.org/TR/css-values-4/#numeric-ranges).
    if value > AN_PLUS_B_LIMIT:
        return AN_PLUS_B_LIMIT
    if value < -AN_PLUS_B_LIMIT - 1:
        return -AN_PLUS_B_LIMIT - 1
    return value


cdef class SelectorParser:
    """Parses one selector list (a run of tokens) into `builder`."""
    cdef list tokens
    cdef Py_ssize_t pos
    cdef Py_ssize_t end
    cdef ProgramBuilder builder
    cdef str text
    cdef int depth
    cdef dict namespaces
    cdef object custom          # CustomSelectors or None
    cdef bint nested            # inside :is/:where/:not/:has/nth-of-S

    def __init__(self, ProgramBuilder builder, list tokens, Py_ssize_t start,
                 Py_ssize_t end, str text, int depth, dict namespaces,
                 object custom, bint nested):
        self.builder = builder
        self.tokens = tokens
        self.pos = start
        self.end = end
        self.text = text
        self.depth = depth
        self.namespaces = namespaces
        self.custom = custom
        self.nested = nested

    # -- tokens -----------------------------------------------------------

    cdef inline CssToken peek(self, Py_ssize_t ahead=0):
        cdef Py_ssize_t i = self.pos + ahead
        if i >= self.end:
            return EOF_TOKEN
        return <CssToken> self.tokens[i]

    cdef inline bint at_end(self):
        return self.pos >= self.end

    cdef inline bint is_delim(self, CssToken token, str c):
        return token.type == T_DELIM and token.value == c

    cdef void skip_whitespace(self):
        while self.pos < self.end and (<CssToken> self.tokens[self.pos]).type == T_WHITESPACE:
            self.pos += 1

    cdef Py_ssize_t offset(self):
        cdef CssToken token
        if self.pos < self.end:
            return (<CssToken> self.tokens[self.pos]).offset
        if self.end < len(self.tokens):
            return (<CssToken> self.tokens[self.end]).offset
        return len(self.text)

    cdef error(self, str message, str expected=u""):
        raise SelectorSyntaxError(message, self.text, self.offset(), expected)

    cdef Py_ssize_t block_end(self, Py_ssize_t start):
        """Index of the token closing the block opened at tokens[start - 1]
        (a function or '('), or of the end when the input ends first (CSS
        Syntax closes every open block at the end of input)."""
        cdef Py_ssize_t i = start
        cdef int level = 0
        cdef int type
        while i < self.end:
            type = (<CssToken> self.tokens[i]).type
            if type == T_FUNCTION or type == T_LEFT_PAREN or type == T_LEFT_BRACKET \
                    or type == T_LEFT_BRACE:
                level += 1
            elif type == T_RIGHT_PAREN or type == T_RIGHT_BRACKET or type == T_RIGHT_BRACE:
                if level == 0:
                    if type != T_RIGHT_PAREN:
                        self.pos = i
                        self.error(u"unbalanced %r" % (<CssToken> self.tokens[i]).value, u"')'")
                    return i
                level -= 1
            i += 1
        return i

    # -- lists ------------------------------------------------------------

    cdef list split_commas(self):
        """(start, end) of each comma-separated item of the whole range."""
        cdef list items = []
        cdef Py_ssize_t i = self.pos
        cdef Py_ssize_t start = self.pos
        cdef int level = 0
        cdef int type
        while i < self.end:
            type = (<CssToken> self.tokens[i]).type
            if type == T_FUNCTION or type == T_LEFT_PAREN or type == T_LEFT_BRACKET \
                    or type == T_LEFT_BRACE:
                level += 1
            elif type == T_RIGHT_PAREN or type == T_RIGHT_BRACKET or type == T_RIGHT_BRACE:
                level -= 1
            elif type == T_COMMA and level <= 0:
                items.append((start, i))
                start = i + 1
            i += 1
        items.append((start, self.end))
        return items

    cdef int parse_list(self, bint forgiving, bint relative) except -2:
        """A <selector-list> (<complex-selector-list>, or a
        <relative-selector-list> when `relative`) over the whole range,
        compiled; returns its list index. A forgiving list drops the items
        that do not parse (and may be empty)."""
        cdef list complexes = []
        cdef Py_ssize_t start, stop
        cdef SelectorParser item
        for start, stop in self.split_commas():
            item = SelectorParser(self.builder, self.tokens, start, stop, self.text,
                                  self.depth, self.namespaces, self.custom, self.nested)
            item.skip_whitespace()
            while item.end > item.pos and (<CssToken> self.tokens[item.end - 1]).type == T_WHITESPACE:
                item.end -= 1
            if forgiving:
                try:
                    complexes.append(item.parse_complex(relative))
                except SelectorSyntaxError:
                    pass
                continue
            if item.at_end():
                item.error(u"empty selector" if len(self.split_commas()) == 1
                           else u"empty item in a selector list", u"a selector")
            complexes.append(item.parse_complex(relative))
        return self.builder.add_list(complexes)

    # -- complex and compound selectors -------------------------------------

    cdef list parse_complex(self, bint relative):
        """A complex (or relative) selector: [(combinator, compound), ...]
        from the left, compound = list of simple selector tuples."""
        cdef list parts = []
        cdef int combinator = COMBINATOR_NONE
        cdef CssToken token
        cdef bint had_space
        cdef bint pseudo_element = False
        cdef list compound
        if relative:
            combinator = COMBINATOR_DESCENDANT
            token = self.peek()
            if token.type == T_DELIM and token.value in (u">", u"+", u"~"):
                combinator = self.combinator_of(token.value)
                self.pos += 1
                self.skip_whitespace()
            # The anchor: the element the relative selector is relative to.
            parts.append((COMBINATOR_NONE, [(S_RELATIVE_ANCHOR,)]))
        while True:
            if pseudo_element:
                self.error(u"a pseudo-element must be in the last compound selector")
            compound, pseudo_element = self.parse_compound()
            parts.append((combinator, compound))
            had_space = False
            if self.pos < self.end and self.peek().type == T_WHITESPACE:
                had_space = True
                self.skip_whitespace()
            if self.at_end():
                return parts
            token = self.peek()
            if token.type == T_DELIM and token.value in (u">", u"+", u"~"):
                combinator = self.combinator_of(token.value)
                self.pos += 1
                self.skip_whitespace()
                if self.at_end():
                    self.error(u"a combinator must be followed by a selector", u"a selector")
            elif had_space:
                combinator = COMBINATOR_DESCENDANT
            else:
                self.error(u"unexpected %s" % describe(token), u"a combinator, ',' or the end")

    cdef int combinator_of(self, str value):
        if value == u">":
            return COMBINATOR_CHILD
        if value == u"+":
            return COMBINATOR_NEXT_SIBLING
        return COMBINATOR_SUBSEQUENT_SIBLING

    cdef tuple parse_compound(self):
        """(simple selectors, whether a pseudo-element ends it)."""
        cdef list simples = []
        cdef CssToken token
        cdef bint has_type = False
        cdef bint pseudo_element = False
        cdef Py_ssize_t count = 0
        token = self.peek()
        if token.type == T_IDENT or self.is_delim(token, u"*") or self.is_delim(token, u"|"):
            has_type = self.parse_type_selector(simples)
        while not self.at_end():
            token = self.peek()
            if token.type == T_HASH:
                if not token.id_type:
                    self.error(u"%r is not a valid id selector" % (u"#" + token.value),
                               u"an identifier after '#'")
                if pseudo_element:
                    self.error(u"only pseudo-classes may follow a pseudo-element")
                simples.append((S_ID, self.builder.add_string(token.value)))
                self.pos += 1
            elif self.is_delim(token, u"."):
                self.pos += 1
                token = self.peek()
                if token.type != T_IDENT or self.pos >= self.end:
                    self.error(u"expected a class name after '.'", u"an identifier")
                if pseudo_element:
                    self.error(u"only pseudo-classes may follow a pseudo-element")
                simples.append((S_CLASS, self.builder.add_string(token.value)))
                self.pos += 1
            elif token.type == T_LEFT_BRACKET:
                if pseudo_element:
                    self.error(u"only pseudo-classes may follow a pseudo-element")
                self.pos += 1
                simples.append(self.parse_attribute())
            elif token.type == T_COLON:
                self.pos += 1
                if self.peek().type == T_COLON:
                    self.pos += 1
                    self.parse_pseudo_element(False)
                    pseudo_element = True
                    simples.append((S_NEVER,))
                elif self.peek().type == T_IDENT and ascii_lower(self.peek().value) \
                        in LEGACY_PSEUDO_ELEMENTS:
                    self.pos += 1
                    pseudo_element = True
                    simples.append((S_NEVER,))
                else:
                    simples.append(self.parse_pseudo_class())
            else:
                break
            count += 1
        if not has_type and count == 0:
            token = self.peek()
            self.error(u"expected a selector, found %s" % describe(token), u"a selector")
        if not has_type and not self.nested and self.namespaces is not None \
                and u"" in self.namespaces:
            # An omitted universal selector stands for *, in the default
            # namespace (https://drafts.csswg.org/selectors-4/#the-universal-selector).
            simples.insert(0, (S_UNIVERSAL, self.builder.add_namespace(self.namespaces[u""])))
        return simples, pseudo_element

    cdef bint parse_type_selector(self, list simples) except -1:
        # <type-selector> = <wq-name> | <ns-prefix>? '*'
        cdef CssToken first = self.peek()
        cdef CssToken second = self.peek(1)
        cdef CssToken third = self.peek(2)
        cdef object ns                          # constraint
        cdef CssToken name
        if self.is_delim(first, u"|"):
            if self.pos + 1 < self.end and (second.type == T_IDENT or self.is_delim(second, u"*")):
                ns = NS_CONSTRAINT_NONE
                name = second
                self.pos += 2
            else:
                self.error(u"expected a name after '|'", u"an identifier or '*'")
        elif self.is_delim(second, u"|") and self.pos + 2 < self.end \
                and (third.type == T_IDENT or self.is_delim(third, u"*")):
            ns = self.namespace_constraint(first)
            name = third
            self.pos += 3
        else:
            ns = None
            name = first
            self.pos += 1
        if ns is None:
            # No prefix: the default namespace if there is one, else any.
            if self.namespaces is not None and u"" in self.namespaces:
                ns = self.builder.add_namespace(self.namespaces[u""])
            else:
                ns = NS_CONSTRAINT_ANY
        if name.type == T_DELIM:
            simples.append((S_UNIVERSAL, ns))
        else:
            simples.append((S_TYPE, ns, self.builder.add_name(name.value, False)))
        return True

    cdef object namespace_constraint(self, CssToken prefix):
        if prefix.type == T_DELIM:              # '*|'
            return NS_CONSTRAINT_ANY
        if self.namespaces is None or prefix.value not in self.namespaces:
            self.error(u"undeclared namespace prefix %r" % prefix.value,
                       u"a prefix of namespaces=")
        return self.builder.add_namespace(self.namespaces[prefix.value])

    cdef tuple parse_attribute(self):
        # https://drafts.csswg.org/selectors-4/#attribute-selectors
        cdef CssToken token
        cdef object ns = NS_CONSTRAINT_NONE      # no prefix: no namespace
        cdef CssToken name
        cdef int op_ = A_EXISTS
        cdef int value_case = CASE_HTML_RULES
        cdef str value = u""
        cdef str flag
        self.skip_whitespace()
        token = self.peek()
        if self.is_delim(token, u"|") and self.peek(1).type == T_IDENT:
            self.pos += 1
        elif (token.type == T_IDENT or self.is_delim(token, u"*")) \
                and self.is_delim(self.peek(1), u"|") and self.peek(2).type == T_IDENT:
            ns = self.namespace_constraint(token)
            self.pos += 2
        name = self.peek()
        if name.type != T_IDENT or self.at_end():
            self.error(u"expected an attribute name", u"an identifier")
        self.pos += 1
        self.skip_whitespace()
        token = self.peek()
        if token.type == T_RIGHT_BRACKET or self.at_end():
            if not self.at_end():
                self.pos += 1
            return (S_ATTRIBUTE, ns, self.builder.add_name(name.value, True), A_EXISTS)
        if self.is_delim(token, u"="):
            op_ = A_EQUALS
            self.pos += 1
        elif token.type == T_DELIM and token.value in u"~|^$*!" \
                and self.is_delim(self.peek(1), u"="):
            op_ = {u"~": A_INCLUDES, u"|": A_DASH_MATCH, u"^": A_PREFIX,
                        u"$": A_SUFFIX, u"*": A_SUBSTRING, u"!": A_NOT_EQUAL}[token.value]
            self.pos += 2
        else:
            self.error(u"expected an attribute op_ or ']'", u"'=', '~=', '|=', "
                       u"'^=', '$=', '*=' or ']'")
        self.skip_whitespace()
        token = self.peek()
        if (token.type != T_IDENT and token.type != T_STRING) or self.at_end():
            self.error(u"expected an attribute value", u"an identifier or a string")
        value = token.value
        self.pos += 1
        self.skip_whitespace()
        token = self.peek()
        if token.type == T_IDENT and not self.at_end():
            flag = ascii_lower(token.value)
            if flag == u"i":
                value_case = CASE_INSENSITIVE
            elif flag == u"s":
                value_case = CASE_SENSITIVE
            else:
                self.error(u"unknown attribute selector flag %r" % token.value, u"'i' or 's'")
            self.pos += 1
            self.skip_whitespace()
            token = self.peek()
        if self.at_end():
            pass                                # closed by the end of input
        elif token.type == T_RIGHT_BRACKET:
            self.pos += 1
        else:
            self.error(u"unexpected %s in an attribute selector" % describe(token), u"']'")
        return (S_ATTRIBUTE, ns, self.builder.add_name(name.value, True),
                op_ | (value_case << 8), self.builder.add_string(value))

    cdef void parse_pseudo_element(self, bint legacy) except *:
        cdef CssToken token = self.peek()
        cdef str name
        cdef Py_ssize_t close
        if token.type == T_IDENT and not self.at_end():
            name = ascii_lower(token.value)
            if name in PSEUDO_ELEMENTS or name.startswith(u"-webkit-") \
                    or name.startswith(u"-moz-"):
                self.pos += 1
                return
            self.error(u"unknown pseudo-element ::%s" % token.value)
        if token.type == T_FUNCTION and not self.at_end():
            name = ascii_lower(token.value)
            if name in PSEUDO_ELEMENT_FUNCTIONS:
                close = self.block_end(self.pos + 1)
                self.pos = close + 1 if close < self.end else close
                return
            self.error(u"unknown pseudo-element ::%s()" % token.value)
        self.error(u"expected a pseudo-element name after '::'", u"an identifier")

    cdef tuple parse_pseudo_class(self):
        cdef CssToken token = self.peek()
        cdef str name
        cdef Py_ssize_t start, close
        cdef SelectorParser inner
        cdef tuple result
        if self.at_end() or (token.type != T_IDENT and token.type != T_FUNCTION):
            self.error(u"expected a pseudo-class name after ':'", u"an identifier")
        name = ascii_lower(token.value)
        if token.type == T_IDENT:
            self.pos += 1
            if name.startswith(u"--"):
                return (S_IS, self.custom_selector(token))
            if name in PLAIN_PSEUDO_CLASSES:
                return (PLAIN_PSEUDO_CLASSES[name],)
            self.pos -= 1
            if name in (u"not", u"is", u"where", u"matches", u"any", u"has", u"lang",
                        u"dir", u"nth-child", u"nth-last-child", u"nth-of-type",
                        u"nth-last-of-type", u"-soup-contains", u"-soup-contains-own",
                        u"contains", u"host", u"host-context"):
                self.error(u":%s needs arguments" % token.value, u"'('")
            self.error(u"unknown pseudo-class :%s" % token.value)
        # A function: its arguments run to the matching ')'.
        start = self.pos + 1
        close = self.block_end(start)
        if self.depth + 1 > MAX_NESTING:
            raise _NestingTooDeep()
        inner = SelectorParser(self.builder, self.tokens, start, close, self.text,
                               self.depth + 1, self.namespaces, self.custom, True)
        result = inner.parse_function(name, token)
        self.pos = close + 1 if close < self.end else close
        return result

    cdef tuple parse_function(self, str name, CssToken function):
        cdef tuple anb
        cdef int kind
        cdef int list_index
        self.skip_whitespace()
        if name in (u"is", u"where", u"matches", u"any"):
            return (S_IS, self.parse_list(True, False))
        if name == u"not":
            if self.at_end():
                self.error(u":not() needs a selector", u"a selector")
            return (S_NOT, self.parse_list(False, False))
        if name == u"has":
            if self.at_end():
                self.error(u":has() needs a relative selector", u"a selector")
            self.builder.has_count += 1
            return (S_HAS, self.parse_list(False, True))
        if name in (u"host", u"host-context"):
            # Shadow-tree pseudo-classes: no shadow tree, no match.
            self.parse_list(False, False)
            return (S_NEVER,)
        if name in NTH_PSEUDO_CLASSES:
            kind = NTH_PSEUDO_CLASSES[name]
            a, b = self.parse_an_plus_b(kind == S_NTH_CHILD or kind == S_NTH_LAST_CHILD)
            list_index = -1
            if not self.at_end():
                # " of <complex-real-selector-list>"
                self.pos += 1
                self.skip_whitespace()
                list_index = self.parse_list(False, False)
            return (kind, a, b, list_index)
        if name == u"lang":
            return (S_LANG,) + self.builder.add_strings(self.parse_strings(True))
        if name == u"dir":
            return (S_DIR, self.parse_direction())
        if name in (u"-soup-contains", u"contains"):
            self.builder.needs_text = True
            return (S_CONTAINS,) + self.builder.add_strings(self.parse_strings(False))
        if name == u"-soup-contains-own":
            self.builder.needs_text = True
            return (S_CONTAINS_OWN,) + self.builder.add_strings(self.parse_strings(False))
        self.pos -= 1
        self.error(u"unknown pseudo-class :%s()" % function.value)

    cdef tuple parse_an_plus_b(self, bint allow_of):
        # https://www.w3.org/TR/css-syntax-3/#anb-microsyntax
        cdef CssToken token = self.peek()
        cdef object a = None
        cdef object b = 0
        cdef str ident
        cdef bint plus = False
        cdef bint need_signless = False
        cdef int sign = 1
        if self.at_end():
            self.error(u"expected An+B", u"An+B")
        if token.type == T_IDENT and ascii_lower(token.value) in (u"odd", u"even"):
            self.pos += 1
            a, b = (2, 1) if ascii_lower(token.value) == u"odd" else (2, 0)
            return self.finish_an_plus_b(a, b, allow_of)
        if token.type == T_NUMBER:
            if not token.is_integer:
                self.error(u"An+B needs integers", u"an integer")
            self.pos += 1
            return self.finish_an_plus_b(0, token.number, allow_of)
        if self.is_delim(token, u"+") and self.peek(1).type == T_IDENT \
                and self.pos + 1 < self.end:
            plus = True
            self.pos += 1
            token = self.peek()
        if token.type == T_DIMENSION and not plus:
            if not token.is_integer:
                self.error(u"An+B needs integers", u"an integer")
            a = token.number
            ident = ascii_lower(token.unit)
        elif token.type == T_IDENT:
            ident = ascii_lower(token.value)
            if ident.startswith(u"-") and not plus:
                a = -1
                ident = ident[1:]
            else:
                a = 1
        else:
            self.error(u"expected An+B", u"An+B")
        self.pos += 1
        # ident is now what follows A: "n", "n-", or "n-<digits>".
        if ident == u"n":
            need_signless = False
        elif ident == u"n-":
            need_signless = True
        elif ident.startswith(u"n-") and ident[2:].isdigit() and ident[2:].isascii():
            return self.finish_an_plus_b(a, -int(ident[2:]), allow_of)
        else:
            self.pos -= 1
            self.error(u"expected An+B", u"An+B")
        self.skip_whitespace()
        token = self.peek()
        if need_signless:
            if token.type == T_NUMBER and token.is_integer and not token.signed \
                    and not self.at_end():
                self.pos += 1
                return self.finish_an_plus_b(a, -token.number, allow_of)
            self.error(u"expected an integer after 'n-'", u"an integer")
        if self.at_end() or (token.type == T_IDENT and ascii_lower(token.value) == u"of"):
            return self.finish_an_plus_b(a, 0, allow_of)
        if token.type == T_NUMBER and token.is_integer and token.signed:
            self.pos += 1
            return self.finish_an_plus_b(a, token.number, allow_of)
        if self.is_delim(token, u"+") or self.is_delim(token, u"-"):
            sign = 1 if token.value == u"+" else -1
            self.pos += 1
            self.skip_whitespace()
            token = self.peek()
            if token.type == T_NUMBER and token.is_integer and not token.signed \
                    and not self.at_end():
                self.pos += 1
                return self.finish_an_plus_b(a, sign * token.number, allow_of)
            self.error(u"expected an integer", u"an integer")
        self.error(u"unexpected %s in An+B" % describe(token), u"')'")

    cdef tuple finish_an_plus_b(self, object a, object b, bint allow_of):
        cdef CssToken token
        self.skip_whitespace()
        if not self.at_end():
            token = self.peek()
            if not (allow_of and token.type == T_IDENT and ascii_lower(token.value) == u"of"):
                self.error(u"unexpected %s after An+B" % describe(token),
                           u"')'" + (u" or 'of'" if allow_of else u""))
            if self.peek(1).type != T_WHITESPACE:
                self.error(u"expected a space after 'of'", u"' '")
        return clamp_int(a), clamp_int(b)

    cdef list parse_strings(self, bint language):
        """Comma-separated identifiers or strings (:lang(), :-soup-contains())."""
        cdef list values = []
        cdef CssToken token
        while True:
            self.skip_whitespace()
            token = self.peek()
            if self.at_end():
                self.error(u"expected a value", u"an identifier or a string")
            if token.type == T_IDENT or token.type == T_STRING:
                values.append(token.value)
                self.pos += 1
            elif language and self.is_delim(token, u"*"):
                # A wildcard range: "*" or "*-CH" written unquoted.
                self.pos += 1
                if self.peek().type == T_IDENT and not self.at_end() \
                        and self.peek().value.startswith(u"-"):
                    values.append(u"*" + self.peek().value)
                    self.pos += 1
                else:
                    values.append(u"*")
            else:
                self.error(u"unexpected %s" % describe(token), u"an identifier or a string")
            self.skip_whitespace()
            if self.at_end():
                return values
            if self.peek().type != T_COMMA:
                self.error(u"unexpected %s" % describe(self.peek()), u"',' or ')'")
            self.pos += 1

    cdef int parse_direction(self) except -1:
        cdef CssToken token = self.peek()
        cdef str value
        if self.at_end() or token.type != T_IDENT:
            self.error(u":dir() needs 'ltr' or 'rtl'", u"an identifier")
        self.pos += 1
        self.skip_whitespace()
        if not self.at_end():
            self.error(u"unexpected %s in :dir()" % describe(self.peek()), u"')'")
        value = ascii_lower(token.value)
        return DIR_LTR if value == u"ltr" else DIR_RTL if value == u"rtl" else DIR_NONE

    cdef int custom_selector(self, CssToken token) except -1:
        if self.custom is None:
            self.error(u"unknown custom selector :%s" % token.value, u"a name of custom=")
        return (<CustomSelectors> self.custom).resolve(self, token)


cdef CssToken EOF_TOKEN = make_token(T_EOF, u"", 0)


cdef str describe(CssToken token):
    if token.type == T_EOF:
        return u"the end"
    if token.type == T_WHITESPACE:
        return u"whitespace"
    if token.type == T_STRING:
        return u"string %r" % token.value
    if token.type == T_FUNCTION:
        return u"%r" % (token.value + u"(")
    if token.type == T_HASH:
        return u"%r" % (u"#" + token.value)
    return u"%r" % token.value


cdef class CustomSelectors:
    """soupsieve's custom= mapping: ':--name' -> selector text, each
    compiled (once per Program) the first time a selector uses it."""
    cdef dict sources          # lowercased name (without ':') -> text
    cdef dict compiled         # name -> list index
    cdef set resolving

    def __init__(self, dict sources):
        self.sources = sources
        self.compiled = {}
        self.resolving = set()

    cdef int resolve(self, SelectorParser parser, CssToken token) except -1:
        cdef str name = token.value.lower()
        cdef str text
        cdef list tokens
        cdef SelectorParser inner
        cdef int index
        if name in self.compiled:
            return self.compiled[name]
        if name not in self.sources:
            parser.pos -= 1
            parser.error(u"unknown custom selector :%s" % token.value, u"a name of custom=")
        if name in self.resolving:
            parser.pos -= 1
            parser.error(u"custom selector :%s refers to itself" % token.value)
        if parser.depth + 1 > MAX_NESTING:
            raise _NestingTooDeep()
        self.resolving.add(name)
        text = self.sources[name]
        tokens = tokenize_css(text)
        inner = SelectorParser(parser.builder, tokens, 0, len(tokens) - 1, text,
                               parser.depth + 1, parser.namespaces, self, True)
        inner.skip_whitespace()
        index = inner.parse_list(False, False)
        self.resolving.discard(name)
        self.compiled[name] = index
        return index
