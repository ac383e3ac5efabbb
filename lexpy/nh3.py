"""nh3's API over lexpy.Sanitizer: ``import lexpy.nh3 as nh3`` in code
written for nh3 (https://github.com/messense/nh3, ammonia's Python binding).

clean(), Cleaner, clean_text(), is_html() and the ALLOWED_* constants take
nh3's keyword names and defaults (ammonia's Builder::default()): 75 tags,
disallowed elements unwrapped, script and style removed with their content,
``rel="noopener noreferrer"`` on every ``<a>``, URLs judged by the WHATWG URL
parser against 25 schemes, comments stripped. The parse is the same as
html5ever's (the fragment parsing algorithm in a div, scripting on), so the
outputs agree with nh3's where the policies do.

What differs, on purpose: lexpy's safe baseline stands under every policy
(script in any namespace, iframe, object, embed, base, meta, link,
noscript, every on* attribute, javascript:/vbscript:/scriptable data: URLs,
SVG animation of href, CSS that runs script); an ``attribute_filter`` that
raises drops the attribute (nh3 keeps the original value: fails open); CSS
declarations that load something (url(), image-set()) are dropped by
``filter_style_properties``; an ``id_prefix`` is not added twice; every
output is checked by reparsing it (lexpy.Sanitizer.sanitize).
"""
from typing import Any, Callable, Dict, Iterable, Mapping, Optional, Set, Tuple, Union

from lexpy.sanitizer import Sanitizer
from lexpy.sanitizer.config import HTML, MATHML, SVG

__all__ = ["ALLOWED_ATTRIBUTES", "ALLOWED_TAGS", "ALLOWED_URL_SCHEMES", "CLEAN_CONTENT_TAGS",
           "Cleaner", "clean", "clean_text", "escape", "is_html"]

# ammonia's Builder::default() (nh3's module constants).
ALLOWED_TAGS: Set[str] = {
    "a", "abbr", "acronym", "area", "article", "aside", "b", "bdi", "bdo", "blockquote", "br",
    "caption", "center", "cite", "code", "col", "colgroup", "data", "dd", "del", "details",
    "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "footer", "h1", "h2", "h3", "h4",
    "h5", "h6", "header", "hgroup", "hr", "i", "img", "ins", "kbd", "li", "map", "mark", "nav",
    "ol", "p", "pre", "q", "rp", "rt", "rtc", "ruby", "s", "samp", "small", "span", "strike",
    "strong", "sub", "summary", "sup", "table", "tbody", "td", "th", "thead", "time", "tr",
    "tt", "u", "ul", "var", "wbr"}
CLEAN_CONTENT_TAGS: Set[str] = {"script", "style"}
ALLOWED_ATTRIBUTES: Dict[str, Set[str]] = {
    "a": {"href", "hreflang"}, "bdo": {"dir"}, "blockquote": {"cite"},
    "col": {"align", "char", "charoff", "span"}, "colgroup": {"align", "char", "charoff", "span"},
    "del": {"cite", "datetime"}, "hr": {"align", "size", "width"},
    "img": {"align", "alt", "height", "src", "width"}, "ins": {"cite", "datetime"},
    "ol": {"start"}, "q": {"cite"}, "table": {"align", "char", "charoff", "summary"},
    "tbody": {"align", "char", "charoff"},
    "td": {"align", "char", "charoff", "colspan", "headers", "rowspan"},
    "tfoot": {"align", "char", "charoff"},
    "th": {"align", "char", "charoff", "colspan", "headers", "rowspan", "scope"},
    "thead": {"align", "char", "charoff"}, "tr": {"align", "char", "charoff"}}
GENERIC_ATTRIBUTES = {"lang", "title"}
ALLOWED_URL_SCHEMES: Set[str] = {
    "bitcoin", "ftp", "ftps", "geo", "http", "https", "im", "irc", "ircs", "magnet", "mailto",
    "mms", "mx", "news", "nntp", "openpgp4fpr", "sip", "sms", "smsto", "ssh", "tel", "url",
    "webcal", "wtai", "xmpp"}

_DEFAULT_LINK_REL = "noopener noreferrer"
# ammonia's is_url_attr: the attributes url_relative rewrites.
_URL_ATTRIBUTES = {"href", "src", "action", "data", "formaction", "ping", "poster", "cite"}


