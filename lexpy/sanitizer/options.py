"""What a server needs beyond the Sanitizer API (issue 34, point 2): the
keyword options of lexpy.Sanitizer, checked at construction, and the pass
that applies those the C walk cannot (URL schemes judged by the WHATWG URL
parser of ada-url, CSS by tinycss2's tokenizer, classes, forced attributes,
the attribute filter) over a sanitized tree."""
import importlib
import re
from typing import Any, Callable, Dict, FrozenSet, List, Mapping, Optional, Set, Tuple

from lexpy.sanitizer import walk as _walk
from lexpy.sanitizer.config import HTML, SVG, XLINK

ON_DISALLOWED = {"remove": 1, "unwrap": 2, "escape": 3}
DEFAULT_MAX_DEPTH = 256
URL_RELATIVE = ("keep", "drop", "resolve")
# url_relative as the walk takes it (urls.pxi): keep and drop in C, resolve
# in the Python pass
URL_RELATIVE_C = {"keep": 0, "drop": 1, "resolve": 2}
SCHEME = re.compile(r"^[a-z][a-z0-9+.\-]*$")
ASCII_WHITESPACE = re.compile(r"[\t\n\f\r ]+")

# The attributes whose value is a URL, and those whose value is a list of
# URLs (srcset's candidates), judged by url_schemes and url_relative.
URL_ATTRIBUTES = frozenset({
    "href", "src", "action", "formaction", "data", "poster", "background", "cite",
    "longdesc", "codebase", "icon", "manifest", "lowsrc", "dynsrc", "archive", "classid"})
URL_LIST_ATTRIBUTES = frozenset({"srcset", "imagesrcset"})

Report = List[Dict[str, Any]]


def _type_name(value: object) -> str:
    return type(value).__name__


