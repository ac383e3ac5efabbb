#!/usr/bin/env python3
"""Generate lexpy's static name tables: tag ids, attribute ids, namespaces.

Writes lexpy/core/names.h (C data: enums, names, hash tables, category
and adjustment tables) and lexpy/core/names.pxd (the Cython declarations
of the same). The input data is the lists below, transcribed from the WHATWG
HTML standard (element index, parsing section: "special", "formatting",
scopes, implied end tags, "adjust SVG tag names", "adjust SVG attributes",
"adjust MathML attributes", "adjust foreign attributes") and the SVG 2 and
MathML element indexes.

Usage: python tools/gen_names.py [OUTPUT_DIR]   (default: lexpy/core)
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import c_tables  # noqa: E402  (tools/c_tables.py)

# --------------------------------------------------------------------------
# Input data
# --------------------------------------------------------------------------

# System ids: token kinds and node kinds that are not tags. Never found by a
# name lookup (a tag name cannot start with '#').
SYSTEM_TAGS = ["#undef", "#end-of-file", "#text", "#comment", "#doctype",
               "#processing-instruction", "#document", "#document-fragment"]

HTML_ELEMENTS = """
a abbr address area article aside audio b base bdi bdo blockquote body br
button canvas caption cite code col colgroup data datalist dd del details dfn
dialog div dl dt em embed fieldset figcaption figure footer form h1 h2 h3 h4
h5 h6 head header hgroup hr html i iframe img input ins kbd label legend li
link main map mark menu meta meter nav noscript object ol optgroup option
output p picture pre progress q rp rt ruby s samp script search section select
selectedcontent slot small source span strong style sub summary sup table
tbody td template textarea tfoot th thead time title tr track u ul var video
wbr
acronym applet basefont bgsound big blink center dir font frame frameset image
isindex keygen listing marquee menuitem multicol nextid nobr noembed noframes
param plaintext rb rtc spacer strike tt xmp
""".split()

SVG_ELEMENTS = """
a altGlyph altGlyphDef altGlyphItem animate animateColor animateMotion
animateTransform circle clipPath color-profile cursor defs desc discard
ellipse feBlend feColorMatrix feComponentTransfer feComposite
feConvolveMatrix feDiffuseLighting feDisplacementMap feDistantLight
feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR feGaussianBlur feImage
feMerge feMergeNode feMorphology feOffset fePointLight feSpecularLighting
feSpotLight feTile feTurbulence filter font font-face font-face-format
font-face-name font-face-src font-face-uri foreignObject g glyph glyphRef
hatch hatchpath hkern image line linearGradient marker mask metadata
missing-glyph mpath path pattern polygon polyline radialGradient rect script
set solidcolor stop style svg switch symbol text textPath title tref tspan
unknown use view vkern
""".split()

MATHML_ELEMENTS = """
math maction annotation annotation-xml semantics menclose merror mfenced mfrac
mglyph mi mlabeledtr mmultiscripts mn mo mover mpadded mphantom mprescripts
mroot mrow ms mspace msqrt mstyle msub msubsup msup mtable mtd mtext mtr
munder munderover none malignmark
""".split()

# "adjust SVG tag names": lowercase token name -> SVG element name.
SVG_TAG_FIXES = [n for n in SVG_ELEMENTS if n != n.lower()]

HTML = "html"
MATHML = "mathml"
SVG = "svg"

# The "special" category.
SPECIAL = {
    HTML: """address applet area article aside base basefont bgsound
        blockquote body br button caption center col colgroup dd details dir div
        dl dt embed fieldset figcaption figure footer form frame frameset h1 h2
        h3 h4 h5 h6 head header hgroup hr html iframe img input keygen li link
        listing main marquee menu meta nav noembed noframes noscript object ol p
        param plaintext pre script search section select source style summary
        table tbody td template textarea tfoot th thead title tr track ul wbr
        xmp""".split(),
    MATHML: "mi mo mn ms mtext annotation-xml".split(),
    SVG: "foreignObject desc title".split(),
}

FORMATTING = {HTML: "a b big code em font i nobr s small strike strong tt u".split()}

# Void elements of the serializer (the parser treats each explicitly).
VOID = {HTML: """area base basefont bgsound br col embed frame hr img input
    keygen link meta param source track wbr""".split()}

# "has an element in scope" and its variants: the element types that bound
# the search. select joined the list with the relaxed <select> parser
# (whatwg/html#10557): a select holds flow content now, and an end tag or
# the adoption agency must not reach through it -- in
# <font><select><option>a</font> the select stays inside the font
# (webkit02.dat), and in <div><select></div><option> the </div> is ignored.
SCOPE = {
    HTML: "applet caption html table td th marquee object select template".split(),
    MATHML: "mi mo mn ms mtext annotation-xml".split(),
    SVG: "foreignObject desc title".split(),
}
SCOPE_LIST_ITEM_EXTRA = {HTML: "ol ul".split()}
SCOPE_BUTTON_EXTRA = {HTML: ["button"]}
SCOPE_TABLE = {HTML: "html table template".split()}

IMPLIED_END = {HTML: "dd dt li optgroup option p rb rp rt rtc".split()}
IMPLIED_END_THOROUGH_EXTRA = {
    HTML: "caption colgroup tbody td tfoot th thead tr".split()}

MATHML_TEXT_INTEGRATION = {MATHML: "mi mo mn ms mtext".split()}
# annotation-xml is an HTML integration point only with certain encodings:
# the tree builder decides from the attribute.
HTML_INTEGRATION = {SVG: "foreignObject desc title".split()}

HEADING = {HTML: "h1 h2 h3 h4 h5 h6".split()}

# The sets the "in body" insertion mode names (its start and end tag
# entries): "A start tag whose tag name is one of: address, article, ..."
# (close a p element, insert the element), and "An end tag whose tag name
# is one of: address, article, ..." (generate implied end tags, pop up to
# the element).
CLOSES_P = {HTML: """address article aside blockquote center details dialog dir
    div dl fieldset figcaption figure footer header hgroup main menu nav ol p
    search section summary ul""".split()}
BLOCK_END = {HTML: """address article aside blockquote button center details
    dialog dir div dl fieldset figcaption figure footer header hgroup listing
    main menu nav ol pre search section select summary ul""".split()}

# Children serialized without escaping ("serializing HTML fragments");
# noscript depends on the scripting flag and is left to the serializer.
SERIALIZE_RAWTEXT = {HTML: "style script xmp iframe noembed noframes plaintext".split()}

# The tag names that break out of foreign content (a property of the token).
FOREIGN_BREAKOUT = """b big blockquote body br center code dd div dl dt em
    embed h1 h2 h3 h4 h5 h6 head hr i img li listing menu meta nobr ol p pre
    ruby s small span strong strike sub sup table tt u ul var""".split()

CATEGORIES = [
    ("SPECIAL", SPECIAL),
    ("FORMATTING", FORMATTING),
    ("VOID", VOID),
    ("SCOPE", SCOPE),
    ("SCOPE_LIST_ITEM", None),   # SCOPE + SCOPE_LIST_ITEM_EXTRA
    ("SCOPE_BUTTON", None),      # SCOPE + SCOPE_BUTTON_EXTRA
    ("SCOPE_TABLE", SCOPE_TABLE),
    ("IMPLIED_END", IMPLIED_END),
    ("IMPLIED_END_THOROUGH", None),  # IMPLIED_END + extra
    ("MATHML_TEXT_INTEGRATION", MATHML_TEXT_INTEGRATION),
    ("HTML_INTEGRATION", HTML_INTEGRATION),
    ("HEADING", HEADING),
    ("SERIALIZE_RAWTEXT", SERIALIZE_RAWTEXT),
    ("CLOSES_P", CLOSES_P),
    ("BLOCK_END", BLOCK_END),
]


def _union(*maps):
    out = {}
    for m in maps:
        for ns, names in m.items():
            out.setdefault(ns, [])
            out[ns] = out[ns] + list(names)
    return out


DERIVED = {
    "SCOPE_LIST_ITEM": _union(SCOPE, SCOPE_LIST_ITEM_EXTRA),
    "SCOPE_BUTTON": _union(SCOPE, SCOPE_BUTTON_EXTRA),
    "IMPLIED_END_THOROUGH": _union(IMPLIED_END, IMPLIED_END_THOROUGH_EXTRA),
}

# Attributes: the HTML attribute index with the commonest event handlers
# (other event handlers become dynamic ids), plus what SVG/MathML
# adjustment needs.
HTML_ATTRIBUTES = """
abbr accept accept-charset accesskey action align alink allow allowfullscreen
alt archive async autocapitalize autocomplete autocorrect autofocus autoplay
axis background behavior bgcolor blocking border bottommargin cellpadding
cellspacing char charoff charset checked cite class classid clear code
codebase codetype color cols colspan command commandfor compact content
contenteditable controls coords crossorigin data datetime declare decoding
default defer dir dirname disabled download draggable enctype enterkeyhint
face fetchpriority for form formaction formenctype formmethod formnovalidate
formtarget frame frameborder headers height hidden high href hreflang hspace
http-equiv id imagesizes imagesrcset inert inputmode integrity is ismap
itemid itemprop itemref itemscope itemtype kind label lang language leftmargin
link list loading longdesc loop low marginheight marginwidth max maxlength
media method min minlength multiple muted name nohref nomodule nonce noresize
noshade novalidate nowrap object open optimum pattern ping placeholder
playsinline popover popovertarget popovertargetaction poster preload profile
readonly referrerpolicy rel required rev reversed rightmargin rows rowspan
rules sandbox scheme scope scrolling selected shadowrootclonable
shadowrootdelegatesfocus shadowrootmode shadowrootserializable shape size
sizes slot span spellcheck src srcdoc srclang srcset standby start step style
summary tabindex target text title topmargin translate type usemap valign
value valuetype version vlink vspace width wrap
onclick onload onerror onchange onsubmit onmouseover onmouseout onfocus onblur
onkeydown onkeyup
""".split()

SVG_ATTRIBUTE_FIXES = """attributeName attributeType baseFrequency
    baseProfile calcMode clipPathUnits diffuseConstant edgeMode filterUnits
    glyphRef gradientTransform gradientUnits kernelMatrix kernelUnitLength
    keyPoints keySplines keyTimes lengthAdjust limitingConeAngle markerHeight
    markerUnits markerWidth maskContentUnits maskUnits numOctaves pathLength
    patternContentUnits patternTransform patternUnits pointsAtX pointsAtY
    pointsAtZ preserveAlpha preserveAspectRatio primitiveUnits refX refY
    repeatCount repeatDur requiredExtensions requiredFeatures specularConstant
    specularExponent spreadMethod startOffset stdDeviation stitchTiles
    surfaceScale systemLanguage tableValues targetX targetY textLength viewBox
    viewTarget xChannelSelector yChannelSelector zoomAndPan""".split()

MATHML_ATTRIBUTE_FIXES = ["definitionURL"]

SVG_MATHML_ATTRIBUTES = """cx cy d dx dy fill fill-opacity fill-rule
    transform points r rx ry stroke stroke-width stroke-linecap
    stroke-linejoin stroke-dasharray stroke-opacity opacity x x1 x2 y y1 y2
    offset stop-color stop-opacity font-family font-size font-weight
    text-anchor clip-path clip-rule mask filter visibility display
    encoding mathvariant mathcolor mathbackground mathsize displaystyle
    scriptlevel""".split()

# "adjust foreign attributes": token name -> (prefix, local name, namespace).
FOREIGN_ATTRIBUTES = [
    ("xlink:actuate", "xlink", "actuate", "XLINK"),
    ("xlink:arcrole", "xlink", "arcrole", "XLINK"),
    ("xlink:href", "xlink", "href", "XLINK"),
    ("xlink:role", "xlink", "role", "XLINK"),
    ("xlink:show", "xlink", "show", "XLINK"),
    ("xlink:title", "xlink", "title", "XLINK"),
    ("xlink:type", "xlink", "type", "XLINK"),
    ("xml:lang", "xml", "lang", "XML"),
    ("xml:space", "xml", "space", "XML"),
    ("xmlns", None, "xmlns", "XMLNS"),
    ("xmlns:xlink", "xmlns", "xlink", "XMLNS"),
]

NAMESPACES = [
    ("HTML", "http://www.w3.org/1999/xhtml", "html"),
    ("MATHML", "http://www.w3.org/1998/Math/MathML", "math"),
    ("SVG", "http://www.w3.org/2000/svg", "svg"),
    ("XLINK", "http://www.w3.org/1999/xlink", "xlink"),
    ("XML", "http://www.w3.org/XML/1998/namespace", "xml"),
    ("XMLNS", "http://www.w3.org/2000/xmlns/", "xmlns"),
]

# --------------------------------------------------------------------------
# Generation
# --------------------------------------------------------------------------

HASH_INIT = 2166136261
HASH_PRIME = 16777619
BANNER = "Generated by tools/gen_names.py; do not edit."


def name_hash(name):
    """FNV-1a over the name's bytes: the tokenizer computes the same while it
    scans (over ASCII-lowercased bytes)."""
    h = HASH_INIT
    for b in name.encode("utf-8"):
        h = ((h ^ b) * HASH_PRIME) & 0xFFFFFFFF
    return h


def enum_name(prefix, name):
    if name.startswith("#"):
        return prefix + "__" + re.sub(r"[^A-Za-z0-9]", "_", name[1:]).upper()
    snake = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name)
    return prefix + "_" + re.sub(r"[^A-Za-z0-9]", "_", snake).upper()


def ordered_unique(names):
    seen = set()
    out = []
    for n in names:
        if n not in seen:
            seen.add(n)
            out.append(n)
    return out


def hash_table(names, first, size):
    """Open addressing, linear probing; slot value 0 = empty."""
    table = [0] * size
    for i, name in enumerate(names):
        if i < first:
            continue
        slot = name_hash(name) & (size - 1)
        while table[slot]:
            slot = (slot + 1) & (size - 1)
        table[slot] = i
    return table


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def c_array(ctype, cname, values, per_line=12):
    return c_tables.c_array(ctype, cname, values, per_line)


def name_heads(ctype_name, names):
    """The first 8 bytes of each name as a little-endian word, zero-padded
    (lxp_static_name_find_word compares a name of up to 8 bytes in one)."""
    words = ["0x%016xULL" % int.from_bytes(n.encode("ascii")[:8].ljust(8, b"\0"), "little")
             for n in names]
    lines = ["static const uint64_t %s[%d] = {\n" % (ctype_name, len(words))]
    for k in range(0, len(words), 4):
        lines.append("    " + ", ".join(words[k:k + 4]) + ",\n")
    lines.append("};\n")
    return "".join(lines)


def build():
    # Tags: lowercase names (what the tokenizer produces) and the case-fixed
    # SVG names as separate ids.
    element_names = ordered_unique(
        HTML_ELEMENTS + [n.lower() for n in SVG_ELEMENTS] + SVG_ELEMENTS
        + MATHML_ELEMENTS)
    tags = SYSTEM_TAGS + sorted(set(element_names) - set(SYSTEM_TAGS),
                                key=lambda n: (n.lower(), n))
    tag_index = {n: i for i, n in enumerate(tags)}
    first_tag = len(SYSTEM_TAGS)

    tag_enums = [enum_name("TAG", n) for n in tags]
    assert len(set(tag_enums)) == len(tag_enums), "tag enum collision"

    ns_cols = {HTML: 1, MATHML: 2, SVG: 3}
    cat_bits = {name: 1 << i for i, (name, _) in enumerate(CATEGORIES)}
    category = [[0, 0, 0, 0] for _ in tags]
    for cat_name, data in CATEGORIES:
        data = DERIVED.get(cat_name, data)
        for ns, names in data.items():
            for n in names:
                category[tag_index[n]][ns_cols[ns]] |= cat_bits[cat_name]

    token_flags = [0] * len(tags)
    for n in FOREIGN_BREAKOUT:
        token_flags[tag_index[n]] |= 1

    svg_adjusted = list(range(len(tags)))
    lower = list(range(len(tags)))
    for n in SVG_TAG_FIXES:
        svg_adjusted[tag_index[n.lower()]] = tag_index[n]
        lower[tag_index[n]] = tag_index[n.lower()]

    # Attributes.
    attr_names = ordered_unique(
        HTML_ATTRIBUTES + [n.lower() for n in SVG_ATTRIBUTE_FIXES]
        + SVG_ATTRIBUTE_FIXES + [n.lower() for n in MATHML_ATTRIBUTE_FIXES]
        + MATHML_ATTRIBUTE_FIXES + SVG_MATHML_ATTRIBUTES
        + [a[0] for a in FOREIGN_ATTRIBUTES]
        + [a[2] for a in FOREIGN_ATTRIBUTES]
        + [a[1] for a in FOREIGN_ATTRIBUTES if a[1]])
    attrs = ["#undef"] + sorted(set(attr_names), key=lambda n: (n.lower(), n))
    attr_index = {n: i for i, n in enumerate(attrs)}
    attr_enums = [enum_name("ATTR", n) for n in attrs]
    assert len(set(attr_enums)) == len(attr_enums), "attribute enum collision"

    attr_svg = list(range(len(attrs)))
    for n in SVG_ATTRIBUTE_FIXES:
        attr_svg[attr_index[n.lower()]] = attr_index[n]
    attr_mathml = list(range(len(attrs)))
    for n in MATHML_ATTRIBUTE_FIXES:
        attr_mathml[attr_index[n.lower()]] = attr_index[n]
    ns_index = {key: i + 1 for i, (key, _, _) in enumerate(NAMESPACES)}
    foreign_prefix = [0] * len(attrs)
    foreign_local = [0] * len(attrs)
    foreign_ns = [0] * len(attrs)
    for name, prefix, local, ns in FOREIGN_ATTRIBUTES:
        i = attr_index[name]
        foreign_prefix[i] = attr_index[prefix] if prefix else 0
        foreign_local[i] = attr_index[local]
        foreign_ns[i] = ns_index[ns]

    tag_hash_size = 1024
    attr_hash_size = 1024
    assert len(tags) * 2 < tag_hash_size and len(attrs) * 2 < attr_hash_size

    return dict(
        tags=tags, tag_enums=tag_enums, first_tag=first_tag,
        category=category, cat_bits=cat_bits, token_flags=token_flags,
        svg_adjusted=svg_adjusted, lower=lower,
        tag_hash=hash_table(tags, first_tag, tag_hash_size),
        attrs=attrs, attr_enums=attr_enums, attr_svg=attr_svg,
        attr_mathml=attr_mathml, foreign_prefix=foreign_prefix,
        foreign_local=foreign_local, foreign_ns=foreign_ns,
        attr_hash=hash_table(attrs, 1, attr_hash_size),
    )


def render_header(d):
    out = []
    w = out.append
    w("/* %s */\n" % BANNER)
    w("#ifndef LEXPY_NAMES_H\n#define LEXPY_NAMES_H\n\n")
    w("#include <stddef.h>\n#include <stdint.h>\n#include <string.h>\n\n")
    w("typedef uint32_t lxp_tag_id_t;\ntypedef uint32_t lxp_attr_id_t;\n"
      "typedef uint32_t lxp_ns_id_t;\n\n")
    w("/* FNV-1a, one byte at a time: the tokenizer hashes names while it "
      "scans them. */\n")
    w("#define LXP_NAME_HASH_INIT %du\n" % HASH_INIT)
    w("static inline uint32_t lxp_name_hash_step(uint32_t h, unsigned char c)"
      " { return (h ^ c) * %du; }\n\n" % HASH_PRIME)

    # Namespaces.
    w("enum {\n    NS__UNDEF = 0,\n")
    for key, _, _ in NAMESPACES:
        w("    NS_%s,\n" % key)
    w("    NS__LAST_STATIC\n};\n")
    w("static const char *const lxp_ns_uri[NS__LAST_STATIC] = {\n    \"\",\n")
    for _, uri, _ in NAMESPACES:
        w("    %s,\n" % c_string(uri))
    w("};\n")
    w("static const char *const lxp_ns_prefix[NS__LAST_STATIC] = {\n    \"\",\n")
    for _, _, prefix in NAMESPACES:
        w("    %s,\n" % c_string(prefix))
    w("};\n\n")

    # Tags.
    w("enum {\n")
    for i, e in enumerate(d["tag_enums"]):
        w("    %s = %d,\n" % (e, i))
    w("    TAG__LAST_STATIC = %d\n};\n\n" % len(d["tags"]))
    w("#define LXP_TAG_FIRST_ELEMENT %d\n\n" % d["first_tag"])
    w("static const char *const lxp_tag_name[TAG__LAST_STATIC] = {\n")
    for n in d["tags"]:
        w("    %s,\n" % c_string(n))
    w("};\n")
    w(c_array("uint8_t", "lxp_tag_name_len", [len(n) for n in d["tags"]]))
    w(name_heads("lxp_tag_name_head", d["tags"]))
    w("\n/* Category bits of lxp_tag_category[tag][namespace] "
      "(namespace NS_HTML, NS_MATHML or NS_SVG). */\n")
    for name, bit in d["cat_bits"].items():
        w("#define CAT_%s 0x%xu\n" % (name, bit))
    w("static const uint32_t lxp_tag_category[TAG__LAST_STATIC][4] = {\n")
    for e, row in zip(d["tag_enums"], d["category"]):
        w("    {%s}, /* %s */\n" % (", ".join("0x%x" % v for v in row), e))
    w("};\n\n")
    w("/* Properties of a start tag token's name, whatever the namespace. */\n")
    w("#define TOKEN_NAME_FOREIGN_BREAKOUT 0x1u\n")
    w(c_array("uint8_t", "lxp_tag_token_flags", d["token_flags"], 32))
    w("\n/* adjust SVG tag names: lowercase id -> case-fixed id (others map "
      "to themselves). */\n")
    w(c_array("uint16_t", "lxp_tag_svg_adjusted", d["svg_adjusted"], 16))
    w("/* case-fixed SVG id -> its lowercase id (others map to themselves). */\n")
    w(c_array("uint16_t", "lxp_tag_lower", d["lower"], 16))
    w("\n#define LXP_TAG_HASH_SIZE %d\n" % len(d["tag_hash"]))
    w(c_array("uint16_t", "lxp_tag_hash_table", d["tag_hash"], 16))

    # Attributes.
    w("\nenum {\n")
    for i, e in enumerate(d["attr_enums"]):
        w("    %s = %d,\n" % (e, i))
    w("    ATTR__LAST_STATIC = %d\n};\n\n" % len(d["attrs"]))
    w("static const char *const lxp_attr_name[ATTR__LAST_STATIC] = {\n")
    for n in d["attrs"]:
        w("    %s,\n" % c_string(n))
    w("};\n")
    w(c_array("uint8_t", "lxp_attr_name_len", [len(n) for n in d["attrs"]]))
    w(name_heads("lxp_attr_name_head", d["attrs"]))
    w("/* adjust SVG attributes / adjust MathML attributes: id -> case-fixed id. */\n")
    w(c_array("uint16_t", "lxp_attr_svg_adjusted", d["attr_svg"], 16))
    w(c_array("uint16_t", "lxp_attr_mathml_adjusted", d["attr_mathml"], 16))
    w("/* adjust foreign attributes: id -> prefix id (0: none), local name id, "
      "namespace (0: not adjusted). */\n")
    w(c_array("uint16_t", "lxp_attr_foreign_prefix", d["foreign_prefix"], 16))
    w(c_array("uint16_t", "lxp_attr_foreign_local", d["foreign_local"], 16))
    w(c_array("uint8_t", "lxp_attr_foreign_ns", d["foreign_ns"], 32))
    w("\n#define LXP_ATTR_HASH_SIZE %d\n" % len(d["attr_hash"]))
    w(c_array("uint16_t", "lxp_attr_hash_table", d["attr_hash"], 16))

    w("""