def _names(value: Optional[Iterable[str]], default: Set[str]) -> Set[str]:
    return set(default) if value is None else set(value)


class Cleaner:
    """nh3.Cleaner: the options once, clean(html) many times (thread-safe:
    the lexpy.Sanitizer it holds is immutable)."""

    def __init__(self, tags: Optional[Set[str]] = None,
                 clean_content_tags: Optional[Set[str]] = None,
                 attributes: Optional[Mapping[str, Set[str]]] = None,
                 attribute_filter: Optional[Callable[[str, str, str], Optional[str]]] = None,
                 strip_comments: bool = True,
                 link_rel: Optional[str] = _DEFAULT_LINK_REL,
                 generic_attribute_prefixes: Optional[Set[str]] = None,
                 tag_attribute_values: Optional[Mapping[str, Mapping[str, Set[str]]]] = None,
                 set_tag_attribute_values: Optional[Mapping[str, Mapping[str, str]]] = None,
                 url_schemes: Optional[Set[str]] = None,
                 allowed_classes: Optional[Mapping[str, Set[str]]] = None,
                 filter_style_properties: Optional[Set[str]] = None,
                 url_relative: Any = None, id_prefix: Optional[str] = None) -> None:
        allowed_tags = _names(tags, ALLOWED_TAGS)
        content_tags = _names(clean_content_tags, CLEAN_CONTENT_TAGS)
        if allowed_tags & content_tags:
            raise ValueError("tags and clean_content_tags overlap: %s"
                             % ", ".join(sorted(allowed_tags & content_tags)))
        if attributes is None:
            per_tag: Dict[str, Set[str]] = {k: set(v) for k, v in ALLOWED_ATTRIBUTES.items()}
            generic = set(GENERIC_ATTRIBUTES)
        else:
            per_tag = {k: set(v) for k, v in attributes.items() if k != "*"}
            generic = set(attributes.get("*", ()))
        if link_rel is not None and ("rel" in generic or any("rel" in v for v in
                                                             per_tag.values())):
            raise ValueError("rel is in attributes while link_rel is set")
        values = {tag: {name: {v.lower() for v in allowed} for name, allowed in names.items()}
                  for tag, names in (tag_attribute_values or {}).items()}
        for tag, names in values.items():
            for name in names:
                if name in per_tag.get(tag, ()) or name in generic:
                    raise ValueError("%s on %s is both in attributes and in "
                                     "tag_attribute_values" % (name, tag))
                per_tag.setdefault(tag, set()).add(name)
        for tag in (allowed_classes or {}):
            if "class" in generic or "class" in per_tag.get(tag, ()):
                raise ValueError("class on %s is both in attributes and in allowed_classes"
                                 % tag)
            per_tag.setdefault(tag, set()).add("class")
        for tag in content_tags:
            if per_tag.get(tag):
                raise ValueError("%s is in clean_content_tags and has attributes" % tag)
        elements = []
        namespaces = [HTML] + ([SVG] if "svg" in allowed_tags else []) + (
            [MATHML] if "math" in allowed_tags else [])
        for tag in sorted(allowed_tags):
            local = sorted(per_tag.get(tag, set()) - generic)
            for namespace in namespaces:
                elements.append({"name": tag, "namespace": namespace, "attributes": local})
        config = {"elements": elements, "attributes": sorted(generic),
                  "comments": not strip_comments, "dataAttributes": False}
        self._values = values
        self._user_filter = attribute_filter
        relative, base = "keep", None
        self._root: Optional[Tuple[str, str]] = None
        if attribute_filter is not None and not callable(attribute_filter):
            raise TypeError("attribute_filter must be callable")
        if url_relative is not None and not isinstance(url_relative, (str, tuple, list)):
            raise TypeError("url_relative must be a str or a tuple, not %s"
                            % type(url_relative).__name__)
        if isinstance(url_relative, (tuple, list)) and not (
                (len(url_relative) == 2 and url_relative[0] == "rewrite_with_base")
                or (len(url_relative) == 3 and url_relative[0] == "rewrite_with_root")):
            raise ValueError("url_relative must be 'pass_through', 'deny', "
                             "('rewrite_with_base', url) or ('rewrite_with_root', root, path)")
        if url_relative in (None, "pass_through"):
            pass
        elif url_relative == "deny":
            relative = "drop"
        elif isinstance(url_relative, (tuple, list)) and url_relative and \
                url_relative[0] == "rewrite_with_base":
            relative, base = "resolve", url_relative[1]
        elif isinstance(url_relative, (tuple, list)) and url_relative and \
                url_relative[0] == "rewrite_with_root":
            # ammonia's RewriteWithRoot: "/x" is resolved against the root,
            # any other relative URL against the root joined with the path.
            self._root = (str(url_relative[1]), str(url_relative[-1]))
        else:
            raise ValueError("url_relative must be 'pass_through', 'deny', "
                             "('rewrite_with_base', url) or ('rewrite_with_root', root, path)")
        self._sanitizer = Sanitizer(
            config, on_disallowed="unwrap", max_depth=None,
            remove_with_content=sorted(content_tags),
            attribute_prefixes=sorted(generic_attribute_prefixes or ()) or None,
            url_schemes=_names(url_schemes, ALLOWED_URL_SCHEMES), url_relative=relative,
            url_base=base, link_rel=link_rel,
            allowed_classes=dict(allowed_classes) if allowed_classes else None,
            style_properties=filter_style_properties,
            set_attributes=dict(set_tag_attribute_values) if set_tag_attribute_values
            else None,
            attribute_filter=self._filter if (values or attribute_filter or self._root)
            else None,
            id_prefix=id_prefix)

    def _filter(self, tag: str, name: str, value: str) -> Optional[str]:
        allowed = self._values.get(tag, {}).get(name)
        if allowed is not None and value.lower() not in allowed:
            return None
        if self._root is not None and name in _URL_ATTRIBUTES:
            value = self._rewrite_with_root(value)
        if self._user_filter is not None:
            return self._user_filter(tag, name, value)
        return value

    def _rewrite_with_root(self, value: str) -> str:
        from lexpy.sanitizer.options import _parse_url
        assert self._root is not None
        root, path = self._root
        if _parse_url(value) is not None:
            return value                                     # absolute
        if value.startswith("/") and not value.startswith("//"):
            url = _parse_url(value[1:] or ".", root)
        else:
            base = _parse_url(path, root)
            url = _parse_url(value, base.href) if base is not None else None
        return url.href if url is not None else value

    def clean(self, html: str) -> str:
        """The sanitized HTML."""
        if not isinstance(html, str):
            raise TypeError("html must be a str, not %s" % type(html).__name__)
        return str(self._sanitizer.sanitize(html))