class Options:
    """The server options of one Sanitizer, validated and frozen."""

    __slots__ = ("url_schemes", "url_relative", "url_base", "link_rel", "allowed_classes",
                 "style_properties", "set_attributes", "attribute_filter", "on_disallowed",
                 "max_depth", "report", "remove_with_content", "attribute_prefixes", "select",
                 "id_prefix", "key", "needs_pass", "needs_python_pass")

    def __init__(self, *, url_schemes: Any = None, url_relative: str = "keep",
                 url_base: Optional[str] = None, link_rel: Optional[str] = None,
                 allowed_classes: Optional[Mapping[str, Any]] = None,
                 style_properties: Any = None,
                 set_attributes: Optional[Mapping[str, Mapping[str, str]]] = None,
                 attribute_filter: Optional[Callable[[str, str, str], Optional[str]]] = None,
                 on_disallowed: str = "remove", max_depth: Optional[int] = DEFAULT_MAX_DEPTH,
                 report: bool = False, remove_with_content: Any = None,
                 attribute_prefixes: Any = None, id_prefix: Optional[str] = None) -> None:
        self.url_schemes = _check_schemes(url_schemes)
        if url_relative not in URL_RELATIVE:
            raise ValueError("url_relative must be one of %s, not %r"
                             % (", ".join(URL_RELATIVE), url_relative))
        if url_relative == "resolve":
            if not isinstance(url_base, str):
                raise ValueError("url_relative='resolve' needs url_base, an absolute URL")
            if _parse_url(url_base) is None:
                raise ValueError("url_base %r is not an absolute URL" % url_base)
        elif url_base is not None:
            raise ValueError("url_base goes with url_relative='resolve'")
        if url_schemes is not None or url_relative != "keep":
            _ada()
        self.url_relative = url_relative
        self.url_base = url_base
        if link_rel is not None and not isinstance(link_rel, str):
            raise TypeError("link_rel must be a str, not %s" % _type_name(link_rel))
        self.link_rel = link_rel
        self.allowed_classes = _check_classes(allowed_classes)
        if style_properties is not None:
            if isinstance(style_properties, str) or not hasattr(style_properties, "__iter__"):
                raise TypeError("style_properties must be a collection of CSS property names")
            names = []
            for name in style_properties:
                if not isinstance(name, str) or not name:
                    raise TypeError("style_properties: %r is not a property name" % (name,))
                names.append(name.lower())
            _tinycss2()
            self.style_properties: Optional[FrozenSet[str]] = frozenset(names)
        else:
            self.style_properties = None
        self.set_attributes = _check_set_attributes(set_attributes)
        if attribute_filter is not None and not callable(attribute_filter):
            raise TypeError("attribute_filter must be callable, not %s"
                            % _type_name(attribute_filter))
        self.attribute_filter = attribute_filter
        if on_disallowed not in ON_DISALLOWED:
            raise ValueError("on_disallowed must be 'remove', 'unwrap' or 'escape', not %r"
                             % (on_disallowed,))
        self.on_disallowed = on_disallowed
        if max_depth is not None and (not isinstance(max_depth, int) or isinstance(
                max_depth, bool) or max_depth < 1):
            raise ValueError("max_depth must be a positive int or None, not %r" % (max_depth,))
        self.max_depth = max_depth
        if not isinstance(report, bool):
            raise TypeError("report must be a bool, not %s" % _type_name(report))
        self.report = report
        self.remove_with_content = _check_names(remove_with_content, "remove_with_content")
        if attribute_prefixes is None:
            self.attribute_prefixes: Tuple[str, ...] = ()
        else:
            if isinstance(attribute_prefixes, str) or not hasattr(attribute_prefixes,
                                                                   "__iter__"):
                raise TypeError("attribute_prefixes must be a collection of str")
            prefixes = []
            for prefix in attribute_prefixes:
                if not isinstance(prefix, str) or not prefix:
                    raise TypeError("attribute_prefixes: %r is not a prefix" % (prefix,))
                if prefix.lower().startswith("on") or "on".startswith(prefix.lower()):
                    raise ValueError("attribute_prefixes: %r allows event handlers" % prefix)
                prefixes.append(prefix)
            self.attribute_prefixes = tuple(sorted(set(prefixes)))
        if id_prefix is not None and (not isinstance(id_prefix, str) or not id_prefix):
            raise TypeError("id_prefix must be a non-empty str")
        self.id_prefix = id_prefix
        # The attributes whose elements the pass looks at (None: every
        # element): the pass skips in C the elements no option can change.
        looked_at: Set[str] = set()
        if url_schemes is not None or url_relative != "keep":
            looked_at |= URL_ATTRIBUTES | URL_LIST_ATTRIBUTES
        if allowed_classes is not None:
            looked_at.add("class")
        if id_prefix is not None:
            looked_at.add("id")
        self.select: Optional[FrozenSet[str]] = frozenset(looked_at)
        if (attribute_filter is not None or set_attributes is not None
                or link_rel is not None or style_properties is not None):
            self.select = None
        # Whether the Python pass has anything to do at all, and anything
        # the C walk leaves to it whatever the tree (then: url_pass).
        self.needs_pass: bool = self._needs_pass()
        self.needs_python_pass: bool = self._needs_python_pass()
        self.key = (
            None if self.url_schemes is None else tuple(sorted(
                (k, tuple(sorted(v))) for k, v in self.url_schemes.items())),
            url_relative, url_base, link_rel,
            None if self.allowed_classes is None else tuple(sorted(
                (k, tuple(sorted(v))) for k, v in self.allowed_classes.items())),
            None if self.style_properties is None else tuple(sorted(self.style_properties)),
            None if self.set_attributes is None else tuple(sorted(
                (k, tuple(sorted(v.items()))) for k, v in self.set_attributes.items())),
            attribute_filter, on_disallowed, max_depth, report, self.remove_with_content,
            self.attribute_prefixes, id_prefix)

    def _needs_pass(self) -> bool:
        """Whether the Python pass has anything to do."""
        return (self.url_schemes is not None or self.url_relative != "keep"
                or self.link_rel is not None or self.allowed_classes is not None
                or self.style_properties is not None or self.set_attributes is not None
                or self.attribute_filter is not None or self.id_prefix is not None)

    def _needs_python_pass(self) -> bool:
        """Whether the Python pass has something to do that the walk did
        not do in C (the walk judges url_schemes and url_relative "keep" or
        "drop" on every one-URL attribute itself, and says when a URL still
        needs the pass: srcset lists, url_relative="resolve")."""
        return (self.link_rel is not None or self.allowed_classes is not None
                or self.style_properties is not None or self.set_attributes is not None
                or self.attribute_filter is not None or self.id_prefix is not None)

    def keywords(self) -> Dict[str, Any]:
        """The keywords that make these options (for pickling)."""
        return {
            "url_schemes": None if self.url_schemes is None else {
                k: sorted(v) for k, v in self.url_schemes.items()},
            "url_relative": self.url_relative, "url_base": self.url_base,
            "link_rel": self.link_rel,
            "allowed_classes": None if self.allowed_classes is None else {
                k: sorted(v) for k, v in self.allowed_classes.items()},
            "style_properties": None if self.style_properties is None else sorted(
                self.style_properties),
            "set_attributes": None if self.set_attributes is None else {
                k: dict(v) for k, v in self.set_attributes.items()},
            "attribute_filter": self.attribute_filter, "on_disallowed": self.on_disallowed,
            "max_depth": self.max_depth, "report": self.report,
            "remove_with_content": list(self.remove_with_content),
            "attribute_prefixes": list(self.attribute_prefixes), "id_prefix": self.id_prefix}


