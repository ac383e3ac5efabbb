"""The XPath 1.0 cases over HTML documents (../shared/xpath/cases.json) and
what the tests need to read them: where the data is, and the README's node
paths written from lexpy's results.

Where the data is looked for: $LEXPY_XPATH, then ../shared/xpath/. No copy
found is an error (DataNotFound), never a silent skip."""
from __future__ import annotations

import json
import math
import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, List

import lexpy
from tests.conformance.data import ROOT, DataNotFound

SVG = "http://www.w3.org/2000/svg"
MATHML = "http://www.w3.org/1998/Math/MathML"
HTML = "http://www.w3.org/1999/xhtml"
PREFIXES = {SVG: "svg:", MATHML: "math:", HTML: ""}


def xpath_dir() -> Path:
    """The XPath data: $LEXPY_XPATH, then ../shared/xpath/."""
    env = os.environ.get("LEXPY_XPATH")
    candidates = ([Path(env)] if env else []) + [ROOT.parent / "shared" / "xpath"]
    for path in candidates:
        if (path / "cases.json").is_file():
            return path
    raise DataNotFound("XPath cases not found; tried: " + ", ".join(map(str, candidates))
                       + ". Set LEXPY_XPATH to a folder holding cases.json.")


@lru_cache(maxsize=1)
def load() -> Dict[str, Any]:
    with open(xpath_dir() / "cases.json", encoding="utf-8") as f:
        data: Dict[str, Any] = json.load(f)
    assert len(data["cases"]) >= 1000, "cases.json holds too few cases"
    return data


def node_path(item: Any) -> str:
    """The README's absolute path of a node result (written independently
    of the engine: from the DOM's own accessors)."""
    if isinstance(item, lexpy.XPathString):
        if item.is_attribute:
            return node_path(item.parent) + "/@" + item.attrname
        item = item._node
    if item.node_type == 9:
        return "/"
    parts = []
    node = item
    while node is not None and node.node_type != 9:
        parts.append(step_of(node))
        node = node.parent
    return "/" + "/".join(reversed(parts))


def step_of(node: Any) -> str:
    kind = node.node_type
    siblings = node.parent.child_nodes if node.parent is not None else [node]
    before = siblings[:next(i for i, s in enumerate(siblings) if s is node)]
    if kind == 1:
        same = [s for s in before if s.node_type == 1 and s.local_name == node.local_name
                and s.namespace_uri == node.namespace_uri]
        return "%s%s[%d]" % (PREFIXES.get(node.namespace_uri, "?:"), node.local_name,
                             len(same) + 1)
    if kind in (3, 4):
        return "text()[%d]" % (len([s for s in before if s.node_type in (3, 4)]) + 1)
    if kind == 8:
        return "comment()[%d]" % (len([s for s in before if s.node_type == 8]) + 1)
    if kind == 7:
        return "processing-instruction()[%d]" % (len([s for s in before if s.node_type == 7]) + 1)
    raise AssertionError("unexpected node %r" % node)


def same_number(got: Any, expect: Any) -> bool:
    if not isinstance(got, float) or isinstance(got, bool):
        return False
    if expect == "NaN":
        return math.isnan(got)
    if expect == "Infinity":
        return got == math.inf
    if expect == "-Infinity":
        return got == -math.inf
    if expect == "-0":
        return got == 0 and math.copysign(1, got) < 0
    if expect == 0:
        return got == 0 and math.copysign(1, got) > 0
    return bool(got == expect)


def run_case(case: Dict[str, Any]) -> Any:
    """The case's value: its context found with lexpy, then its expression."""
    doc = lexpy.parse(case["html"].encode("utf-8"))
    context: Any = doc
    if case["context"] != "document":
        found = doc.xpath(case["context"])
        assert isinstance(found, list) and found, "context %r found nothing" % case["context"]
        context = found[0]
    xp = lexpy.compile_xpath(case["expr"], namespaces=case.get("namespaces"))
    return xp(context, **case.get("variables", {}))


def check_case(case: Dict[str, Any]) -> None:
    kind, expect = case["type"], case["expect"]
    if kind == "error":
        try:
            got = run_case(case)
        except (lexpy.XPathSyntaxError, lexpy.XPathEvalError):
            return
        raise AssertionError("expected an error, got %r" % (got,))
    got = run_case(case)
    if kind == "nodeset":
        assert isinstance(got, list), "expected a node-set, got %r" % (got,)
        paths: List[str] = [node_path(item) for item in got]
        assert paths == expect, "got %r, expected %r" % (paths, expect)
    elif kind == "number":
        assert same_number(got, expect), "got %r, expected %r" % (got, expect)
    elif kind == "boolean":
        assert got is expect, "got %r, expected %r" % (got, expect)
    else:
        assert type(got) is str and got == expect, "got %r, expected %r" % (got, expect)
