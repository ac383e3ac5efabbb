# The DOCTYPE token: the DocumentType node, the parse error and the quirks
# mode it implies ("initial" insertion mode).
# https://html.spec.whatwg.org/multipage/parsing.html#the-initial-insertion-mode
#
# The public and system identifier lists below are the standard's, verbatim
# and lowercased (they are compared ASCII case-insensitively).

cdef extern from *:
    """
    static const char *lexpy_quirks_public_prefixes[] = {
        "+//silmaril//dtd html pro v0r11 19970101//",
        "-//as//dtd html 3.0 aswedit + extensions//",
        "-//advasoft ltd//dtd html 3.0 aswedit + extensions//",
        "-//ietf//dtd html 2.0 level 1//",
        "-//ietf//dtd html 2.0 level 2//",
        "-//ietf//dtd html 2.0 strict level 1//",
        "-//ietf//dtd html 2.0 strict level 2//",
        "-//ietf//dtd html 2.0 strict//",
        "-//ietf//dtd html 2.0//",
        "-//ietf//dtd html 2.1e//",
        "-//ietf//dtd html 3.0//",
        "-//ietf//dtd html 3.2 final//",
        "-//ietf//dtd html 3.2//",
        "-//ietf//dtd html 3//",
        "-//ietf//dtd html level 0//",
        "-//ietf//dtd html level 1//",
        "-//ietf//dtd html level 2//",
        "-//ietf//dtd html level 3//",
        "-//ietf//dtd html strict level 0//",
        "-//ietf//dtd html strict level 1//",
        "-//ietf//dtd html strict level 2//",
        "-//ietf//dtd html strict level 3//",
        "-//ietf//dtd html strict//",
        "-//ietf//dtd html//",
        "-//metrius//dtd metrius presentational//",
        "-//microsoft//dtd internet explorer 2.0 html strict//",
        "-//microsoft//dtd internet explorer 2.0 html//",
        "-//microsoft//dtd internet explorer 2.0 tables//",
        "-//microsoft//dtd internet explorer 3.0 html strict//",
        "-//microsoft//dtd internet explorer 3.0 html//",
        "-//microsoft//dtd internet explorer 3.0 tables//",
        "-//netscape comm. corp.//dtd html//",
        "-//netscape comm. corp.//dtd strict html//",
        "-//o'reilly and associates//dtd html 2.0//",
        "-//o'reilly and associates//dtd html extended 1.0//",
        "-//o'reilly and associates//dtd html extended relaxed 1.0//",
        "-//sq//dtd html 2.0 hotmetal + extensions//",
        "-//softquad software//dtd hotmetal pro 6.0::19990601::extensions to html 4.0//",
        "-//softquad//dtd hotmetal pro 4.0::19971010::extensions to html 4.0//",
        "-//spyglass//dtd html 2.0 extended//",
        "-//sun microsystems corp.//dtd hotjava html//",
        "-//sun microsystems corp.//dtd hotjava strict html//",
        "-//w3c//dtd html 3 1995-03-24//",
        "-//w3c//dtd html 3.2 draft//",
        "-//w3c//dtd html 3.2 final//",
        "-//w3c//dtd html 3.2//",
        "-//w3c//dtd html 3.2s draft//",
        "-//w3c//dtd html 4.0 frameset//",
        "-//w3c//dtd html 4.0 transitional//",
        "-//w3c//dtd html experimental 19960712//",
        "-//w3c//dtd html experimental 970421//",
        "-//w3c//dtd w3 html//",
        "-//w3o//dtd w3 html 3.0//",
        "-//webtechs//dtd mozilla html 2.0//",
        "-//webtechs//dtd mozilla html//",
        0
    };
    static const char *lexpy_quirks_public_ids[] = {
        "-//w3o//dtd w3 html strict 3.0//en//",
        "-/w3c/dtd html 4.0 transitional/en",
        "html",
        0
    };
    static const char *lexpy_quirks_system_id =
        "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd";
    static const char *lexpy_html401_public_prefixes[] = {
        "-//w3c//dtd html 4.01 frameset//",
        "-//w3c//dtd html 4.01 transitional//",
        0
    };
    static const char *lexpy_limited_quirks_public_prefixes[] = {
        "-//w3c//dtd xhtml 1.0 frameset//",
        "-//w3c//dtd xhtml 1.0 transitional//",
        0
    };
    """
    const char** lexpy_quirks_public_prefixes
    const char** lexpy_quirks_public_ids
    const char* lexpy_quirks_system_id
    const char** lexpy_html401_public_prefixes
    const char** lexpy_limited_quirks_public_prefixes


cdef enum:
    # Two bytes where the prefixes of the lists above mostly differ (after
    # "-//" and after "-//w3c//dtd "); every prefix is longer than both.
    PREFIX_SCREEN_FIRST = 3
    PREFIX_SCREEN_SECOND = 12


cdef inline uint8_t ascii_lower_byte(uint8_t c) noexcept nogil:
    return c + 0x20 if 0x41 <= c <= 0x5A else c


