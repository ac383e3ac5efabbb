"""Exact agreement of lexpy's sanitizer with each set's expected outputs
(../shared/sanitizer/), and a class for every disagreement.

    python tools/sanitizer_agreement.py [--set bleach] [--cases] [--self-test]
                                        [--data DIR]

Prints, per set, the exact agreements of the total and the count per class;
--cases lists each disagreement with its class. Sets: dompurify (lexpy's
default policy), bleach (lexpy.bleach with each case's kwargs), html5lib
(policy.json through lexpy.bleach.Cleaner), justhtml (the translated
policies of tests/sanitizer/test_justhtml.py), nh3 (lexpy.nh3, the cases
comparing a clean() output). The classes are decided mechanically, the
first that holds:

  serialization   lexpy's output and the expected output, each parsed with
                  lexpy (fragment parse in the case's context), give the same
                  tree: the strings differ only in how a tree is written
                  (character references kept as written, ">" not escaped in
                  attribute values, quote style, attribute order, U+000D
                  written raw; for html5lib's serializer, an XLink attribute
                  written by its local name).
  parser          the set's parser builds another tree from the input than
                  the HTML Standard: html5lib 1.1 (bleach vendors it) run on
                  the input, its tree compared with lexpy's (foreign-content
                  breakout, noscript, foster parenting, PIs); for DOMPurify
                  the whole-document parse with scripting off against the
                  fragment parse in a div with scripting on.
  tokenizer       (bleach) bleach's tokenizer turns a disallowed tag into its
                  source text (strip=False) or drops it (strip=True, a
                  newline for a block tag) before tree building, and leaves
                  character references as written. Proved per case: bleach's
                  tokenizer changes the tree, the shim handled every
                  disallowed element of the Standard's tree (escaped, or
                  removed with strip=True), and the shim run on bleach's own
                  unfiltered output gives bleach's output up to serialization.
  url             (bleach) the trees agree without the URL attributes whose
                  scheme the URL Standard reads otherwise than Python's
                  urlparse ("localhost:8000": scheme "localhost" by the
                  Standard, none by urlparse).
  references      (bleach) bleach's filter judged an attribute value with its
                  character references undecoded: the trees agree without
                  those attributes, and the shim's filter given the value as
                  written returns the expected value.
  escaped-text    (html5lib, justhtml) the trees differ only in text that
                  holds escaped markup (html5lib writes an escaped tag from
                  its token: attributes sorted, an end tag for each start
                  tag; justhtml writes the source).
  rewritten-value (html5lib) the trees differ only in style or SVG paint
                  attributes (html5lib's CSS gauntlet keeps an emptied
                  style='', its url() rule keeps the spaces it leaves).
  namespace-by-name (nh3) the trees agree once lexpy's output loses its
                  HTML-namespace elements named like SVG or MathML elements
                  (ammonia judges a namespace by the name, lexpy by the tree
                  construction rules). For nh3 the parser class is
                  selectedcontent (html5ever does not clone the selected
                  option) and the baseline class also holds where the
                  expected output shows the text of a baseline element.
  baseline        the expected output is not inert (the README's oracle,
                  scripting on or off), keeps an element lexpy's safe
                  baseline removes under every policy, or a style
                  declaration that loads a resource (issue 34 points 2-3).
  policy          (dompurify, html5lib, justhtml) the rest: the policies'
                  semantics differ (no shim is claimed).
  unexplained     (bleach, nh3) the rest: a disagreement of the shim on a
                  tree both parsers agree on. tests/sanitizer/test_bleach.py
                  requires none for bleach; test_nh3.py names the rule of
                  each nh3 case in its XFAIL.
"""
import argparse
import json
import os
import re
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import lexpy

HTML = "http://www.w3.org/1999/xhtml"
SVG = "http://www.w3.org/2000/svg"
MATHML = "http://www.w3.org/1998/Math/MathML"
XLINK = "http://www.w3.org/1999/xlink"

ROOT = Path(__file__).resolve().parents[1]
CLASSES = ("exact", "serialization", "parser", "tokenizer", "url", "references",
           "escaped-text", "rewritten-value", "namespace-by-name", "baseline", "policy",
           "unexplained")

# lexpy's safe baseline beyond the inert oracle (lexpy/sanitizer/baseline.pxi):
# elements removed in every namespace-appropriate place, whatever the policy.
BASELINE_ELEMENTS = {(HTML, name) for name in (
    "script", "iframe", "frame", "frameset", "object", "embed", "applet", "base", "meta",
    "link", "noscript")} | {(SVG, "script"), (MATHML, "script")}


def data_dir():
    env = os.environ.get("LEXPY_SANITIZER_DATA")
    path = Path(env) if env else ROOT.parent / "shared" / "sanitizer"
    if not (path / "wpt" / "cases.json").is_file():
        raise RuntimeError("sanitizer data not found at %s; set LEXPY_SANITIZER_DATA" % path)
    return path


