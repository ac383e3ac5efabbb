#!/usr/bin/env python3
"""Fuzz lexpy's sanitizer: random markup from a grammar biased to what
breaks sanitizers (tables, foreign content and its integration points, raw
text, comments, forms, select, template, deep nesting, character references
in URLs), each input sanitized under the default and the most permissive
configuration and judged by the security oracle of
../shared/sanitizer/README.md (inert with scripting on and off, stable,
idempotent, no exception). Prints the counts and every failing input.

Usage: python tools/fuzz_sanitize.py [--count N] [--seed S] [--context div]
"""
import argparse
import random
import re
import sys
import time

import lexpy

HTML = "http://www.w3.org/1999/xhtml"
SVG = "http://www.w3.org/2000/svg"
MATHML = "http://www.w3.org/1998/Math/MathML"
XLINK = "http://www.w3.org/1999/xlink"

# -- the inert oracle (README "Inert") ------------------------------------

URL_ATTRIBUTES = {"href", "src", "action", "formaction", "data", "poster", "background",
                  "codebase", "cite", "ping", "lowsrc", "dynsrc", "longdesc", "manifest",
                  "icon", "archive", "classid"}
SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*):")
SCRIPT_MIME = {"text/html", "application/xhtml+xml", "text/xml", "application/xml",
               "image/svg+xml"}
CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})[ \t\n\r\f]?|\\\n|\\(.)", re.S)


def dangerous_url(value, image_only=False):
    value = value.strip("".join(chr(c) for c in range(0x21)))
    value = value.replace("\t", "").replace("\n", "").replace("\r", "")
    match = SCHEME.match(value)
    if not match:
        return False
    scheme = match.group(1).lower()
    if scheme in ("javascript", "vbscript"):
        return True
    if scheme == "data":
        mime = re.split("[;,]", value[5:], maxsplit=1)[0].strip(" \t\n\r\f").lower()
        if mime in SCRIPT_MIME:
            return not (image_only and mime == "image/svg+xml")
    return False


def css_dangerous(text):
    text = re.sub(r"/\*.*?(\*/|$)", "", text, flags=re.S)

    def unescape(match):
        if match.group(1):
            code = int(match.group(1), 16)
            return chr(code) if 0 < code < 0x110000 and not 0xD800 <= code < 0xE000 else "\ufffd"
        if match.group(2) is not None:
            return match.group(2)
        return ""
    text = CSS_ESCAPE.sub(unescape, text).lower()
    return bool(re.search(r"expression\s*\(", text)) or "javascript:" in text \
        or "vbscript:" in text


def _walk(node):
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        children = list(current.child_nodes)
        content = getattr(current, "content", None)
        if content is not None:
            children += list(content.child_nodes)
        stack.extend(reversed(children))


def inert_problems(fragment):
    """What makes a parsed tree not inert (README, rules 1-5)."""
    problems = []
    for node in _walk(fragment):
        if node.node_type != 1:
            continue
        ns, name = node.namespace_uri, node.local_name
        if ns == HTML and name in ("script", "iframe", "frame", "frameset", "object", "embed",
                                   "applet", "base"):
            problems.append("element %s" % name)
        if ns == HTML and name == "meta" and (node.get_attribute("http-equiv") or "") \
                .strip().lower() == "refresh":
            problems.append("meta refresh")
        if ns == SVG and name == "script":
            problems.append("svg script")
        attributes = node.attribute_nodes() if hasattr(node, "attribute_nodes") else []
        values = {}
        for attr_ns, _prefix, local, value in attributes:
            values[(attr_ns, local)] = value
            if local.lower().startswith("on"):
                problems.append("event handler %s" % local)
            if local == "srcdoc":
                problems.append("srcdoc")
            image = (ns == HTML and name == "img" and local == "src") or (
                ns == SVG and name == "image" and local == "href")
            if local in URL_ATTRIBUTES and (attr_ns is None or attr_ns == XLINK or local
                                             == "href"):
                if dangerous_url(value, image):
                    problems.append("url %s=%r" % (local, value))
            if local in ("srcset", "imagesrcset"):
                for candidate in value.split(","):
                    parts = candidate.split()
                    if parts and dangerous_url(parts[0], ns == HTML and name == "img"):
                        problems.append("srcset %r" % value)
            if local == "style" and attr_ns is None and css_dangerous(value):
                problems.append("style attribute %r" % value)
        if ns == SVG and name == "use":
            href = values.get((None, "href"), values.get((XLINK, "href")))
            if href is not None and not href.startswith("#"):
                problems.append("svg use %r" % href)
        if ns == SVG and name in ("animate", "set", "animateMotion", "animateTransform"):
            target = values.get((None, "attributeName"), "").strip().lower()
            if target == "href" or target.endswith(":href"):
                urls = [values.get((None, k), "") for k in ("to", "from", "by")]
                urls += values.get((None, "values"), "").split(";")
                if any(dangerous_url(u) for u in urls):
                    problems.append("svg animation of href")
        if name == "style" and ns in (HTML, SVG) and css_dangerous(node.text_content or ""):
            problems.append("style element")
    return problems


def reparse(html, context="div", scripting=True):
    return lexpy.parse_fragment(html, context, scripting=scripting)


def security_problems(sanitize, html, context="div"):
    """The security oracle for one input: [] when the output is inert with
    scripting on and off, stable and idempotent, and no exception."""
    try:
        output = sanitize(html)
    except Exception as error:  # noqa: BLE001 - the oracle counts any exception
        return ["exception %r" % error]
    problems = []
    for scripting in (True, False):
        tree = reparse(output, context, scripting)
        problems += ["%s (scripting %s)" % (p, "on" if scripting else "off")
                     for p in inert_problems(tree)]
    first = reparse(output, context)
    second = reparse(first.to_html(), context)
    if lexpy.dump(first) != lexpy.dump(second):
        problems.append("unstable")
    try:
        again = sanitize(output)
    except Exception as error:  # noqa: BLE001
        return problems + ["exception on the output %r" % error]
    if again != output:
        problems.append("not idempotent: %r -> %r" % (output, again))
    return problems


