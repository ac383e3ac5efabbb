# XPath 1.0 expression lexical structure (https://www.w3.org/TR/1999/REC-xpath-19991116/#exprlex).
# Python-level: it runs once per expression text (the API caches compiled
# expressions). Tokens are tuples (kind, value, offset); a name test's value
# is (prefix or None, local name or "*").

DEF T_END = 0
DEF T_NUMBER = 1
DEF T_LITERAL = 2
DEF T_VARIABLE = 3
DEF T_NAME_TEST = 4
DEF T_NODE_TYPE = 5
DEF T_FUNCTION = 6
DEF T_AXIS = 7
DEF T_OPERATOR = 8              # and or mod div * / // | + - = != < <= > >=
DEF T_PUNCT = 9                 # ( ) [ ] . .. @ , ::


class XPathSyntaxError(ValueError):
    """An expression that the grammar of XPath 1.0 rejects, or that names
    an undeclared prefix, an unknown function or gives one a wrong number
    of arguments.

    `expression` is the text, `offset` the index in it where the problem is."""

    def __init__(self, message, expression=u"", offset=0):
        self.expression = expression
        self.offset = offset
        self.message = message
        ValueError.__init__(self, u"%s at offset %d of %r" % (
            message, offset,
            expression if len(expression) <= 200 else expression[:197] + u"..."))


class XPathEvalError(ValueError):
    """An expression that fails while it is evaluated: a variable that was
    not given, a value of the wrong type where a node-set is needed."""


cdef frozenset NODE_TYPES = frozenset([u"comment", u"text", u"processing-instruction", u"node"])
cdef frozenset OPERATOR_NAMES = frozenset([u"and", u"or", u"mod", u"div"])
cdef str XML_SPACE = u" \t\r\n"


cdef inline bint is_name_start(Py_UCS4 c):
    # NCName start characters (XML Names, approximated by Unicode letters
    # beyond ASCII, as the tokenizer of a browser does).
    return (u"a" <= c <= u"z") or (u"A" <= c <= u"Z") or c == u"_" or (
        c >= 0xC0 and c != 0xD7 and c != 0xF7 and c != 0x37E and not (0x2000 <= c <= 0x206F))


cdef inline bint is_name_char(Py_UCS4 c):
    return is_name_start(c) or (u"0" <= c <= u"9") or c == u"-" or c == u"." or c == 0xB7


cdef Py_ssize_t skip_space(str text, Py_ssize_t i):
    cdef Py_ssize_t n = len(text)
    while i < n and text[i] in XML_SPACE:
        i += 1
    return i


cdef Py_ssize_t scan_ncname(str text, Py_ssize_t i):
    cdef Py_ssize_t n = len(text)
    if i >= n or not is_name_start(text[i]):
        return i
    i += 1
    while i < n and is_name_char(text[i]):
        i += 1
    return i


cdef list tokenize_xpath(str text):
    """The tokens of `text`, ending with T_END; XPathSyntaxError for a
    character no token starts with."""
    cdef list tokens = []
    cdef Py_ssize_t n = len(text)
    cdef Py_ssize_t i = 0, start, j, k
    cdef Py_UCS4 c
    cdef str name, prefix, two
    cdef bint operator_context
    while True:
        i = skip_space(text, i)
        if i >= n:
            tokens.append((T_END, None, n))
            return tokens
        start = i
        c = text[i]
        # The disambiguation rule of the lexical structure: after a token
        # that is not @ :: ( [ , or an operator, * and names are operators.
        operator_context = False
        if tokens:
            last = tokens[-1]
            if last[0] == T_OPERATOR:
                operator_context = False
            elif last[0] == T_PUNCT and last[1] in (u"@", u"::", u"(", u"[", u","):
                operator_context = False
            else:
                operator_context = True
        two = text[i:i + 2]
        if c == u"(" or c == u")" or c == u"[" or c == u"]" or c == u"@" or c == u",":
            tokens.append((T_PUNCT, text[i], start))
            i += 1
        elif two == u"::":
            tokens.append((T_PUNCT, u"::", start))
            i += 2
        elif c == u".":
            if two == u"..":
                tokens.append((T_PUNCT, u"..", start))
                i += 2
            elif i + 1 < n and u"0" <= text[i + 1] <= u"9":
                j = i + 1
                while j < n and u"0" <= text[j] <= u"9":
                    j += 1
                tokens.append((T_NUMBER, float(text[i:j]), start))
                i = j
            else:
                tokens.append((T_PUNCT, u".", start))
                i += 1
        elif u"0" <= c <= u"9":
            j = i
            while j < n and u"0" <= text[j] <= u"9":
                j += 1
            if j < n and text[j] == u".":
                j += 1
                while j < n and u"0" <= text[j] <= u"9":
                    j += 1
            tokens.append((T_NUMBER, float(text[i:j]), start))
            i = j
        elif c == u'"' or c == u"'":
            j = text.find(c, i + 1)
            if j < 0:
                raise XPathSyntaxError(u"unterminated string literal", text, start)
            tokens.append((T_LITERAL, text[i + 1:j], start))
            i = j + 1
        elif c == u"$":
            j = scan_ncname(text, i + 1)
            if j == i + 1:
                raise XPathSyntaxError(u"a variable name must follow '$'", text, start)
            if j + 1 < n and text[j] == u":" and text[j + 1] != u":":
                k = scan_ncname(text, j + 1)
                if k == j + 1:
                    raise XPathSyntaxError(u"a local name must follow the prefix", text, j + 1)
                j = k
            tokens.append((T_VARIABLE, text[i + 1:j], start))
            i = j
        elif two == u"//":
            tokens.append((T_OPERATOR, u"//", start))
            i += 2
        elif two == u"!=" or two == u"<=" or two == u">=":
            tokens.append((T_OPERATOR, two, start))
            i += 2
        elif c == u"/" or c == u"|" or c == u"+" or c == u"-" or c == u"=" or c == u"<" \
                or c == u">":
            tokens.append((T_OPERATOR, text[i], start))
            i += 1
        elif c == u"*":
            if operator_context:
                tokens.append((T_OPERATOR, u"*", start))
            else:
                tokens.append((T_NAME_TEST, (None, u"*"), start))
            i += 1
        elif is_name_start(c):
            j = scan_ncname(text, i)
            name = text[i:j]
            if operator_context:
                if name not in OPERATOR_NAMES:
                    raise XPathSyntaxError(u"expected an operator, not %r" % name, text, start)
                tokens.append((T_OPERATOR, name, start))
                i = j
                continue
            prefix = None
            if j + 1 < n and text[j] == u":" and text[j + 1] != u":":
                if text[j + 1] == u"*":
                    tokens.append((T_NAME_TEST, (name, u"*"), start))
                    i = j + 2
                    continue
                k = scan_ncname(text, j + 1)
                if k == j + 1:
                    raise XPathSyntaxError(u"a local name must follow the prefix", text, j + 1)
                prefix = name
                name = text[j + 1:k]
                j = k
            k = skip_space(text, j)
            if k < n and text[k] == u"(":
                if prefix is None and name in NODE_TYPES:
                    tokens.append((T_NODE_TYPE, name, start))
                else:
                    tokens.append((T_FUNCTION, (prefix, name), start))
            elif prefix is None and text[k:k + 2] == u"::":
                tokens.append((T_AXIS, name, start))
            else:
                tokens.append((T_NAME_TEST, (prefix, name), start))
            i = j
        else:
            raise XPathSyntaxError(u"unexpected character %r" % c, text, start)
