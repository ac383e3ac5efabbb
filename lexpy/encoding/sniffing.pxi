# Determining the character encoding (https://html.spec.whatwg.org/multipage/parsing.html#determining-the-character-encoding)
# BOM sniffing, the encoding sniffing algorithm, the prescan with its "get an
# attribute" and "get an XML encoding", and the algorithm for extracting a
# character encoding from a meta element.


# BOM sniff (https://encoding.spec.whatwg.org/#bom-sniff)
cdef int bom_sniff(const uint8_t* data, size_t length,
                   size_t* bom_length) noexcept nogil:
    bom_length[0] = 0
    if length >= 3 and data[0] == 0xEF and data[1] == 0xBB and data[2] == 0xBF:
        bom_length[0] = 3
        return ENCODING_UTF_8
    if length >= 2 and data[0] == 0xFE and data[1] == 0xFF:
        bom_length[0] = 2
        return ENCODING_UTF_16BE
    if length >= 2 and data[0] == 0xFF and data[1] == 0xFE:
        bom_length[0] = 2
        return ENCODING_UTF_16LE
    return ENCODING__NONE


# encoding sniffing algorithm (https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm)
# Run over the bytes available so far. Step 2 (a user override) and steps 6-7
# (container document, remembered encoding) have no counterpart here; step 8
# (autodetection) is the input byte stream's, on an outcome `from_default`
# (autodetection.pxi); the caller's default is step 9's.
cdef SniffOutcome sniff_encoding(const uint8_t* data, size_t length,
                                 int transport_encoding, int default_encoding,
                                 size_t prescan_limit) noexcept nogil:
    cdef SniffOutcome outcome
    cdef size_t bom_length, scanned
    cdef bint bom_may_follow = length < 3 and (length == 0 or is_bom_prefix(data, length))
    cdef bint found_by_meta = False
    outcome.bom_length = 0
    outcome.from_default = False
    # 1. BOM sniffing.
    outcome.encoding = bom_sniff(data, length, &bom_length)
    if outcome.encoding != ENCODING__NONE:
        outcome.confidence = CONFIDENCE_CERTAIN
        outcome.bom_length = bom_length
        outcome.decided = True
        return outcome
    # 4. The transport layer's encoding.
    if transport_encoding != ENCODING__NONE:
        outcome.encoding = transport_encoding
        outcome.confidence = CONFIDENCE_CERTAIN
        outcome.decided = not bom_may_follow
        return outcome
    # (A streaming caller waits for up to prescan_limit bytes: step 3.)
    # 5. The prescan, over the first prescan_limit bytes (its end condition).
    scanned = length if length < prescan_limit else prescan_limit
    outcome.encoding = prescan_bytes(data, scanned, &found_by_meta)
    if outcome.encoding != ENCODING__NONE:
        outcome.confidence = CONFIDENCE_TENTATIVE
        outcome.decided = ((found_by_meta or length >= prescan_limit)
                           and not bom_may_follow)
        return outcome
    # 9. The default.
    outcome.encoding = (default_encoding if default_encoding != ENCODING__NONE
                        else ENCODING_WINDOWS_1252)
    outcome.confidence = CONFIDENCE_TENTATIVE
    outcome.from_default = True
    outcome.decided = length >= prescan_limit and not bom_may_follow
    return outcome


# Not in the standard: the index of the first byte of data[p:length] equal
# to `byte` (length when none), by memchr: the prescan's runs to the next
# '<', '>' or closing quote are skipped without a byte loop.
cdef inline size_t find_byte(const uint8_t* data, size_t p, size_t length,
                             uint8_t byte) noexcept nogil:
    cdef const void* found
    if p >= length:
        return length
    found = memchr(data + p, byte, length - p)
    return length if found == NULL else <size_t> (<const uint8_t*> found - data)


cdef inline bint is_space(uint8_t c) noexcept nogil:
    # 0x09, 0x0A, 0x0C, 0x0D, 0x20: the prescan's spaces (ASCII whitespace)
    return is_ascii_whitespace(c)


cdef inline bint is_ascii_alpha(uint8_t c) noexcept nogil:
    return (0x41 <= c <= 0x5A) or (0x61 <= c <= 0x7A)


