"""lexpy.Sanitizer: the HTML Sanitizer API's Sanitizer with Python names, and
the entry points (set_html, parse_html, sanitize) that run its walk
(lexpy.sanitizer.walk, in C)."""
import copy
import threading
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Tuple, Union

from lexpy.dom import Document, DocumentFragment, Element, Node
from lexpy.sanitizer import config as _config
from lexpy.sanitizer import options as _opts
from lexpy.sanitizer import walk as _walk

_STANDARD_KEYWORDS = tuple(_config.KEYS.values())

# How many times a string result is sanitized again when its reparse is not
# the sanitized tree, before the differing subtrees are dropped.
RESANITIZE_ROUNDS = 2
# How many differing top-level subtrees are dropped before the result is "".
MAX_DROPS = 64


def _type_name(value: object) -> str:
    return type(value).__name__


class Sanitizer:
    """The HTML Sanitizer API's Sanitizer (https://wicg.github.io/sanitizer-api/).

    Sanitizer() is the Standard's built-in safe default configuration.
    Sanitizer(config) takes a SanitizerConfig as a mapping with the
    Standard's camelCase keys (as WPT writes them) or their snake_case
    spellings; Sanitizer(elements=[...], remove_attributes=[...], ...) takes
    the same as keywords. Names are a str (an element in the HTML namespace,
    an attribute in none), a mapping {"name", "namespace"} (elements also
    "attributes" and "removeAttributes"), or a (name, namespace) tuple.
    An invalid configuration raises TypeError naming the problem, as the
    Standard's constructor does.

    Keyword options beyond the Standard (lexpy.sanitizer.options, checked at
    construction): url_schemes, url_relative and url_base, link_rel,
    allowed_classes, style_properties, set_attributes, attribute_filter,
    on_disallowed ("remove", "unwrap", "escape"), max_depth (256; None: no
    limit), remove_with_content, attribute_prefixes, id_prefix, report.

    A Sanitizer is immutable, hashable and safe to share between threads:
    each modifier method (allow_element, remove_element, ...) returns a new
    Sanitizer with the change made, or this same Sanitizer when the
    Standard's method would return false (nothing changed), so
    ``s.allow_element("p") is not s`` is the Standard's boolean.
    """

    __slots__ = ("_config", "_options", "_key", "_programs", "_lock")
    _config: Dict[str, Any]
    _options: "_opts.Options"
    _key: Any
    _programs: Dict[bool, "_walk.Program"]
    _lock: threading.Lock

    def __init__(self, configuration: Union[None, str, Mapping[str, Any], "Sanitizer"] = None,
                 /, **keywords: Any) -> None:
        server = {}
        for name in list(keywords):
            if name in _opts.OPTION_NAMES:
                server[name] = keywords.pop(name)
            elif name not in _STANDARD_KEYWORDS:
                raise TypeError("Sanitizer() got an unexpected keyword argument %r" % name)
        options = _opts.Options(**server)
        if configuration is not None and keywords:
            raise TypeError("give Sanitizer() a configuration or keywords, not both")
        if isinstance(configuration, Sanitizer):
            config = copy.deepcopy(configuration._config)
        elif keywords:
            config = _config.set_configuration(keywords, True)
        elif configuration is None or configuration == "default":
            config = _config.default_configuration()
        elif isinstance(configuration, str):
            raise TypeError("the only SanitizerPresets string is 'default', not %r"
                            % configuration)
        else:
            config = _config.set_configuration(configuration, True)
        kept = {(e["name"], e["namespace"]) for e in config.get("elements", ())}
        for dropped in options.remove_with_content:
            if dropped in kept:
                raise ValueError("%s is both in elements and in remove_with_content"
                                 % dropped[0])
        self._init(config, options)

    def _init(self, config: Dict[str, Any], options: "_opts.Options") -> None:
        object.__setattr__(self, "_config", config)
        object.__setattr__(self, "_options", options)
        object.__setattr__(self, "_key", (_config.freeze(config), options.key))
        object.__setattr__(self, "_programs", {})
        object.__setattr__(self, "_lock", threading.Lock())

    @classmethod
    def _from_config(cls, config: Dict[str, Any],
                     options: Optional["_opts.Options"] = None) -> "Sanitizer":
        sanitizer = cls.__new__(cls)
        sanitizer._init(config, options if options is not None else _opts.Options())
        return sanitizer

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Sanitizer is immutable: its methods return a new one")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sanitizer):
            return NotImplemented
        return bool(self._key == other._key)

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        return "Sanitizer(%r)" % (self.get(),)

    def __reduce__(self) -> Tuple[Any, ...]:
        return (_rebuild, (self.get(), self._options.keywords()))

    # -- the Standard's methods -------------------------------------------

    def get(self) -> Dict[str, Any]:
        """The configuration as the Standard's get() gives it: a new dict
        with camelCase keys and sorted lists."""
        return _config.get(self._config)

    def _modified(self, change: Any, *args: Any) -> "Sanitizer":
        config = copy.deepcopy(self._config)
        if not change(config, *args):
            return self
        return Sanitizer._from_config(config, self._options)

    def allow_element(self, element: Any) -> "Sanitizer":
        """allowElement(element)."""
        return self._modified(_config.allow_element, element)

    def remove_element(self, element: Any) -> "Sanitizer":
        """removeElement(element)."""
        return self._modified(_config.remove_element, element)

    def replace_element_with_children(self, element: Any) -> "Sanitizer":
        """replaceElementWithChildren(element)."""
        return self._modified(_config.replace_element_with_children, element)

    def allow_processing_instruction(self, pi: Any) -> "Sanitizer":
        """allowProcessingInstruction(pi)."""
        return self._modified(_config.allow_processing_instruction, pi)

    def remove_processing_instruction(self, pi: Any) -> "Sanitizer":
        """removeProcessingInstruction(pi)."""
        return self._modified(_config.remove_processing_instruction, pi)

    def allow_attribute(self, attribute: Any) -> "Sanitizer":
        """allowAttribute(attribute)."""
        return self._modified(_config.allow_attribute, attribute)

    def remove_attribute(self, attribute: Any) -> "Sanitizer":
        """removeAttribute(attribute)."""
        return self._modified(_config.remove_attribute, attribute)

    def set_comments(self, allow: bool) -> "Sanitizer":
        """setComments(allow)."""
        return self._modified(_config.set_comments, allow)

    def set_data_attributes(self, allow: bool) -> "Sanitizer":
        """setDataAttributes(allow)."""
        return self._modified(_config.set_data_attributes, allow)

    def remove_unsafe(self) -> "Sanitizer":
        """removeUnsafe(): without the Standard's safe baseline's elements
        and the event handler content attributes."""
        return self._modified(_config.remove_unsafe)

    # -- lexpy's entry points ----------------------------------------------

    def _program(self, safe: bool) -> "_walk.Program":
        program = self._programs.get(safe)
        if program is None:
            with self._lock:
                program = self._programs.get(safe)
                if program is None:
                    config = self._config
                    if safe:
                        config = copy.deepcopy(config)
                        _config.remove_unsafe(config)
                    program = _compile(config, safe, self._options)
                    self._programs[safe] = program
        return program

    def sanitize(self, html: Union[str, bytes], *, context: Union[str, Element] = "div") -> str:
        """`html` parsed as the browser will (the fragment parsing algorithm
        in `context`, scripting on), sanitized with the safe baseline,
        serialized, and checked: its reparse in `context` must be the
        sanitized tree (else it is sanitized again, twice at most, then the
        differing top-level subtrees are dropped: fail closed)."""
        # The common call (a str in an "in body" context, no report, no
        # Python pass) without the general path's checks and frames.
        # Parse, walk, check and serialize run in C with the GIL released
        # once (walk.sanitize_text); Python resumes only for a URL the
        # walk could not judge or a tree whose reparse may differ.
        if type(html) is str and type(context) is str:
            name = _CONTEXT_NAMES.get(context)
            options = self._options
            if name is not None and not options.report and not options.needs_python_pass:
                program = self._programs.get(True)
                if program is None:
                    program = self._program(True)
                output = _walk.sanitize_text(name, html, program)
                if isinstance(output, str):
                    return output
                tree, url_pass = output
                if url_pass:
                    _run_options(self, tree, True, None, 0)
                return _checked_output(self, tree, context, None)
        return _sanitize_string(self, html, context)

    def sanitize_node(self, node: Node) -> None:
        """Sanitize `node`'s children (a template's contents too) in place
        with the safe baseline; for an Element, its children are then
        replaced by their sanitized reparse when they would not serialize
        back to themselves."""
        if not isinstance(node, Node):
            raise TypeError("sanitize_node needs a lexpy Node, not %s" % _type_name(node))
        _run(self, node, True, None)
        if isinstance(node, Element):
            html = node.inner_html
            context_name = node.local_name
            if context_name in ("script", "style", "xmp", "iframe", "noembed", "noframes",
                                "noscript", "plaintext", "textarea", "title") \
                    and node.namespace_uri == _config.HTML:
                return
            node.normalize()
            again = _parse_fragment(html, node)
            if _walk.first_difference(_content(node), again) != -1:
                node.set_html(_sanitize_string(self, html, node), self)


