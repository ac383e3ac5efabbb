"""XPath 1.0 over lexpy trees, evaluated in C.

compile_xpath() compiles an expression once into a reusable, thread-safe
XPath; the DOM's xpath() methods use the same engine through a bounded
cache of compiled expressions. Names follow the HTML standard's rules for
XPath in HTML documents (unprefixed element names are HTML elements,
matched ASCII case-insensitively). XPathSyntaxError (a ValueError) reports
text the grammar rejects, with its offset; XPathEvalError a failure while
evaluating (an undefined variable, a value that is not a node-set).

Nesting: the compiler and the evaluator keep nested parentheses,
predicates and argument lists on explicit stacks (memory in proportion to
the expression), never on the C or Python stack; at most 5,000 (libxml2's
bound) may be open at once, deeper is an XPathSyntaxError."""
from lexpy.dom import dom as _dom
from lexpy.xpath.xpath import (
    XPath,
    XPathEvalError,
    XPathString,
    XPathSyntaxError,
    compile_xpath,
    xpath as _xpath,
)

__all__ = ["XPath", "XPathEvalError", "XPathString", "XPathSyntaxError", "compile_xpath"]

# Dependency inversion: the DOM's xpath() methods call the engine registered here.
_dom._register_xpath_engine(_xpath)