# Whether data[start:end] is an ASCII case-insensitive match for `word`
# (lowercase). Helper of lexpy.
cdef inline bint matches(const uint8_t* data, size_t start, size_t end,
                         const char* word) noexcept nogil:
    cdef size_t i = 0
    while start + i < end:
        if word[i] == 0 or ascii_lower(data[start + i]) != <uint8_t>word[i]:
            return False
        i += 1
    return word[i] == 0


cdef bint is_content_type_pragma(const uint8_t* value, size_t length) noexcept nogil:
    return matches(value, 0, length, "content-type")


# What "get an attribute" found.
cdef enum AttributeResult:
    ATTRIBUTE_FOUND
    ATTRIBUTE_NONE            # no attribute: position is at a '>'
    ATTRIBUTE_OUT_OF_BYTES    # the prescan runs out of bytes: abort it


cdef struct SniffedAttribute:
    size_t name_start, name_end
    size_t value_start, value_end
    # The algorithm lowercases the name and value it builds; callers compare
    # these ranges ASCII case-insensitively instead.


# get an attribute (https://html.spec.whatwg.org/multipage/parsing.html#concept-get-attributes-when-sniffing)
cdef AttributeResult get_an_attribute(const uint8_t* data, size_t length,
                                      size_t* position,
                                      SniffedAttribute* attribute) noexcept nogil:
    cdef size_t p = position[0]
    cdef uint8_t c, quote
    # 1.
    while p < length and (is_space(data[p]) or data[p] == 0x2F):
        p += 1
    if p >= length:
        return ATTRIBUTE_OUT_OF_BYTES
    # 2.
    if data[p] == 0x3E:
        position[0] = p
        return ATTRIBUTE_NONE
    # 3.-5. The attribute name.
    attribute.name_start = p
    attribute.value_start = attribute.value_end = p
    while True:
        if p >= length:
            return ATTRIBUTE_OUT_OF_BYTES
        c = data[p]
        if c == 0x3D and p > attribute.name_start:
            attribute.name_end = p
            p += 1
            break                       # to "value"
        if is_space(c):
            attribute.name_end = p
            # 6. Spaces.
            while p < length and is_space(data[p]):
                p += 1
            if p >= length:
                return ATTRIBUTE_OUT_OF_BYTES
            # 7.
            if data[p] != 0x3D:
                attribute.value_start = attribute.value_end = p
                position[0] = p
                return ATTRIBUTE_FOUND
            # 8.
            p += 1
            break
        if c == 0x2F or c == 0x3E:
            attribute.name_end = p
            attribute.value_start = attribute.value_end = p
            position[0] = p
            return ATTRIBUTE_FOUND
        p += 1
    # 9. Value.
    while p < length and is_space(data[p]):
        p += 1
    if p >= length:
        return ATTRIBUTE_OUT_OF_BYTES
    # 10.
    c = data[p]
    if c == 0x22 or c == 0x27:
        quote = c
        p += 1
        attribute.value_start = p
        p = find_byte(data, p, length, quote)
        if p >= length:
            return ATTRIBUTE_OUT_OF_BYTES
        attribute.value_end = p
        position[0] = p + 1
        return ATTRIBUTE_FOUND
    if c == 0x3E:
        attribute.value_start = attribute.value_end = p
        position[0] = p
        return ATTRIBUTE_FOUND
    attribute.value_start = p
    p += 1
    # 11.-12.
    while p < length and not (is_space(data[p]) or data[p] == 0x3E):
        p += 1
    if p >= length:
        return ATTRIBUTE_OUT_OF_BYTES
    attribute.value_end = p
    position[0] = p
    return ATTRIBUTE_FOUND


cdef enum:
    # charset before a charset or content attribute is seen: the "null
    # value", distinct from failure (ENCODING__NONE).
    CHARSET_NULL = -2
    # The prescan ran out of bytes inside a <meta>.
    META_OUT_OF_BYTES = -3


