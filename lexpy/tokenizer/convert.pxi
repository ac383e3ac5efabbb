# The one data-conversion routine (DESIGN.md decision 3): the tokenizer
# records ranges and flags; the consumer turns a range into DOM text here,
# exactly once. Reports nothing: the tokenizer reported the errors while it
# scanned. `src` and `dest` must not overlap.

cdef inline bint append_character_reference(const uint8_t* src, size_t length,
                                             bint in_attribute, uint8_t* dest,
                                             size_t* i, size_t* run, size_t* out) noexcept nogil:
    """At the '&' at src[*i]: decode the reference after it, written where
    the pending run src[*run:*i] ends in dest[*out:], then copy the run
    before it and go past the reference. False (nothing moved) where no
    reference starts there: the '&' is text."""
    cdef size_t written
    cdef size_t at = i[0], start = run[0]
    cdef size_t consumed = decode_character_reference(
        src + at + 1, length - at - 1, in_attribute, dest + out[0] + (at - start), &written)
    if consumed == 0:
        return False
    memcpy(dest + out[0], src + start, at - start)
    out[0] += (at - start) + written
    i[0] = at + 1 + consumed
    run[0] = i[0]
    return True


cdef size_t convert_character_references(const uint8_t* src, size_t length,
                                         bint in_attribute,
                                         uint8_t* dest) noexcept nogil:
    """convert_text_general when only character references need work (the
    common case: a link's &amp;), in one pass: each '&' found 16 bytes at a
    time (lxp_find_byte: no byte loop at the end either), the run before it
    copied without a call (lxp_copy_run), and &amp; decoded in line; other
    references go to decode_character_reference."""
    cdef size_t i = 0, run = 0, out = 0
    while True:
        i = lxp_find_byte(src, i, length, 0x26)
        if i >= length:
            break
        if i + 5 <= length and lxp_is_amp_tail(src + i + 1):
            # &amp;: the longest match (no name goes on after ';'), '&'
            lxp_copy_run(dest + out, src + run, i - run)
            out += i - run
            dest[out] = 0x26
            out += 1
            i += 5
            run = i
        elif not append_character_reference(src, length, in_attribute, dest,
                                            &i, &run, &out):
            i += 1
    lxp_copy_run(dest + out, src + run, length - run)
    return out + (length - run)


cdef size_t convert_text_general(const uint8_t* src, size_t length,
                                 uint32_t flags, uint8_t* dest) noexcept nogil:
    """convert_text (tokenizer.pxd) for a range that may need work: one
    whose only work is character references (a link's &amp;) in
    convert_character_references, without the setup of the others'
    routine (convert_with_flags)."""
    if not flags & (DATA_HAS_CR | DATA_HAS_NUL | DATA_ASCII_LOWERCASE):
        return convert_character_references(src, length,
                                             (flags & DATA_IN_ATTRIBUTE) != 0, dest)
    return convert_with_flags_out_of_line(src, length, flags, dest)


cdef size_t convert_with_flags(const uint8_t* src, size_t length,
                               uint32_t flags, uint8_t* dest) noexcept nogil:
    """convert_text_general for a range with CR, NUL or upper case."""
    cdef bint want_cr = (flags & DATA_HAS_CR) != 0
    cdef bint want_charref = (flags & DATA_HAS_CHARREF) != 0
    cdef bint want_lower = (flags & DATA_ASCII_LOWERCASE) != 0
    cdef bint in_attribute = (flags & DATA_IN_ATTRIBUTE) != 0
    cdef int nul_mode = 0        # 0 keep, 1 replace by U+FFFD, 2 drop
    cdef size_t i = 0, run = 0, out = 0
    cdef uint8_t c
    cdef uint8_t stop_cr, stop_nul, stop_amp
    if flags & DATA_HAS_NUL:
        if flags & DATA_NUL_DROP:
            nul_mode = 2
        elif flags & DATA_NUL_TO_REPLACEMENT:
            nul_mode = 1
    if not (want_cr or want_charref or want_lower or nul_mode):
        if length:
            memcpy(dest, src, length)
        return length
    if not (want_cr or want_lower or nul_mode):
        return convert_character_references(src, length, in_attribute, dest)
    # Without lowercasing, the bytes to act on are CR, NUL and '&' (those
    # asked for; an unwanted one stands in for a wanted one): the runs
    # between them are skipped 16 bytes at a time.
    stop_amp = 0x26 if want_charref else (0x0D if want_cr else 0x00)
    stop_cr = 0x0D if want_cr else stop_amp
    stop_nul = 0x00 if nul_mode else stop_amp
    while i < length:
        if not want_lower:
            i = lxp_scan4(src, i, length, stop_cr, stop_nul, stop_amp, stop_amp)
            if i >= length:
                break
        c = src[i]
        if c > 0x26 and not (want_lower and 0x41 <= c <= 0x5A):
            i += 1
            continue
        if c == 0x0D and want_cr:
            memcpy(dest + out, src + run, i - run)
            out += i - run
            dest[out] = 0x0A
            out += 1
            i += 1
            if i < length and src[i] == 0x0A:
                i += 1
            run = i
        elif c == 0 and nul_mode:
            memcpy(dest + out, src + run, i - run)
            out += i - run
            if nul_mode == 1:
                dest[out] = 0xEF
                dest[out + 1] = 0xBF
                dest[out + 2] = 0xBD
                out += 3
            i += 1
            run = i
        elif c == 0x26 and want_charref:
            if not append_character_reference(src, length, in_attribute, dest,
                                              &i, &run, &out):
                i += 1
        elif want_lower and 0x41 <= c <= 0x5A:
            memcpy(dest + out, src + run, i - run)
            out += i - run
            dest[out] = c + 0x20
            out += 1
            i += 1
            run = i
        else:
            i += 1
    memcpy(dest + out, src + run, i - run)
    out += i - run
    return out


# convert_text_general calls convert_with_flags through this pointer, so that
# the compiler does not inline it: inlined, its frame's setup is paid by the
# ranges that have only character references too.
cdef size_t (*convert_with_flags_out_of_line)(const uint8_t* src, size_t length,
                                              uint32_t flags, uint8_t* dest) noexcept nogil
convert_with_flags_out_of_line = convert_with_flags
