# What every layer may cimport from the bottom layer: the parse-error list
# and the name tables the tokenizer, the DOM and the layers above share.
# Implemented in core.pyx (errors.pxi, name_table.pxi); the lookups on the
# tokenizer's hot path are inline here, so that every module that cimports
# them compiles them in.

from libc.stdint cimport uint8_t, uint32_t, uint64_t
from lexpy.core.names cimport lxp_tag_id_t, lxp_attr_id_t


# ---------------------------------------------------------------------------
# Parse errors: data, not exceptions (DESIGN.md decision 10)
# ---------------------------------------------------------------------------

cdef struct ParseErrorRecord:
    const char* code              # static string: the standard's kebab-case
                                  # code, or the tree builder's own
    uint32_t line                 # 1-based
    uint32_t column               # 1-based, in UTF-16 code units (a
                                  # character beyond U+FFFF counts two,
                                  # as the standard's tests count)

cdef struct ErrorList:
    ParseErrorRecord* items
    size_t count
    size_t capacity

cdef int error_list_add(ErrorList* errors, const char* code,
                        uint32_t line, uint32_t column) except -1 nogil
# The same without the GIL's MemoryError: -1 (nothing added) when out of
# memory.
cdef int error_list_append(ErrorList* errors, const char* code,
                           uint32_t line, uint32_t column) noexcept nogil
cdef void error_list_clear(ErrorList* errors) noexcept nogil


# ---------------------------------------------------------------------------
# A keyed hash (SipHash-1-3) for tables whose keys come from the page, so
# that a page cannot choose collisions; each table takes a key of its own,
# drawn from a per-process secret (name_table.pxi). Not in the standard.
# ---------------------------------------------------------------------------

cdef struct HashKey:
    uint64_t k0
    uint64_t k1

cdef HashKey hash_key_for(const void* owner) noexcept nogil


cdef extern from "byte_buffer.h" nogil:
    ctypedef struct lxp_byte_buffer:
        uint8_t* data
        size_t length
        size_t capacity
    int lxp_byte_buffer_append(lxp_byte_buffer* buffer, const uint8_t* data, size_t length)


cdef extern from "copy.h" nogil:
    void lxp_copy_run(unsigned char* d, const unsigned char* s, size_t n)


cdef extern from "load.h" nogil:
    uint64_t lxp_load_le64(const uint8_t* p)
    uint64_t lxp_load_le_tail(const uint8_t* p, size_t r)


cdef struct SipState:
    uint64_t v0
    uint64_t v1
    uint64_t v2
    uint64_t v3


cdef inline uint64_t rotate_left(uint64_t x, int bits) noexcept nogil:
    return (x << bits) | (x >> (64 - bits))


cdef inline void sip_round(SipState* s) noexcept nogil:
    s.v0 += s.v1
    s.v1 = rotate_left(s.v1, 13) ^ s.v0
    s.v0 = rotate_left(s.v0, 32)
    s.v2 += s.v3
    s.v3 = rotate_left(s.v3, 16) ^ s.v2
    s.v0 += s.v3
    s.v3 = rotate_left(s.v3, 21) ^ s.v0
    s.v2 += s.v1
    s.v1 = rotate_left(s.v1, 17) ^ s.v2
    s.v2 = rotate_left(s.v2, 32)


cdef inline uint64_t keyed_hash(const HashKey* key, const uint8_t* data,
                                size_t length) noexcept nogil:
    """SipHash-1-3 of the bytes under the key. Not in the standard."""
    cdef SipState s
    cdef uint64_t word
    cdef size_t i = 0
    s.v0 = key.k0 ^ 0x736f6d6570736575ULL
    s.v1 = key.k1 ^ 0x646f72616e646f6dULL
    s.v2 = key.k0 ^ 0x6c7967656e657261ULL
    s.v3 = key.k1 ^ 0x7465646279746573ULL
    # Little-endian words, read a word at a time (load.h)
    while length - i >= 8:
        word = lxp_load_le64(data + i)
        s.v3 ^= word
        sip_round(&s)
        s.v0 ^= word
        i += 8
    # the last one holds the length in its top byte.
    word = lxp_load_le_tail(data + i, length - i) | (<uint64_t> (length & 0xFF) << 56)
    s.v3 ^= word
    sip_round(&s)
    s.v0 ^= word
    s.v2 ^= 0xFF
    sip_round(&s)
    sip_round(&s)
    sip_round(&s)
    return s.v0 ^ s.v1 ^ s.v2 ^ s.v3