OPTION_NAMES = ("url_schemes", "url_relative", "url_base", "link_rel", "allowed_classes",
                "style_properties", "set_attributes", "attribute_filter", "on_disallowed",
                "max_depth", "report", "remove_with_content", "attribute_prefixes", "id_prefix")


_ADA_URL: Any = None


def _ada() -> Any:
    global _ADA_URL
    if _ADA_URL is not None:
        return _ADA_URL
    try:
        import ada_url  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        raise ImportError("url_schemes and url_relative need ada-url (the WHATWG URL "
                          "parser): pip install 'lexpy[sanitizer]'") from None
    _ADA_URL = ada_url
    return ada_url


def _tinycss2() -> Any:
    try:
        import tinycss2  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        raise ImportError("style_properties needs tinycss2 (a CSS tokenizer): "
                          "pip install 'lexpy[sanitizer]'") from None
    return tinycss2


def _check_schemes(url_schemes: Any) -> Optional[Dict[str, FrozenSet[str]]]:
    """None, or {attribute name or "*": allowed schemes}."""
    if url_schemes is None:
        return None
    if isinstance(url_schemes, Mapping):
        items = list(url_schemes.items())
    elif isinstance(url_schemes, str) or not hasattr(url_schemes, "__iter__"):
        raise TypeError("url_schemes must be a collection of schemes or a mapping of "
                        "attribute names to them, not %s" % _type_name(url_schemes))
    else:
        items = [("*", url_schemes)]
    result = {}
    for attribute, schemes in items:
        if not isinstance(attribute, str):
            raise TypeError("url_schemes: %r is not an attribute name" % (attribute,))
        if isinstance(schemes, str) or not hasattr(schemes, "__iter__"):
            raise TypeError("url_schemes[%r] must be a collection of schemes" % attribute)
        checked = set()
        for scheme in schemes:
            if not isinstance(scheme, str):
                raise TypeError("url_schemes: %r is not a scheme" % (scheme,))
            scheme = scheme.lower().rstrip(":")
            if not SCHEME.match(scheme):
                raise ValueError("url_schemes: %r is not a URL scheme" % (scheme,))
            if scheme in ("javascript", "vbscript"):
                raise ValueError("url_schemes: %r runs script; the baseline never allows it"
                                 % scheme)
            checked.add(scheme)
        result[attribute] = frozenset(checked)
    return result