def load(name):
    return json.loads((data_dir() / name).read_text(encoding="utf-8"))


# -- trees -------------------------------------------------------------------
# One shape for lexpy's and html5lib's trees: ("element", namespace, name,
# sorted attributes (namespace, name, value), children), ("text", data),
# ("comment", data), ("pi", target, data); adjacent text merged, a
# template's contents as its children.

def _merge(children):
    out = []
    for child in children:
        if child[0] == "text" and out and out[-1][0] == "text":
            out[-1] = ("text", out[-1][1] + child[1])
        elif child[0] != "text" or child[1]:
            out.append(child)
    return tuple(out)


def _attribute_key(attribute):
    return (attribute[0] or "", attribute[1])


def lexpy_tree(node):
    """The tree of a lexpy node's children (no recursion on the C stack is
    needed here: the sets' trees are shallow)."""
    children = []
    for child in node.child_nodes:
        kind = child.node_type
        if kind == 3:
            children.append(("text", child.data))
        elif kind == 8:
            children.append(("comment", child.data))
        elif kind == 7:
            children.append(("pi", child.target, child.data))
        elif kind == 1:
            content = getattr(child, "content", None)
            attributes = tuple(sorted(((ns, local, value) for ns, _prefix, local, value
                                       in child.attribute_nodes()), key=_attribute_key))
            children.append(("element", child.namespace_uri, child.local_name, attributes,
                             lexpy_tree(content if content is not None else child)))
    return _merge(children)


def parse_tree(html, context="div", scripting=True):
    return lexpy_tree(lexpy.parse_fragment(html, context, scripting=scripting))


_ATTRIBUTE_NAMESPACES = (XLINK, "http://www.w3.org/XML/1998/namespace",
                         "http://www.w3.org/2000/xmlns/")


def _split(name, namespaces=None):
    """An etree name "{namespace}local" as (namespace, local); an attribute
    name is split only for the namespaces the parser gives attributes (an
    attribute may be written "{c}")."""
    if name.startswith("{") and "}" in name:
        namespace, local = name[1:].split("}", 1)
        if namespaces is None or namespace in namespaces:
            return namespace, local
    return None, name


def _html5lib_children(element):
    children = [("text", element.text or "")]
    for child in element:
        if child.tag is ElementTree.Comment:
            children.append(("comment", child.text or ""))
        else:
            namespace, local = _split(child.tag)
            attributes = tuple(sorted((_split(k, _ATTRIBUTE_NAMESPACES) + (v,)
                                       for k, v in child.attrib.items()),
                                      key=_attribute_key))
            children.append(("element", namespace, local, attributes,
                             _html5lib_children(child)))
        children.append(("text", child.tail or ""))
    return _merge(children)


def html5lib_tree(html, parser=None):
    """html5lib's fragment parse (context div) of `html`, by bleach's vendored
    html5lib 1.1 (or `parser`, an html5lib HTMLParser over etree)."""
    if parser is None:
        from bleach._vendor import html5lib
        parser = html5lib.HTMLParser(tree=html5lib.getTreeBuilder("etree"))
    return _html5lib_children(parser.parseFragment(html, container="div"))


def _preorder(tree):
    """(ancestors as (namespace, name), node without children) in document
    order."""
    stack = [((), node) for node in reversed(tree)]
    while stack:
        ancestors, node = stack.pop()
        if node[0] == "element":
            yield ancestors, node[:4]
            inner = ancestors + ((node[1], node[2]),)
            stack.extend((inner, child) for child in reversed(node[4]))
        else:
            yield ancestors, node


PARSER_RULES = {
    "breakout": "an HTML end tag </p> or </br> in foreign content breaks out of it "
                "(https://html.spec.whatwg.org/#parsing-main-inforeign, 2021+); html5lib "
                "1.1 keeps it inside the svg or math element",
    "noscript": "noscript with the scripting flag on holds raw text "
                "(https://html.spec.whatwg.org/#parsing-main-inhead-noscript); html5lib "
                "parses its content as markup",
    "isindex": "isindex is an ordinary element since its removal from the Standard (2016); "
               "html5lib 1.1 still expands it into a form with a prompt",
    "table": "foster parenting (https://html.spec.whatwg.org/#foster-parent): content "
             "misplaced in a table goes before it; html5lib 1.1 drops or keeps it otherwise",
    "selectedcontent": "the selected option is cloned into selectedcontent "
                       "(https://html.spec.whatwg.org/#clone-selected-option-into-select-button)",
    "head": "a whole-document parse puts what leads the body (comments, whitespace, "
            "style, meta, title, link) before or in head, outside the body that is the "
            "output (https://html.spec.whatwg.org/#the-before-html-insertion-mode)",
}


