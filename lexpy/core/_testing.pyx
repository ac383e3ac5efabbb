# cython: language_level=3
"""Python views of the static name tables (names.h) and a dynamic name
table, for the unit tests (tests/core/test_names.py,
tests/tokenizer/test_tokenizer.py), and a C frame around a call for the
tests that count instructions; built only by a test build
(LEXPY_TEST_BUILD=1; setup.py)."""

from libc.stdint cimport uint8_t, uint32_t
from lexpy.core.names cimport *
from lexpy.core.core cimport (
    NameTable, NameTableImpl, name_table_create, name_table_destroy,
    name_table_intern, name_table_hash, name_table_get)
from lexpy.core.core cimport HashKey, keyed_hash


def static_tag_id(name, lowercase_source=False):
    """The static id of a tag name (0 when it has none)."""
    cdef bytes b = name.encode("utf-8")
    cdef const uint8_t* s = b
    cdef uint32_t h = LXP_NAME_HASH_INIT
    cdef size_t i
    for i in range(len(b)):
        h = lxp_name_hash_step(h, (s[i] + 0x20) if lowercase_source and 0x41 <= s[i] <= 0x5A else s[i])
    return lxp_tag_find(s, len(b), h, lowercase_source)


def static_attr_id(name, lowercase_source=False):
    """The static id of an attribute name (0 when it has none)."""
    cdef bytes b = name.encode("utf-8")
    cdef const uint8_t* s = b
    cdef uint32_t h = LXP_NAME_HASH_INIT
    cdef size_t i
    for i in range(len(b)):
        h = lxp_name_hash_step(h, (s[i] + 0x20) if lowercase_source and 0x41 <= s[i] <= 0x5A else s[i])
    return lxp_attr_find(s, len(b), h, lowercase_source)


def static_tag_name(uint32_t tag_id):
    """The name of a static tag id."""
    if tag_id >= TAG__LAST_STATIC:
        raise ValueError("not a static tag id: %d" % tag_id)
    return lxp_tag_name[tag_id].decode("utf-8")


def static_attr_name(uint32_t attr_id):
    """The name of a static attribute id."""
    if attr_id >= ATTR__LAST_STATIC:
        raise ValueError("not a static attribute id: %d" % attr_id)
    return lxp_attr_name[attr_id].decode("utf-8")


def tag_category(uint32_t tag_id, uint32_t ns):
    """The category bits of a tag in a namespace (names.h CAT_*)."""
    return lxp_tag_category_of(tag_id, ns)


cdef class _NameTableForTests:
    """A dynamic name table, for unit tests."""
    cdef NameTable* table

    def __cinit__(self, uint32_t first_id):
        self.table = name_table_create(first_id)
        if self.table == NULL:
            raise MemoryError()

    def __dealloc__(self):
        name_table_destroy(self.table)

    def intern(self, bytes name):
        return name_table_intern(self.table, name, len(name))

    def hash(self, bytes name):
        """The table's keyed hash of a name."""
        return name_table_hash(self.table, name, len(name))

    def set_limit(self, uint32_t limit):
        """At most `limit` names: intern returns 0 beyond (as out of memory)."""
        (<NameTableImpl*> self.table).limit = limit

    def get(self, uint32_t id):
        cdef size_t length
        cdef const uint8_t* s = name_table_get(self.table, id, &length)
        return None if s == NULL else s[:length]

    @property
    def count(self):
        return self.table.count


def sip_hash_1_3(k0, k1, bytes data):
    """keyed_hash (SipHash-1-3) of the bytes under the key (k0, k1)."""
    cdef HashKey key
    key.k0 = k0
    key.k1 = k1
    return keyed_hash(&key, data, len(data))


def measured_call(function, argument):
    """function(argument) inside a C frame of its own, for the tests that
    count instructions (tests/robustness/instructions.py): valgrind's
    callgrind collects only inside this function and dumps after each
    call, so each call's count is its own."""
    return function(argument)
