# Main content: which parts of a page are the article. Heuristics over the
# C tree, in C (lexpy's own, not from a standard):
#
# 1. One walk collects per element (pre-order index): its subtree size,
#    rendered text and link text (characters), commas, the text whose
#    nearest block it is, and boilerplate signs: semantic elements (nav,
#    aside, footer, header), ARIA landmark roles, class/id words (comment,
#    share, sidebar, ...; positive ones: article, content, post, ...).
# 2. Paragraphs (p, pre, blockquote, dd; table cells and list items at
#    half weight; blocks with only inline content; lines of text straight
#    in a block) outside boilerplate score by length and commas, less their
#    link density, and give the score to their parent, half to the
#    grandparent, a third further up. The best scoring element, weighted
#    by its own link density and hints, is the article; it climbs to an
#    ancestor that scores nearly as well; other good candidates close by
#    (a split article) make their common ancestor the kept part; siblings
#    that score near it, or are long paragraphs with few links, join it;
#    the nearest <h1> before it joins when it is close (the title).
# 3. Inside what is kept, boilerplate subtrees and blocks that are mostly
#    links (but headings and tables) go. The result is the `removed` mask
#    the text walks read: 1 removed, 2 the root of a kept part, 0 an
#    element on the way to one.

cdef enum ContentFlag:
    FLAG_BOILERPLATE = 1          # nav, aside, footer, landmark role, class word
    FLAG_POSITIVE = 2             # article, main, class words of content
    FLAG_BLOCK_CHILD = 4          # has a block-level child element
    FLAG_LINK = 8                 # an <a>
    FLAG_HIDDEN = 16              # not rendered (its text is not counted)
    FLAG_STRONG_NEGATIVE = 32     # a class word no positive word outweighs
    FLAG_BLOCK = 64               # block-level (holds its own lines of text)
    FLAG_KEEP_LINKS = 128         # a heading or table: kept however many links
    FLAG_WEAK_NEGATIVE = 256      # a weak class word under a positive one
                                  # ("entry-meta"): boilerplate when short


cdef struct ContentStats:
    size_t count                  # elements
    uint32_t* subtree
    uint32_t* parent              # index of the parent element (self at a root)
    uint32_t* text                # rendered characters in the subtree
    uint32_t* links               # of those, inside links
    uint32_t* commas
    uint32_t* block               # the nearest block-level ancestor-or-self
    uint32_t* own                 # characters whose nearest block is this one
    uint32_t* own_links
    uint32_t* own_commas
    uint16_t* flags
    uint8_t* tags                 # 1 for paragraph tags
    float* score


# Class and id words (ASCII, matched in the lower-cased attribute values).
cdef const char* STRONG_NEGATIVE_WORDS[26]
STRONG_NEGATIVE_WORDS[:] = [
    b"comment", b"share", b"sharing", b"social", b"related", b"sidebar",
    b"footer", b"cookie", b"consent", b"newsletter", b"subscribe", b"advert",
    b"sponsor", b"promo", b"breadcrumb", b"disqus",
    b"outbrain", b"taboola", b"recommend", b"signup", b"gdpr", b"paywall",
    b"sr-only", b"screen-reader", b"visually-hidden", b"recirc"]
# (not "widget": page builders call every block one, "elementor-widget-...")
cdef const char* WEAK_NEGATIVE_WORDS[19]
WEAK_NEGATIVE_WORDS[:] = [
    b"menu", b"nav", b"header", b"banner", b"tags", b"pager",
    b"pagination", b"byline", b"toolbar", b"masthead", b"skip", b"login",
    b"rss", b"author", b"meta", b"trending", b"popular", b"dateline",
    b"timestamp"]
cdef const char* ARTICLE_NEGATIVE_WORDS[5]
ARTICLE_NEGATIVE_WORDS[:] = [b"comment", b"related", b"recommend", b"promo", b"sponsor"]
cdef const char* POSITIVE_WORDS[10]
POSITIVE_WORDS[:] = [
    b"article", b"content", b"main", b"post", b"entry", b"body", b"text",
    b"story", b"blog", b"hentry"]


cdef inline bint is_word_separator(uint8_t c) noexcept nogil:
    return not ((0x30 <= c <= 0x39) or (0x41 <= c <= 0x5A) or (0x61 <= c <= 0x7A)
                or c >= 0x80)