def _content(node: Any) -> Any:
    content = getattr(node, "content", None)
    return content if content is not None else node


def _rebuild(config: Dict[str, Any], options: Dict[str, Any]) -> "Sanitizer":
    return Sanitizer._from_config(copy.deepcopy(config), _opts.Options(**options))


def _compile(config: Dict[str, Any], safe: bool,
             options: "_opts.Options") -> "_walk.Program":
    from lexpy.sanitizer.walk import Program
    ACT_KEEP, ACT_REMOVE, ACT_UNWRAP = 0, 1, 2

    def names(items: Iterable[Mapping[str, Any]]) -> List[Any]:
        return [(i["namespace"], i["name"]) for i in items]

    elements: List[Any] = []
    rules: List[Any] = []
    for item in config.get("replaceWithChildrenElements", ()):
        elements.append((item["namespace"], item["name"], ACT_UNWRAP, -1))
    if "elements" in config:
        for item in config["elements"]:
            elements.append((item["namespace"], item["name"], ACT_KEEP, len(rules)))
            rules.append(("attributes" in item, names(item.get("attributes", ())),
                          names(item.get("removeAttributes", ()))))
    else:
        for item in config["removeElements"]:
            elements.append((item["namespace"], item["name"], ACT_REMOVE, -1))
    kept = {(e["namespace"], e["name"]) for e in config.get("elements", ())}
    for name, namespace in options.remove_with_content:
        if (namespace, name) in kept:
            raise ValueError("%s is both allowed and in remove_with_content" % name)
        elements.append((namespace, name, 4, -1))          # ACT_DROP
    attributes_allow = "attributes" in config
    attributes = names(config["attributes"] if attributes_allow else config["removeAttributes"])
    pi_allow = "processingInstructions" in config
    pis = [p["target"] for p in config["processingInstructions" if pi_allow
                                       else "removeProcessingInstructions"]]
    return Program(elements, "elements" in config, attributes, attributes_allow, rules,
                   bool(config.get("comments")), bool(config.get("dataAttributes")),
                   pis, pi_allow, safe, _opts.ON_DISALLOWED[options.on_disallowed],
                   (options.max_depth or 0) if safe else 0, options.attribute_prefixes,
                   None if options.url_schemes is None else dict(options.url_schemes),
                   _opts.URL_RELATIVE_C[options.url_relative])


