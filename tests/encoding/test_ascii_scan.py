"""The ASCII prefix scan of UTF-8 validation (ascii_scan.h): a prefix past
its first 64 bytes goes on out of line, 128 bytes a step with AVX2 where
the CPU has it, SSE2 otherwise. A byte >= 0x80 (a valid sequence or not)
at every offset of a long ASCII run, and runs ending at every length, must
give the longest valid prefix Python's own decoder finds, on both paths."""
import pytest

from lexpy.encoding import encoding as module
from lexpy.encoding import utf8_valid_prefix

FILL = bytes(range(0x20, 0x7F)) * 4             # 380 ASCII bytes


@pytest.fixture(params=["sse2", "avx2"])
def scan_path(request):
    used = module._ascii_scan_with_avx2(request.param == "avx2")
    try:
        if request.param == "avx2" and not used:
            pytest.skip("this CPU has no AVX2")
        yield request.param
    finally:
        module._ascii_scan_with_avx2(True)


def expected(data):
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        return error.start
    return len(data)


@pytest.mark.parametrize("insert", ["é".encode(), "€".encode(), "😀".encode(),
                                    b"\x80", b"\xc0\xaf", b"\xed\xa0\x80", b"\xe2\x82"])
def test_non_ascii_at_every_offset(scan_path, insert):
    for offset in range(len(FILL) + 1):
        data = FILL[:offset] + insert + FILL[offset:]
        assert utf8_valid_prefix(data) == expected(data), (offset, insert)


def test_ascii_runs_of_every_length(scan_path):
    for length in range(len(FILL) + 1):
        assert utf8_valid_prefix(FILL[:length]) == length
        data = FILL[:length] + b"\xff"
        assert utf8_valid_prefix(data) == length


def test_non_ascii_after_a_long_run_then_more_runs(scan_path):
    """After the out-of-line scan stops, validation goes on through the
    multi-byte sequence and into the next long run (scanned again)."""
    data = FILL + "ü".encode() + FILL + "€".encode() + FILL
    assert utf8_valid_prefix(data) == len(data)
    bad = FILL + "ü".encode() + FILL + b"\xe2\x28\xa1" + FILL
    assert utf8_valid_prefix(bad) == expected(bad)