cdef enum WordKind:
    WORDS_STRONG_NEGATIVE = 1
    WORDS_WEAK_NEGATIVE = 2
    WORDS_POSITIVE = 4
    WORDS_ARTICLE_NEGATIVE = 8


cdef uint32_t match_words(const uint8_t* lower, size_t length, size_t i,
                          const char** words, size_t count, bint whole,
                          uint32_t kind) noexcept nogil:
    cdef size_t k
    cdef size_t j
    cdef size_t word_length
    for k in range(count):
        if lower[i] != <uint8_t> words[k][0]:
            continue
        word_length = strlen(words[k])
        if word_length > length - i:
            continue
        j = 1
        while j < word_length and lower[i + j] == <uint8_t> words[k][j]:
            j += 1
        if j == word_length and (not whole or i + j == length
                                 or is_word_separator(lower[i + j])) \
                and not is_layout_class(lower, length, i):
            return kind
    return 0


cdef uint32_t attribute_words(CAttr* attr, bint whole) noexcept nogil:
    """Which lists of words (WordKind bits) start a token of the value
    (ASCII case-insensitive; tokens are runs of letters and digits):
    "sidebar" in "sidebar-left". With `whole`, a word must be the whole
    token: ids are often made from headings ("sharing-with-a-team"), where
    a prefix means nothing. One pass: the value is lowered once."""
    cdef uint8_t lower[256]
    cdef size_t length
    cdef size_t i
    cdef uint32_t found = 0
    if attr == NULL or attr.value_length == 0:
        return 0
    length = attr.value_length if attr.value_length < sizeof(lower) else sizeof(lower)
    for i in range(length):
        lower[i] = attr.value[i] + 0x20 if 0x41 <= attr.value[i] <= 0x5A else attr.value[i]
    for i in range(length):
        if (i and not is_word_separator(lower[i - 1])) or is_word_separator(lower[i]):
            continue
        found |= match_words(lower, length, i, STRONG_NEGATIVE_WORDS, 26, whole,
                             WORDS_STRONG_NEGATIVE)
        found |= match_words(lower, length, i, WEAK_NEGATIVE_WORDS, 19, whole,
                             WORDS_WEAK_NEGATIVE)
        found |= match_words(lower, length, i, POSITIVE_WORDS, 10, whole, WORDS_POSITIVE)
        found |= match_words(lower, length, i, ARTICLE_NEGATIVE_WORDS, 5, whole,
                             WORDS_ARTICLE_NEGATIVE)
    return found


cdef bint is_layout_class(const uint8_t* value, size_t length, size_t at) noexcept nogil:
    """Whether the class (the space-separated token around `at`) describes
    the page's layout rather than a part of it: "fixed-sidebar-layout",
    "has-sidebar", "with-comments", "enable-pin-share" hold the article."""
    cdef size_t start = at
    cdef size_t end = at
    cdef size_t i
    while start and not is_collapsible(value[start - 1]):
        start -= 1
    while end < length and not is_collapsible(value[end]):
        end += 1
    for i in range(start, end):
        if i + 6 <= end and memcmp(value + i, b"layout", 6) == 0:
            return True
    return (start + 4 <= end and memcmp(value + start, b"has-", 4) == 0) \
        or (start + 5 <= end and memcmp(value + start, b"with-", 5) == 0) \
        or (start + 3 <= end and memcmp(value + start, b"no-", 3) == 0) \
        or (start + 7 <= end and memcmp(value + start, b"enable-", 7) == 0)