def clean(html: str, tags: Optional[Set[str]] = None, **options: Any) -> str:
    """nh3.clean(html, **options): Cleaner(**options).clean(html)."""
    return Cleaner(tags=tags, **options).clean(html)


_TEXT_ESCAPES = {
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;", "`": "&grave;",
    "/": "&#47;", "=": "&#61;", " ": "&#32;", "\t": "&#9;", "\n": "&#10;", "\x0c": "&#12;",
    "\r": "&#13;", "\x00": "&#65533;"}


def clean_text(html: str, tags: Optional[Set[str]] = None) -> str:
    """nh3.clean_text: every character that could be markup escaped (no
    tags: the text can go anywhere, even in an unquoted attribute value);
    with `tags`, only those tags are kept, without attributes."""
    if not isinstance(html, str):
        raise TypeError("html must be a str, not %s" % type(html).__name__)
    if tags is None:
        return "".join(_TEXT_ESCAPES.get(c, c) for c in html)
    return Cleaner(tags=set(tags), attributes={}, link_rel=None,
                   url_schemes=set()).clean(html)


escape = clean_text


def is_html(html: str) -> bool:
    """Whether the text holds markup: its parse (in a div) has a node that
    is not text."""
    from lexpy.parser import parse_fragment
    if not isinstance(html, str):
        raise TypeError("html must be a str, not %s" % type(html).__name__)
    fragment = parse_fragment(html, "div")
    return any(node.node_type != 3 for node in fragment.child_nodes)


def _style_filter(value: str, properties: Union[Set[str], Tuple[str, ...]]) -> str:
    """ammonia's filter of one style attribute value (its tests' unit)."""
    from lexpy.sanitizer.options import filter_declarations
    return filter_declarations(value, frozenset(p.lower() for p in properties))