def parser_rule(theirs, ours):
    """The name (a key of PARSER_RULES) of the tree-construction rule behind
    the first difference between another parser's tree and the Standard's,
    or "other"."""
    a, b = list(_preorder(theirs)), list(_preorder(ours))
    index = 0
    while index < min(len(a), len(b)) and a[index] == b[index]:
        index += 1
    near = set()
    for side in (a, b):
        for ancestors, node in side[max(0, index - 1):index + 1]:
            near.update(name for _ns, name in ancestors)
            if node[0] == "element":
                near.add(node[2])
    foreign = lambda side: any(ns in (SVG, MATHML) for ancestors, _ in  # noqa: E731
                               side[index:index + 1] for ns, _name in ancestors)
    if foreign(a) and not foreign(b):
        return "breakout"
    for rule in ("noscript", "isindex", "selectedcontent"):
        if rule in near:
            return rule
    if near & {"table", "tbody", "thead", "tfoot", "tr"}:
        return "table"
    if index < len(b) and not b[index][0]:
        node = b[index][1]
        if node[0] in ("comment", "pi") or (node[0] == "text" and not node[1].strip()) or (
                node[0] == "element" and node[2] in ("style", "meta", "title", "link", "base")):
            return "head"
    return "other"


def _elements(tree):
    stack = list(tree)
    while stack:
        node = stack.pop()
        if node[0] == "element":
            yield node
            stack.extend(node[4])


def _text(tree):
    parts, stack = [], list(reversed(tree))
    while stack:
        node = stack.pop()
        if node[0] == "text":
            parts.append(node[1])
        elif node[0] == "element":
            stack.extend(reversed(node[4]))
    return "".join(parts)


def _map_tree(tree, text=None, keep_attribute=None, value=None):
    """`tree` with each text passed through `text`, attributes kept where
    `keep_attribute(element, attribute)` and each value passed through `value`."""
    out = []
    for node in tree:
        if node[0] == "text" and text is not None:
            node = ("text", text(node[1]))
        elif node[0] == "element":
            attributes = tuple((ns, name, value(v) if value else v) for ns, name, v in node[3]
                               if keep_attribute is None or keep_attribute(node, (ns, name, v)))
            node = node[:3] + (attributes, _map_tree(node[4], text, keep_attribute, value))
        out.append(node)
    return _merge(out)


def _newlines(data):
    return data.replace("\r\n", "\n").replace("\r", "\n")


def _written_tree(html, context, local_names):
    tree = _map_tree(parse_tree(html, context), _newlines, value=_newlines)
    if local_names:
        tree = _local_names(tree)
    return tree


def _local_names(tree):
    out = []
    for node in tree:
        if node[0] == "element":
            attributes = tuple(sorted(((None if ns == XLINK else ns), name, value)
                                      for ns, name, value in node[3]))
            node = node[:3] + (attributes, _local_names(node[4]))
        out.append(node)
    return tuple(out)


def same_tree_as_written(output, expected, context="div", local_names=False):
    """Whether two strings give the same tree (the serialization class):
    U+000D, which the Standard's serializer writes raw and a parse turns
    into U+000A, counts as U+000A; with `local_names` (html5lib's
    serializer, which writes an XLink attribute by its local name),
    xlink:href counts as href."""
    return _written_tree(output, context, local_names) == \
        _written_tree(expected, context, local_names)


def _inert_problems(html, context="div"):
    sys.path.insert(0, str(ROOT / "tools"))
    import fuzz_sanitize
    problems = []
    for scripting in (True, False):
        problems += fuzz_sanitize.inert_problems(lexpy.parse_fragment(html, context,
                                                                      scripting=scripting))
    return problems


def keeps_baseline_removed(html, context="div"):
    """What in `html`'s tree lexpy's safe baseline removes under every
    policy ([] if nothing)."""
    found = _inert_problems(html, context)
    from lexpy.sanitizer.options import _css_value_is_safe, _tinycss2
    tinycss2 = _tinycss2()
    for node in _elements(parse_tree(html, context)):
        if (node[1], node[2]) in BASELINE_ELEMENTS:
            found.append("element %s" % node[2])
        for ns, name, value in node[3]:
            if ns is None and name == "style" and any(
                    d.type == "declaration" and not _css_value_is_safe(tinycss2, d.value)
                    for d in tinycss2.parse_declaration_list(value)):
                found.append("a style declaration loads a resource (url(), image-set())")
    return found


# -- bleach ----------------------------------------------------------------

def bleach_kwargs(case, module):
    """A case's kwargs for `module`'s clean (lexpy.bleach or bleach)."""
    kwargs = dict(case["kwargs"])
    css = kwargs.pop("css_sanitizer", None)
    if css is not None:
        if module.__name__ == "bleach":
            from bleach.css_sanitizer import CSSSanitizer
        else:
            CSSSanitizer = module.CSSSanitizer
        kwargs["css_sanitizer"] = CSSSanitizer(
            allowed_css_properties=css.get("allowed_css_properties", ()),
            allowed_svg_properties=css.get("allowed_svg_properties", ()))
    return kwargs


