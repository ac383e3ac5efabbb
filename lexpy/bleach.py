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
URLs...). Cleaner is thread-safe (bleach's is not) and ignores `filters`
but LinkifyFilter-like linkifying (``linkify=True``).
"""
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Set, Union

from lexpy.sanitizer import Sanitizer
from lexpy.sanitizer.config import HTML, MATHML, SVG
from lexpy.sanitizer.linkify import DEFAULT_CALLBACKS, linkify_tree, nofollow, target_blank

__all__ = ["ALLOWED_ATTRIBUTES", "ALLOWED_PROTOCOLS", "ALLOWED_TAGS", "CSSSanitizer",
           "Cleaner", "DEFAULT_CALLBACKS", "Linker", "clean", "linkify", "nofollow",
           "target_blank"]

ALLOWED_TAGS = frozenset({"a", "abbr", "acronym", "b", "blockquote", "code", "em", "i", "li",
                          "ol", "strong", "ul"})
ALLOWED_ATTRIBUTES: Dict[str, List[str]] = {"a": ["href", "title"], "abbr": ["title"],
                                            "acronym": ["title"]}
ALLOWED_PROTOCOLS = frozenset({"http", "https", "mailto"})

Attributes = Union[Mapping[str, Any], Iterable[str], Callable[[str, str, str], bool]]


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
                local = sorted(per_tag.get(tag, set()) - generic)
                for namespace in namespaces:
                    elements.append({"name": tag, "namespace": namespace, "attributes": local})
            config["attributes"] = sorted(generic)
            config["dataAttributes"] = False
        config["elements"] = elements
        styles = None
        if css_sanitizer is not None:
            styles = css_sanitizer.allowed_css_properties | css_sanitizer.allowed_svg_properties
        self._sanitizer = Sanitizer(
            config, on_disallowed="unwrap" if strip else "escape", max_depth=None,
            url_schemes=set(protocols), style_properties=styles,
            attribute_filter=self._filter if self._callable is not None else None)
        self.filters = filters or []

    def _filter(self, tag: str, name: str, value: str) -> Optional[str]:
        assert self._callable is not None
        return value if self._callable(tag, name, value) else None

    def clean(self, text: str) -> str:
        """The sanitized HTML."""
        if not isinstance(text, str):
            raise TypeError("argument cannot be of %r type, must be of text type"
                            % type(text).__name__)
        return str(self._sanitizer.sanitize(text))


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
