# Dynamic name tables: tag and attribute names that are not in the static
# tables of names.h get dense ids from `first_id` upwards, owned by the
# document. Names are stored converted (lowercased, NUL as U+FFFD) and looked
# up by exact bytes. Open addressing over a power-of-two slot array; a slot
# holds the name's hash beside its index, so a probe that meets another name
# rarely reads that name's entry. The names' bytes live in a pool of chunks
# (one malloc per chunk, not per name).
#
# The names come from the input, so the hash is keyed (SipHash-1-3 under a
# key of the table's own, drawn from a per-process secret): a page cannot
# choose names that collide and make every lookup walk one long cluster, as
# it could under the static tables' FNV-1a.

from os import urandom as _urandom
from libc.stdint cimport uintptr_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memcmp

cdef enum:
    NAME_POOL_FIRST_CHUNK = 1024
    NAME_POOL_MAX_CHUNK = 64 * 1024

# The per-process secret the tables' keys derive from (set at import).
cdef uint64_t hash_secret0 = 0
cdef uint64_t hash_secret1 = 0


cdef inline uint32_t static_name_hash(const uint8_t* name,
                                     size_t length) noexcept nogil:
    """The FNV-1a hash of names.h's static tables (known names only)."""
    cdef uint32_t h = LXP_NAME_HASH_INIT
    cdef size_t i
    for i in range(length):
        h = lxp_name_hash_step(h, name[i])
    return h


cdef inline uint64_t mix64(uint64_t x) noexcept nogil:
    """A bijective 64-bit mix (splitmix64's finalizer). Not in the standard."""
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL
    return x ^ (x >> 31)


cdef int seed_name_hash(bytes secret) except -1:
    """Set the per-process secret of the dynamic tables' hash keys (16
    bytes; done once at import from os.urandom)."""
    global hash_secret0, hash_secret1
    hash_secret0 = int.from_bytes(secret[:8], "little")
    hash_secret1 = int.from_bytes(secret[8:], "little")
    return 0


seed_name_hash(_urandom(16))


cdef HashKey hash_key_for(const void* owner) noexcept nogil:
    """A key of the owner's own: the per-process secret mixed with the
    owner's address, so that no two living tables share one."""
    cdef HashKey key
    key.k0 = mix64(hash_secret0 ^ <uint64_t> <uintptr_t> owner)
    key.k1 = mix64(hash_secret1 + <uint64_t> <uintptr_t> owner)
    return key


cdef NameTable* name_table_create(uint32_t first_id) noexcept nogil:
    cdef NameTableImpl* table = <NameTableImpl*> calloc(1, sizeof(NameTableImpl))
    if table == NULL:
        return NULL
    table.public.first_id = first_id
    table.limit = 0xFFFFFFF0U - first_id
    table.key = hash_key_for(table)
    return &table.public


cdef void name_table_destroy(NameTable* table) noexcept nogil:
    cdef NameTableImpl* impl = <NameTableImpl*> table
    cdef NamePoolChunk* chunk
    cdef NamePoolChunk* next_chunk
    if impl == NULL:
        return
    chunk = impl.pool
    while chunk != NULL:
        next_chunk = chunk.next
        free(chunk)
        chunk = next_chunk
    free(impl.entries)
    free(impl.slots)
    free(impl)


cdef uint8_t* name_pool_copy(NameTableImpl* impl, const uint8_t* name,
                             size_t length) noexcept nogil:
    """A copy of a name's bytes in the pool, or NULL when out of memory."""
    cdef NamePoolChunk* chunk = impl.pool
    cdef size_t size
    cdef uint8_t* copy
    if chunk == NULL or chunk.size - chunk.used < length:
        size = chunk.size * 2 if chunk != NULL else NAME_POOL_FIRST_CHUNK
        if size > NAME_POOL_MAX_CHUNK:
            size = NAME_POOL_MAX_CHUNK
        if size < length:
            size = length
        chunk = <NamePoolChunk*> malloc(sizeof(NamePoolChunk) + size)
        if chunk == NULL:
            return NULL
        chunk.size = size
        chunk.used = 0
        chunk.next = impl.pool
        impl.pool = chunk
    copy = <uint8_t*> chunk + sizeof(NamePoolChunk) + chunk.used
    if length:
        memcpy(copy, name, length)
    chunk.used += length
    return copy


cdef inline uint64_t name_slot(uint32_t hash, size_t index) noexcept nogil:
    return (<uint64_t> hash << 32) | <uint64_t> (index + 1)


cdef int name_table_grow_slots(NameTableImpl* impl) noexcept nogil:
    cdef size_t new_count = impl.slot_count * 2 if impl.slot_count else 64
    cdef uint64_t* slots = <uint64_t*> calloc(new_count, sizeof(uint64_t))
    cdef size_t i, slot
    if slots == NULL:
        return -1
    for i in range(impl.slot_count):
        if impl.slots[i] != 0:
            slot = (impl.slots[i] >> 32) & (new_count - 1)
            while slots[slot] != 0:
                slot = (slot + 1) & (new_count - 1)
            slots[slot] = impl.slots[i]
    free(impl.slots)
    impl.slots = slots
    impl.slot_count = new_count
    return 0


