# Type stubs of the compiled lexpy.tokenizer.tokenizer module
# (lexpy/tokenizer/tokenizer.pyx). Its C API (tokenizer.pxd) is for the
# other compiled stages; these Python functions are for tests and tools.

from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

from typing_extensions import disjoint_base

INITIAL_STATES: Dict[str, int]
DATA_FLAGS: Dict[str, int]
STATE_IDS: Dict[str, int]
TAG_IDS: Dict[str, int]

def tokenize_for_test(
        data: Union[str, bytes, bytearray, memoryview],
        initial_state: str = "Data state",
        last_start_tag: Optional[str] = None,
        processing_instructions: bool = True,
        chunk_sizes: Optional[Iterable[int]] = None,
) -> Tuple[List[List[Any]], List[Dict[str, Any]]]: ...
def count_tokens(data: bytes, chunk_size: Optional[int] = None,
                 collect_errors: bool = False,
                 switch_states: bool = True) -> Tuple[int, int]: ...
def convert_for_test(data: bytes, flags: int) -> bytes: ...
def token_records_for_test(
        data: Union[str, bytes, bytearray, memoryview],
        initial_state: str = "Data state", *,
        chunk_sizes: Optional[Iterable[int]] = None,
        collect_errors: bool = True,
        processing_instructions: bool = True,
        cdata_allowed: bool = False,
        last_start_tag: Optional[str] = None,
        switch_states: bool = False,
        stop_after: Optional[int] = None,
        dynamic_name_limit: Optional[int] = None,
        error_limit: Optional[int] = None,
) -> Tuple[List[Dict[str, Any]], List[Dict[str, Any]], int, int]: ...
def static_tag_id(name: str, lowercase_source: bool = False) -> int: ...
def static_attr_id(name: str, lowercase_source: bool = False) -> int: ...
def static_tag_name(tag_id: int) -> str: ...
def static_attr_name(attr_id: int) -> str: ...
def tag_category(tag_id: int, ns: int) -> int: ...

@disjoint_base
class _NameTableForTests:
    def __init__(self, first_id: int) -> None: ...
    def intern(self, name: bytes) -> int: ...
    def hash(self, name: bytes) -> int: ...
    def set_limit(self, limit: int) -> None: ...
    def get(self, id: int) -> Optional[bytes]: ...
    @property
    def count(self) -> int: ...
