"""bleach's API over lexpy.Sanitizer: ``import lexpy.bleach as bleach`` in
code written for bleach (https://github.com/mozilla/bleach, archived).

clean(), Cleaner, linkify(), Linker, the callbacks (nofollow, target_blank)
and CSSSanitizer take bleach's names, signatures and defaults: 12 tags,
``{a: [href, title], abbr: [title], acronym: [title]}``, the schemes http,
https and mailto, disallowed tags escaped as text (``strip=False``) or
removed with their text kept (``strip=True``), comments stripped.

What differs, and why: the parse is the HTML Standard's (bleach's html5lib
predates the 2021+ rules: ``<svg></p>`` and ``<math></br>`` break out of
foreign content, foster-parented content is kept, character references are
decoded in attribute values and judged decoded), disallowed tags are escaped
from the tree, not from the source token (``<ul><li><script></li></ul>``
puts the rest inside the script, as a browser does), ``>`` is escaped in
attribute values (the 2025 serializer), and lexpy's safe baseline stands
under every policy (script, iframe, object, on* attributes, javascript:
URLs...; a style declaration that loads something, url() included, is
dropped). Cleaner is thread-safe (bleach's is not) and ignores `filters`
but LinkifyFilter-like linkifying (``linkify=True``).
"""
import re
from typing import (Any, Callable, Dict, FrozenSet, Iterable, List, Mapping, Optional, Set,
                    Union)

from lexpy.sanitizer import Sanitizer
from lexpy.sanitizer.config import HTML, MATHML, SVG, XLINK
from lexpy.sanitizer.linkify import DEFAULT_CALLBACKS, linkify_tree, nofollow, target_blank

__all__ = ["ALLOWED_ATTRIBUTES", "ALLOWED_PROTOCOLS", "ALLOWED_TAGS", "CSSSanitizer",
           "Cleaner", "DEFAULT_CALLBACKS", "Linker", "clean", "linkify", "nofollow",
           "target_blank"]

ALLOWED_TAGS = frozenset({"a", "abbr", "acronym", "b", "blockquote", "code", "em", "i", "li",
                          "ol", "strong", "ul"})
ALLOWED_ATTRIBUTES: Dict[str, List[str]] = {"a": ["href", "title"], "abbr": ["title"],
                                            "acronym": ["title"]}
ALLOWED_PROTOCOLS = frozenset({"http", "https", "mailto"})

# bleach's documented rules beyond the allowlists (bleach/sanitizer.py):
# C0 controls other than whitespace become "?"; these attributes' values are
# URLs, judged by the protocols (a relative URL only where http or https is
# allowed, a fragment always); on these SVG attributes a url() reference
# must be local; on these SVG elements an href must be local (#...).
INVISIBLE_CHARACTERS = {c: "?" for c in list(range(0, 9)) + [11, 12] + list(range(14, 32))}
URI_ATTRIBUTES = frozenset({"href", "src", "cite", "action", "longdesc", "poster",
                            "background", "datasrc", "dynsrc", "lowsrc", "ping", "xlink:href",
                            "xml:base"})
SVG_ATTR_VAL_ALLOWS_REF = frozenset({"clip-path", "color-profile", "cursor", "fill", "filter",
                                     "marker", "marker-start", "marker-mid", "marker-end",
                                     "mask", "stroke"})
SVG_ALLOW_LOCAL_HREF = frozenset({
    "altglyph", "animate", "animatecolor", "animatemotion", "animatetransform", "cursor",
    "feimage", "filter", "lineargradient", "pattern", "radialgradient", "textpath", "tref",
    "set", "use"})
XLINK_NAMES = frozenset({"href", "title", "show", "actuate", "type", "role", "arcrole"})
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*):")
_NON_LOCAL_REF = re.compile(r"url\s*\(\s*[^#\s][^)]+?\)")
_URL_NOISE = re.compile("[`\x00-\x20\x7f-\xa0\\s]+")

Attributes = Union[Mapping[str, Any], Iterable[str], Callable[[str, str, str], bool]]


def _names(names: Set[str]) -> List[Any]:
    """Attribute names for the config: bleach matches an attribute by its
    local name whatever its namespace, so an allowed XLink name (href...)
    allows xlink:href too."""
    out: List[Any] = sorted(names)
    out += [{"name": name, "namespace": XLINK} for name in sorted(names & XLINK_NAMES)]
    return out


class CSSSanitizer:
    """bleach.css_sanitizer.CSSSanitizer: the CSS properties a style
    attribute may keep (tinycss2 tokenizes it)."""

    def __init__(self, allowed_css_properties: Iterable[str] = (),
                 allowed_svg_properties: Iterable[str] = ()) -> None:
        self.allowed_css_properties = frozenset(allowed_css_properties)
        self.allowed_svg_properties = frozenset(allowed_svg_properties)


