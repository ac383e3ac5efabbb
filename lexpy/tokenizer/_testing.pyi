# Type stubs of lexpy.tokenizer._testing (lexpy/tokenizer/_testing.pyx;
# test builds only): the tokenizer driven from Python for tests and tools.

from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

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
def scan_with_avx2(allowed: bool) -> bool: ...


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
