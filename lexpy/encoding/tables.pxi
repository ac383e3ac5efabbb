# The generated tables (tools/gen_encodings.py writes encoding_tables.h).
# Only this module includes them.

cdef extern from "encoding_tables.h" nogil:
    int LXP_ENCODING_COUNT
    const char* lxp_encoding_names[]

    int LXP_LABEL_COUNT
    int LXP_LABEL_MAX_LENGTH
    const char* lxp_labels[]
    const uint8_t lxp_label_encodings[]

    const uint8_t lxp_single_byte_row[]
    const uint16_t lxp_index_single_byte[][128]

    int LXP_INDEX_JIS0208_FIRST
    int LXP_INDEX_JIS0208_END
    const uint16_t lxp_index_jis0208[]
    int LXP_INDEX_JIS0212_FIRST
    int LXP_INDEX_JIS0212_END
    const uint16_t lxp_index_jis0212[]
    int LXP_INDEX_EUC_KR_FIRST
    int LXP_INDEX_EUC_KR_END
    const uint16_t lxp_index_euc_kr[]
    int LXP_INDEX_GB18030_FIRST
    int LXP_INDEX_GB18030_END
    const uint16_t lxp_index_gb18030[]
    int LXP_INDEX_BIG5_FIRST
    int LXP_INDEX_BIG5_END
    const uint16_t lxp_index_big5[]
    const uint8_t lxp_index_big5_plane2[]

    int LXP_INDEX_GB18030_RANGES_COUNT
    const uint32_t lxp_index_gb18030_ranges_pointer[]
    const uint32_t lxp_index_gb18030_ranges_code_point[]


# The index code point for pointer in index (0: null), for the flat tables.
cdef inline uint32_t index_code_point(const uint16_t* table, uint32_t first,
                                      uint32_t end, uint32_t pointer) noexcept nogil:
    if pointer < first or pointer >= end:
        return 0
    return table[pointer - first]


cdef inline uint32_t index_jis0208_code_point(uint32_t pointer) noexcept nogil:
    return index_code_point(lxp_index_jis0208, LXP_INDEX_JIS0208_FIRST,
                            LXP_INDEX_JIS0208_END, pointer)


cdef inline uint32_t index_jis0212_code_point(uint32_t pointer) noexcept nogil:
    return index_code_point(lxp_index_jis0212, LXP_INDEX_JIS0212_FIRST,
                            LXP_INDEX_JIS0212_END, pointer)


cdef inline uint32_t index_euc_kr_code_point(uint32_t pointer) noexcept nogil:
    return index_code_point(lxp_index_euc_kr, LXP_INDEX_EUC_KR_FIRST,
                            LXP_INDEX_EUC_KR_END, pointer)


cdef inline uint32_t index_gb18030_code_point(uint32_t pointer) noexcept nogil:
    return index_code_point(lxp_index_gb18030, LXP_INDEX_GB18030_FIRST,
                            LXP_INDEX_GB18030_END, pointer)


cdef inline uint32_t index_big5_code_point(uint32_t pointer) noexcept nogil:
    cdef uint32_t code_point = index_code_point(
        lxp_index_big5, LXP_INDEX_BIG5_FIRST, LXP_INDEX_BIG5_END, pointer)
    cdef uint32_t bit
    if code_point:
        bit = pointer - LXP_INDEX_BIG5_FIRST
        if lxp_index_big5_plane2[bit >> 3] & (1 << (bit & 7)):
            code_point += 0x20000
    return code_point


# index gb18030 ranges code point
# (https://encoding.spec.whatwg.org/#index-gb18030-ranges-code-point); 0: null.
cdef uint32_t index_gb18030_ranges_code_point(uint32_t pointer) noexcept nogil:
    cdef int low, high, middle
    if (pointer > 39419 and pointer < 189000) or pointer > 1237575:
        return 0
    if pointer == 7457:
        return 0xE7C7
    # The last range whose pointer is less than or equal to pointer.
    low = 0
    high = LXP_INDEX_GB18030_RANGES_COUNT - 1
    while low < high:
        middle = (low + high + 1) >> 1
        if lxp_index_gb18030_ranges_pointer[middle] <= pointer:
            low = middle
        else:
            high = middle - 1
    return (lxp_index_gb18030_ranges_code_point[low] + pointer
            - lxp_index_gb18030_ranges_pointer[low])