def _check_names(names: Any, what: str) -> Tuple[Tuple[str, Optional[str]], ...]:
    """Element names (HTML namespace) or (name, namespace) pairs."""
    if names is None:
        return ()
    if isinstance(names, str) or not hasattr(names, "__iter__"):
        raise TypeError("%s must be a collection of element names" % what)
    result: Set[Tuple[str, Optional[str]]] = set()
    for name in names:
        if isinstance(name, str):
            result.add((name, HTML))
        elif isinstance(name, tuple) and len(name) == 2 and isinstance(name[0], str):
            result.add((name[0], name[1] or None))
        else:
            raise TypeError("%s: %r is not an element name" % (what, name))
    return tuple(sorted(result, key=str))


def _check_classes(allowed: Any) -> Optional[Dict[str, FrozenSet[str]]]:
    if allowed is None:
        return None
    if not isinstance(allowed, Mapping):
        raise TypeError("allowed_classes must be a mapping of element names (or '*') to "
                        "class names, not %s" % _type_name(allowed))
    result = {}
    for tag, classes in allowed.items():
        if not isinstance(tag, str) or isinstance(classes, str) or not hasattr(
                classes, "__iter__"):
            raise TypeError("allowed_classes[%r] must be a collection of class names" % (tag,))
        result[tag] = frozenset(str(c) for c in classes)
    return result


def _check_set_attributes(forced: Any) -> Optional[Dict[str, Dict[str, str]]]:
    if forced is None:
        return None
    if not isinstance(forced, Mapping):
        raise TypeError("set_attributes must map element names to {attribute: value}")
    result = {}
    for tag, attributes in forced.items():
        if not isinstance(tag, str) or not isinstance(attributes, Mapping):
            raise TypeError("set_attributes[%r] must be a mapping of attribute names to values"
                            % (tag,))
        values = {}
        for name, value in attributes.items():
            if not isinstance(name, str) or not isinstance(value, str):
                raise TypeError("set_attributes[%r]: %r=%r is not a str pair"
                                % (tag, name, value))
            if name.lower().startswith("on") or name.lower() in ("srcdoc", "shadowrootmode"):
                raise ValueError("set_attributes[%r]: %r is forbidden by the baseline"
                                 % (tag, name))
            values[name] = value
        result[tag] = values
    return result


def _parse_url(value: str, base: Optional[str] = None) -> Any:
    ada_url = _ada()
    try:
        return ada_url.URL(value, base) if base is not None else ada_url.URL(value)
    except ValueError:
        return None


def _protocol_reader() -> Callable[[str], Optional[str]]:
    """ada's C API through its cffi module (ada_parse, ada_get_protocol:
    half the cost of parse_url's dictionary), else parse_url."""
    try:
        wrapper = importlib.import_module("ada_url._ada_wrapper")
        unpack, lib = wrapper.ffi.unpack, wrapper.lib
        parse, is_valid = lib.ada_parse, lib.ada_is_valid
        get_protocol, free = lib.ada_get_protocol, lib.ada_free
    except (ImportError, AttributeError):
        parse_url = _ada().parse_url

        def read_public(value: str) -> Optional[str]:
            try:
                return str(parse_url(value, attributes=("protocol",))["protocol"])
            except ValueError:
                return None
        return read_public

    def read(value: str) -> Optional[str]:
        try:
            data = value.encode("utf-8")
        except UnicodeEncodeError:              # a lone surrogate: no URL
            return None
        url = parse(data, len(data))
        try:
            if not is_valid(url):
                return None
            protocol = get_protocol(url)
            return str(unpack(protocol.data, protocol.length).decode("ascii"))
        finally:
            free(url)
    return read


_READ_PROTOCOL: Optional[Callable[[str], Optional[str]]] = None


def _parse_protocol(value: str) -> Optional[str]:
    """The scheme of `value` parsed as an absolute URL by the WHATWG URL
    parser (ada), with its colon ("https:"), or None when it is not one.
    Without a colon there is no scheme: the URL parser, with no base,
    fails on it (removing tabs and newlines adds no colon)."""
    global _READ_PROTOCOL
    if ":" not in value:
        return None
    if _READ_PROTOCOL is None:
        _ada()
        _READ_PROTOCOL = _protocol_reader()
    return _READ_PROTOCOL(value)


