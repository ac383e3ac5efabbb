"""A JavaScript engine for the scripted conformance cases (test only).

QuickJS (the `quickjs` package of the test extra) runs each script that
lexpy's parser hands to its on_script callback. The scripts see a small
DOM: `document.write`/`writeln` (lexpy's ScriptWriter: document.write at
the insertion point), `document.getElementById`,
`document.getElementsByTagName`, and elements with `id`,
`getAttribute` and `setAttribute` -- what html5lib-tests' scripted cases
use -- each a call into lexpy's DOM. Elements cross into JavaScript as
handles (indexes into a Python list), so the same element is the same
JavaScript object.
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

import quickjs

_PRELUDE = r"""
var __elements = {};
function __wrap(handle) {
    if (handle < 0) return null;
    if (!(handle in __elements)) {
        var element = {};
        Object.defineProperty(element, "id", {
            get: function () { var v = __getAttribute(handle, "id"); return v === null ? "" : v; },
            set: function (value) { __setAttribute(handle, "id", String(value)); }
        });
        element.getAttribute = function (name) { return __getAttribute(handle, String(name)); };
        element.setAttribute = function (name, value) {
            __setAttribute(handle, String(name), String(value));
        };
        __elements[handle] = element;
    }
    return __elements[handle];
}
var document = {
    write: function () { __write(Array.prototype.join.call(arguments, "")); },
    writeln: function () { __write(Array.prototype.join.call(arguments, "") + "\n"); },
    getElementById: function (id) { return __wrap(__getElementById(String(id))); },
    getElementsByTagName: function (name) {
        return JSON.parse(__getElementsByTagName(String(name))).map(__wrap);
    }
};
var window = this;
"""


class ScriptEngine:
    """One document's script runner: pass `engine.on_script` to lexpy.parse
    (or Parser). Exceptions a script throws propagate (as
    quickjs.JSException), so a broken binding fails its case."""

    def __init__(self) -> None:
        self._context = quickjs.Context()
        self._elements: List[Any] = []
        self._handles: Dict[int, int] = {}
        self._writer: Optional[Any] = None
        self._document: Optional[Any] = None
        for name in ("write", "getElementById", "getElementsByTagName",
                     "getAttribute", "setAttribute"):
            self._context.add_callable("__" + name, getattr(self, "_" + name))
        self._context.eval(_PRELUDE)
        self.scripts_run = 0

    def on_script(self, script: Any, writer: Any) -> None:
        outer = self._writer, self._document
        self._writer, self._document = writer, script.owner_document
        self.scripts_run += 1
        try:
            self._context.eval(script.text_content)
        finally:
            self._writer, self._document = outer

    # The DOM the scripts call.

    def _handle(self, element: Any) -> int:
        if element is None:
            return -1
        key = id(element)
        if key not in self._handles:
            self._handles[key] = len(self._elements)
            self._elements.append(element)        # (kept alive: ids stay unique)
        return self._handles[key]

    def _write(self, text: str) -> None:
        if self._writer is not None and self._writer.active:
            self._writer.write(text)
        # (else the parse is over: document.write is ignored, no document.open)

    def _getElementById(self, element_id: str) -> int:
        return self._handle(self._document.get_element_by_id(element_id))

    def _getElementsByTagName(self, name: str) -> str:
        found = self._document.get_elements_by_tag_name(name)
        return json.dumps([self._handle(element) for element in found])

    def _getAttribute(self, handle: int, name: str) -> Optional[str]:
        return self._elements[handle].get_attribute(name)

    def _setAttribute(self, handle: int, name: str, value: str) -> None:
        self._elements[handle].set_attribute(name, value)
