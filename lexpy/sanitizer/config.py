"""The HTML Sanitizer API's configuration model: SanitizerConfig canonicalised
and validated as the Standard says, and its modifier algorithms.

A configuration is kept in the Standard's canonical form: a dict with the
Standard's camelCase keys whose name lists hold {"name", "namespace"} dicts
(elements' also "attributes"/"removeAttributes") and whose processing
instruction lists hold {"target"} dicts. The functions here change such a
dict in place and return the Standard's boolean ("modified").
https://wicg.github.io/sanitizer-api/#config
"""
import copy
from typing import Any, Dict, List, Mapping, Optional, Tuple

from lexpy.sanitizer import builtins

HTML = "http://www.w3.org/1999/xhtml"
MATHML = "http://www.w3.org/1998/Math/MathML"
SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"

Config = Dict[str, Any]
Name = Dict[str, Optional[str]]

# The Standard's keys and their snake_case spellings.
KEYS = {
    "elements": "elements",
    "removeElements": "remove_elements",
    "replaceWithChildrenElements": "replace_with_children_elements",
    "processingInstructions": "processing_instructions",
    "removeProcessingInstructions": "remove_processing_instructions",
    "attributes": "attributes",
    "removeAttributes": "remove_attributes",
    "comments": "comments",
    "dataAttributes": "data_attributes",
}
SNAKE_KEYS = {snake: camel for camel, snake in KEYS.items()}
NAME_LIST_KEYS = ("removeElements", "replaceWithChildrenElements", "attributes",
                  "removeAttributes")
ELEMENT_KEYS = {"name": "name", "namespace": "namespace", "attributes": "attributes",
                "removeAttributes": "removeAttributes",
                "remove_attributes": "removeAttributes"}

# https://wicg.github.io/sanitizer-api/#built-in-non-replaceable-elements-list
NON_REPLACEABLE = ({"name": "html", "namespace": HTML}, {"name": "svg", "namespace": SVG},
                   {"name": "math", "namespace": MATHML})

# https://wicg.github.io/sanitizer-api/#built-in-safe-baseline-configuration
SAFE_BASELINE_REMOVE_ELEMENTS = (
    {"name": "embed", "namespace": HTML}, {"name": "frame", "namespace": HTML},
    {"name": "iframe", "namespace": HTML}, {"name": "object", "namespace": HTML},
    {"name": "script", "namespace": HTML}, {"name": "script", "namespace": SVG},
    {"name": "use", "namespace": SVG})


def _type_name(value: object) -> str:
    return type(value).__name__


def _sequence(value: object, what: str) -> List[Any]:
    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
        raise TypeError("%s must be a sequence of names, not %s" % (what, _type_name(value)))
    return list(value)