_BASELINE: Optional["_walk.Program"] = None


def _baseline_program() -> "_walk.Program":
    """The baseline alone (every element and attribute allowed): run again
    after the server options changed values."""
    global _BASELINE
    if _BASELINE is None:
        _BASELINE = _compile(_config.set_configuration({}, True), True, _opts.Options(
            max_depth=None))
    return _BASELINE


class SanitizedHTML(str):
    """sanitize()'s result with report=True: the HTML, with `report`, the
    list of what was removed and why (dicts: kind, reason, element,
    namespace, attribute)."""
    report: List[Dict[str, Any]]


_TEXT_INTEGRATION = ("mi", "mo", "mn", "ms", "mtext")


def _context_kind(context: Union[None, str, Element]) -> int:
    """What the walk takes as the parent of a fragment's top-level elements
    (walk.sanitize_node's context_kind)."""
    if not isinstance(context, Element):
        return 0
    namespace, name = context.namespace_uri, context.local_name
    if namespace == _config.SVG:
        return 2 if name in ("foreignObject", "desc", "title") else 1
    if namespace == _config.MATHML:
        if name in _TEXT_INTEGRATION:
            return 4
        if name == "annotation-xml":
            encoding = (context.get_attribute("encoding") or "").lower()
            return 6 if encoding in ("text/html", "application/xhtml+xml") else 5
        return 3
    return 0 if namespace == _config.HTML else 7


