"""Shared by the sanitizer tests: where the data is (../shared/sanitizer,
or LEXPY_SANITIZER_DATA), and the security oracle of its README (inert with
scripting on and off, stable, idempotent)."""
import json
import os
import re
from pathlib import Path

import lexpy

ROOT = Path(__file__).resolve().parents[2]

HTML = "http://www.w3.org/1999/xhtml"
SVG = "http://www.w3.org/2000/svg"
MATHML = "http://www.w3.org/1998/Math/MathML"
XLINK = "http://www.w3.org/1999/xlink"


def data_dir() -> Path:
    env = os.environ.get("LEXPY_SANITIZER_DATA")
    path = Path(env) if env else ROOT.parent / "shared" / "sanitizer"
    if not (path / "wpt" / "cases.json").is_file():
        raise RuntimeError("sanitizer data not found at %s; set LEXPY_SANITIZER_DATA" % path)
    return path


def load(name):
    return json.loads((data_dir() / name).read_text(encoding="utf-8"))


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