def _bleach_defaults():
    return load("bleach/defaults.json")


def bleach_unfiltered(text, tags, strip):
    """What bleach writes for `text` without its allowlists: its tokenizer
    (disallowed tags turned into their source text, or dropped with
    strip=True; character references left as written), html5lib's tree,
    bleach's handling of text (a complete character reference kept as
    written) and bleach's serializer with bleach's options. Tags,
    attributes and comments pass unfiltered."""
    from bleach import html5lib_shim
    from bleach.sanitizer import BleachSanitizerFilter

    class Unfiltered(BleachSanitizerFilter):
        def sanitize_token(self, token):
            if token["type"] == "Characters":
                return self.sanitize_characters(token)
            return token

    parser = html5lib_shim.BleachHTMLParser(tags=tags, strip=strip, consume_entities=False,
                                            namespaceHTMLElements=False)
    serializer = html5lib_shim.BleachHTMLSerializer(
        quote_attr_values="always", omit_optional_tags=False, escape_lt_in_attrs=True,
        resolve_entities=False, sanitize=False, alphabetical_attributes=False)
    walker = html5lib_shim.getTreeWalker("etree")
    return serializer.render(Unfiltered(source=walker(parser.parseFragment(text))))


_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\\-]*):")
_REFERENCE = re.compile(r"&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);?")
_URL_ATTRIBUTES = {"href", "src", "cite", "action", "longdesc", "poster", "background",
                   "datasrc", "dynsrc", "lowsrc", "ping", "formaction"}


def _url_scheme_differs(attribute):
    """Whether a URL attribute's scheme by the URL Standard (after the
    stripping it does) is not the one Python's urlparse (bleach's
    parse_shim) finds: "localhost:8000" has the scheme "localhost" by the
    Standard, none by urlparse."""
    from bleach import parse_shim
    _ns, name, value = attribute
    if name not in _URL_ATTRIBUTES:
        return False
    value = value.strip("\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f"
                        "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ")
    value = re.sub("[\t\n\r]", "", value)
    match = _SCHEME.match(value)
    try:
        theirs = parse_shim.urlparse(value.lower()).scheme
    except ValueError:
        return False
    return (match.group(1).lower() if match else "") != theirs


def _bleach_parser(tags=None, strip=False):
    """bleach's parser: its tokenizer (disallowed tags as source tokens,
    character references left as written) under html5lib's tree builder."""
    from bleach._vendor import html5lib
    from bleach.html5lib_shim import BleachHTMLParser
    return BleachHTMLParser(tags=tags, strip=strip, consume_entities=False,
                            tree=html5lib.getTreeBuilder("etree"))


def _raw_tree(html):
    """The tree bleach's filter judges: character references left as
    written, no tag turned into text."""
    return html5lib_tree(html, _bleach_parser())


def _undecoded_attributes(case, shim, kwargs, tags, output, expected):
    """The attribute names (sorted) whose values explain the difference:
    the trees agree without them, the input wrote a character reference in
    each, and the shim's attribute filter, given the value as written,
    returns the expected value (as written or decoded). [] if not so."""
    raw = [e for e in _elements(_raw_tree(case["input"]))]
    names = sorted({a[1] for e in raw for a in e[3] if _REFERENCE.search(a[2])})
    if not names:
        return []
    drop = lambda e, a: a[1] not in names  # noqa: E731
    if _map_tree(parse_tree(output), keep_attribute=drop) != \
            _map_tree(parse_tree(expected), keep_attribute=drop):
        return []
    cleaner = shim.Cleaner(**{k: v for k, v in kwargs.items() if k in (
        "tags", "attributes", "protocols", "strip", "strip_comments", "css_sanitizer")})
    wanted = [(e[2], a[1], {a[2]}) for e in _elements(_raw_tree(expected)) for a in e[3]
              if a[1] in names]
    decoded = {(e[2], a[1]): a[2] for e in _elements(parse_tree(expected)) for a in e[3]}
    for tag, name, values in wanted:
        values.add(decoded.get((tag, name)))
        if not any(cleaner._filter(e[2], name, a[2]) in values for e in raw for a in e[3]
                   if e[2] == tag and a[1] == name):
            return []
    return names