def _run(sanitizer: "Sanitizer", tree: Node, safe: bool,
         report: Optional[List[Dict[str, Any]]],
         context: Union[None, str, Element] = None) -> None:
    """The walk, then the server options and the baseline once more."""
    kind = _context_kind(context)
    result = _walk.sanitize_node(tree, sanitizer._program(safe), report is not None, kind)
    if report is not None:
        report.extend(_opts.words(record) for record in result.records)
    options = sanitizer._options
    if options.needs_pass and (options.needs_python_pass or result.url_pass):
        _run_options(sanitizer, tree, safe, report, kind)


def _run_options(sanitizer: "Sanitizer", tree: Node, safe: bool,
                 report: Optional[List[Dict[str, Any]]], kind: int) -> None:
    """The server options' Python pass, then the baseline again where needed."""
    # (the baseline again only when the pass may have made something it
    # must see: a removed URL attribute cannot)
    if _opts.apply(sanitizer._options, tree, report) and safe:
        result = _walk.sanitize_node(tree, _baseline_program(), report is not None, kind)
        if report is not None:
            report.extend(_opts.words(record) for record in result.records)


_FRAGMENT_PARSERS: Dict[str, Callable[[Union[str, bytes]], DocumentFragment]] = {}


def _parse_fragment(html: Union[str, bytes], context: Union[str, Element]) -> DocumentFragment:
    if isinstance(context, str):
        # A parser per context name, its arguments checked once (a few
        # names in practice; the cache is bounded all the same).
        parse = _FRAGMENT_PARSERS.get(context)
        if parse is None:
            from lexpy.parser import _str_fragment_parser
            parse = _str_fragment_parser(context, True)
            if len(_FRAGMENT_PARSERS) >= 64:
                _FRAGMENT_PARSERS.clear()
            _FRAGMENT_PARSERS[context] = parse
        return parse(html)
    from lexpy.parser import parse_fragment
    return parse_fragment(html, context, scripting=True)


def _check_html(html: object) -> None:
    if not isinstance(html, (str, bytes)):
        raise TypeError("html must be a str or bytes, not %s" % _type_name(html))


def _is_script_context(context: Union[str, Element]) -> bool:
    if isinstance(context, Element):
        return context.local_name == "script" and context.namespace_uri in (
            _config.HTML, _config.SVG)
    return context == "script"


def _sanitize_string(sanitizer: Sanitizer, html: Union[str, bytes],
                     context: Union[str, Element]) -> str:
    _check_html(html)
    if not isinstance(context, (str, Element)):
        raise TypeError("context must be a str or an Element, not %s" % _type_name(context))
    # https://wicg.github.io/sanitizer-api/#set-and-filter-html (step 1)
    if _is_script_context(context):
        return ""
    report: Optional[List[Dict[str, Any]]] = [] if sanitizer._options.report else None
    output = _sanitize_tree_to_string(sanitizer, html, context, report)
    if report is None:
        return output
    result = SanitizedHTML(output)
    result.report = report
    return result


# Context elements whose fragment parse starts in "in body" with the data
# state of the tokenizer, nothing on the stack but html and no form element
# pointer: there, stable.pxi's argument holds.
_IN_BODY_CONTEXTS = frozenset({"div", "span", "p", "section", "article", "main", "aside",
                               "header", "footer", "nav", "blockquote", "li", "body"})
_CONTEXT_NAMES = {name: name.encode("ascii") for name in _IN_BODY_CONTEXTS}


def _sanitize_tree_to_string(sanitizer: Sanitizer, html: Union[str, bytes],
                             context: Union[str, Element],
                             report: Optional[List[Dict[str, Any]]]) -> str:
    tree = _parse_fragment(html, context)
    _run(sanitizer, tree, True, report, context)
    return _checked_output(sanitizer, tree, context, report)


