# Byte classes of the scanning loops: one table lookup tells a state's loop
# whether a byte ends its run (a "stop" byte of that state's context) and
# what kind of ASCII character it is. Filled once when the module is
# imported (init_byte_classes), so no table is maintained by hand.

# Character classes (byte_class[c]).
cdef enum:
    CLASS_WHITESPACE = 0x1       # TAB, LF, FF, CR, SPACE (ASCII whitespace)
    CLASS_UPPER = 0x2            # ASCII upper alpha
    CLASS_LOWER = 0x4            # ASCII lower alpha
    CLASS_DIGIT = 0x8            # ASCII digit
    CLASS_HEX_LETTER = 0x10      # a-f, A-F
    CLASS_INPUT_CHECK = 0x20     # may start a character the input stream
                                 # preprocessing reports (control,
                                 # noncharacter, surrogate)
    CLASS_ALPHA = CLASS_UPPER | CLASS_LOWER
    CLASS_ALPHANUMERIC = CLASS_UPPER | CLASS_LOWER | CLASS_DIGIT

# Stop sets (byte_stops[c] & STOP_*) of the loops whose runs end at more
# than four different bytes; the others scan with lxp_scan4 (scan.h).
cdef enum:
    STOP_VALUE_UNQUOTED = 0x1    # whitespace & > NUL " ' < = `
    STOP_TAG_NAME = 0x2          # whitespace / > NUL
    STOP_ATTRIBUTE_NAME = 0x4    # whitespace / > = NUL " ' <
    STOP_DOCTYPE_NAME = 0x8      # whitespace > NUL

cdef uint8_t byte_class[256]
cdef uint32_t byte_stops[256]
cdef uint8_t ascii_lower[256]
# The name loops' table: a byte's ASCII lowercase, or 0 where the loop must
# stop (the name ends, or NUL and the characters that are parse errors).
cdef uint8_t tag_name_byte[256]
cdef uint8_t attribute_name_byte[256]


cdef void set_stops(uint32_t stop, const char* chars) noexcept nogil:
    cdef size_t i = 0
    while chars[i] != 0:
        byte_stops[<uint8_t> chars[i]] |= stop
        i += 1
    byte_stops[0] |= stop             # every context stops at NUL


cdef void set_class(uint8_t cls, const char* chars) noexcept nogil:
    cdef size_t i = 0
    while chars[i] != 0:
        byte_class[<uint8_t> chars[i]] |= cls
        i += 1


cdef void init_byte_classes() noexcept nogil:
    cdef int c
    for c in range(256):
        byte_class[c] = 0
        byte_stops[c] = 0
        ascii_lower[c] = c
    set_class(CLASS_WHITESPACE, b"\t\n\x0c\r ")
    for c in range(0x41, 0x5B):                     # A-Z
        byte_class[c] |= CLASS_UPPER
        ascii_lower[c] = c + 0x20
    for c in range(0x61, 0x7B):                     # a-z
        byte_class[c] |= CLASS_LOWER
    for c in range(0x30, 0x3A):                     # 0-9
        byte_class[c] |= CLASS_DIGIT
    set_class(CLASS_HEX_LETTER, b"abcdefABCDEF")
    for c in range(1, 0x20):
        if not byte_class[c] & CLASS_WHITESPACE:
            byte_class[c] |= CLASS_INPUT_CHECK
    byte_class[0x7F] |= CLASS_INPUT_CHECK
    # Lead bytes of U+0080..U+009F (C2), surrogates (ED), U+FDD0..U+FDEF and
    # U+FFFE/U+FFFF (EF), and the noncharacters of the other planes (F0-F4).
    set_class(CLASS_INPUT_CHECK, b"\xc2\xed\xef\xf0\xf1\xf2\xf3\xf4")

    set_stops(STOP_VALUE_UNQUOTED, b"\t\n\x0c\r &>\"'<=`")
    set_stops(STOP_TAG_NAME, b"\t\n\x0c\r />")
    set_stops(STOP_ATTRIBUTE_NAME, b"\t\n\x0c\r />=\"'<")
    set_stops(STOP_DOCTYPE_NAME, b"\t\n\x0c\r >")
    for c in range(256):
        tag_name_byte[c] = 0 if byte_stops[c] & STOP_TAG_NAME else ascii_lower[c]
        attribute_name_byte[c] = (0 if byte_stops[c] & STOP_ATTRIBUTE_NAME
                                  else ascii_lower[c])


init_byte_classes()


cdef inline bint is_whitespace(int c) noexcept nogil:
    return c >= 0 and (byte_class[c] & CLASS_WHITESPACE) != 0

cdef inline bint is_alpha(int c) noexcept nogil:
    return c >= 0 and (byte_class[c] & CLASS_ALPHA) != 0

cdef inline bint is_alphanumeric(int c) noexcept nogil:
    return c >= 0 and (byte_class[c] & CLASS_ALPHANUMERIC) != 0


cdef extern from "scan.h" nogil:
    size_t lxp_scan4(const unsigned char* s, size_t i, size_t n,
                     unsigned char a, unsigned char b, unsigned char c,
                     unsigned char d)
    size_t lxp_scan_printable(const unsigned char* s, size_t i, size_t n)
    size_t lxp_skip_whitespace(const unsigned char* s, size_t i, size_t end,
                               size_t limit)
    size_t lxp_find_byte(const unsigned char* s, size_t i, size_t n, unsigned char b)
    size_t lxp_scan4_run(const unsigned char* s, size_t i, size_t n,
                         unsigned char a, unsigned char b, unsigned char c,
                         unsigned char d)
    int lxp_scan_init(int allowed)
    bint lxp_is_amp_tail(const unsigned char* s)


cdef inline size_t scan_for(const uint8_t* s, size_t i, size_t n, uint8_t a,
                            uint8_t b, uint8_t c, uint8_t d) noexcept nogil:
    """The index of the first byte of s[i:n] that is a, b, c or d (n if
    none)."""
    return lxp_scan4(s, i, n, a, b, c, d)


cdef inline size_t scan_run_for(const uint8_t* s, size_t i, size_t n, uint8_t a,
                                uint8_t b, uint8_t c, uint8_t d) noexcept nogil:
    """scan_for where the run may be long (raw text, comments, attribute
    values left to their state): past its first 64 bytes it goes on out of
    line, 64 bytes a step (AVX2 where the CPU has it)."""
    return lxp_scan4_run(s, i, n, a, b, c, d)


lxp_scan_init(1)


cdef int tokenizer_scan_with_avx2(int allowed) noexcept nogil:
    return lxp_scan_init(allowed)


cdef inline size_t scan_until(const uint8_t* s, size_t i, size_t n,
                              uint32_t stop) noexcept nogil:
    """The index of the first byte of s[i:n] in the stop set (n if none)."""
    # Eight bytes at a time while none of them is a stop byte.
    while i + 8 <= n:
        if (byte_stops[s[i]] | byte_stops[s[i + 1]] | byte_stops[s[i + 2]]
                | byte_stops[s[i + 3]] | byte_stops[s[i + 4]]
                | byte_stops[s[i + 5]] | byte_stops[s[i + 6]]
                | byte_stops[s[i + 7]]) & stop:
            break
        i += 8
    while i < n and not (byte_stops[s[i]] & stop):
        i += 1
    return i
