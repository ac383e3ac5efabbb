# The tokenizer of CSS Syntax Level 3 (https://www.w3.org/TR/css-syntax-3/#tokenization),
# over the selector text as a str. Selector text is short and compiled once
# (then cached), so this runs as plain Python-level code; matching, the hot
# part, never sees a token.

# Token types (https://www.w3.org/TR/css-syntax-3/#tokenization).
cdef enum TokenType:
    T_IDENT = 1
    T_FUNCTION
    T_AT_KEYWORD
    T_HASH
    T_STRING
    T_BAD_STRING
    T_URL
    T_BAD_URL
    T_DELIM
    T_NUMBER
    T_PERCENTAGE
    T_DIMENSION
    T_WHITESPACE
    T_CDO
    T_CDC
    T_COLON
    T_SEMICOLON
    T_COMMA
    T_LEFT_BRACKET
    T_RIGHT_BRACKET
    T_LEFT_PAREN
    T_RIGHT_PAREN
    T_LEFT_BRACE
    T_RIGHT_BRACE
    T_EOF


cdef class CssToken:
    """One token: its type, its value (the name, string or delimiter with
    escapes resolved), where it starts in the selector text, and for
    numbers the numeric value, whether it is an integer, whether it had a
    sign, and a dimension's unit; for a hash whether it is of type id."""
    cdef public int type
    cdef public str value
    cdef public Py_ssize_t offset
    cdef public object number
    cdef public bint is_integer
    cdef public bint signed
    cdef public str unit
    cdef public bint id_type

    def __repr__(self):
        return "CssToken(%d, %r @%d)" % (self.type, self.value, self.offset)


cdef inline CssToken make_token(int type, str value, Py_ssize_t offset):
    cdef CssToken token = CssToken.__new__(CssToken)
    token.type = type
    token.value = value
    token.offset = offset
    token.number = None
    token.unit = None
    return token


cdef str preprocess(str text):
    # https://www.w3.org/TR/css-syntax-3/#input-preprocessing
    if u"\r" in text or u"\x0c" in text:
        text = text.replace(u"\r\n", u"\n").replace(u"\r", u"\n").replace(u"\x0c", u"\n")
    if u"\x00" in text:
        text = text.replace(u"\x00", u"\ufffd")
    return text


cdef inline bint is_name_start(Py_UCS4 c):
    return (u'a' <= c <= u'z') or (u'A' <= c <= u'Z') or c == u'_' or c >= 0x80


cdef inline bint is_name_char(Py_UCS4 c):
    return is_name_start(c) or (u'0' <= c <= u'9') or c == u'-'


cdef inline bint is_digit(Py_UCS4 c):
    return u'0' <= c <= u'9'


cdef inline bint is_hex(Py_UCS4 c):
    return is_digit(c) or (u'a' <= c <= u'f') or (u'A' <= c <= u'F')


cdef inline bint is_css_whitespace(Py_UCS4 c):
    return c == u' ' or c == u'\t' or c == u'\n'