class Cleaner:
    """bleach.Cleaner: the options once, clean(text) many times."""

    def __init__(self, tags: Iterable[str] = ALLOWED_TAGS,
                 attributes: Attributes = ALLOWED_ATTRIBUTES,
                 protocols: Iterable[str] = ALLOWED_PROTOCOLS, strip: bool = False,
                 strip_comments: bool = True, filters: Optional[List[Any]] = None,
                 css_sanitizer: Optional[CSSSanitizer] = None) -> None:
        tags = set(tags)
        namespaces = [HTML] + ([SVG] if "svg" in tags else []) + (
            [MATHML] if "math" in tags else [])
        elements: List[Dict[str, Any]] = []
        config: Dict[str, Any] = {"comments": not strip_comments}
        self._callable = None
        if callable(attributes):
            self._callable = attributes
            for tag in sorted(tags):
                for namespace in namespaces:
                    elements.append({"name": tag, "namespace": namespace})
        else:
            if isinstance(attributes, Mapping):
                per_tag = {k: set(v) for k, v in attributes.items() if k != "*"}
                generic = set(attributes.get("*", ()))
            else:
                per_tag, generic = {}, set(attributes)
            for tag in sorted(tags):
                local = _names(per_tag.get(tag, set()) - generic)
                for namespace in namespaces:
                    elements.append({"name": tag, "namespace": namespace, "attributes": local})
            config["attributes"] = _names(generic)
            config["dataAttributes"] = False
        config["elements"] = elements
        self._styles: Optional[FrozenSet[str]] = None
        if css_sanitizer is not None:
            self._styles = frozenset(
                p.lower() for p in css_sanitizer.allowed_css_properties
                | css_sanitizer.allowed_svg_properties)
        self._protocols = frozenset(p.lower() for p in protocols)
        self._sanitizer = Sanitizer(
            config, on_disallowed="unwrap" if strip else "escape", max_depth=None,
            url_schemes=set(protocols), attribute_filter=self._filter)
        self.filters = filters or []

    def _filter(self, tag: str, name: str, value: str) -> Optional[str]:
        if self._callable is not None and not self._callable(tag, name, value):
            return None
        lower = name.lower()
        if lower in URI_ATTRIBUTES and not self._uri_allowed(value):
            return None
        if lower in SVG_ATTR_VAL_ALLOWS_REF:
            value = _NON_LOCAL_REF.sub(" ", value).strip()
            if not value:
                return None
        if lower in ("href", "xlink:href") and tag.lower() in SVG_ALLOW_LOCAL_HREF and \
                not value.strip().startswith("#"):
            return None
        if lower == "style":
            # bleach empties a style attribute without a css_sanitizer
            # (NoCssSanitizerWarning) and otherwise keeps the allowed
            # declarations as written.
            return "" if self._styles is None else _bleach_css(value, self._styles)
        return value

    def _uri_allowed(self, value: str) -> bool:
        """bleach's sanitize_uri_value over the URL Standard: a URL with a
        scheme needs an allowed one and must parse; without one it is a
        fragment, or relative where http or https is allowed."""
        from lexpy.sanitizer.options import _parse_url
        normalized = _URL_NOISE.sub("", value)
        scheme = _SCHEME.match(normalized)
        if scheme is not None:
            return scheme.group(1).lower() in self._protocols and \
                _parse_url(normalized) is not None
        return normalized.startswith("#") or bool({"http", "https"} & self._protocols)

    def clean(self, text: str) -> str:
        """The sanitized HTML."""
        if not isinstance(text, str):
            raise TypeError("argument cannot be of %r type, must be of text type"
                            % type(text).__name__)
        return str(self._sanitizer.sanitize(text.translate(INVISIBLE_CHARACTERS)))


def _bleach_css(value: str, allowed: FrozenSet[str]) -> str:
    """The declarations of a style value whose property is allowed, as
    written (bleach's CSSSanitizer), each also loading nothing (lexpy's
    style rule: no url(), image-set(), expression())."""
    from lexpy.sanitizer.options import _css_value_is_safe, _tinycss2
    tinycss2 = _tinycss2()
    kept: List[Any] = []
    for node in tinycss2.parse_declaration_list(value):
        if node.type == "declaration":
            if node.lower_name in allowed and _css_value_is_safe(tinycss2, node.value):
                kept.append(node)
        elif node.type in ("whitespace", "comment") and kept and kept[-1].type != node.type:
            kept.append(node)
    return str(tinycss2.serialize(kept)).strip() if kept else ""


def clean(text: str, tags: Iterable[str] = ALLOWED_TAGS,
          attributes: Attributes = ALLOWED_ATTRIBUTES,
          protocols: Iterable[str] = ALLOWED_PROTOCOLS, strip: bool = False,
          strip_comments: bool = True, css_sanitizer: Optional[CSSSanitizer] = None) -> str:
    """bleach.clean."""
    return Cleaner(tags=tags, attributes=attributes, protocols=protocols, strip=strip,
                   strip_comments=strip_comments, css_sanitizer=css_sanitizer).clean(text)


class Linker:
    """bleach.Linker: linkify with fixed callbacks, skip_tags and
    parse_email (url_re, email_re and recognized_tags are accepted and not
    used: lexpy's own recognisers run)."""

    def __init__(self, callbacks: Iterable[Any] = DEFAULT_CALLBACKS,
                 skip_tags: Optional[Iterable[str]] = None, parse_email: bool = False,
                 url_re: Any = None, email_re: Any = None,
                 recognized_tags: Optional[Set[str]] = None) -> None:
        self.callbacks = list(callbacks)
        self.skip_tags = set(skip_tags or ())
        self.parse_email = parse_email

    def linkify(self, text: str) -> str:
        from lexpy.parser import parse_fragment
        if not isinstance(text, str):
            raise TypeError("argument must be of text type")
        fragment = parse_fragment(text, "div")
        linkify_tree(fragment, self.callbacks, self.skip_tags, self.parse_email)
        return str(fragment.to_html())


def linkify(text: str, callbacks: Iterable[Any] = DEFAULT_CALLBACKS,
            skip_tags: Optional[Iterable[str]] = None, parse_email: bool = False) -> str:
    """bleach.linkify."""
    return Linker(callbacks=callbacks, skip_tags=skip_tags, parse_email=parse_email).linkify(
        text)