def classify_bleach(case, clean, output=None):
    """(class, detail) of one bleach case whose expected value is an output
    string, given `clean(text, **kwargs)` (lexpy.bleach.clean or a broken
    one, in the self-test)."""
    import lexpy.bleach as shim
    kwargs = bleach_kwargs(case, shim)
    expected = case["expected"]["output"]
    text = case["input"]
    if output is None:
        output = clean(text, **kwargs)
    if output == expected:
        return "exact", ""
    if same_tree_as_written(output, expected, local_names=True):
        return "serialization", ""
    theirs, ours = html5lib_tree(text), parse_tree(text)
    if theirs != ours:
        return "parser", parser_rule(theirs, ours)
    tags = set(kwargs.get("tags", _bleach_defaults()["ALLOWED_TAGS"]))
    strip = bool(kwargs.get("strip", False))
    if html5lib_tree(text, _bleach_parser(tags, strip)) != html5lib_tree(text):
        unfiltered = bleach_unfiltered(text, tags, strip)
        disallowed = {node[2] for node in _elements(parse_tree(text))
                      if node[2].lower() not in tags}
        result = parse_tree(output)
        handled = all(name not in {node[2] for node in _elements(result)}
                      for name in disallowed)
        if not strip:
            shown = _text(result).lower()
            handled = handled and all("<" + name.lower() in shown for name in disallowed)
        if handled:
            replay = clean(unfiltered, **kwargs)
            if replay == expected or same_tree_as_written(replay, expected, local_names=True):
                return "tokenizer", ("%s as source tokens" % ", ".join(sorted(disallowed))
                                     if disallowed else "bleach's tokenizer and serializer")
    differs = _url_scheme_differs
    kept = _map_tree(parse_tree(output), keep_attribute=lambda e, a: not differs(a))
    wanted = _map_tree(parse_tree(expected), keep_attribute=lambda e, a: not differs(a))
    if kept == wanted and (kept, wanted) != (parse_tree(output), parse_tree(expected)):
        return "url", "the URL Standard reads another scheme than Python's urlparse"
    names = _undecoded_attributes(case, shim, kwargs, tags, output, expected)
    if names:
        return "references", "%s judged with references undecoded" % ", ".join(names)
    found = keeps_baseline_removed(expected)
    if found:
        return "baseline", "; ".join(sorted(set(found)))
    return "unexplained", ""


def bleach_cases():
    return [c for c in load("bleach/cases.json")["cases"] if "output" in c["expected"]]


def bleach_results(clean=None):
    """[(case, class, detail)] for every bleach case with an output."""
    if clean is None:
        import lexpy.bleach as shim
        clean = shim.clean
    return [(case,) + classify_bleach(case, clean) for case in bleach_cases()]


BROKEN_OPTIONS = ("strip", "strip_comments", "attributes", "protocols", "css_sanitizer")


def broken_clean(option):
    """lexpy.bleach.clean with one option broken on purpose (strip and
    strip_comments inverted, the others ignored): the self-test that the
    classification can fail."""
    import lexpy.bleach as shim

    def clean(text, **kwargs):
        if option == "strip":
            kwargs["strip"] = not kwargs.get("strip", False)
        elif option == "strip_comments":
            kwargs["strip_comments"] = not kwargs.get("strip_comments", True)
        else:
            kwargs.pop(option, None)
        return shim.clean(text, **kwargs)
    return clean


def self_test(out=None):
    """The bleach classification under each broken option: the count left
    unexplained (the real shim leaves none)."""
    out = out or sys.stdout
    unexplained = {}
    for option in BROKEN_OPTIONS:
        results = bleach_results(broken_clean(option))
        unexplained[option] = sum(1 for _, klass, _ in results if klass == "unexplained")
        out.write("bleach with %s broken: %d unexplained\n" % (option, unexplained[option]))
    return unexplained


# -- html5lib ----------------------------------------------------------------

def html5lib_cleaner():
    """html5lib's sanitizer policy (policy.json) as a lexpy.bleach Cleaner:
    bleach's filter is html5lib's, with the same tree-level escaping of
    disallowed elements html5lib does after tree building."""
    import lexpy.bleach as shim
    policy = load("html5lib/policy.json")
    return shim.Cleaner(
        tags={name for _, name in policy["allowed_elements"]},
        attributes=sorted({name for _, name in policy["allowed_attributes"]}),
        protocols=policy["allowed_protocols"], strip_comments=True,
        css_sanitizer=shim.CSSSanitizer(
            allowed_css_properties=policy["allowed_css_properties"],
            allowed_svg_properties=policy["allowed_svg_properties"]))


def classify_generic(case_input, output, expected, context="div", local_names=True,
                     parser_trees=None):
    """(class, detail) where no shim replay applies: exact, serialization,
    parser (when `parser_trees()`, the set's parser's tree of the input and
    the Standard's, differ), baseline, else unexplained."""
    if output == expected:
        return "exact", ""
    if same_tree_as_written(output, expected, context, local_names):
        return "serialization", ""
    if parser_trees is not None:
        theirs, ours = parser_trees()
        if theirs != ours:
            return "parser", parser_rule(theirs, ours)
    found = keeps_baseline_removed(expected, context)
    if found:
        return "baseline", "; ".join(sorted(set(found)))
    return "unexplained", ""