cdef uint16_t element_content_flags(CElement* element) noexcept nogil:
    cdef lxp_tag_id_t tag = element.tag_id
    cdef uint16_t flags = 0
    cdef CAttr* klass
    cdef CAttr* ident
    cdef CAttr* role
    cdef uint32_t words
    if element.ns != NS_HTML:
        return 0
    if tag == TAG_NAV or tag == TAG_ASIDE or tag == TAG_FOOTER or tag == TAG_HEADER \
            or tag == TAG_MENU or tag == TAG_DIALOG:
        flags |= FLAG_BOILERPLATE
    if tag == TAG_ARTICLE or tag == TAG_MAIN:
        flags |= FLAG_POSITIVE
    if tag == TAG_A:
        flags |= FLAG_LINK
    if tag == TAG_H1 or tag == TAG_H2 or tag == TAG_H3 or tag == TAG_H4 \
            or tag == TAG_H5 or tag == TAG_H6 or tag == TAG_TABLE:
        flags |= FLAG_KEEP_LINKS
    role = element_find_attribute(element, ATTR_ROLE, NS__UNDEF)
    if role != NULL:
        if attribute_equals(element, ATTR_ROLE, "navigation") \
                or attribute_equals(element, ATTR_ROLE, "banner") \
                or attribute_equals(element, ATTR_ROLE, "contentinfo") \
                or attribute_equals(element, ATTR_ROLE, "complementary") \
                or attribute_equals(element, ATTR_ROLE, "search") \
                or attribute_equals(element, ATTR_ROLE, "menu") \
                or attribute_equals(element, ATTR_ROLE, "menubar") \
                or attribute_equals(element, ATTR_ROLE, "dialog") \
                or attribute_equals(element, ATTR_ROLE, "alertdialog"):
            flags |= FLAG_BOILERPLATE
        elif attribute_equals(element, ATTR_ROLE, "main") \
                or attribute_equals(element, ATTR_ROLE, "article"):
            flags |= FLAG_POSITIVE
    klass = element_find_attribute(element, ATTR_CLASS, NS__UNDEF)
    ident = element_find_attribute(element, ATTR_ID, NS__UNDEF)
    if klass == NULL and ident == NULL:
        return flags
    words = attribute_words(klass, False) | attribute_words(ident, True)
    if tag == TAG_ARTICLE or tag == TAG_MAIN:
        # Class words on these are mostly feature flags ("enable-pin-share",
        # "has-sidebar"); a comment or a teaser of another article is what
        # they can still be.
        if words & WORDS_ARTICLE_NEGATIVE:
            return (flags & ~FLAG_POSITIVE) | FLAG_BOILERPLATE | FLAG_STRONG_NEGATIVE
        return flags
    if words & WORDS_STRONG_NEGATIVE:
        return flags | FLAG_BOILERPLATE | FLAG_STRONG_NEGATIVE
    if words & WORDS_POSITIVE:
        return flags | FLAG_POSITIVE | (FLAG_WEAK_NEGATIVE if words & WORDS_WEAK_NEGATIVE else 0)
    if words & WORDS_WEAK_NEGATIVE:
        flags |= FLAG_BOILERPLATE
    return flags


cdef inline uint8_t paragraph_kind(CElement* element) noexcept nogil:
    """1: a paragraph element; 2: a block that is a paragraph when it holds
    inline content only (text straight in a <div>); 3: a table cell; 4: a
    list item; 5: a top-level heading (h1, for the title); 0: none of these."""
    cdef lxp_tag_id_t tag = element.tag_id
    if element.ns != NS_HTML:
        return 0
    if tag == TAG_P or tag == TAG_PRE or tag == TAG_BLOCKQUOTE or tag == TAG_DD:
        return 1
    if tag == TAG_TD:
        return 3
    if tag == TAG_LI:
        return 4
    if tag == TAG_H1:
        return 5
    if tag == TAG_DIV or tag == TAG_SECTION or tag == TAG_ARTICLE or tag == TAG_MAIN \
            or tag == TAG_CENTER or tag == TAG_FONT or tag == TAG_SPAN:
        return 2
    return 0


cdef void stats_free(ContentStats* s) noexcept nogil:
    free(s.subtree)
    free(s.parent)
    free(s.text)
    free(s.links)
    free(s.commas)
    free(s.own)
    free(s.block)
    free(s.own_links)
    free(s.own_commas)
    free(s.flags)
    free(s.tags)
    free(s.score)
    memset(s, 0, sizeof(ContentStats))