/* Find a static name by exact bytes and their hash; 0 when absent.
 * `lowercase_source`: compare ASCII-lowercased source bytes (the tokenizer's
 * case), otherwise compare exactly. */
static inline uint32_t lxp_static_name_find(
        const uint16_t *table, size_t table_size,
        const char *const *names, const uint8_t *lens,
        const unsigned char *s, size_t len, uint32_t hash, int lowercase_source)
{
    size_t slot = hash & (table_size - 1);
    uint32_t id;
    while ((id = table[slot]) != 0) {
        if (lens[id] == len) {
            const unsigned char *n = (const unsigned char *) names[id];
            size_t i = 0;
            if (lowercase_source) {
                for (; i < len; i++) {
                    unsigned char c = s[i];
                    if (c >= 'A' && c <= 'Z') c += 0x20;
                    if (c != n[i]) break;
                }
            } else {
                for (; i < len && s[i] == n[i]; i++) {}
            }
            if (i == len) return id;
        }
        slot = (slot + 1) & (table_size - 1);
    }
    return 0;
}

/* lxp_static_name_find of exact bytes (not lowercased) where s[0:readable]
 * may be read: with readable >= 8, a name of up to 8 bytes is compared as
 * one 8-byte word, the bytes past its end masked off, against the table's
 * zero-padded first words (`heads`); longer names, and the end of a
 * buffer, go through lxp_static_name_find. */