def _equal_without(output, expected, text=None, keep_attribute=None):
    """Whether the two trees agree once `text` and `keep_attribute` (as in
    _map_tree) have thinned both, and did not agree before."""
    first, second = parse_tree(output), parse_tree(expected)
    thinned = (_map_tree(first, text, keep_attribute), _map_tree(second, text, keep_attribute))
    return thinned[0] == thinned[1] and (first, second) != thinned


def _no_markup_text(data):
    return "" if "<" in data else data


_FILTER_REWRITES = {"style"} | {"clip-path", "color-profile", "cursor", "fill", "filter",
                                "marker", "marker-start", "marker-mid", "marker-end",
                                "mask", "stroke"}


def html5lib_results():
    """html5lib's filter escapes a disallowed element from its tree token (the
    escaped text is html5lib's serialization of the tag: alphabetical
    attributes, an end tag for every start tag) and rewrites style
    attributes with a regular-expression gauntlet (an emptied value is kept
    as style='') and SVG paint references (the spaces left kept): those two
    classes are 'escaped-text' and 'rewritten-value'; 'policy' is what the
    translation of policy.json to a Cleaner cannot say (data: URLs by
    content type)."""
    cleaner = html5lib_cleaner()
    results = []
    for case in load("html5lib/cases.json")["cases"]:
        text, expected = case["input"], case["expected"]["output"]
        output = cleaner.clean(text)
        klass = classify_generic(text, output, expected,
                                 parser_trees=lambda: (html5lib_tree(text), parse_tree(text)))
        if klass[0] == "unexplained":
            if _equal_without(output, expected, text=_no_markup_text):
                klass = ("escaped-text", "differs only in the text of escaped markup")
            elif _equal_without(output, expected,
                                keep_attribute=lambda e, a: a[1] not in _FILTER_REWRITES):
                klass = ("rewritten-value", "differs only in style or SVG paint values")
            else:
                klass = ("policy", "")
        results.append((case,) + klass)
    return results


# -- DOMPurify ---------------------------------------------------------------

def dompurify_results(sanitizer=None):
    """DOMPurify's fixtures under lexpy's default policy (the Standard's
    default configuration; no "dompurify" profile). 'parser' here is
    DOMPurify's parse: the payload as a whole document with scripting off
    (DOMParser), whose body holds another tree than the fragment parse in a
    div with scripting on (leading style/meta/title/link go to head,
    noscript content is markup); 'policy' is the default configurations
    differing (the Standard's removes a disallowed element with its
    content, DOMPurify keeps the content; other lists)."""
    from lexpy.sanitizer import Sanitizer
    sanitizer = sanitizer or Sanitizer()
    results = []
    for case in load("dompurify/expect.json")["cases"]:
        text = case["payload"]
        output = str(sanitizer.sanitize(text))
        expected = case["expected"] if case["expected_is_list"] else [case["expected"]]
        best = None
        for candidate in expected:
            klass = classify_generic(text, output, candidate, local_names=False,
                                     parser_trees=lambda: (_document_body(text),
                                                           parse_tree(text)))
            if best is None or CLASSES.index(klass[0]) < CLASSES.index(best[0]):
                best = klass
        if best[0] == "unexplained":
            best = ("policy", "")
        results.append((case,) + best)
    return results


def _document_body(html):
    body = lexpy.parse(html, scripting=False).body
    return lexpy_tree(body) if body is not None else ()


# -- nh3 / ammonia ------------------------------------------------------------

def nh3_input(case):
    if case["input"] is not None:
        return case["input"]
    repeat = case["input_repeat"]
    return repeat["unit"] * repeat["times"]


def nh3_kwargs(case):
    """A case's nh3_kwargs with nh3's types (sets, tuples)."""
    kwargs = dict(case["nh3_kwargs"])
    for key in ("tags", "clean_content_tags", "url_schemes", "generic_attribute_prefixes",
                "filter_style_properties"):
        if kwargs.get(key) is not None:
            kwargs[key] = set(kwargs[key])
    for key in ("attributes", "allowed_classes"):
        if kwargs.get(key) is not None:
            kwargs[key] = {k: set(v) for k, v in kwargs[key].items()}
    if kwargs.get("tag_attribute_values") is not None:
        kwargs["tag_attribute_values"] = {
            tag: {name: set(values) for name, values in names.items()}
            for tag, names in kwargs["tag_attribute_values"].items()}
    if isinstance(kwargs.get("url_relative"), list):
        kwargs["url_relative"] = tuple(kwargs["url_relative"])
    return kwargs


