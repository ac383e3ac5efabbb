# The unified token (DESIGN.md decision 2): one C struct, reused for every
# token the tokenizer emits. It holds ranges and flags, never copies: the
# consumer (the tree builder) converts a range exactly once, straight into
# DOM storage, with convert_text() of tokenizer.pxd.
#
# Ranges are byte offsets into `data`, which is valid only while the token is
# being handled (during the emit callback): it points either into the
# caller's chunk or into the tokenizer's incoming buffer.

from libc.stdint cimport uint8_t, uint32_t
from lexpy.core.names cimport lxp_tag_id_t, lxp_attr_id_t

# Token.type bits.
cdef enum TokenType:
    TOKEN_END_TAG = 0x1           # an end tag (tag_id is the tag's id)
    TOKEN_SELF_CLOSING = 0x2      # "self-closing flag" of a tag token
    TOKEN_FORCE_QUIRKS = 0x4      # DOCTYPE "force-quirks flag"
    TOKEN_DOCTYPE_HAS_NAME = 0x8
    TOKEN_DOCTYPE_HAS_PUBLIC_ID = 0x10
    TOKEN_DOCTYPE_HAS_SYSTEM_ID = 0x20
    TOKEN_CONTINUATION = 0x40     # a comment token that carries more data of
                                  # the comment token before it: a comment
                                  # still open at the end of a chunk is
                                  # emitted in pieces, so the incoming buffer
                                  # never holds a long comment whole

# Data-conversion flags (Token.data_flags, TokenAttr.flags): what the one
# conversion routine must do to a range. A range with no flag set is copied
# as it is. The HAS_* bits may be a superset: text emitted in two pieces at
# a chunk end can carry a bit only its other piece needed (harmless: the
# conversion then just finds nothing to do).
cdef enum DataFlags:
    DATA_HAS_NUL = 0x1            # contains U+0000
    DATA_HAS_CR = 0x2             # contains U+000D (CR and CRLF become LF)
    DATA_HAS_CHARREF = 0x4        # contains '&' that may start a character reference
    DATA_IN_ATTRIBUTE = 0x8       # attribute value: legacy named-reference rule
    DATA_NUL_TO_REPLACEMENT = 0x10  # NUL becomes U+FFFD: set by the
                                    # tokenizer where the standard replaces
                                    # (RCDATA, RAWTEXT, script, PLAINTEXT,
                                    # comment, attribute, DOCTYPE, names)
                                    # and by the tree builder in foreign
                                    # content. Not in processing
                                    # instruction data: the standard keeps
                                    # U+0000 there, without an error.
    DATA_NUL_DROP = 0x800         # NUL is dropped: set by the tree builder
                                  # where it ignores U+0000 character tokens.
                                  # Neither bit: NUL is kept (data state and
                                  # CDATA output of the tokenizer).
    DATA_ASCII_LOWERCASE = 0x1000 # ASCII upper alpha becomes lower: set
                                  # on a tag name that has upper case. The
                                  # DOCTYPE name always needs it; it is not
                                  # in a DOCTYPE's data_flags (the
                                  # identifiers keep their case).
    DATA_CDATA = 0x20             # from a CDATA section (NUL kept by the
                                  # tokenizer; foreign content replaces it)
    DATA_RAW = 0x40               # RAWTEXT, script data or PLAINTEXT origin
    DATA_RCDATA = 0x80            # RCDATA origin
    DATA_WHITESPACE_ONLY = 0x100  # text consisting only of
                                  # TAB, LF, FF, CR, SPACE
    DATA_LEADING_WHITESPACE = 0x200  # text starting with one of those

# The flags that make a range's text differ from its bytes (the conversion
# routine has work; else the bytes are the text).
cdef enum:
    DATA_NEEDS_CONVERSION = DATA_HAS_NUL | DATA_HAS_CR | DATA_HAS_CHARREF | DATA_ASCII_LOWERCASE

cdef struct TokenAttr:
    lxp_attr_id_t name_id         # lowercased name's id (static or dynamic);
                                  # 0 only while the tag is built: a name
                                  # whose lookup waits for the tag's end
    uint32_t name_flags           # (the tokenizer's own: a waiting name's
                                  # DataFlags)
    size_t name_begin
    size_t name_end
    size_t value_begin            # value_begin == value_end: empty value
    size_t value_end
    uint32_t flags                # DataFlags of the value (and name: NUL)
    uint32_t line                 # position of the name's first character
    uint32_t column               # (1-based, UTF-16 code units; 0 unless errors
                                  # are collected)
    uint32_t name_hash            # (the tokenizer's own: a waiting name's
                                  # hash in the dynamic attribute table
    uint32_t scan_hash            # and its scan hash, names.h's FNV-1a)

cdef struct Token:
    lxp_tag_id_t tag_id           # TAG_* for tags; TAG__TEXT, TAG__COMMENT,
                                  # TAG__DOCTYPE, TAG__PROCESSING_INSTRUCTION,
                                  # TAG__END_OF_FILE for the other kinds
    uint32_t type                 # TokenType bits
    const uint8_t* data           # base of every offset below
    size_t begin                  # the raw token: its first byte ...
    size_t end                    # ... and one past its last
    size_t text_begin             # text, comment, PI data; tag name
    size_t text_end
    uint32_t data_flags           # DataFlags of the token's data: the text
                                  # range (text, comment, PI data), the tag
                                  # name, or the DOCTYPE name and
                                  # identifiers together
    # Attributes of a tag token (duplicates already dropped, as the
    # standard says).
    TokenAttr* attrs
    size_t attr_count
    # DOCTYPE: present only with the TOKEN_DOCTYPE_HAS_* bit.
    size_t doctype_name_begin
    size_t doctype_name_end
    size_t public_id_begin
    size_t public_id_end
    size_t system_id_begin
    size_t system_id_end
    # Processing instruction: target (data is text_begin..text_end). The
    # target is ASCII alphanumerics, '-' and '_', in its source case.
    size_t pi_target_begin
    size_t pi_target_end
    # Position of the token's first character, for tree-construction errors
    # (1-based, in UTF-16 code units as the standard's tests count; 0
    # unless errors are collected).
    uint32_t line
    uint32_t column