static inline uint32_t lxp_static_name_find_word(
        const uint16_t *table, size_t table_size,
        const char *const *names, const uint8_t *lens, const uint64_t *heads,
        const unsigned char *s, size_t len, size_t readable, uint32_t hash)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (len <= 8 && readable >= 8) {
        size_t slot = hash & (table_size - 1);
        uint64_t word;
        uint32_t id;
        memcpy(&word, s, 8);
        if (len < 8)
            word &= ((uint64_t) 1 << (8 * len)) - 1;
        while ((id = table[slot]) != 0) {
            if (heads[id] == word && lens[id] == len)
                return id;
            slot = (slot + 1) & (table_size - 1);
        }
        return 0;
    }
#endif
    return lxp_static_name_find(table, table_size, names, lens, s, len, hash, 0);
}

static inline lxp_tag_id_t lxp_tag_find_word(const unsigned char *s, size_t len,
                                             size_t readable, uint32_t hash)
{
    return lxp_static_name_find_word(lxp_tag_hash_table, LXP_TAG_HASH_SIZE,
                                     lxp_tag_name, lxp_tag_name_len,
                                     lxp_tag_name_head, s, len, readable, hash);
}

static inline lxp_attr_id_t lxp_attr_find_word(const unsigned char *s, size_t len,
                                               size_t readable, uint32_t hash)
{
    return lxp_static_name_find_word(lxp_attr_hash_table, LXP_ATTR_HASH_SIZE,
                                     lxp_attr_name, lxp_attr_name_len,
                                     lxp_attr_name_head, s, len, readable, hash);
}