# Element names that are MathML's or SVG's and not HTML's (MathML Core, SVG 2).
FOREIGN_ONLY_NAMES = frozenset({
    "math", "maction", "annotation", "annotation-xml", "menclose", "merror", "mfrac", "mi",
    "mmultiscripts", "mn", "mo", "mover", "mpadded", "mphantom", "mprescripts", "mroot",
    "mrow", "ms", "mspace", "msqrt", "mstyle", "msub", "msubsup", "msup", "mtable", "mtd",
    "mtext", "mtr", "munder", "munderover", "semantics", "mglyph", "malignmark",
    "svg", "animate", "animateMotion", "animateTransform", "circle", "clipPath", "defs",
    "desc", "ellipse", "feImage", "filter", "foreignObject", "g", "line", "linearGradient",
    "marker", "mask", "metadata", "mpath", "path", "pattern", "polygon", "polyline",
    "radialGradient", "rect", "stop", "switch", "symbol", "text", "textPath", "tspan", "use",
    "view"})


def _drop(tree, predicate):
    """`tree` without the elements (and their subtrees) `predicate` holds for."""
    out = []
    for node in tree:
        if node[0] == "element":
            if predicate(node):
                continue
            node = node[:4] + (_drop(node[4], predicate),)
        out.append(node)
    return _merge(out)


def _empty(tree, predicate):
    """`tree` with the children of the elements `predicate` holds for removed."""
    out = []
    for node in tree:
        if node[0] == "element":
            node = node[:4] + (() if predicate(node) else _empty(node[4], predicate),)
        out.append(node)
    return tuple(out)


NH3_RULES = {
    "namespace-by-name": "ammonia judges an element's namespace by its name (is_html_tag); "
                         "lexpy by the tree construction rules "
                         "(https://html.spec.whatwg.org/#tree-construction-dispatcher): an "
                         "HTML-namespace element named like an SVG or MathML one is kept",
    "selectedcontent": PARSER_RULES["selectedcontent"] + "; the html5ever of these "
                       "expectations does not clone",
    "baseline": "lexpy's safe baseline removes script with its content under every policy",
}


def nh3_class(text, output, expected):
    """The rule behind an nh3 disagreement the generic classes leave."""
    out, want = parse_tree(output), parse_tree(expected)
    if _drop(out, lambda e: e[1] == HTML and e[2] in FOREIGN_ONLY_NAMES) == want:
        return "namespace-by-name"
    selected = lambda e: e[2] == "selectedcontent"  # noqa: E731
    if _empty(out, selected) == _empty(want, selected):
        return "selectedcontent"
    removed = [_text(node[4]) for node in _elements(parse_tree(text))
               if (node[1], node[2]) in BASELINE_ELEMENTS]
    shown = _map_tree(want, text=lambda data: _strip_all(data, removed))
    if removed and shown == out:
        return "baseline"
    return None


def _strip_all(data, parts):
    for part in parts:
        if part:
            data = data.replace(part, "")
    return data


def nh3_results():
    """The nh3 cases that compare an output of clean (style_filter, is_html,
    clean_text and the configuration errors are in tests/sanitizer/
    test_nh3.py, whose XFAIL names the same rules per case). html5ever
    parses as the Standard says but for selectedcontent; what the generic
    classes leave is judged by nh3_class."""
    import lexpy.nh3 as shim
    results = []
    for case in load("ammonia/cases.json")["cases"]:
        expected = case["expected"]
        if case["function"] not in ("nh3.clean", "nh3.Cleaner.clean") or \
                "output" not in expected or expected.get("error") or case.get("nh3_differs"):
            continue
        text = nh3_input(case)
        output = shim.clean(text, **nh3_kwargs(case))
        klass = classify_generic(text, output, expected["output"], local_names=False)
        if klass[0] == "unexplained":
            rule = nh3_class(text, output, expected["output"])
            if rule is not None:
                klass = ("baseline" if rule == "baseline" else "parser"
                         if rule == "selectedcontent" else rule, NH3_RULES[rule])
        results.append((case,) + klass)
    return results


# -- justhtml ------------------------------------------------------------------

JUSTHTML_UNSUPPORTED = ("proxy_url", "allowed_hosts", "url_filter")


