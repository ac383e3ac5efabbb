# Changing the encoding while parsing (https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing)
# The tree builder calls it for a <meta> whose charset (or http-equiv
# Content-Type content) names an encoding while the confidence is tentative;
# the driver re-parses or switches decoders as the result says.


cdef int change_the_encoding(int current, int new_encoding) noexcept nogil:
    # 1. A UTF-16 document keeps its encoding.
    if is_utf16(current):
        return ENCODING__NONE
    # 2.-3.
    if is_utf16(new_encoding):
        new_encoding = ENCODING_UTF_8
    elif new_encoding == ENCODING_X_USER_DEFINED:
        new_encoding = ENCODING_WINDOWS_1252
    # 4. The same encoding: only the confidence changes (to certain).
    if new_encoding == current or new_encoding == ENCODING__NONE:
        return ENCODING__NONE
    # 5.-6. (step 5 is same_interpretation's to decide)
    return new_encoding


# Whether two encodings have the same decoder (GBK's is gb18030's; ISO-8859-8
# and ISO-8859-8-I share an index). Helper of lexpy.
cdef inline bint same_decoder(int a, int b) noexcept nogil:
    if a == b:
        return True
    if (a == ENCODING_GBK or a == ENCODING_GB18030) and (b == ENCODING_GBK or b == ENCODING_GB18030):
        return True
    return ((a == ENCODING_ISO_8859_8 or a == ENCODING_ISO_8859_8_I)
            and (b == ENCODING_ISO_8859_8 or b == ENCODING_ISO_8859_8_I))


# Step 5's condition: all the bytes converted so far have the same Unicode
# interpretations in both encodings. Conservative outside the pairs with the
# same decoder: bytes that both decoders read as ASCII, i.e. ASCII bytes for
# ASCII-compatible encodings, without the escape bytes of ISO-2022-JP.
cdef bint same_interpretation(int current, int new_encoding,
                              const uint8_t* converted, size_t length) noexcept nogil:
    cdef size_t i
    cdef uint8_t c
    cdef bint iso_2022_jp
    if length == 0 or same_decoder(current, new_encoding):
        return True
    if (is_utf16(current) or is_utf16(new_encoding)
            or current == ENCODING_REPLACEMENT or new_encoding == ENCODING_REPLACEMENT):
        return False
    iso_2022_jp = current == ENCODING_ISO_2022_JP or new_encoding == ENCODING_ISO_2022_JP
    for i in range(length):
        c = converted[i]
        if c >= 0x80:
            return False
        if iso_2022_jp and (c == 0x1B or c == 0x0E or c == 0x0F):
            return False
    return True
