# Autodetecting UTF-8 (https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm)
# Step 8 of the encoding sniffing algorithm: "The user agent may attempt to autodetect the character encoding from
# applying frequency analysis or other algorithms to the data stream". The
# standard leaves the algorithm to the user agent; lexpy's is structural and
# knows one encoding only: UTF-8, whose bit pattern legacy text almost never
# matches (the standard's own note on step 8 says as much).
#
# It runs when the sniffing algorithm ended at the default (no BOM, no
# transport encoding, nothing from the prescan) and the default reads ASCII
# bytes as ASCII in every state (autodetection_applies). Up to the first
# byte 0x80 or above the input decodes the same in UTF-8 and in the default,
# so the input byte stream passes it on as it comes; from that byte on it
# looks at a window of AUTODETECT_WINDOW bytes. When every byte of the window
# belongs to a valid UTF-8 sequence (the last one may run up to 3 bytes past
# its end), the encoding is UTF-8, else it stays the default; the confidence
# stays tentative either way, so a later <meta> may still change it. The
# outcome depends on those bytes, and on whether the input ends among them,
# never on how the input was split into chunks.


# What autodetect_utf8 found.
cdef enum AutodetectResult:
    AUTODETECT_UTF_8
    AUTODETECT_DEFAULT
    AUTODETECT_MORE           # it needs more bytes (or the end of the input)


# Whether autodetection may replace `default_encoding` by UTF-8: the
# encodings whose decoders read every byte below 0x80 as that ASCII code
# point while no sequence is open, so that the bytes before the first
# non-ASCII one read the same in UTF-8. Not UTF-8 itself (nothing to
# detect), UTF-16BE/LE (not ASCII-compatible), ISO-2022-JP (its escape
# sequences give ASCII bytes other meanings), replacement (the whole input
# is one U+FFFD) or x-user-defined (a caller's choice to get the bytes as
# they are: the standard never sniffs it, the prescan and "changing the
# encoding" turn it into windows-1252). Helper of lexpy.
cdef bint autodetection_applies(int default_encoding) noexcept nogil:
    return not (default_encoding == ENCODING_UTF_8
                or is_utf16(default_encoding)
                or default_encoding == ENCODING_ISO_2022_JP
                or default_encoding == ENCODING_REPLACEMENT
                or default_encoding == ENCODING_X_USER_DEFINED)


# The decision over the bytes from the first non-ASCII one (data[0] >= 0x80)
# to the end of those available; `last`: the input ends there.
cdef AutodetectResult autodetect_utf8(const uint8_t* data, size_t length,
                                      bint last) noexcept nogil:
    cdef size_t end = length if length < AUTODETECT_WINDOW else AUTODETECT_WINDOW
    cdef size_t valid = utf8_validate(data, end)
    cdef int sequence
    if valid == end:
        if end == AUTODETECT_WINDOW or last:
            return AUTODETECT_UTF_8
        return AUTODETECT_MORE
    # data[valid] starts an invalid sequence, or one the window's end cuts.
    sequence = utf8_sequence_length(data + valid, length - valid)
    if sequence > 0:
        return AUTODETECT_UTF_8      # valid, it runs past the window
    if sequence < 0 and not last:
        return AUTODETECT_MORE       # its end has not come yet
    return AUTODETECT_DEFAULT


# The decision over data[0:length] from its start: the ASCII before the
# first byte 0x80 or above (*ascii bytes of it) decides nothing; all ASCII
# is AUTODETECT_MORE, or AUTODETECT_DEFAULT when `last`. Helper of lexpy.
cdef AutodetectResult autodetect_utf8_from_start(const uint8_t* data, size_t length,
                                                 bint last, size_t* ascii) noexcept nogil:
    ascii[0] = ascii_prefix_length(data, length)
    if ascii[0] == length:
        return AUTODETECT_DEFAULT if last else AUTODETECT_MORE
    return autodetect_utf8(data + ascii[0], length - ascii[0], last)