cdef bint starts_with_any(const uint8_t* value, size_t length,
                          const char** prefixes) noexcept nogil:
    """Whether `value` starts with one of the prefixes (ASCII
    case-insensitively). A prefix is compared whole only when its bytes at
    the two screen positions match the value's (a value too short to reach
    them matches no prefix)."""
    cdef size_t i = 0
    cdef uint8_t first, second
    if length <= PREFIX_SCREEN_SECOND:
        return False
    first = ascii_lower_byte(value[PREFIX_SCREEN_FIRST])
    second = ascii_lower_byte(value[PREFIX_SCREEN_SECOND])
    while prefixes[i] != NULL:
        if <uint8_t> prefixes[i][PREFIX_SCREEN_FIRST] == first \
                and <uint8_t> prefixes[i][PREFIX_SCREEN_SECOND] == second \
                and ascii_ci_starts_with(value, length, prefixes[i]):
            return True
        i += 1
    return False


cdef bint equals_any(const uint8_t* value, size_t length,
                     const char** candidates) noexcept nogil:
    cdef size_t i = 0
    while candidates[i] != NULL:
        if ascii_ci_equals(value, length, candidates[i]):
            return True
        i += 1
    return False


cdef uint32_t doctype_quirks_mode(CDocumentType* doctype, bint force_quirks) noexcept nogil:
    """The document's mode a DOCTYPE sets (outside an iframe srcdoc
    document)."""
    cdef const uint8_t* public_id = doctype.public_id
    cdef size_t public_length = doctype.public_id_length
    cdef const uint8_t* system_id = doctype.system_id
    cdef size_t system_length = doctype.system_id_length
    # whatwg/html#12084 (2026-01-14): for the HTML 4.01 rows, an empty
    # system identifier counts as missing.
    cdef bint system_id_missing_or_empty = system_id == NULL or system_length == 0
    if force_quirks or doctype.name == NULL or not (
            doctype.name_length == 4 and memcmp(doctype.name, b"html", 4) == 0):
        return QUIRKS
    if public_id != NULL:
        if equals_any(public_id, public_length, lexpy_quirks_public_ids):
            return QUIRKS
        if starts_with_any(public_id, public_length, lexpy_quirks_public_prefixes):
            return QUIRKS
        if system_id_missing_or_empty and starts_with_any(
                public_id, public_length, lexpy_html401_public_prefixes):
            return QUIRKS
    if system_id != NULL and ascii_ci_equals(system_id, system_length,
                                             lexpy_quirks_system_id):
        return QUIRKS
    if public_id != NULL:
        if starts_with_any(public_id, public_length,
                           lexpy_limited_quirks_public_prefixes):
            return LIMITED_QUIRKS
        if not system_id_missing_or_empty and starts_with_any(
                public_id, public_length, lexpy_html401_public_prefixes):
            return LIMITED_QUIRKS
    return NO_QUIRKS


cdef CDocumentType* insert_doctype(TreeBuilder* tb, Token* token) noexcept nogil:
    """Append a DocumentType node for the token to the Document. The name is
    lowercased; CR and U+0000 are converted as everywhere else."""
    cdef CDocumentType* doctype = doctype_create(tb.document)
    cdef uint32_t flags = DATA_HAS_NUL | DATA_NUL_TO_REPLACEMENT | DATA_HAS_CR
    if doctype == NULL:
        tb.halt.failed = True
        return NULL
    if token.type & TOKEN_DOCTYPE_HAS_NAME:
        doctype.name = convert_into_dom(
            tb, token.data + token.doctype_name_begin,
            token.doctype_name_end - token.doctype_name_begin,
            flags | DATA_ASCII_LOWERCASE, &doctype.name_length)
    else:
        # A missing name is the empty string in the DOM.
        doctype.name = convert_into_dom(tb, token.data, 0, 0, &doctype.name_length)
    if token.type & TOKEN_DOCTYPE_HAS_PUBLIC_ID:
        doctype.public_id = convert_into_dom(
            tb, token.data + token.public_id_begin,
            token.public_id_end - token.public_id_begin, flags,
            &doctype.public_id_length)
    if token.type & TOKEN_DOCTYPE_HAS_SYSTEM_ID:
        doctype.system_id = convert_into_dom(
            tb, token.data + token.system_id_begin,
            token.system_id_end - token.system_id_begin, flags,
            &doctype.system_id_length)
    if tb.positions.on:
        positions_set_token(tb, &doctype.node, token)
    node_append_child(&tb.document.node, &doctype.node)
    return doctype


cdef bint doctype_is_conforming(TreeBuilder* tb, Token* token,
                                CDocumentType* doctype) noexcept nogil:
    """Not a parse error: name "html", no public identifier, and no system
    identifier or "about:legacy-compat"."""
    if not (token.type & TOKEN_DOCTYPE_HAS_NAME) or doctype.name_length != 4 \
            or memcmp(doctype.name, b"html", 4) != 0:
        return False
    if token.type & TOKEN_DOCTYPE_HAS_PUBLIC_ID:
        return False
    if token.type & TOKEN_DOCTYPE_HAS_SYSTEM_ID:
        return doctype.system_id_length == 19 and \
            memcmp(doctype.system_id, b"about:legacy-compat", 19) == 0
    return True