def _checked_output(sanitizer: Sanitizer, tree: DocumentFragment, context: Union[str, Element],
                    report: Optional[List[Dict[str, Any]]]) -> str:
    """The sanitized tree's serialization, checked by its reparse."""
    output = tree.to_html()
    # A tree with none of the constructs whose reparse can differ is its
    # serialization's reparse in an "in body" context: the argument heads
    # lexpy/sanitizer/stable.pxi (tools/fuzz_sanitize.py checks it).
    if isinstance(context, str) and context in _IN_BODY_CONTEXTS \
            and not _walk.reparse_may_differ_below(tree):
        return output
    for _ in range(RESANITIZE_ROUNDS + 1):
        tree.normalize()
        again = _parse_fragment(output, context)
        if _walk.first_difference(tree, again) == -1:
            return output
        if report is not None:
            report.append({"kind": "reparsed differently", "reason": "sanitized again",
                           "element": None, "namespace": None, "attribute": None})
        _run(sanitizer, again, True, report, context)
        tree = again
        output = tree.to_html()
    # Fail closed: drop the first top-level subtree whose reparse differs,
    # until the output is stable.
    for _ in range(MAX_DROPS):
        tree.normalize()
        again = _parse_fragment(output, context)
        index = _walk.first_difference(tree, again)
        if index == -1:
            return output
        children = tree.child_nodes
        if report is not None:
            report.append({"kind": "subtree dropped", "reason": "unstable on reparse",
                           "element": None, "namespace": None, "attribute": None})
        if index >= len(children):
            return ""
        children[index].remove()
        output = tree.to_html()
    return ""


def _sanitizer_from(sanitizer: Any, safe: bool) -> Sanitizer:
    """https://wicg.github.io/sanitizer-api/#sanitizerconfig-get-a-sanitizer-instance-from-options"""
    if sanitizer is None:
        sanitizer = "default" if safe else {}
    if isinstance(sanitizer, Sanitizer):
        return sanitizer
    if isinstance(sanitizer, str):
        if sanitizer != "default":
            raise TypeError("the only SanitizerPresets string is 'default', not %r" % sanitizer)
        return _default()
    if isinstance(sanitizer, Mapping):
        return Sanitizer._from_config(_config.set_configuration(sanitizer, not safe))
    raise TypeError("sanitizer must be a Sanitizer, a SanitizerConfig mapping or "
                    "'default', not %s" % _type_name(sanitizer))


_DEFAULT: Optional[Sanitizer] = None


def _default() -> Sanitizer:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Sanitizer()
    return _DEFAULT


class _Layer:
    """What the DOM's Element.set_html and set_html_unsafe call."""

    @staticmethod
    def set_html(element: Element, html: Any, sanitizer: Any, safe: bool) -> None:
        # https://wicg.github.io/sanitizer-api/#set-and-filter-html
        if not isinstance(html, str):
            raise TypeError("html must be a str, not %s" % _type_name(html))
        chosen = _sanitizer_from(sanitizer, safe)
        if safe and _is_script_context(element):
            return
        fragment = _parse_fragment(html, element)
        _run(chosen, fragment, safe, None, element)
        target = _content(element)
        while target.first_child is not None:
            target.first_child.remove()
        target.append_child(fragment)


def set_html(element: Element, html: str, sanitizer: Any = None) -> None:
    """element.set_html(html, sanitizer)."""
    _Layer.set_html(element, html, sanitizer, True)


def parse_html(html: Union[str, bytes], sanitizer: Any = None, *, safe: bool = True) -> Document:
    """The Sanitizer API's Document.parseHTML: a new Document from `html`
    (scripting disabled: the document has no browsing context), sanitized
    with the safe baseline."""
    # https://wicg.github.io/sanitizer-api/#dom-document-parsehtml
    from lexpy.parser import parse
    _check_html(html)
    chosen = _sanitizer_from(sanitizer, safe)
    document = parse(html, scripting=False)
    _run(chosen, document, safe, None)
    return document


def parse_html_unsafe(html: Union[str, bytes], sanitizer: Any = None) -> Document:
    """Document.parseHTMLUnsafe: as parse_html without the safe baseline
    (with no `sanitizer`, nothing is removed)."""
    return parse_html(html, sanitizer, safe=False)


def sanitize(html: Union[str, bytes], sanitizer: Any = None, *,
             context: Union[str, Element] = "div") -> str:
    """Sanitizer.sanitize with `sanitizer` (a Sanitizer, a SanitizerConfig
    mapping, "default" or None: the default)."""
    return _sanitizer_from(sanitizer, True).sanitize(html, context=context)