DANGEROUS_CSS = re.compile(r"expression\s*\(|javascript:|vbscript:|-moz-binding|behavior\s*:")


def _css_value_is_safe(tinycss2: Any, tokens: List[Any]) -> bool:
    for token in tokens:
        kind = getattr(token, "type", "")
        if kind in ("url", "error"):        # error: a bad string or a bad url()
            return False
        if kind == "function":
            if token.lower_name in ("url", "expression", "image-set", "-webkit-image-set",
                                    "image", "src"):
                return False
            if not _css_value_is_safe(tinycss2, token.arguments):
                return False
        if kind in ("() block", "[] block", "{} block"):
            if not _css_value_is_safe(tinycss2, token.content):
                return False
    text = tinycss2.serialize(tokens).lower()
    return not DANGEROUS_CSS.search(text)


def filter_declarations(text: str, allowed: FrozenSet[str]) -> str:
    """The declarations of a CSS declaration list whose property is allowed
    and whose value loads nothing (no url(), image-set(), expression()),
    serialized again (escapes decoded by the tokenizer)."""
    tinycss2 = _tinycss2()
    kept = []
    for declaration in tinycss2.parse_blocks_contents(text, skip_comments=True,
                                                      skip_whitespace=True):
        if getattr(declaration, "type", "") != "declaration":
            continue
        if declaration.lower_name not in allowed:
            continue
        if not _css_value_is_safe(tinycss2, declaration.value):
            continue
        value = tinycss2.serialize(declaration.value).strip()
        if not value:
            continue
        kept.append("%s:%s%s" % (declaration.lower_name, value,
                                 " !important" if declaration.important else ""))
    return ";".join(kept)


def filter_stylesheet(text: str, allowed: FrozenSet[str]) -> str:
    """The style rules of a style sheet with filtered declarations; at-rules
    (@import, @font-face, ...) are dropped."""
    tinycss2 = _tinycss2()
    rules = []
    for rule in tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True):
        if getattr(rule, "type", "") != "qualified-rule":
            continue
        prelude = tinycss2.serialize(rule.prelude).strip()
        if "<" in prelude or DANGEROUS_CSS.search(prelude.lower()):
            continue
        declarations = filter_declarations(tinycss2.serialize(rule.content), allowed)
        rules.append("%s{%s}" % (prelude, declarations))
    return "\n".join(rules)


def _url_allowed(options: Options, name: str, value: str, report: Optional[Report],
                 element: str) -> Optional[str]:
    """The value to keep for a URL attribute, or None to drop it."""
    protocol = _parse_protocol(value.strip())
    if protocol is None:
        if options.url_relative == "keep":
            return value
        if options.url_relative == "drop":
            _note(report, "attribute removed", "relative URL", element, name)
            return None
        resolved = _parse_url(value.strip(), options.url_base)
        if resolved is None:
            _note(report, "attribute removed", "invalid URL", element, name)
            return None
        protocol = resolved.protocol
        value = resolved.href
    if options.url_schemes is not None:
        schemes = options.url_schemes.get(name, options.url_schemes.get("*"))
        if schemes is not None and protocol[:-1] not in schemes:
            _note(report, "attribute removed", "URL scheme not allowed", element, name)
            return None
    return value


def _note(report: Optional[Report], kind: str, reason: str, element: str,
          attribute: Optional[str] = None) -> None:
    if report is not None:
        report.append({"kind": kind, "reason": reason, "element": element,
                       "namespace": None, "attribute": attribute})