cdef class CssTokenizer:
    cdef str text
    cdef Py_ssize_t pos
    cdef Py_ssize_t n

    def __init__(self, str text):
        self.text = preprocess(text)
        self.pos = 0
        self.n = len(self.text)

    cdef inline Py_UCS4 at(self, Py_ssize_t i):
        # U+0000 stands for "past the end": preprocessing removed every NUL.
        return self.text[i] if i < self.n else 0

    cdef bint valid_escape(self, Py_ssize_t i):
        # https://www.w3.org/TR/css-syntax-3/#starts-with-a-valid-escape
        # (a backslash at the end of input is a valid escape: it gives U+FFFD)
        return i < self.n and self.text[i] == u'\\' and (i + 1 >= self.n or self.text[i + 1] != u'\n')

    cdef bint starts_ident(self, Py_ssize_t i):
        # https://www.w3.org/TR/css-syntax-3/#would-start-an-identifier
        cdef Py_UCS4 c = self.at(i)
        if c == u'-':
            c = self.at(i + 1)
            return is_name_start(c) or c == u'-' or self.valid_escape(i + 1)
        if is_name_start(c):
            return True
        return self.valid_escape(i)

    cdef bint starts_number(self, Py_ssize_t i):
        # https://www.w3.org/TR/css-syntax-3/#starts-with-a-number
        cdef Py_UCS4 c = self.at(i)
        if c == u'+' or c == u'-':
            c = self.at(i + 1)
            return is_digit(c) or (c == u'.' and is_digit(self.at(i + 2)))
        if c == u'.':
            return is_digit(self.at(i + 1))
        return is_digit(c)

    cdef str consume_escape(self):
        # https://www.w3.org/TR/css-syntax-3/#consume-escaped-code-point
        # (self.pos is just after the backslash)
        cdef Py_ssize_t start
        cdef long value
        cdef Py_UCS4 c
        if self.pos >= self.n:
            return u"\ufffd"
        c = self.text[self.pos]
        if is_hex(c):
            start = self.pos
            while self.pos < self.n and self.pos - start < 6 and is_hex(self.text[self.pos]):
                self.pos += 1
            value = int(self.text[start:self.pos], 16)
            if self.pos < self.n and is_css_whitespace(self.text[self.pos]):
                self.pos += 1
            if value == 0 or 0xD800 <= value <= 0xDFFF or value > 0x10FFFF:
                return u"\ufffd"
            return chr(value)
        self.pos += 1
        return c

    cdef str consume_name(self):
        # https://www.w3.org/TR/css-syntax-3/#consume-name
        cdef list parts = []
        cdef Py_ssize_t start = self.pos
        cdef Py_UCS4 c
        while self.pos < self.n:
            c = self.text[self.pos]
            if is_name_char(c):
                self.pos += 1
            elif self.valid_escape(self.pos):
                parts.append(self.text[start:self.pos])
                self.pos += 1
                parts.append(self.consume_escape())
                start = self.pos
            else:
                break
        parts.append(self.text[start:self.pos])
        return u"".join(parts)

    cdef CssToken consume_number(self, Py_ssize_t offset):
        # https://www.w3.org/TR/css-syntax-3/#consume-number and
        # #consume-numeric-token
        cdef Py_ssize_t start = self.pos
        cdef bint integer = True
        cdef bint signed = False
        cdef Py_UCS4 c = self.at(self.pos)
        cdef CssToken token
        cdef str repr_
        if c == u'+' or c == u'-':
            signed = True
            self.pos += 1
        while is_digit(self.at(self.pos)):
            self.pos += 1
        if self.at(self.pos) == u'.' and is_digit(self.at(self.pos + 1)):
            integer = False
            self.pos += 2
            while is_digit(self.at(self.pos)):
                self.pos += 1
        c = self.at(self.pos)
        if (c == u'e' or c == u'E') and (is_digit(self.at(self.pos + 1)) or (
                (self.at(self.pos + 1) == u'+' or self.at(self.pos + 1) == u'-')
                and is_digit(self.at(self.pos + 2)))):
            integer = False
            self.pos += 2
            while is_digit(self.at(self.pos)):
                self.pos += 1
        repr_ = self.text[start:self.pos]
        if self.starts_ident(self.pos):
            token = make_token(T_DIMENSION, repr_, offset)
            token.unit = self.consume_name()
        elif self.at(self.pos) == u'%':
            self.pos += 1
            token = make_token(T_PERCENTAGE, repr_, offset)
        else:
            token = make_token(T_NUMBER, repr_, offset)
        token.is_integer = integer
        token.signed = signed
        token.number = int(repr_) if integer else float(repr_)
        return token

    cdef CssToken consume_string(self, Py_UCS4 quote, Py_ssize_t offset):
        # https://www.w3.org/TR/css-syntax-3/#consume-string-token
        cdef list parts = []
        cdef Py_ssize_t start = self.pos
        cdef Py_UCS4 c
        while self.pos < self.n:
            c = self.text[self.pos]
            if c == quote:
                parts.append(self.text[start:self.pos])
                self.pos += 1
                return make_token(T_STRING, u"".join(parts), offset)
            if c == u'\n':
                parts.append(self.text[start:self.pos])
                return make_token(T_BAD_STRING, u"".join(parts), offset)
            if c == u'\\':
                parts.append(self.text[start:self.pos])
                self.pos += 1
                if self.pos >= self.n:
                    pass
                elif self.text[self.pos] == u'\n':
                    self.pos += 1
                else:
                    parts.append(self.consume_escape())
                start = self.pos
                continue
            self.pos += 1
        parts.append(self.text[start:self.pos])
        return make_token(T_STRING, u"".join(parts), offset)   # EOF: a parse error only

    cdef CssToken consume_url(self, Py_ssize_t offset):
        # https://www.w3.org/TR/css-syntax-3/#consume-url-token
        cdef list parts = []
        cdef Py_UCS4 c
        while is_css_whitespace(self.at(self.pos)):
            self.pos += 1
        while self.pos < self.n:
            c = self.text[self.pos]
            if c == u')':
                self.pos += 1
                return make_token(T_URL, u"".join(parts), offset)
            if is_css_whitespace(c):
                while is_css_whitespace(self.at(self.pos)):
                    self.pos += 1
                if self.pos >= self.n or self.at(self.pos) == u')':
                    if self.pos < self.n:
                        self.pos += 1
                    return make_token(T_URL, u"".join(parts), offset)
                break
            if c == u'"' or c == u"'" or c == u'(' or c < 0x20 or c == 0x7F:
                break
            if c == u'\\':
                if self.valid_escape(self.pos):
                    self.pos += 1
                    parts.append(self.consume_escape())
                    continue
                break
            parts.append(c)
            self.pos += 1
        else:
            return make_token(T_URL, u"".join(parts), offset)
        # the remnants of a bad url
        while self.pos < self.n:
            c = self.text[self.pos]
            if c == u')':
                self.pos += 1
                break
            if self.valid_escape(self.pos):
                self.pos += 1
                self.consume_escape()
            else:
                self.pos += 1
        return make_token(T_BAD_URL, u"", offset)

    cdef CssToken consume_ident_like(self, Py_ssize_t offset):
        # https://www.w3.org/TR/css-syntax-3/#consume-ident-like-token
        cdef str name = self.consume_name()
        cdef Py_ssize_t look
        if self.at(self.pos) == u'(':
            self.pos += 1
            if ascii_lower(name) == u"url":
                look = self.pos
                while is_css_whitespace(self.at(look)):
                    look += 1
                if self.at(look) != u'"' and self.at(look) != u"'":
                    return self.consume_url(offset)
            return make_token(T_FUNCTION, name, offset)
        return make_token(T_IDENT, name, offset)

    cdef bint skip_comments(self):
        # https://www.w3.org/TR/css-syntax-3/#consume-comments
        cdef Py_ssize_t end
        cdef bint skipped = False
        while self.at(self.pos) == u'/' and self.at(self.pos + 1) == u'*':
            end = self.text.find(u"*/", self.pos + 2)
            self.pos = self.n if end < 0 else end + 2
            skipped = True
        return skipped

    cdef CssToken next_token(self):
        # https://www.w3.org/TR/css-syntax-3/#consume-token
        cdef Py_UCS4 c
        cdef Py_ssize_t offset
        cdef CssToken token
        self.skip_comments()
        offset = self.pos
        if self.pos >= self.n:
            return make_token(T_EOF, u"", offset)
        c = self.text[self.pos]
        if is_css_whitespace(c):
            while is_css_whitespace(self.at(self.pos)):
                self.pos += 1
            return make_token(T_WHITESPACE, u" ", offset)
        if c == u'"' or c == u"'":
            self.pos += 1
            return self.consume_string(c, offset)
        if c == u'#':
            if is_name_char(self.at(self.pos + 1)) or self.valid_escape(self.pos + 1):
                self.pos += 1
                token = make_token(T_HASH, u"", offset)
                token.id_type = self.starts_ident(self.pos)
                token.value = self.consume_name()
                return token
        elif c == u'(':
            self.pos += 1
            return make_token(T_LEFT_PAREN, u"(", offset)
        elif c == u')':
            self.pos += 1
            return make_token(T_RIGHT_PAREN, u")", offset)
        elif c == u'+' or c == u'.':
            if self.starts_number(self.pos):
                return self.consume_number(offset)
        elif c == u',':
            self.pos += 1
            return make_token(T_COMMA, u",", offset)
        elif c == u'-':
            if self.starts_number(self.pos):
                return self.consume_number(offset)
            if self.at(self.pos + 1) == u'-' and self.at(self.pos + 2) == u'>':
                self.pos += 3
                return make_token(T_CDC, u"-->", offset)
            if self.starts_ident(self.pos):
                return self.consume_ident_like(offset)
        elif c == u':':
            self.pos += 1
            return make_token(T_COLON, u":", offset)
        elif c == u';':
            self.pos += 1
            return make_token(T_SEMICOLON, u";", offset)
        elif c == u'<':
            if self.text.startswith(u"<!--", self.pos):
                self.pos += 4
                return make_token(T_CDO, u"<!--", offset)
        elif c == u'@':
            if self.starts_ident(self.pos + 1):
                self.pos += 1
                return make_token(T_AT_KEYWORD, self.consume_name(), offset)
        elif c == u'[':
            self.pos += 1
            return make_token(T_LEFT_BRACKET, u"[", offset)
        elif c == u']':
            self.pos += 1
            return make_token(T_RIGHT_BRACKET, u"]", offset)
        elif c == u'{':
            self.pos += 1
            return make_token(T_LEFT_BRACE, u"{", offset)
        elif c == u'}':
            self.pos += 1
            return make_token(T_RIGHT_BRACE, u"}", offset)
        elif c == u'\\':
            if self.valid_escape(self.pos):
                return self.consume_ident_like(offset)
        elif is_digit(c):
            return self.consume_number(offset)
        elif is_name_start(c):
            return self.consume_ident_like(offset)
        self.pos += 1
        return make_token(T_DELIM, c, offset)


cdef list tokenize_css(str text):
    """Every token of `text`, ending with an EOF token."""
    cdef CssTokenizer tokenizer = CssTokenizer(text)
    cdef list tokens = []
    cdef CssToken token
    while True:
        token = tokenizer.next_token()
        tokens.append(token)
        if token.type == T_EOF:
            return tokens


cdef str ascii_lower(str value):
    # ASCII lowercase only (CSS keywords are ASCII case-insensitive; U+0130
    # must not become "i").
    if value.isascii():
        return value.lower()
    return u"".join([c.lower() if u'A' <= c <= u'Z' else c for c in value])
