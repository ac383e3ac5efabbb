"""Regression tests for what the robustness runs (tools/fuzz_malformed.py,
tools/fuzz_atheris.py) found. Each names the seed or input that found it."""
import lexpy


def split_feed(data, size=1, **options):
    parser = lexpy.Parser(**options)
    for i in range(0, len(data), size):
        parser.feed(data[i:i + size])
    return parser.close()


def test_only_one_byte_order_mark_is_dropped_from_invalid_utf8():
    """fuzz_malformed seed 10283990: parse(bytes) of BOM BOM 0x80 dropped
    both BOMs (the second is U+FEFF text), where chunked feeding kept the
    second one."""
    data = b"\xef\xbb\xbf\xef\xbb\xbf\x80"
    whole = lexpy.parse(data)
    assert whole.body.text_content == "\ufeff\ufffd"
    assert lexpy.dump(split_feed(data)) == lexpy.dump(whole)
    assert lexpy.parse(b"\xef\xbb\xbf\xef\xbb\xbfx").body.text_content == "\ufeffx"