def justhtml_sanitizer(case):
    """A justhtml case's policy as a lexpy.Sanitizer, or None where the policy
    uses what has no counterpart (proxies, host lists, url_filter)."""
    from lexpy.sanitizer import Sanitizer
    policy = case["policy"]
    if policy == "DEFAULT":
        policy = load("justhtml/policies.json")["DEFAULT"]
    if any(key in policy for key in JUSTHTML_UNSUPPORTED) or any(
            key in rule for rule in policy.get("url_rules", []) for key in JUSTHTML_UNSUPPORTED):
        return None
    attributes = dict(policy.get("allowed_attributes", {}))
    generic = sorted(set(attributes.pop("*", [])))
    css = policy.get("allowed_css_properties") or []
    elements = []
    tags = set(policy.get("allowed_tags", []))
    if case["parse"] == "document":
        tags |= {"html", "head", "body"}          # the document's output is the body's
    for tag in sorted(tags):
        local = sorted(set(attributes.get(tag, [])) - set(generic))
        if not css and "style" in local:
            local.remove("style")
        elements.append({"name": tag, "attributes": local})
    schemes, relative = {}, "keep"
    for rule in policy.get("url_rules", []):
        schemes[rule["attr"]] = rule.get("allowed_schemes", [])
        if rule.get("allow_relative") is False:
            relative = "drop"
    handling = policy.get("disallowed_tag_handling", "unwrap")
    return Sanitizer(
        {"elements": elements, "attributes": [g for g in generic if g != "style" or css],
         "comments": not policy.get("drop_comments", True), "dataAttributes": False},
        on_disallowed={"unwrap": "unwrap", "escape": "escape", "drop": "remove"}[handling],
        remove_with_content=policy.get("drop_content_tags", ["script", "style"]),
        style_properties=css or None, link_rel=" ".join(policy.get("force_link_rel", []))
        or None, url_schemes=schemes or None, url_relative=relative, max_depth=None)


def justhtml_run(sanitizer, case):
    from lexpy.sanitizer import parse_html
    if case["parse"] == "document":
        document = parse_html(case["input_html"], sanitizer)
        return document.body.inner_html if document.body is not None else ""
    return str(sanitizer.sanitize(case["input_html"],
                                  context=case.get("fragment_context") or "div"))


def justhtml_translated():
    """[(case, sanitizer)] for the cases whose policy translates."""
    out = []
    for case in load("justhtml/cases.json"):
        if case.get("expected_error"):
            continue
        try:
            sanitizer = justhtml_sanitizer(case)
        except (TypeError, ValueError):
            sanitizer = None
        if sanitizer is not None:
            out.append((case, sanitizer))
    return out


def justhtml_results():
    """justhtml parses per the Standard (no parser class). Its escape mode
    writes a disallowed token's source text, where lexpy escapes the element
    of the Standard's tree: 'tokenizer' when the expected text is the input
    as written (the tokens the Standard's tree does not keep: an end tag
    with attributes, "<!" and "<?" bogus comments, a tag cut by the end of
    the input), 'escaped-text' when the trees differ only in text holding
    escaped markup; 'rewritten-value' when they differ only in a style
    value (lexpy writes declarations without spaces, and drops a style
    holding expression() whole); 'policy' is the rest (a translation that
    cannot say the policy: doctype kept, rel merged, protocol-relative URLs,
    template contents, a valueless src)."""
    results = []
    for case, sanitizer in justhtml_translated():
        context = case.get("fragment_context") or "div"
        output = justhtml_run(sanitizer, case)
        klass = classify_generic(case["input_html"], output, case["expected_html"], context,
                                 local_names=False)
        expected = case["expected_html"]
        if klass[0] == "unexplained":
            if _text(parse_tree(expected, context)) == case["input_html"]:
                klass = ("tokenizer", "justhtml's escape mode writes the source of every "
                         "token it does not keep")
            elif _equal_without(output, expected, text=_no_markup_text):
                klass = ("escaped-text", "differs only in the text of escaped markup")
            elif _equal_without(output, expected,
                                keep_attribute=lambda e, a: a[1] not in _FILTER_REWRITES):
                klass = ("rewritten-value", "differs only in style values")
            else:
                klass = ("policy", "")
        results.append((case,) + klass)
    return results


# -- report ------------------------------------------------------------------

SETS = {"dompurify": dompurify_results, "bleach": bleach_results,
        "html5lib": html5lib_results, "justhtml": justhtml_results, "nh3": nh3_results}


def report(name, results, show_cases=False, out=None):
    out = out or sys.stdout
    counts = {}
    for _case, klass, _detail in results:
        counts[klass] = counts.get(klass, 0) + 1
    total = len(results)
    out.write("%-9s exact %d of %d; %s\n" % (
        name, counts.get("exact", 0), total,
        ", ".join("%s %d" % (k, counts[k]) for k in CLASSES if k != "exact" and k in counts)))
    if show_cases:
        for case, klass, detail in results:
            if klass != "exact":
                out.write("  %-13s %s%s\n" % (klass, case.get("id") or case.get("name"),
                                              " (%s)" % detail if detail else ""))
    return counts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=sorted(SETS), action="append")
    parser.add_argument("--cases", action="store_true", help="list every disagreement")
    parser.add_argument("--data", help="the sanitizer data folder")
    parser.add_argument("--self-test", action="store_true",
                        help="classify bleach's cases with each shim option broken")
    args = parser.parse_args(argv)
    if args.data:
        os.environ["LEXPY_SANITIZER_DATA"] = args.data
    for name in args.set or ["dompurify", "bleach", "html5lib", "justhtml", "nh3"]:
        report(name, SETS[name](), args.cases)
    if args.self_test:
        self_test()
    return 0


if __name__ == "__main__":
    sys.exit(main())