# ---------------------------------------------------------------------------
# Dynamic name tables: tag or attribute names that are not in names.h get
# dense ids from first_id (TAG__LAST_STATIC / ATTR__LAST_STATIC) upwards.
# Owned by the Document; the tokenizer borrows them.
# ---------------------------------------------------------------------------

cdef struct NameTable:
    uint32_t first_id
    uint32_t count

# The table behind a NameTable* (name_table.pxi says how it works). Only the
# inline lookups below and the tests read its fields.
cdef struct NameEntry:
    uint8_t* name
    size_t length

cdef struct NamePoolChunk:
    NamePoolChunk* next
    size_t used
    size_t size                  # bytes of name data after the header

cdef struct NameTableImpl:
    NameTable public             # first_id, count
    NameEntry* entries           # by id - first_id
    size_t entry_capacity
    uint64_t* slots              # 0 = empty, else hash << 32 | (id - first_id + 1)
    size_t slot_count            # power of two
    NamePoolChunk* pool          # the current chunk first
    HashKey key                  # the hash key of this table
    uint32_t limit               # at most this many names (ids are 32-bit;
                                 # tests lower it to play out of memory)

cdef NameTable* name_table_create(uint32_t first_id) noexcept nogil
cdef void name_table_destroy(NameTable* table) noexcept nogil
# The id of a name (exact bytes, already converted: lowercased, NUL as
# U+FFFD), adding it when new; 0 when out of memory (the caller must fail:
# the tokenizer stops with -1, which its callers raise as MemoryError).
cdef uint32_t name_table_intern(NameTable* table, const uint8_t* name,
                                size_t length) noexcept nogil
# name_table_intern with the name's name_table_hash already known.
cdef uint32_t name_table_intern_hashed(NameTable* table, const uint8_t* name,
                                       size_t length, uint32_t hash) noexcept nogil
# The bytes of a dynamic id (NULL when unknown).
cdef const uint8_t* name_table_get(NameTable* table, uint32_t id,
                                   size_t* length) noexcept nogil


cdef extern from "prefetch.h" nogil:
    void lxp_prefetch(const void* p)


cdef inline uint32_t keyed_name_hash(NameTableImpl* impl, const uint8_t* name,
                                     size_t length) noexcept nogil:
    """The table's hash of a name: keyed_hash folded to 32 bits."""
    cdef uint64_t word = keyed_hash(&impl.key, name, length)
    return <uint32_t> (word ^ (word >> 32))


cdef inline uint32_t name_table_hash(NameTable* table, const uint8_t* name,
                                     size_t length) noexcept nogil:
    """The table's keyed hash of a name (for name_table_intern_hashed)."""
    return keyed_name_hash(<NameTableImpl*> table, name, length)


cdef inline void name_table_prefetch(NameTable* table, uint32_t hash) noexcept nogil:
    """Start loading the slot a name of this hash is looked up at, so that
    a lookup made a little later does not wait for memory."""
    cdef NameTableImpl* impl = <NameTableImpl*> table
    if impl.slot_count != 0:
        lxp_prefetch(&impl.slots[hash & (impl.slot_count - 1)])


# Tag and attribute ids by exact name, static table first, then the dynamic
# one (interning when `intern` is true; 0 when absent and not interned).
cdef lxp_tag_id_t tag_id_by_name(NameTable* tags, const uint8_t* name,
                                 size_t length, bint intern) noexcept nogil
cdef lxp_attr_id_t attr_id_by_name(NameTable* attrs, const uint8_t* name,
                                   size_t length, bint intern) noexcept nogil
# The name of any tag / attribute id (static or dynamic).
cdef const uint8_t* tag_name_of(NameTable* tags, lxp_tag_id_t id,
                                size_t* length) noexcept nogil
cdef const uint8_t* attr_name_of(NameTable* attrs, lxp_attr_id_t id,
                                 size_t* length) noexcept nogil
