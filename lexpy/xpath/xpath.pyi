from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple, Union

from typing_extensions import disjoint_base

from lexpy.dom.dom import Node

_XPathResult = Union[List[Any], float, bool, str]

class XPathSyntaxError(ValueError):
    expression: str
    offset: int
    message: str
    def __init__(self, message: str, expression: str = ..., offset: int = ...) -> None: ...

class XPathEvalError(ValueError): ...

class XPathString(str):
    parent: Optional[Node]
    is_attribute: bool
    is_text: bool
    is_tail: bool
    attrname: Optional[str]
    def getparent(self) -> Optional[Node]: ...

@disjoint_base
class XPath:
    @property
    def path(self) -> str: ...
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def __call__(self, node: Union[Node, XPathString], **variables: Any) -> _XPathResult: ...
    def __reduce__(self) -> Tuple[Any, ...]: ...

CACHE_SIZE: int

def compile_xpath(path: str, namespaces: Optional[Mapping[str, str]] = None,
                  extensions: Any = None) -> XPath: ...
def xpath(node: Node, expr: str, namespaces: Optional[Mapping[str, str]] = None,
          variables: Optional[Dict[str, Any]] = None) -> _XPathResult: ...
def _smart_string(node: Node, attribute: Optional[str] = None) -> XPathString: ...