# The <meta> branch of the prescan, with *position at the space or slash
# after "<meta". Returns the encoding, ENCODING__NONE to go on with the next
# byte, or META_OUT_OF_BYTES.
cdef int prescan_meta(const uint8_t* data, size_t length,
                      size_t* position) noexcept nogil:
    cdef SniffedAttribute attribute
    cdef AttributeResult result
    cdef bint seen_http_equiv = False, seen_content = False, seen_charset = False
    cdef bint got_pragma = False
    cdef int need_pragma = -1           # null
    cdef int charset = CHARSET_NULL
    cdef int extracted
    while True:
        # Attributes.
        result = get_an_attribute(data, length, position, &attribute)
        if result == ATTRIBUTE_OUT_OF_BYTES:
            return META_OUT_OF_BYTES
        if result == ATTRIBUTE_NONE:
            break
        # Only three names matter, so the attribute list is three flags.
        if matches(data, attribute.name_start, attribute.name_end, "http-equiv"):
            if seen_http_equiv:
                continue
            seen_http_equiv = True
            if matches(data, attribute.value_start, attribute.value_end, "content-type"):
                got_pragma = True
        elif matches(data, attribute.name_start, attribute.name_end, "content"):
            if seen_content:
                continue
            seen_content = True
            extracted = extract_encoding_from_meta(
                data + attribute.value_start, attribute.value_end - attribute.value_start)
            if extracted != ENCODING__NONE and charset == CHARSET_NULL:
                charset = extracted
                need_pragma = 1
        elif matches(data, attribute.name_start, attribute.name_end, "charset"):
            if seen_charset:
                continue
            seen_charset = True
            charset = encoding_for_label(
                data + attribute.value_start, attribute.value_end - attribute.value_start)
            need_pragma = 0
    # Processing.
    if need_pragma == -1:
        return ENCODING__NONE
    if need_pragma == 1 and not got_pragma:
        return ENCODING__NONE
    if charset == ENCODING__NONE:        # failure
        return ENCODING__NONE
    if is_utf16(charset):
        return ENCODING_UTF_8
    if charset == ENCODING_X_USER_DEFINED:
        return ENCODING_WINDOWS_1252
    return charset


# prescan a byte stream to determine its encoding (https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding)
# Its end condition is the end of data[0:length]. *found_by_meta tells
# whether the result came before the bytes ran out (so that more bytes could
# not change it).
cdef int prescan_bytes(const uint8_t* data, size_t length, bint* found_by_meta) noexcept nogil:
    cdef size_t position = 0, p
    cdef int charset
    cdef uint8_t c
    found_by_meta[0] = False
    # 2. UTF-16 XML declarations ('<?x' in UTF-16LE or UTF-16BE).
    if length >= 6:
        if memcmp(data, b"<\x00?\x00x\x00", 6) == 0:
            found_by_meta[0] = True
            return ENCODING_UTF_16LE
        if memcmp(data, b"\x00<\x00?\x00x", 6) == 0:
            found_by_meta[0] = True
            return ENCODING_UTF_16BE
    # 3. Loop.
    while True:
        position = find_byte(data, position, length, 0x3C)   # (any other byte: next)
        if position >= length:
            break
        if (position + 4 <= length and data[position + 1] == 0x21
                and data[position + 2] == 0x2D and data[position + 3] == 0x2D):
            # '<!--': to the first '>' preceded by "--" (those of "<!--" count).
            p = find_byte(data, position + 4, length, 0x3E)
            while p < length and not (data[p - 1] == 0x2D and data[p - 2] == 0x2D):
                p = find_byte(data, p + 1, length, 0x3E)
            if p >= length:
                break
            position = p + 1
            continue
        if (position + 6 <= length and matches(data, position + 1, position + 5, "meta")
                and (is_space(data[position + 5]) or data[position + 5] == 0x2F)):
            position += 5
            charset = prescan_meta(data, length, &position)
            if charset == META_OUT_OF_BYTES:
                break
            if charset != ENCODING__NONE:
                found_by_meta[0] = True
                return charset
            position += 1                   # next byte
            continue
        p = position + 1
        if p < length and data[p] == 0x2F:
            p += 1
        if p < length and is_ascii_alpha(data[p]):
            # A start or end tag: skip its name, then its attributes.
            while p < length and not (is_space(data[p]) or data[p] == 0x3E):
                p += 1
            if skip_attributes(data, length, &p):
                break
            position = p + 1
            continue
        if position + 1 < length:
            c = data[position + 1]
            if c == 0x21 or c == 0x2F or c == 0x3F:
                # '<!', '</', '<?': to the first '>' after the '<'.
                p = find_byte(data, position + 2, length, 0x3E)
                if p >= length:
                    break
                position = p + 1
                continue
        position += 1
    # Out of bytes or at the end condition.
    return get_an_xml_encoding(data, length)