cdef int collect_stats(ContentStats* s, CNode* root, TextOptions* o) noexcept nogil:
    """Step 1: the per-element statistics, in the pre-order the text walks
    count elements in."""
    cdef CNode* node = root.first_child
    cdef size_t count = 0
    cdef size_t index
    cdef size_t current = <size_t> -1     # index of the innermost open element
    cdef uint32_t hidden = 0              # open elements without a box
    cdef uint32_t link = 0                # open links
    cdef CCharacterData* text
    cdef CElement* element
    cdef uint32_t characters
    cdef uint32_t commas
    cdef size_t i
    cdef size_t p
    cdef Box box
    memset(s, 0, sizeof(ContentStats))
    while node != NULL:
        if node.type == ELEMENT_NODE:
            count += 1
        node = next_in_tree(node, root)
    s.count = count
    if count == 0:
        return 0
    s.subtree = <uint32_t*> calloc(count, sizeof(uint32_t))
    s.parent = <uint32_t*> calloc(count, sizeof(uint32_t))
    s.text = <uint32_t*> calloc(count, sizeof(uint32_t))
    s.links = <uint32_t*> calloc(count, sizeof(uint32_t))
    s.commas = <uint32_t*> calloc(count, sizeof(uint32_t))
    s.own = <uint32_t*> calloc(count, sizeof(uint32_t))
    s.block = <uint32_t*> calloc(count, sizeof(uint32_t))
    s.own_links = <uint32_t*> calloc(count, sizeof(uint32_t))
    s.own_commas = <uint32_t*> calloc(count, sizeof(uint32_t))
    s.flags = <uint16_t*> calloc(count, sizeof(uint16_t))
    s.tags = <uint8_t*> calloc(count, 1)
    s.score = <float*> calloc(count, sizeof(float))
    if s.subtree == NULL or s.parent == NULL or s.text == NULL or s.links == NULL \
            or s.commas == NULL or s.own == NULL or s.own_links == NULL or s.block == NULL \
            or s.own_commas == NULL or s.flags == NULL or s.tags == NULL or s.score == NULL:
        stats_free(s)
        return -1
    index = 0
    node = root.first_child
    while node != NULL:
        if node.type == ELEMENT_NODE:
            element = <CElement*> node
            s.parent[index] = <uint32_t> (current if current != <size_t> -1 else index)
            s.subtree[index] = 1
            s.flags[index] = element_content_flags(element)
            s.tags[index] = paragraph_kind(element)
            box = walk_box(element, o) if child_has_box(node.parent, node) else BOX_NONE
            if box == BOX_NONE or not children_rendered(box):
                s.flags[index] |= FLAG_HIDDEN
            if is_block_level(box) or box == BOX_TABLE_CELL:
                s.flags[index] |= FLAG_BLOCK
                if current != <size_t> -1:
                    s.flags[current] |= FLAG_BLOCK_CHILD
            s.block[index] = <uint32_t> index if s.flags[index] & FLAG_BLOCK \
                or current == <size_t> -1 else s.block[current]
            if s.flags[index] & FLAG_HIDDEN:
                hidden += 1
            if s.flags[index] & FLAG_LINK:
                link += 1
            current = index
            index += 1
            if node.first_child != NULL:
                node = node.first_child
                continue
            current = stats_leave(s, current, &hidden, &link)
        elif node.type == TEXT_NODE and hidden == 0 and current != <size_t> -1:
            text = <CCharacterData*> node
            characters = 0
            commas = 0
            for i in range(text.length):
                # characters: UTF-8 lead bytes that are not white space
                if (text.data[i] & 0xC0) != 0x80 and not is_collapsible(text.data[i]):
                    characters += 1
                if text.data[i] == 0x2C:
                    commas += 1
                elif text.data[i] == 0xEF and i + 2 < text.length \
                        and text.data[i + 1] == 0xBC and text.data[i + 2] == 0x8C:
                    commas += 1           # U+FF0C FULLWIDTH COMMA
                elif text.data[i] == 0xE3 and i + 2 < text.length \
                        and text.data[i + 1] == 0x80 and text.data[i + 2] == 0x81:
                    commas += 1           # U+3001 IDEOGRAPHIC COMMA
            s.text[current] += characters
            s.commas[current] += commas
            if link:
                s.links[current] += characters
            # the nearest block-level ancestor's own text
            p = s.block[current]
            s.own[p] += characters
            s.own_commas[p] += commas
            if link:
                s.own_links[p] += characters
        while node.next == NULL:
            node = node.parent
            if node == root or node == NULL:
                return 0
            current = stats_leave(s, current, &hidden, &link)
        node = node.next
    return 0


cdef size_t stats_leave(ContentStats* s, size_t current, uint32_t* hidden,
                        uint32_t* link) noexcept nogil:
    """Leave element `current`: its totals go to its parent, the parent's
    index is returned."""
    cdef size_t p = s.parent[current]
    if s.flags[current] & FLAG_HIDDEN:
        hidden[0] -= 1
    if s.flags[current] & FLAG_LINK:
        link[0] -= 1
    if s.flags[current] & FLAG_WEAK_NEGATIVE and s.text[current] < 200:
        s.flags[current] |= FLAG_BOILERPLATE
    if p == current:
        return <size_t> -1
    s.subtree[p] += s.subtree[current]
    s.text[p] += s.text[current]
    s.links[p] += s.links[current]
    s.commas[p] += s.commas[current]
    return p