def _string(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError("%s must be a str, not %s: %r" % (what, _type_name(value), value))
    return value


# https://wicg.github.io/sanitizer-api/#canonicalize-a-sanitizer-name
def canonicalize_name(name: object, default_namespace: Optional[str], what: str) -> Name:
    if isinstance(name, str):
        return {"name": name, "namespace": default_namespace}
    if isinstance(name, tuple) and len(name) == 2:
        name = {"name": name[0], "namespace": name[1]}
    if not isinstance(name, Mapping):
        raise TypeError("%s: a name must be a str or a mapping with 'name' and "
                        "'namespace', not %s: %r" % (what, _type_name(name), name))
    if "name" not in name:
        raise TypeError("%s: %r has no 'name'" % (what, dict(name)))
    local = _string(name["name"], what + " name")
    namespace = name.get("namespace", default_namespace)
    if namespace is not None:
        namespace = _string(namespace, what + " namespace")
    if namespace == "":
        namespace = None
    return {"name": local, "namespace": namespace}


# https://wicg.github.io/sanitizer-api/#canonicalize-a-sanitizer-element-with-attributes
def canonicalize_element_with_attributes(element: object, what: str) -> Config:
    result: Config = dict(canonicalize_name(element, HTML, what))
    if isinstance(element, Mapping):
        for key in element:
            if key not in ELEMENT_KEYS:
                raise TypeError("%s: unknown key %r in %r" % (what, key, dict(element)))
        for key in ("attributes", "removeAttributes", "remove_attributes"):
            if key in element:
                if ELEMENT_KEYS[key] in result:
                    raise TypeError("%s: both removeAttributes and remove_attributes" % what)
                result[ELEMENT_KEYS[key]] = [
                    canonicalize_name(a, None, "%s %s" % (what, key))
                    for a in _sequence(element[key], "%s %s" % (what, key))]
    if "attributes" not in result and "removeAttributes" not in result:
        result["removeAttributes"] = []
    return result


def canonicalize_element(element: object, what: str) -> Name:
    return canonicalize_name(element, HTML, what)


def canonicalize_attribute(attribute: object, what: str) -> Name:
    return canonicalize_name(attribute, None, what)


# https://wicg.github.io/sanitizer-api/#canonicalize-a-sanitizer-processing-instruction
def canonicalize_pi(pi: object, what: str) -> Dict[str, str]:
    if isinstance(pi, str):
        return {"target": pi}
    if isinstance(pi, Mapping) and "target" in pi:
        return {"target": _string(pi["target"], what + " target")}
    raise TypeError("%s: a processing instruction must be a str or a mapping with "
                    "'target', not %r" % (what, pi))


def _key(item: Mapping[str, Any]) -> Tuple[str, Optional[str]]:
    return (item["name"], item["namespace"])


def contains(items: List[Any], item: Mapping[str, Any]) -> bool:
    key = _key(item)
    return any(_key(entry) == key for entry in items)


def contains_target(items: List[Any], target: str) -> bool:
    return any(entry["target"] == target for entry in items)


def remove_item(items: Optional[List[Any]], item: Mapping[str, Any]) -> bool:
    if items is None:
        return False
    key = _key(item)
    before = len(items)
    items[:] = [entry for entry in items if _key(entry) != key]
    return len(items) != before


def add_item(items: List[Any], item: Name) -> None:
    if not contains(items, item):
        items.append(dict(item))


def has_duplicates(items: List[Any]) -> bool:
    keys = [_key(item) for item in items]
    return len(set(keys)) != len(keys)


def remove_duplicates(items: List[Any]) -> List[Any]:
    result: List[Any] = []
    for item in items:
        if not contains(result, item):
            result.append(item)
    return result


def is_data_attribute(attribute: Mapping[str, Any]) -> bool:
    # https://html.spec.whatwg.org/#custom-data-attribute (in no namespace)
    return attribute["namespace"] is None and attribute["name"].startswith("data-")


def _name_set(items: List[Any]) -> set:  # type: ignore[type-arg]
    return {_key(item) for item in items}


# https://wicg.github.io/sanitizer-api/#sanitizer-canonicalize-the-configuration
def canonicalize(configuration: Mapping[str, Any], allow_comments_pis_and_data: bool) -> Config:
    config: Config = {}
    for key, value in configuration.items():
        camel = key if key in KEYS else SNAKE_KEYS.get(key)
        if camel is None:
            raise TypeError("unknown SanitizerConfig key %r" % (key,))
        if camel in config:
            raise TypeError("SanitizerConfig key %r given twice (%s and %s)"
                            % (camel, camel, KEYS[camel]))
        if value is None:
            continue
        config[camel] = value
    for flag in ("comments", "dataAttributes"):
        if flag in config and not isinstance(config[flag], bool):
            raise TypeError("%s must be a bool, not %s" % (KEYS[flag], _type_name(config[flag])))
    if "elements" not in config and "removeElements" not in config:
        config["removeElements"] = []
    if "processingInstructions" not in config and "removeProcessingInstructions" not in config:
        if allow_comments_pis_and_data:
            config["removeProcessingInstructions"] = []
        else:
            config["processingInstructions"] = []
    if "attributes" not in config and "removeAttributes" not in config:
        config["removeAttributes"] = []
    if "elements" in config:
        config["elements"] = [canonicalize_element_with_attributes(e, "elements")
                              for e in _sequence(config["elements"], "elements")]
    for key in ("removeElements", "replaceWithChildrenElements"):
        if key in config:
            config[key] = [canonicalize_element(e, KEYS[key])
                           for e in _sequence(config[key], KEYS[key])]
    for key in ("processingInstructions", "removeProcessingInstructions"):
        if key in config:
            config[key] = [canonicalize_pi(p, KEYS[key]) for p in _sequence(config[key], KEYS[key])]
    for key in ("attributes", "removeAttributes"):
        if key in config:
            config[key] = [canonicalize_attribute(a, KEYS[key])
                           for a in _sequence(config[key], KEYS[key])]
    if "comments" not in config:
        config["comments"] = allow_comments_pis_and_data
    if "attributes" in config and "dataAttributes" not in config:
        config["dataAttributes"] = allow_comments_pis_and_data
    return config


# https://wicg.github.io/sanitizer-api/#sanitizerconfig-valid
def invalid_reason(config: Config) -> Optional[str]:
    """None when the canonical `config` is valid, else why it is not."""
    if "elements" in config and "removeElements" in config:
        return "elements and remove_elements are both given"
    if "processingInstructions" in config and "removeProcessingInstructions" in config:
        return "processing_instructions and remove_processing_instructions are both given"
    if "attributes" in config and "removeAttributes" in config:
        return "attributes and remove_attributes are both given"
    for key in ("elements", "removeElements", "replaceWithChildrenElements", "attributes",
                "removeAttributes"):
        if key in config and has_duplicates(config[key]):
            return "%s has a duplicate entry" % KEYS[key]
    for key in ("processingInstructions", "removeProcessingInstructions"):
        if key in config:
            targets = [p["target"] for p in config[key]]
            if len(set(targets)) != len(targets):
                return "%s has a duplicate target" % KEYS[key]
    if "replaceWithChildrenElements" in config:
        replace = config["replaceWithChildrenElements"]
        for element in replace:
            if contains(list(NON_REPLACEABLE), element):
                return ("%s (%s) cannot be in replace_with_children_elements"
                        % (element["name"], element["namespace"]))
        other = config["elements"] if "elements" in config else config["removeElements"]
        common = _name_set(other) & _name_set(replace)
        if common:
            return "%r is both in replace_with_children_elements and in %s" % (
                sorted(common, key=str)[0],
                "elements" if "elements" in config else "remove_elements")
    if "attributes" in config:
        allowed = _name_set(config["attributes"])
        data = config.get("dataAttributes") is True
        for element in config.get("elements", ()):
            local = element.get("attributes")
            local_remove = element.get("removeAttributes")
            if local is not None and has_duplicates(local):
                return "element %r has a duplicate attribute" % element["name"]
            if local_remove is not None and has_duplicates(local_remove):
                return "element %r has a duplicate removed attribute" % element["name"]
            if local and allowed & _name_set(local):
                return "element %r allows %r, which attributes allows already" % (
                    element["name"], sorted(allowed & _name_set(local), key=str)[0])
            if local_remove is not None and not _name_set(local_remove) <= allowed:
                return "element %r removes %r, which attributes does not allow" % (
                    element["name"], sorted(_name_set(local_remove) - allowed, key=str)[0])
            if data and local and any(is_data_attribute(a) for a in local):
                return ("element %r lists a data- attribute while data_attributes is true"
                        % element["name"])
        if data and any(is_data_attribute(a) for a in config["attributes"]):
            return "attributes lists a data- attribute while data_attributes is true"
    else:
        removed = _name_set(config["removeAttributes"])
        for element in config.get("elements", ()):
            local = element.get("attributes")
            local_remove = element.get("removeAttributes")
            if local is not None and local_remove is not None:
                return ("element %r has both attributes and remove_attributes "
                        "while remove_attributes is global" % element["name"])
            for items in (local, local_remove):
                if items is not None and has_duplicates(items):
                    return "element %r has a duplicate attribute" % element["name"]
                if items and removed & _name_set(items):
                    return "element %r lists %r, which remove_attributes lists already" % (
                        element["name"], sorted(removed & _name_set(items), key=str)[0])
        if "dataAttributes" in config:
            return "data_attributes needs an attributes list"
    return None


# https://wicg.github.io/sanitizer-api/#sanitizer-set-a-configuration
def set_configuration(configuration: Mapping[str, Any], allow_comments_pis_and_data: bool) -> Config:
    """The canonical, valid configuration, or TypeError naming the problem."""
    if not isinstance(configuration, Mapping):
        raise TypeError("a SanitizerConfig must be a mapping, not %s" % _type_name(configuration))
    config = canonicalize(configuration, allow_comments_pis_and_data)
    reason = invalid_reason(config)
    if reason is not None:
        raise TypeError("invalid SanitizerConfig: " + reason)
    return config


def default_configuration() -> Config:
    """https://wicg.github.io/sanitizer-api/#built-in-safe-default-configuration"""
    return {
        "elements": [{"name": name, "namespace": namespace,
                      "attributes": [{"name": a, "namespace": n} for a, n in attributes]}
                     for name, namespace, attributes in builtins.DEFAULT_ELEMENTS],
        "processingInstructions": [{"target": t}
                                   for t in builtins.DEFAULT_PROCESSING_INSTRUCTIONS],
        "attributes": [{"name": a, "namespace": n} for a, n in builtins.DEFAULT_ATTRIBUTES],
        "comments": builtins.DEFAULT_COMMENTS,
        "dataAttributes": builtins.DEFAULT_DATA_ATTRIBUTES,
    }


# -- the modifier methods ---------------------------------------------------

# https://wicg.github.io/sanitizer-api/#dom-sanitizer-allowelement
def allow_element(config: Config, element: object) -> bool:
    item = canonicalize_element_with_attributes(element, "allow_element")
    if "elements" in config:
        modified = remove_item(config.get("replaceWithChildrenElements"), item)
        if "attributes" in config:
            if "attributes" in item:
                local = remove_duplicates(item["attributes"])
                allowed = _name_set(config["attributes"])
                local = [a for a in local if _key(a) not in allowed]
                if config.get("dataAttributes") is True:
                    local = [a for a in local if not is_data_attribute(a)]
                item["attributes"] = local
            if "removeAttributes" in item:
                local = remove_duplicates(item["removeAttributes"])
                allowed = _name_set(config["attributes"])
                item["removeAttributes"] = [a for a in local if _key(a) in allowed]
        else:
            if "attributes" in item:
                local = remove_duplicates(item["attributes"])
                removed = _name_set(item.get("removeAttributes", []))
                local = [a for a in local if _key(a) not in removed]
                item.pop("removeAttributes", None)
                removed = _name_set(config["removeAttributes"])
                item["attributes"] = [a for a in local if _key(a) not in removed]
            if "removeAttributes" in item:
                local = remove_duplicates(item["removeAttributes"])
                removed = _name_set(config["removeAttributes"])
                item["removeAttributes"] = [a for a in local if _key(a) not in removed]
        elements = config["elements"]
        if not contains(elements, item):
            elements.append(item)
            return True
        current = next(e for e in elements if _key(e) == _key(item))
        if _element_equal(current, item):
            return modified
        remove_item(elements, item)
        elements.append(item)
        return True
    if "attributes" in item or item.get("removeAttributes"):
        return False
    modified = remove_item(config.get("replaceWithChildrenElements"), item)
    if not contains(config["removeElements"], item):
        return modified
    remove_item(config["removeElements"], item)
    return True


def _element_equal(a: Config, b: Config) -> bool:
    if set(a) != set(b):
        return False
    for key in ("attributes", "removeAttributes"):
        if key in a and _name_set(a[key]) != _name_set(b[key]):
            return False
    return _key(a) == _key(b)


# https://wicg.github.io/sanitizer-api/#sanitizer-remove-an-element
def remove_element(config: Config, element: object) -> bool:
    item = canonicalize_element(element, "remove_element")
    modified = remove_item(config.get("replaceWithChildrenElements"), item)
    if "elements" in config:
        if contains(config["elements"], item):
            remove_item(config["elements"], item)
            return True
        return modified
    if contains(config["removeElements"], item):
        return modified
    add_item(config["removeElements"], item)
    return True


# https://wicg.github.io/sanitizer-api/#dom-sanitizer-replaceelementwithchildren
def replace_element_with_children(config: Config, element: object) -> bool:
    item = canonicalize_element(element, "replace_element_with_children")
    if contains(list(NON_REPLACEABLE), item):
        return False
    replace = config.setdefault("replaceWithChildrenElements", [])
    if contains(replace, item):
        return False
    remove_item(config.get("removeElements"), item)
    remove_item(config.get("elements"), item)
    add_item(replace, item)
    return True


# https://wicg.github.io/sanitizer-api/#dom-sanitizer-allowprocessinginstruction
def allow_processing_instruction(config: Config, pi: object) -> bool:
    target = canonicalize_pi(pi, "allow_processing_instruction")["target"]
    if "processingInstructions" in config:
        if contains_target(config["processingInstructions"], target):
            return False
        config["processingInstructions"].append({"target": target})
        return True
    removed = config["removeProcessingInstructions"]
    if contains_target(removed, target):
        removed[:] = [p for p in removed if p["target"] != target]
        return True
    return False


# https://wicg.github.io/sanitizer-api/#dom-sanitizer-removeprocessinginstruction
def remove_processing_instruction(config: Config, pi: object) -> bool:
    target = canonicalize_pi(pi, "remove_processing_instruction")["target"]
    if "processingInstructions" in config:
        allowed = config["processingInstructions"]
        if contains_target(allowed, target):
            allowed[:] = [p for p in allowed if p["target"] != target]
            return True
        return False
    if contains_target(config["removeProcessingInstructions"], target):
        return False
    config["removeProcessingInstructions"].append({"target": target})
    return True


# https://wicg.github.io/sanitizer-api/#dom-sanitizer-allowattribute
def allow_attribute(config: Config, attribute: object) -> bool:
    item = canonicalize_attribute(attribute, "allow_attribute")
    if "attributes" in config:
        if config.get("dataAttributes") is True and is_data_attribute(item):
            return False
        if contains(config["attributes"], item):
            return False
        for element in config.get("elements", ()):
            remove_item(element.get("attributes"), item)
        config["attributes"].append(item)
        return True
    if not contains(config["removeAttributes"], item):
        return False
    remove_item(config["removeAttributes"], item)
    return True


# https://wicg.github.io/sanitizer-api/#sanitizer-remove-an-attribute
def remove_attribute(config: Config, attribute: object) -> bool:
    item = canonicalize_attribute(attribute, "remove_attribute")
    if "attributes" in config:
        modified = remove_item(config["attributes"], item)
        for element in config.get("elements", ()):
            if remove_item(element.get("attributes"), item):
                modified = True
            if remove_item(element.get("removeAttributes"), item):
                modified = True
        return modified
    if contains(config["removeAttributes"], item):
        return False
    for element in config.get("elements", ()):
        remove_item(element.get("attributes"), item)
        remove_item(element.get("removeAttributes"), item)
    config["removeAttributes"].append(item)
    return True


# https://wicg.github.io/sanitizer-api/#dom-sanitizer-setcomments
def set_comments(config: Config, allow: bool) -> bool:
    if not isinstance(allow, bool):
        raise TypeError("set_comments needs a bool, not %s" % _type_name(allow))
    if config.get("comments") == allow:
        return False
    config["comments"] = allow
    return True


# https://wicg.github.io/sanitizer-api/#dom-sanitizer-setdataattributes
def set_data_attributes(config: Config, allow: bool) -> bool:
    if not isinstance(allow, bool):
        raise TypeError("set_data_attributes needs a bool, not %s" % _type_name(allow))
    if "attributes" not in config:
        return False
    if config.get("dataAttributes") == allow:
        return False
    if allow:
        config["attributes"] = [a for a in config["attributes"] if not is_data_attribute(a)]
        for element in config.get("elements", ()):
            if "attributes" in element:
                element["attributes"] = [a for a in element["attributes"]
                                         if not is_data_attribute(a)]
    config["dataAttributes"] = allow
    return True


# https://wicg.github.io/sanitizer-api/#sanitizerconfig-remove-unsafe
def remove_unsafe(config: Config) -> bool:
    result = False
    for element in SAFE_BASELINE_REMOVE_ELEMENTS:
        if remove_element(config, element):
            result = True
    for handler in builtins.EVENT_HANDLER_CONTENT_ATTRIBUTES:
        if remove_attribute(config, handler):
            result = True
    return result


def _less_key(item: Mapping[str, Any]) -> Tuple[int, str, str]:
    # https://wicg.github.io/sanitizer-api/#sanitizerconfig-less-than-item
    namespace = item["namespace"]
    return (0, "", item["name"]) if namespace is None else (1, namespace, item["name"])


# https://wicg.github.io/sanitizer-api/#dom-sanitizer-get
def get(config: Config) -> Config:
    result = copy.deepcopy(config)
    if "elements" in result:
        for element in result["elements"]:
            for key in ("attributes", "removeAttributes"):
                if key in element:
                    element[key].sort(key=_less_key)
        result["elements"].sort(key=_less_key)
    else:
        result["removeElements"].sort(key=_less_key)
    if "replaceWithChildrenElements" in result:
        result["replaceWithChildrenElements"].sort(key=_less_key)
    for key in ("processingInstructions", "removeProcessingInstructions"):
        if key in result:
            result[key].sort(key=lambda p: p["target"])
    for key in ("attributes", "removeAttributes"):
        if key in result:
            result[key].sort(key=_less_key)
    return result


def freeze(config: Config) -> Any:
    """A hashable value equal for equal configurations (order ignored)."""
    def names(items: List[Any]) -> frozenset:  # type: ignore[type-arg]
        return frozenset(_key(i) for i in items)
    parts = []
    for key in sorted(config):
        value = config[key]
        if key == "elements":
            value = frozenset(
                (_key(e), names(e["attributes"]) if "attributes" in e else None,
                 names(e["removeAttributes"]) if "removeAttributes" in e else None)
                for e in value)
        elif key in ("processingInstructions", "removeProcessingInstructions"):
            value = frozenset(p["target"] for p in value)
        elif isinstance(value, list):
            value = names(value)
        parts.append((key, value))
    return tuple(parts)