static inline lxp_tag_id_t lxp_tag_find(const unsigned char *s, size_t len,
                                        uint32_t hash, int lowercase_source)
{
    return lxp_static_name_find(lxp_tag_hash_table, LXP_TAG_HASH_SIZE,
                                lxp_tag_name, lxp_tag_name_len,
                                s, len, hash, lowercase_source);
}

static inline lxp_attr_id_t lxp_attr_find(const unsigned char *s, size_t len,
                                          uint32_t hash, int lowercase_source)
{
    return lxp_static_name_find(lxp_attr_hash_table, LXP_ATTR_HASH_SIZE,
                                lxp_attr_name, lxp_attr_name_len,
                                s, len, hash, lowercase_source);
}

/* Category bits of a tag in a namespace; 0 for dynamic ids and other
 * namespaces. */
static inline uint32_t lxp_tag_category_of(lxp_tag_id_t tag, lxp_ns_id_t ns)
{
    if (tag >= TAG__LAST_STATIC || ns == NS__UNDEF || ns > NS_SVG) return 0;
    return lxp_tag_category[tag][ns];
}

#endif /* LEXPY_NAMES_H */
""")
    return "".join(out)


def render_pxd(d):
    out = []
    w = out.append
    w("# %s\n" % BANNER)
    w("# Cython declarations of names.h: tag, attribute and namespace ids.\n\n")
    w("from libc.stdint cimport uint8_t, uint16_t, uint32_t\n\n")
    w('cdef extern from "names.h" nogil:\n')
    w("    ctypedef uint32_t lxp_tag_id_t\n    ctypedef uint32_t lxp_attr_id_t\n"
      "    ctypedef uint32_t lxp_ns_id_t\n\n")
    w("    uint32_t LXP_NAME_HASH_INIT\n")
    w("    uint32_t lxp_name_hash_step(uint32_t h, unsigned char c)\n\n")
    w("    enum:\n        NS__UNDEF\n")
    for key, _, _ in NAMESPACES:
        w("        NS_%s\n" % key)
    w("        NS__LAST_STATIC\n")
    w("    const char* lxp_ns_uri[]\n    const char* lxp_ns_prefix[]\n\n")
    w("    enum:\n")
    for e in d["tag_enums"]:
        w("        %s\n" % e)
    w("        TAG__LAST_STATIC\n        LXP_TAG_FIRST_ELEMENT\n\n")
    w("    const char* lxp_tag_name[]\n    const uint8_t lxp_tag_name_len[]\n")
    w("    enum:\n")
    for name in d["cat_bits"]:
        w("        CAT_%s\n" % name)
    w("        TOKEN_NAME_FOREIGN_BREAKOUT\n")
    w("    const uint32_t lxp_tag_category[][4]\n")
    w("    const uint8_t lxp_tag_token_flags[]\n")
    w("    const uint16_t lxp_tag_svg_adjusted[]\n    const uint16_t lxp_tag_lower[]\n\n")
    w("    enum:\n")
    for e in d["attr_enums"]:
        w("        %s\n" % e)
    w("        ATTR__LAST_STATIC\n\n")
    w("    const char* lxp_attr_name[]\n    const uint8_t lxp_attr_name_len[]\n")
    w("    const uint16_t lxp_attr_svg_adjusted[]\n    const uint16_t lxp_attr_mathml_adjusted[]\n")
    w("    const uint16_t lxp_attr_foreign_prefix[]\n    const uint16_t lxp_attr_foreign_local[]\n")
    w("    const uint8_t lxp_attr_foreign_ns[]\n\n")
    w("    lxp_tag_id_t lxp_tag_find(const unsigned char* s, size_t length,\n"
      "                              uint32_t hash, int lowercase_source)\n")
    w("    lxp_attr_id_t lxp_attr_find(const unsigned char* s, size_t length,\n"
      "                                uint32_t hash, int lowercase_source)\n")
    w("    lxp_tag_id_t lxp_tag_find_word(const unsigned char* s, size_t length,\n"
      "                                   size_t readable, uint32_t hash)\n")
    w("    lxp_attr_id_t lxp_attr_find_word(const unsigned char* s, size_t length,\n"
      "                                     size_t readable, uint32_t hash)\n")
    w("    uint32_t lxp_tag_category_of(lxp_tag_id_t tag, lxp_ns_id_t ns)\n")
    return "".join(out)


def main(argv):
    out_dir = argv[1] if len(argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "lexpy", "core")
    d = build()
    with open(os.path.join(out_dir, "names.h"), "w", newline="\n") as f:
        f.write(render_header(d))
    with open(os.path.join(out_dir, "names.pxd"), "w", newline="\n") as f:
        f.write(render_pxd(d))


if __name__ == "__main__":
    main(sys.argv)