cdef inline float link_density(ContentStats* s, size_t i) noexcept nogil:
    return <float> s.links[i] / s.text[i] if s.text[i] else 0.0


cdef inline float paragraph_score(uint32_t text, uint32_t commas,
                                  float density) noexcept nogil:
    return (1.0 + commas + (text / 100.0 if text < 300 else 3.0)) * (1.0 - density)


cdef int select_main_content(ContentStats* s, uint8_t* removed) noexcept nogil:
    """Steps 2 and 3: fill `removed` (one byte per element)."""
    cdef size_t n = s.count
    cdef uint8_t* excluded
    cdef size_t i
    cdef size_t j
    cdef size_t p
    cdef size_t best = <size_t> -1
    cdef size_t end
    cdef float score
    cdef float best_score = 0
    cdef float weighted
    cdef float density
    cdef uint32_t total = 0
    cdef int level
    if n == 0:
        return 0
    excluded = <uint8_t*> calloc(n, 1)
    if excluded == NULL:
        return -1
    for i in range(n):
        if s.parent[i] == i:
            total += s.text[i]
    # Boilerplate and what is inside it take no part (unless it holds most
    # of the page's text: then the page is marked up oddly, not boilerplate).
    for i in range(n):
        p = s.parent[i]
        excluded[i] = (p != i and excluded[p]) or (
            (s.flags[i] & FLAG_BOILERPLATE) and s.text[i] * 2 < total) \
            or (s.flags[i] & FLAG_HIDDEN)
    # Paragraphs give their score to their ancestors.
    for i in range(n):
        if excluded[i]:
            continue
        if s.tags[i] == 1 or s.tags[i] == 3 or (
                s.tags[i] == 2 and not (s.flags[i] & FLAG_BLOCK_CHILD)):
            # A paragraph (or a block of inline content only: text in a <div>)
            if s.text[i] < 25:
                continue
            density = link_density(s, i)
            if density > 0.5:
                continue
            score = paragraph_score(s.text[i], s.commas[i], density)
            if s.tags[i] == 3:
                score *= 0.5          # a table cell: data more often than prose
            p = i
        elif s.flags[i] & FLAG_BLOCK and s.own[i] >= 25:
            # Lines of text straight in a block that also holds blocks (text
            # between <br>s, list items): paragraphs of this block itself.
            density = <float> s.own_links[i] / s.own[i]
            if density > 0.5:
                continue
            score = paragraph_score(s.own[i], s.own_commas[i], density)
            if s.tags[i] == 4:
                score *= 0.5          # a list item: lists of references, links
            s.score[i] += score
            p = i
        else:
            continue
        for level in range(3):
            if s.parent[p] == p:
                break
            p = s.parent[p]
            s.score[p] += score / (1 + level) if level < 2 else score / 3.0
    for i in range(n):
        if excluded[i] or s.score[i] <= 0:
            continue
        weighted = s.score[i] * (1.0 - link_density(s, i))
        if s.flags[i] & FLAG_POSITIVE:
            weighted *= 1.25
        s.score[i] = weighted
        if weighted > best_score:
            best_score = weighted
            best = i
    memset(removed, 1, n)
    if best == <size_t> -1:
        # No article found: everything but boilerplate.
        for i in range(n):
            removed[i] = excluded[i] and not (s.flags[i] & FLAG_HIDDEN)
            if s.parent[i] == i and not removed[i]:
                removed[i] = 2
        free(excluded)
        return 0
    # A list or a part rarely is the whole article: climb to an ancestor
    # (up to three levels) that scores nearly as well.
    p = best
    for level in range(3):
        if s.parent[p] == p:
            break
        p = s.parent[p]
        if not excluded[p] and s.score[p] >= best_score * 0.45:
            best = p
    best_score = s.score[best]
    keep_subtree(s, removed, excluded, best)
    best = keep_nearby_candidates(s, removed, excluded, best, best_score)
    keep_title(s, removed, excluded, best)
    # Siblings that belong to the article: near its score, or long
    # paragraphs with few links.
    p = s.parent[best]
    if p != best:
        i = p + 1
        end = p + s.subtree[p]
        while i < end:
            if i != best and not excluded[i]:
                density = link_density(s, i)
                if s.score[i] >= best_score * 0.2 and s.score[i] >= 3.0 \
                        or (s.tags[i] == 1 and s.text[i] >= 80 and density < 0.25) \
                        or (s.tags[i] == 1 and s.text[i] >= 25 and density == 0
                            and s.commas[i] > 0):
                    keep_subtree(s, removed, excluded, i)
            i += s.subtree[i]
    free(excluded)
    return 0


