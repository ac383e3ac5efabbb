# Character references: the longest named match through the entity trie of
# entities.h and the numeric value rules, shared by convert_text (which
# decodes) and the character reference states (which report the errors).
# https://html.spec.whatwg.org/multipage/parsing.html#named-character-reference-state
# https://html.spec.whatwg.org/multipage/parsing.html#numeric-character-reference-end-state

# The numeric character reference end state's replacement table for
# U+0080..U+009F (0 = no replacement).
cdef uint16_t c1_replacement[32]
c1_replacement[:] = [
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
    0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
]

cdef enum:
    NAMED_MATCH_DONE = 0         # the longest match is known
    NAMED_MATCH_INCOMPLETE = 1   # the input ended while a longer name was
                                 # still possible


cdef int match_named_reference(const uint8_t* s, size_t n, size_t* length,
                               int32_t* value) noexcept nogil:
    """The longest name of the named character references table that starts
    s[0:n] (the bytes after '&'): its length (0 when none) and value index.
    NAMED_MATCH_INCOMPLETE when s ran out while the trie could go on."""
    cdef int32_t node = LXP_ENTITY_ROOT
    cdef int32_t next_node
    cdef int32_t v
    cdef size_t i = 0
    length[0] = 0
    value[0] = -1
    while i < n:
        next_node = lxp_entity_step(node, s[i])
        if next_node < 0:
            return NAMED_MATCH_DONE
        node = next_node
        i += 1
        v = lxp_entity_node_value[node]
        if v >= 0:
            length[0] = i
            value[0] = v
    if lxp_entity_edge_count[node] != 0:
        return NAMED_MATCH_INCOMPLETE
    return NAMED_MATCH_DONE


cdef inline uint32_t accumulate_digit(uint32_t value, uint32_t digit,
                                      uint32_t radix) noexcept nogil:
    """value * radix + digit, saturating above U+10FFFF (only "outside the
    Unicode range" matters then)."""
    if value > 0x10FFFF:
        return value
    return value * radix + digit


cdef inline uint32_t hex_digit_value(uint8_t c) noexcept nogil:
    if c <= 0x39:
        return c - 0x30
    return (c | 0x20) - 0x57


cdef uint32_t numeric_reference_code_point(uint32_t value) noexcept nogil:
    """The code point a numeric character reference of `value` stands for."""
    if value == 0 or value > 0x10FFFF or 0xD800 <= value <= 0xDFFF:
        return 0xFFFD
    if 0x80 <= value <= 0x9F and c1_replacement[value - 0x80] != 0:
        return c1_replacement[value - 0x80]
    return value


cdef const char* numeric_reference_error(uint32_t value) noexcept nogil:
    """The parse error of the numeric character reference end state for
    `value`, or NULL."""
    if value == 0:
        return "null-character-reference"
    if value > 0x10FFFF:
        return "character-reference-outside-unicode-range"
    if 0xD800 <= value <= 0xDFFF:
        return "surrogate-character-reference"
    if (0xFDD0 <= value <= 0xFDEF) or (value & 0xFFFE) == 0xFFFE:
        return "noncharacter-character-reference"
    if value == 0x0D or (value < 0x20 and value not in (0x09, 0x0A, 0x0C)) \
            or 0x7F <= value <= 0x9F:
        return "control-character-reference"
    return NULL


from lexpy.core.utf8 cimport lxp_utf8_write


cdef inline size_t decode_common_reference(const uint8_t* s, size_t n, uint8_t* out,
                                           size_t* written) noexcept nogil:
    """The most common named references, &amp; &lt; &gt; &quot; &nbsp;,
    decoded without the walk through the entity trie (a binary search at
    each of their bytes): the bytes consumed after '&', 0 when s[0:n]
    starts with none of them. Each ends with ';' and no name goes on after
    a ';', so each is the longest match, and the legacy attribute-value
    rule (a match not ending with ';') does not apply. Not in the
    standard: the same result, sooner."""
    if n >= 4 and s[3] == 0x3B and s[0] == 0x61 and s[1] == 0x6D and s[2] == 0x70:
        out[0] = 0x26                       # &amp;
        written[0] = 1
        return 4
    if n >= 3 and s[2] == 0x3B and s[1] == 0x74 and (s[0] == 0x6C or s[0] == 0x67):
        out[0] = 0x3C if s[0] == 0x6C else 0x3E     # &lt; &gt;
        written[0] = 1
        return 3
    if n >= 5 and s[4] == 0x3B:
        if s[0] == 0x71 and s[1] == 0x75 and s[2] == 0x6F and s[3] == 0x74:
            out[0] = 0x22                   # &quot;
            written[0] = 1
            return 5
        if s[0] == 0x6E and s[1] == 0x62 and s[2] == 0x73 and s[3] == 0x70:
            out[0] = 0xC2                   # &nbsp;: U+00A0
            out[1] = 0xA0
            written[0] = 2
            return 5
    return 0


cdef size_t decode_character_reference(const uint8_t* s, size_t n,
                                       bint in_attribute, uint8_t* out,
                                       size_t* written) noexcept nogil:
    """Decode the character reference whose '&' precedes s[0:n] (a complete
    range: its end is the end of the input). Returns the bytes consumed
    after '&' and sets *written to the bytes written to `out`; 0 when there
    is no character reference (the '&' stays as it is)."""
    cdef size_t i, digits_begin, length
    cdef uint32_t value = 0
    cdef int32_t index
    cdef bint hex
    written[0] = 0
    if n == 0:
        return 0
    if s[0] == 0x23:                        # '#': numeric
        i = 1
        hex = i < n and (s[i] | 0x20) == 0x78   # 'x' or 'X'
        if hex:
            i += 1
        digits_begin = i
        if hex:
            while i < n and byte_class[s[i]] & (CLASS_DIGIT | CLASS_HEX_LETTER):
                value = accumulate_digit(value, hex_digit_value(s[i]), 16)
                i += 1
        else:
            while i < n and byte_class[s[i]] & CLASS_DIGIT:
                value = accumulate_digit(value, s[i] - 0x30, 10)
                i += 1
        if i == digits_begin:
            return 0
        if i < n and s[i] == 0x3B:          # ';'
            i += 1
        written[0] = lxp_utf8_write(numeric_reference_code_point(value), out)
        return i
    length = decode_common_reference(s, n, out, written)
    if length != 0:
        return length
    match_named_reference(s, n, &length, &index)
    if length == 0:
        return 0
    if in_attribute and s[length - 1] != 0x3B and length < n \
            and (s[length] == 0x3D or byte_class[s[length]] & CLASS_ALPHANUMERIC):
        return 0                            # the legacy attribute-value rule
    memcpy(out, lxp_entity_value[index], lxp_entity_value_len[index])
    written[0] = lxp_entity_value_len[index]
    return length