# -- the grammar -------------------------------------------------------------

TAGS = ["a", "b", "i", "p", "div", "span", "table", "tbody", "tr", "td", "th", "caption",
        "colgroup", "col", "form", "input", "button", "select", "option", "optgroup",
        "selectedcontent", "template", "style", "script", "xmp", "iframe", "noembed",
        "noframes", "noscript", "plaintext", "textarea", "title", "math", "mi", "mo", "mn",
        "ms", "mtext", "mglyph", "malignmark", "annotation-xml", "svg", "foreignObject",
        "desc", "path", "use", "set", "animate", "image", "font", "img", "br", "li", "ul",
        "dd", "dt", "h1", "object", "embed", "frameset", "frame", "base", "meta", "link",
        "body", "html", "head", "center", "listing", "pre", "rb", "rt", "ruby", "nobr"]
ATTRIBUTES = ["href", "src", "title", "style", "onclick", "onerror", "xlink:href",
              "attributeName", "to", "values", "from", "by", "encoding", "color", "face",
              "size", "srcset", "srcdoc", "shadowrootmode", "for", "action", "formaction",
              "data", "id", "class", "data-x", "is", "xmlns", "xmlns:xlink"]
VALUES = ["javascript:alert(1)", "jav&#x09;ascript:alert(1)", "&#106;avascript:x",
          " \x01javascript:x", "JaVaScRiPt:x", "vbscript:x", "data:text/html,<script>x",
          "data:image/svg+xml,<svg onload=x>", "text/html", "application/xhtml+xml", "href",
          "xlink:href", " HREF ", "open", "x", "#f", "https://e.example/",
          "</style><img src=x onerror=alert(1)>", "--><img src=x onerror=alert(1)>",
          "background:url(javascript:x)", "x:expression(alert(1))",
          "\\6a avascript:x", "1;javascript:x", "f"]
TEXTS = ["x", "<", "&lt;", "&amp;", "</style>", "</noscript>", "</title>", "<!--", "-->",
         "--!>", "<img src=x onerror=alert(1)>", "]]>", "<![CDATA[", "\x00", "\ud800",
         "&#0;", "\u2028", " ", "\n"]


def generate(rng, budget=40):
    """Random markup: tags from TAGS (often unclosed, stray end tags),
    attributes with dangerous values, comments, processing instructions,
    CDATA, text with markup characters."""
    out = []
    stack = []
    for _ in range(rng.randint(1, budget)):
        roll = rng.random()
        if roll < 0.45:
            tag = rng.choice(TAGS)
            attrs = []
            for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
                name = rng.choice(ATTRIBUTES)
                value = rng.choice(VALUES)
                quote = rng.choice(('"', "'", ""))
                if quote == "":
                    value = re.sub(r"[\s>]", "", value) or "x"
                attrs.append(" %s=%s%s%s" % (name, quote, value, quote))
            out.append("<%s%s%s>" % (tag, "".join(attrs), rng.choice(("", "", " /"))))
            stack.append(tag)
        elif roll < 0.6 and stack:
            out.append("</%s>" % (stack.pop() if rng.random() < 0.7 else rng.choice(TAGS)))
        elif roll < 0.68:
            out.append("<!--%s-->" % rng.choice(TEXTS))
        elif roll < 0.72:
            out.append("<?%s %s>" % (rng.choice(("marker name=f", "start name=f", "xml-stylesheet",
                                                  "x")), rng.choice(TEXTS)))
        elif roll < 0.75:
            out.append("<![CDATA[%s]]>" % rng.choice(TEXTS))
        elif roll < 0.77:
            out.append('<template for="f">')
        elif roll < 0.78:
            depth = rng.randint(10, 300)
            out.append(rng.choice(("<div>", "<b>", "<table>", "<svg>", "<math><mi>")) * depth)
        else:
            out.append(rng.choice(TEXTS))
    return "".join(out)


def check(sanitizer, html, context="div"):
    return security_problems(lambda text: sanitizer.sanitize(text, context=context), html,
                             context)


def kind_of(problem):
    """The oracle's verdict a problem belongs to."""
    if problem == "unstable":
        return "unstable"
    if problem.startswith("not idempotent"):
        return "not idempotent"
    if problem.startswith("exception"):
        return "exception"
    return "not inert"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--context", default="div")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    policies = {"default": lexpy.Sanitizer(), "permissive": lexpy.Sanitizer({})}
    failures = {name: 0 for name in policies}
    kinds = {"unstable": 0, "not idempotent": 0, "not inert": 0, "exception": 0}
    start = time.perf_counter()
    for number in range(args.count):
        html = generate(rng)
        for name, sanitizer in policies.items():
            problems = check(sanitizer, html, args.context)
            if problems:
                failures[name] += 1
                for kind in kinds:
                    if any(kind_of(problem) == kind for problem in problems):
                        kinds[kind] += 1
                print("FAIL %s #%d %r: %s" % (name, number, html, problems[:3]), flush=True)
    elapsed = time.perf_counter() - start
    print("%d inputs x %d policies in %.1f s; failures: %s"
          % (args.count, len(policies), elapsed, failures))
    print("outputs checked: %d; unstable: %d, not idempotent: %d, not inert: %d, "
          "exception: %d" % ((args.count * len(policies),) + tuple(kinds.values())))
    return 1 if any(failures.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