cdef void keep_subtree(ContentStats* s, uint8_t* removed, uint8_t* excluded,
                       size_t root) noexcept nogil:
    """Keep element `root` (and the way to it) but the boilerplate and the
    blocks of links inside."""
    cdef size_t end = root + s.subtree[root]
    cdef size_t i = root + 1
    cdef size_t p
    removed[root] = 2
    while i < end:
        if (s.flags[i] & FLAG_BOILERPLATE and not (s.flags[i] & FLAG_HIDDEN)
                and s.text[i] * 2 < s.text[root]) \
                or (s.text[i] >= 1 and link_density(s, i) > 0.6
                    and not (s.flags[i] & (FLAG_LINK | FLAG_KEEP_LINKS))
                    and s.text[i] * 2 < s.text[root]):
            i += s.subtree[i]             # removed with its subtree
            continue
        removed[i] = 0
        i += 1
    p = root
    while s.parent[p] != p:
        p = s.parent[p]
        if removed[p] != 1:
            break                     # (the way up from here is marked)
        removed[p] = 0


cdef size_t keep_nearby_candidates(ContentStats* s, uint8_t* removed, uint8_t* excluded,
                                   size_t best, float best_score) noexcept nogil:
    """Articles split into parts (sections in wrappers of their own): when
    other good candidates have a common ancestor with the best at most six
    levels up, that ancestor is kept."""
    cdef size_t ancestors[7]
    cdef size_t count = 0
    cdef size_t i
    cdef size_t p
    cdef size_t k
    cdef int level
    cdef bint near
    cdef size_t lca = best
    p = best
    while count < 7:
        ancestors[count] = p
        count += 1
        if s.parent[p] == p:
            break
        p = s.parent[p]
    for i in range(s.count):
        if i == best or excluded[i] or s.score[i] < best_score * 0.3 or s.score[i] < 3.0 \
                or removed[i] != 1:
            continue
        if best <= i < best + s.subtree[best] or (i < best and best < i + s.subtree[i]):
            continue                      # inside the best, or around it
        near = False
        p = i
        for level in range(8):
            if s.parent[p] == p:
                break
            p = s.parent[p]
            for k in range(1, count):
                if ancestors[k] == p:
                    near = True
                    break
            if near:
                break
        # The parts' common ancestor is kept: what lies between the parts
        # (headings, short paragraphs) belongs to the article too.
        if near and p != lca and not (lca < p < lca + s.subtree[lca]):
            lca = p
    if lca != best:
        keep_subtree(s, removed, excluded, lca)
    return lca


cdef void keep_title(ContentStats* s, uint8_t* removed, uint8_t* excluded,
                     size_t kept) noexcept nogil:
    """The title belongs to the article: when the kept part has no <h1>,
    the nearest <h1> before it is kept if it shares an ancestor with the
    part at most four levels up (a headline above the article's body)."""
    cdef size_t i
    cdef size_t p
    cdef size_t ancestors[5]
    cdef size_t count = 0
    cdef size_t k
    cdef size_t looked = 0
    cdef int level
    for i in range(kept, kept + s.subtree[kept]):
        if s.tags[i] == 5:
            return
    p = kept
    while count < 5:
        ancestors[count] = p
        count += 1
        if s.parent[p] == p:
            break
        p = s.parent[p]
    i = kept
    while i > 0 and looked < 2000:
        i -= 1
        looked += 1
        if s.tags[i] != 5:
            continue
        # (a headline often sits in a <header>, which is boilerplate
        # elsewhere: only its nearness to the article counts here)
        if s.flags[i] & FLAG_HIDDEN or s.text[i] == 0 or i + s.subtree[i] > kept:
            return                        # (not rendered, empty, or around it)
        p = i
        for level in range(8):
            if s.parent[p] == p:
                return
            p = s.parent[p]
            for k in range(1, count):
                if ancestors[k] == p:
                    keep_subtree(s, removed, excluded, i)
                    return
        return