cdef uint32_t name_table_find(NameTableImpl* impl, const uint8_t* name,
                              size_t length, uint32_t hash) noexcept nogil:
    """The id of a name already in the table, or 0."""
    cdef size_t slot
    cdef uint64_t value
    cdef NameEntry* entry
    if impl.slot_count == 0:
        return 0
    slot = hash & (impl.slot_count - 1)
    value = impl.slots[slot]
    while value != 0:
        if <uint32_t> (value >> 32) == hash:
            entry = &impl.entries[(value & 0xFFFFFFFFU) - 1]
            if entry.length == length and memcmp(entry.name, name, length) == 0:
                return impl.public.first_id + <uint32_t> (value & 0xFFFFFFFFU) - 1
        slot = (slot + 1) & (impl.slot_count - 1)
        value = impl.slots[slot]
    return 0


cdef uint32_t name_table_intern(NameTable* table, const uint8_t* name,
                                size_t length) noexcept nogil:
    """The id of a name, added when new; 0 when memory runs out."""
    return name_table_intern_hashed(table, name, length,
                                    keyed_name_hash(<NameTableImpl*> table, name, length))


cdef uint32_t name_table_intern_hashed(NameTable* table, const uint8_t* name,
                                       size_t length, uint32_t hash) noexcept nogil:
    cdef NameTableImpl* impl = <NameTableImpl*> table
    cdef uint32_t id = name_table_find(impl, name, length, hash)
    cdef NameEntry* entries
    cdef size_t capacity, slot, index
    cdef uint8_t* copy
    if id != 0:
        return id
    if impl.public.count >= impl.limit:
        return 0
    if (impl.public.count + 1) * 2 > impl.slot_count:
        if name_table_grow_slots(impl) != 0:
            return 0
    if impl.public.count == impl.entry_capacity:
        capacity = impl.entry_capacity * 2 if impl.entry_capacity else 16
        entries = <NameEntry*> realloc(impl.entries, capacity * sizeof(NameEntry))
        if entries == NULL:
            return 0
        impl.entries = entries
        impl.entry_capacity = capacity
    copy = name_pool_copy(impl, name, length)
    if copy == NULL:
        return 0
    index = impl.public.count
    impl.entries[index].name = copy
    impl.entries[index].length = length
    slot = hash & (impl.slot_count - 1)
    while impl.slots[slot] != 0:
        slot = (slot + 1) & (impl.slot_count - 1)
    impl.slots[slot] = name_slot(hash, index)
    impl.public.count += 1
    return impl.public.first_id + <uint32_t> index


cdef const uint8_t* name_table_get(NameTable* table, uint32_t id,
                                   size_t* length) noexcept nogil:
    cdef NameTableImpl* impl = <NameTableImpl*> table
    if impl == NULL or id < impl.public.first_id \
            or id - impl.public.first_id >= impl.public.count:
        length[0] = 0
        return NULL
    length[0] = impl.entries[id - impl.public.first_id].length
    return impl.entries[id - impl.public.first_id].name


cdef lxp_tag_id_t tag_id_by_name(NameTable* tags, const uint8_t* name,
                                 size_t length, bint intern) noexcept nogil:
    cdef uint32_t hash = static_name_hash(name, length)
    cdef lxp_tag_id_t id = lxp_tag_find(name, length, hash, 0)
    if id != 0 or tags == NULL:
        return id
    if intern:
        return name_table_intern(tags, name, length)
    return name_table_find(<NameTableImpl*> tags, name, length,
                           keyed_name_hash(<NameTableImpl*> tags, name, length))


cdef lxp_attr_id_t attr_id_by_name(NameTable* attrs, const uint8_t* name,
                                   size_t length, bint intern) noexcept nogil:
    cdef uint32_t hash = static_name_hash(name, length)
    cdef lxp_attr_id_t id = lxp_attr_find(name, length, hash, 0)
    if id != 0 or attrs == NULL:
        return id
    if intern:
        return name_table_intern(attrs, name, length)
    return name_table_find(<NameTableImpl*> attrs, name, length,
                           keyed_name_hash(<NameTableImpl*> attrs, name, length))


cdef const uint8_t* tag_name_of(NameTable* tags, lxp_tag_id_t id,
                                size_t* length) noexcept nogil:
    if id < TAG__LAST_STATIC:
        length[0] = lxp_tag_name_len[id]
        return <const uint8_t*> lxp_tag_name[id]
    return name_table_get(tags, id, length)


cdef const uint8_t* attr_name_of(NameTable* attrs, lxp_attr_id_t id,
                                 size_t* length) noexcept nogil:
    if id < ATTR__LAST_STATIC:
        length[0] = lxp_attr_name_len[id]
        return <const uint8_t*> lxp_attr_name[id]
    return name_table_get(attrs, id, length)