def apply(options: Options, root: Any, report: Optional[Report]) -> bool:
    """The server options on a sanitized tree, in place. Returns whether
    they may have made something the baseline must look at again: a value
    set or changed, or an attribute removed that is not a URL (a removed
    `encoding` changes an integration point)."""
    changed = False
    for element in _walk.elements_below(root, options.select):
        tag = element.local_name
        html = element.namespace_uri == HTML
        for namespace, _prefix, name, value in element.attribute_nodes():
            new_value: Optional[str] = value
            qualified = name if namespace != XLINK else "xlink:" + name
            if options.attribute_filter is not None:
                try:
                    new_value = options.attribute_filter(tag, qualified, value)
                except Exception:       # noqa: BLE001 - a failing filter drops (fail closed)
                    new_value = None
                if new_value is not None and not isinstance(new_value, str):
                    new_value = None
                if new_value is None:
                    _note(report, "attribute removed", "attribute_filter", tag, qualified)
            if new_value is not None and (name in URL_ATTRIBUTES) and (
                    namespace is None or namespace == XLINK) and (
                    options.url_schemes is not None or options.url_relative != "keep"):
                new_value = _url_allowed(options, qualified, new_value, report, tag)
            if new_value is not None and name in URL_LIST_ATTRIBUTES and namespace is None \
                    and (options.url_schemes is not None or options.url_relative != "keep"):
                candidates = []
                for candidate in new_value.split(","):
                    parts = candidate.split()
                    if not parts:
                        continue
                    url = _url_allowed(options, name, parts[0], report, tag)
                    if url is not None:
                        candidates.append(" ".join([url] + parts[1:]))
                new_value = ", ".join(candidates) if candidates else None
            if new_value is not None and name == "class" and namespace is None \
                    and options.allowed_classes is not None:
                scoped = tag in options.allowed_classes or "*" in options.allowed_classes
                allowed = options.allowed_classes.get(tag, frozenset()) | \
                    options.allowed_classes.get("*", frozenset())
                # https://infra.spec.whatwg.org/#split-on-ascii-whitespace
                tokens = [c for c in ASCII_WHITESPACE.split(new_value) if c]
                classes = [c for c in tokens if c in allowed]
                if len(classes) != len(tokens):
                    _note(report, "class removed", "allowed_classes", tag, "class")
                # An element the mapping names keeps its (maybe empty) class
                # attribute, as ammonia does; any other loses it.
                new_value = " ".join(classes) if scoped else None
            if new_value is not None and name == "style" and namespace is None \
                    and options.style_properties is not None:
                filtered = filter_declarations(new_value, options.style_properties)
                if filtered != new_value:
                    _note(report, "style filtered", "style_properties", tag, "style")
                new_value = filtered
            if new_value is None:
                element.remove_attribute_ns(namespace, name)
                if name not in URL_ATTRIBUTES and name not in URL_LIST_ATTRIBUTES:
                    changed = True
            elif new_value != value:
                element.set_attribute_ns(namespace, qualified if namespace == XLINK else name,
                                         new_value)
                changed = True
        if tag == "style" and element.namespace_uri in (HTML, SVG) \
                and options.style_properties is not None:
            text = element.text_content or ""
            filtered = filter_stylesheet(text, options.style_properties)
            if filtered != text:
                element.text_content = filtered
                changed = True
        if html and options.set_attributes is not None:
            for scope in (tag, "*"):
                for name, value in options.set_attributes.get(scope, {}).items():
                    element.set_attribute(name, value)
                    changed = True
        if options.id_prefix is not None:
            current_id = element.get_attribute_ns(None, "id")
            if current_id is not None and not current_id.startswith(options.id_prefix):
                element.set_attribute_ns(None, "id", options.id_prefix + current_id)
                changed = True
        if html and tag == "a" and options.link_rel is not None:
            element.set_attribute("rel", options.link_rel)
            changed = True
    return changed


def words(record: Tuple[Any, ...]) -> Dict[str, Any]:
    """A report record of the C walk in words."""
    kind, reason, namespace, element, _attr_namespace, attribute = record
    kinds = {1: "element removed", 2: "element unwrapped", 3: "element escaped",
             4: "attribute removed", 5: "comment removed",
             6: "processing instruction removed"}
    reasons = {1: "not allowed by the configuration", 2: "unsafe (lexpy's baseline)",
               3: "deeper than max_depth", 5: "URL scheme not allowed or relative URL dropped",
               4: "its namespace cannot be under its parent (namespace integrity)"}
    return {"kind": kinds.get(kind, str(kind)), "reason": reasons.get(reason, str(reason)),
            "element": element, "namespace": namespace, "attribute": attribute}