# Repeatedly get an attribute until there is none; true when the prescan
# runs out of bytes. *position ends at the '>'.
cdef bint skip_attributes(const uint8_t* data, size_t length,
                          size_t* position) noexcept nogil:
    cdef SniffedAttribute attribute
    cdef AttributeResult result
    if position[0] >= length:
        return True
    while True:
        result = get_an_attribute(data, length, position, &attribute)
        if result == ATTRIBUTE_OUT_OF_BYTES:
            return True
        if result == ATTRIBUTE_NONE:
            return False


cdef int prescan_byte_stream(const uint8_t* data, size_t length) noexcept nogil:
    cdef bint found_by_meta
    return prescan_bytes(data, length, &found_by_meta)


# get an XML encoding (https://html.spec.whatwg.org/multipage/parsing.html#concept-get-xml-encoding-when-sniffing)
cdef int get_an_xml_encoding(const uint8_t* data, size_t length) noexcept nogil:
    cdef size_t end, p, start
    cdef uint8_t quote
    cdef int encoding
    # 1.-2.
    if length < 5 or memcmp(data, b"<?xml", 5) != 0:
        return ENCODING__NONE
    # 3. xmlDeclarationEnd.
    end = 5
    while end < length and data[end] != 0x3E:
        end += 1
    if end >= length:
        return ENCODING__NONE
    # 4.-5. "encoding" before xmlDeclarationEnd.
    p = 5
    while p + 8 <= end and memcmp(data + p, b"encoding", 8) != 0:
        p += 1
    if p + 8 > end:
        return ENCODING__NONE
    p += 8
    # 6.-9.
    while p < length and data[p] <= 0x20:
        p += 1
    if p >= length or data[p] != 0x3D:
        return ENCODING__NONE
    p += 1
    while p < length and data[p] <= 0x20:
        p += 1
    if p >= length:
        return ENCODING__NONE
    # 10.-13.
    quote = data[p]
    if quote != 0x22 and quote != 0x27:
        return ENCODING__NONE
    p += 1
    start = p
    while p < length and data[p] != quote:
        p += 1
    if p >= length:
        return ENCODING__NONE
    # 14.-15.
    for end in range(start, p):
        if data[end] <= 0x20:
            return ENCODING__NONE
    # 16.-18.
    encoding = encoding_for_label(data + start, p - start)
    if is_utf16(encoding):
        return ENCODING_UTF_8
    return encoding


# algorithm for extracting a character encoding from a meta element (https://html.spec.whatwg.org/multipage/urls-and-fetching.html#algorithm-for-extracting-a-character-encoding-from-a-meta-element)
cdef int extract_encoding_from_meta(const uint8_t* s, size_t length) noexcept nogil:
    cdef size_t position = 0, end
    cdef uint8_t quote
    while True:
        # Loop: the next "charset", ASCII case-insensitive.
        while position + 7 <= length and not matches(s, position, position + 7, "charset"):
            position += 1
        if position + 7 > length:
            return ENCODING__NONE
        position += 7
        while position < length and is_ascii_whitespace(s[position]):
            position += 1
        if position < length and s[position] == 0x3D:
            position += 1
            break
        # Not '=': look again from just before that character.
    while position < length and is_ascii_whitespace(s[position]):
        position += 1
    if position >= length:
        return ENCODING__NONE
    quote = s[position]
    if quote == 0x22 or quote == 0x27:
        end = position + 1
        while end < length and s[end] != quote:
            end += 1
        if end >= length:
            return ENCODING__NONE         # an unmatched quote
        return encoding_for_label(s + position + 1, end - position - 1)
    end = position
    while end < length and not (is_ascii_whitespace(s[end]) or s[end] == 0x3B):
        end += 1
    return encoding_for_label(s + position, end - position)
