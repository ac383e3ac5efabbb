"""A slow, literal transcription of the WHATWG Encoding Standard's decoders
(https://encoding.spec.whatwg.org/), to check lexpy's C decoders against.

Written from the standard's prose, step by step, with a real I/O queue that
supports "restore", and indexes read from the index-*.txt files as the
standard says to read them (independent of tools/gen_encodings.py). Only for
tests: it is orders of magnitude slower than lexpy.encoding.
"""
from __future__ import annotations

import collections
import functools
import json

from tests.conformance.data import whatwg_encoding_dir

END = object()          # end-of-queue
ERROR = object()        # a decoder error (U+FFFD in "replacement" mode)
CONTINUE = object()
FINISHED = object()


@functools.lru_cache(maxsize=None)
def index(name: str) -> dict:
    """pointer -> code point of index-<name>.txt."""
    entries = {}
    text = (whatwg_encoding_dir() / ("index-%s.txt" % name)).read_text(encoding="utf-8")
    for line in text.split("\n"):
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        entries[int(fields[0])] = int(fields[1], 16)
    return entries


@functools.lru_cache(maxsize=None)
def encodings() -> list:
    """[(name, [labels], heading)] from encodings.json."""
    groups = json.loads((whatwg_encoding_dir() / "encodings.json").read_text(encoding="utf-8"))
    return [(e["name"], e["labels"], g["heading"]) for g in groups for e in g["encodings"]]


def index_gb18030_ranges_code_point(pointer):
    if (39419 < pointer < 189000) or pointer > 1237575:
        return None
    if pointer == 7457:
        return 0xE7C7
    ranges = index("gb18030-ranges")
    offset = max(p for p in ranges if p <= pointer)
    return ranges[offset] + pointer - offset


class Queue:
    """An I/O queue of bytes in immediate mode (end-of-queue at its end)."""

    def __init__(self, data: bytes):
        self.items = collections.deque(data)

    def read(self):
        return self.items.popleft() if self.items else END

    def restore(self, *items):
        self.items.extendleft(reversed(items))


# --- decoders: each returns a handler(queue, byte) ---------------------------

def utf8_decoder():
    s = {"cp": 0, "seen": 0, "needed": 0, "lower": 0x80, "upper": 0xBF}

    def handler(q, byte):
        if byte is END and s["needed"] != 0:
            s["needed"] = 0
            return ERROR
        if byte is END:
            return FINISHED
        if s["needed"] == 0:
            if byte <= 0x7F:
                return [byte]
            if 0xC2 <= byte <= 0xDF:
                s["needed"] = 1
                s["cp"] = byte & 0x1F
            elif 0xE0 <= byte <= 0xEF:
                if byte == 0xE0:
                    s["lower"] = 0xA0
                if byte == 0xED:
                    s["upper"] = 0x9F
                s["needed"] = 2
                s["cp"] = byte & 0xF
            elif 0xF0 <= byte <= 0xF4:
                if byte == 0xF0:
                    s["lower"] = 0x90
                if byte == 0xF4:
                    s["upper"] = 0x8F
                s["needed"] = 3
                s["cp"] = byte & 0x7
            else:
                return ERROR
            return CONTINUE
        if not (s["lower"] <= byte <= s["upper"]):
            s.update(cp=0, needed=0, seen=0, lower=0x80, upper=0xBF)
            q.restore(byte)
            return ERROR
        s["lower"], s["upper"] = 0x80, 0xBF
        s["cp"] = (s["cp"] << 6) | (byte & 0x3F)
        s["seen"] += 1
        if s["seen"] != s["needed"]:
            return CONTINUE
        cp = s["cp"]
        s.update(cp=0, needed=0, seen=0)
        return [cp]
    return handler


def single_byte_decoder(index_name):
    table = index(index_name)

    def handler(q, byte):
        if byte is END:
            return FINISHED
        if byte < 0x80:
            return [byte]
        cp = table.get(byte - 0x80)
        return ERROR if cp is None else [cp]
    return handler


def gb18030_decoder():
    s = {"first": 0, "second": 0, "third": 0}
    table = index("gb18030")

    def handler(q, byte):
        if byte is END and s["first"] == s["second"] == s["third"] == 0:
            return FINISHED
        if byte is END:
            s.update(first=0, second=0, third=0)
            return ERROR
        if s["third"] != 0:
            if not (0x30 <= byte <= 0x39):
                q.restore(s["second"], s["third"], byte)
                s.update(first=0, second=0, third=0)
                return ERROR
            cp = index_gb18030_ranges_code_point(
                (s["first"] - 0x81) * (10 * 126 * 10) + (s["second"] - 0x30) * (10 * 126)
                + (s["third"] - 0x81) * 10 + byte - 0x30)
            s.update(first=0, second=0, third=0)
            return ERROR if cp is None else [cp]
        if s["second"] != 0:
            if 0x81 <= byte <= 0xFE:
                s["third"] = byte
                return CONTINUE
            q.restore(s["second"], byte)
            s.update(first=0, second=0)
            return ERROR
        if s["first"] != 0:
            if 0x30 <= byte <= 0x39:
                s["second"] = byte
                return CONTINUE
            leading = s["first"]
            s["first"] = 0
            pointer = None
            offset = 0x40 if byte < 0x7F else 0x41
            if 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFE:
                pointer = (leading - 0x81) * 190 + (byte - offset)
            cp = None if pointer is None else table.get(pointer)
            if cp is not None:
                return [cp]
            if byte < 0x80:
                q.restore(byte)
            return ERROR
        if byte < 0x80:
            return [byte]
        if byte == 0x80:
            return [0x20AC]
        if 0x81 <= byte <= 0xFE:
            s["first"] = byte
            return CONTINUE
        return ERROR
    return handler


BIG5_PAIRS = {1133: [0x00CA, 0x0304], 1135: [0x00CA, 0x030C],
              1164: [0x00EA, 0x0304], 1166: [0x00EA, 0x030C]}


def big5_decoder():
    s = {"leading": 0}
    table = index("big5")

    def handler(q, byte):
        if byte is END and s["leading"] != 0:
            s["leading"] = 0
            return ERROR
        if byte is END:
            return FINISHED
        if s["leading"] != 0:
            leading = s["leading"]
            s["leading"] = 0
            pointer = None
            offset = 0x40 if byte < 0x7F else 0x62
            if 0x40 <= byte <= 0x7E or 0xA1 <= byte <= 0xFE:
                pointer = (leading - 0x81) * 157 + (byte - offset)
            if pointer in BIG5_PAIRS:
                return list(BIG5_PAIRS[pointer])
            cp = None if pointer is None else table.get(pointer)
            if cp is not None:
                return [cp]
            if byte < 0x80:
                q.restore(byte)
            return ERROR
        if byte < 0x80:
            return [byte]
        if 0x81 <= byte <= 0xFE:
            s["leading"] = byte
            return CONTINUE
        return ERROR
    return handler


def euc_jp_decoder():
    s = {"jis0212": False, "leading": 0}

    def handler(q, byte):
        if byte is END and s["leading"] != 0:
            s["leading"] = 0
            return ERROR
        if byte is END:
            return FINISHED
        if s["leading"] == 0x8E and 0xA1 <= byte <= 0xDF:
            s["leading"] = 0
            return [0xFF61 - 0xA1 + byte]
        if s["leading"] == 0x8F and 0xA1 <= byte <= 0xFE:
            s["jis0212"] = True
            s["leading"] = byte
            return CONTINUE
        if s["leading"] != 0:
            leading = s["leading"]
            s["leading"] = 0
            cp = None
            if 0xA1 <= leading <= 0xFE and 0xA1 <= byte <= 0xFE:
                pointer = (leading - 0xA1) * 94 + byte - 0xA1
                cp = index("jis0212" if s["jis0212"] else "jis0208").get(pointer)
            s["jis0212"] = False
            if cp is not None:
                return [cp]
            if byte < 0x80:
                q.restore(byte)
            return ERROR
        if byte < 0x80:
            return [byte]
        if byte in (0x8E, 0x8F) or 0xA1 <= byte <= 0xFE:
            s["leading"] = byte
            return CONTINUE
        return ERROR
    return handler


def iso_2022_jp_decoder():
    s = {"state": "ascii", "output_state": "ascii", "leading": 0, "output": False}
    jis0208 = index("jis0208")

    def handler(q, byte):
        state = s["state"]
        if state == "ascii":
            if byte == 0x1B:
                s["state"] = "escape start"
                return CONTINUE
            if byte is not END and byte <= 0x7F and byte not in (0x0E, 0x0F, 0x1B):
                s["output"] = False
                return [byte]
            if byte is END:
                return FINISHED
            s["output"] = False
            return ERROR
        if state == "roman":
            if byte == 0x1B:
                s["state"] = "escape start"
                return CONTINUE
            if byte == 0x5C:
                s["output"] = False
                return [0xA5]
            if byte == 0x7E:
                s["output"] = False
                return [0x203E]
            if byte is not END and byte <= 0x7F and byte not in (0x0E, 0x0F, 0x1B, 0x5C, 0x7E):
                s["output"] = False
                return [byte]
            if byte is END:
                return FINISHED
            s["output"] = False
            return ERROR
        if state == "katakana":
            if byte == 0x1B:
                s["state"] = "escape start"
                return CONTINUE
            if byte is not END and 0x21 <= byte <= 0x5F:
                s["output"] = False
                return [0xFF61 - 0x21 + byte]
            if byte is END:
                return FINISHED
            s["output"] = False
            return ERROR
        if state == "leading byte":
            if byte == 0x1B:
                s["state"] = "escape start"
                return CONTINUE
            if byte is not END and 0x21 <= byte <= 0x7E:
                s["output"] = False
                s["leading"] = byte
                s["state"] = "trailing byte"
                return CONTINUE
            if byte is END:
                return FINISHED
            s["output"] = False
            return ERROR
        if state == "trailing byte":
            if byte == 0x1B:
                s["state"] = "escape start"
                return ERROR
            if byte is not END and 0x21 <= byte <= 0x7E:
                s["state"] = "leading byte"
                pointer = (s["leading"] - 0x21) * 94 + byte - 0x21
                cp = jis0208.get(pointer)
                return ERROR if cp is None else [cp]
            s["state"] = "leading byte"
            return ERROR
        if state == "escape start":
            if byte in (0x24, 0x28):
                s["leading"] = byte
                s["state"] = "escape"
                return CONTINUE
            if byte is not END:
                q.restore(byte)
            s["output"] = False
            s["state"] = s["output_state"]
            return ERROR
        # escape
        leading = s["leading"]
        s["leading"] = 0
        new = None
        if leading == 0x28 and byte == 0x42:
            new = "ascii"
        if leading == 0x28 and byte == 0x4A:
            new = "roman"
        if leading == 0x28 and byte == 0x49:
            new = "katakana"
        if leading == 0x24 and byte in (0x40, 0x42):
            new = "leading byte"
        if new is not None:
            s["state"] = s["output_state"] = new
            output = s["output"]
            s["output"] = True
            return ERROR if output else CONTINUE
        if byte is END:
            q.restore(leading)
        else:
            q.restore(leading, byte)
        s["output"] = False
        s["state"] = s["output_state"]
        return ERROR
    return handler


def shift_jis_decoder():
    s = {"leading": 0}
    jis0208 = index("jis0208")

    def handler(q, byte):
        if byte is END and s["leading"] != 0:
            s["leading"] = 0
            return ERROR
        if byte is END:
            return FINISHED
        if s["leading"] != 0:
            leading = s["leading"]
            s["leading"] = 0
            pointer = None
            offset = 0x40 if byte < 0x7F else 0x41
            leading_offset = 0x81 if leading < 0xA0 else 0xC1
            if 0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFC:
                pointer = (leading - leading_offset) * 188 + byte - offset
            if pointer is not None and 8836 <= pointer <= 10715:
                return [0xE000 - 8836 + pointer]
            cp = None if pointer is None else jis0208.get(pointer)
            if cp is not None:
                return [cp]
            if byte < 0x80:
                q.restore(byte)
            return ERROR
        if byte <= 0x80:
            return [byte]
        if 0xA1 <= byte <= 0xDF:
            return [0xFF61 - 0xA1 + byte]
        if 0x81 <= byte <= 0x9F or 0xE0 <= byte <= 0xFC:
            s["leading"] = byte
            return CONTINUE
        return ERROR
    return handler


def euc_kr_decoder():
    s = {"leading": 0}
    table = index("euc-kr")

    def handler(q, byte):
        if byte is END and s["leading"] != 0:
            s["leading"] = 0
            return ERROR
        if byte is END:
            return FINISHED
        if s["leading"] != 0:
            leading = s["leading"]
            s["leading"] = 0
            pointer = None
            if 0x41 <= byte <= 0xFE:
                pointer = (leading - 0x81) * 190 + (byte - 0x41)
            cp = None if pointer is None else table.get(pointer)
            if cp is not None:
                return [cp]
            if byte < 0x80:
                q.restore(byte)
            return ERROR
        if byte < 0x80:
            return [byte]
        if 0x81 <= byte <= 0xFE:
            s["leading"] = byte
            return CONTINUE
        return ERROR
    return handler


def replacement_decoder():
    s = {"returned": False}

    def handler(q, byte):
        if byte is END:
            return FINISHED
        if not s["returned"]:
            s["returned"] = True
            return ERROR
        return FINISHED
    return handler


def utf16_decoder(big_endian):
    s = {"leading_byte": None, "leading_surrogate": None}

    def handler(q, byte):
        if byte is END and (s["leading_byte"] is not None or s["leading_surrogate"] is not None):
            s["leading_byte"] = s["leading_surrogate"] = None
            return ERROR
        if byte is END:
            return FINISHED
        if s["leading_byte"] is None:
            s["leading_byte"] = byte
            return CONTINUE
        if big_endian:
            code_unit = (s["leading_byte"] << 8) + byte
        else:
            code_unit = (byte << 8) + s["leading_byte"]
        s["leading_byte"] = None
        if s["leading_surrogate"] is not None:
            leading = s["leading_surrogate"]
            s["leading_surrogate"] = None
            if 0xDC00 <= code_unit <= 0xDFFF:
                return [0x10000 + ((leading - 0xD800) << 10) + (code_unit - 0xDC00)]
            byte1, byte2 = code_unit >> 8, code_unit & 0xFF
            q.restore(*([byte1, byte2] if big_endian else [byte2, byte1]))
            return ERROR
        if 0xD800 <= code_unit <= 0xDBFF:
            s["leading_surrogate"] = code_unit
            return CONTINUE
        if 0xDC00 <= code_unit <= 0xDFFF:
            return ERROR
        return [code_unit]
    return handler


def x_user_defined_decoder():
    def handler(q, byte):
        if byte is END:
            return FINISHED
        if byte < 0x80:
            return [byte]
        return [0xF780 + byte - 0x80]
    return handler


def decoder_for(name: str):
    heading = {n: h for n, _, h in encodings()}[name]
    if name == "UTF-8":
        return utf8_decoder()
    if heading == "Legacy single-byte encodings":
        return single_byte_decoder("iso-8859-8" if name == "ISO-8859-8-I" else name.lower())
    return {
        "GBK": gb18030_decoder, "gb18030": gb18030_decoder, "Big5": big5_decoder,
        "EUC-JP": euc_jp_decoder, "ISO-2022-JP": iso_2022_jp_decoder,
        "Shift_JIS": shift_jis_decoder, "EUC-KR": euc_kr_decoder,
        "replacement": replacement_decoder,
        "UTF-16BE": lambda: utf16_decoder(True), "UTF-16LE": lambda: utf16_decoder(False),
        "x-user-defined": x_user_defined_decoder,
    }[name]()


def decode_without_bom(data: bytes, name: str) -> str:
    """Process a queue with the encoding's decoder, error mode "replacement"."""
    handler = decoder_for(name)
    queue = Queue(data)
    out = []
    while True:
        result = handler(queue, queue.read())
        if result is FINISHED:
            return "".join(map(chr, out))
        if result is ERROR:
            out.append(0xFFFD)
        elif result is not CONTINUE:
            out.extend(result)


def decode(data: bytes, name: str) -> str:
    """The standard's "decode": a BOM wins over the given encoding."""
    if data[:3] == b"\xef\xbb\xbf":
        return decode_without_bom(data[3:], "UTF-8")
    if data[:2] == b"\xfe\xff":
        return decode_without_bom(data[2:], "UTF-16BE")
    if data[:2] == b"\xff\xfe":
        return decode_without_bom(data[2:], "UTF-16LE")
    return decode_without_bom(data, name)


# --- The HTML standard's prescan, literally -----------------------------------

class _OutOfBytes(Exception):
    pass


def get_an_encoding(label):
    """get an encoding: a name, or None for failure."""
    if isinstance(label, bytes):
        label = label.decode("latin-1")
    label = label.strip("\t\n\x0c\r ").translate(
        {c: c + 32 for c in range(0x41, 0x5B)})
    for name, labels, _ in encodings():
        if label in labels:
            return name
    return None


def extract_encoding_from_meta(s):
    """The algorithm for extracting a character encoding from a meta element."""
    position = 0
    while True:
        index = s.lower().find("charset", position)
        if index < 0:
            return None
        position = index + 7
        while position < len(s) and s[position] in "\t\n\x0c\r ":
            position += 1
        if position < len(s) and s[position] == "=":
            position += 1
            break
    while position < len(s) and s[position] in "\t\n\x0c\r ":
        position += 1
    if position >= len(s):
        return None
    if s[position] in "\"'":
        end = s.find(s[position], position + 1)
        if end < 0:
            return None
        return get_an_encoding(s[position + 1:end])
    end = position
    while end < len(s) and s[end] not in "\t\n\x0c\r ;":
        end += 1
    return get_an_encoding(s[position:end])


def prescan(data: bytes):
    """prescan a byte stream to determine its encoding, over exactly `data`:
    an encoding name or None."""
    try:
        return _prescan(data)
    except _OutOfBytes:
        return get_an_xml_encoding(data)


def _prescan(data):
    def byte(p):
        if p >= len(data):
            raise _OutOfBytes
        return data[p]

    def get_an_attribute(p):
        while byte(p) in b"\t\n\x0c\r /":
            p += 1
        if byte(p) == 0x3E:
            return None, p
        name, value = "", ""
        while True:
            c = byte(p)
            if c == 0x3D and name:
                p += 1
                break
            if c in b"\t\n\x0c\r ":
                while byte(p) in b"\t\n\x0c\r ":
                    p += 1
                if byte(p) != 0x3D:
                    return (name, ""), p
                p += 1
                break
            if c in b"/>":
                return (name, ""), p
            name += chr(c + 0x20 if 0x41 <= c <= 0x5A else c)
            p += 1
        while byte(p) in b"\t\n\x0c\r ":
            p += 1
        c = byte(p)
        if c in b"\"'":
            quote = c
            while True:
                p += 1
                c = byte(p)
                if c == quote:
                    return (name, value), p + 1
                value += chr(c + 0x20 if 0x41 <= c <= 0x5A else c)
        if c == 0x3E:
            return (name, ""), p
        value += chr(c + 0x20 if 0x41 <= c <= 0x5A else c)
        p += 1
        while True:
            c = byte(p)
            if c in b"\t\n\x0c\r >":
                return (name, value), p
            value += chr(c + 0x20 if 0x41 <= c <= 0x5A else c)
            p += 1

    if data[:6] == b"<\x00?\x00x\x00":
        return "UTF-16LE"
    if data[:6] == b"\x00<\x00?\x00x":
        return "UTF-16BE"
    position = 0
    while True:
        if position >= len(data):
            raise _OutOfBytes
        rest = data[position:]
        if rest.startswith(b"<!--"):
            end = data.find(b"-->", position + 2)
            if end < 0:
                raise _OutOfBytes
            position = end + 2
        elif (len(rest) >= 6 and rest[:5].lower() == b"<meta"
              and rest[5] in b"\t\n\x0c\r /"):
            position += 5
            attribute_list, got_pragma, need_pragma, charset = [], False, None, "null"
            while True:
                attribute, position = get_an_attribute(position)
                if attribute is None:
                    break
                name, value = attribute
                if name in attribute_list:
                    continue
                attribute_list.append(name)
                if name == "http-equiv":
                    if value == "content-type":
                        got_pragma = True
                elif name == "content":
                    extracted = extract_encoding_from_meta(value)
                    if extracted is not None and charset == "null":
                        charset, need_pragma = extracted, True
                elif name == "charset":
                    charset, need_pragma = get_an_encoding(value), False
            if need_pragma is not None and not (need_pragma and not got_pragma) \
                    and charset is not None:
                if charset in ("UTF-16LE", "UTF-16BE"):
                    return "UTF-8"
                if charset == "x-user-defined":
                    return "windows-1252"
                return charset
        elif rest[:1] == b"<" and (rest[1:2].isalpha() or
                                   (rest[1:2] == b"/" and rest[2:3].isalpha())):
            while byte(position) not in b"\t\n\x0c\r >":
                position += 1
            while True:
                attribute, position = get_an_attribute(position)
                if attribute is None:
                    break
        elif rest[:2] in (b"<!", b"</", b"<?"):
            end = data.find(b">", position + 1)
            if end < 0:
                raise _OutOfBytes
            position = end
        position += 1


def get_an_xml_encoding(data):
    if not data.startswith(b"<?xml"):
        return None
    end = data.find(b">")
    if end < 0:
        return None
    position = data.find(b"encoding", 0, end)
    if position < 0:
        return None
    position += 8
    while position < len(data) and data[position] <= 0x20:
        position += 1
    if position >= len(data) or data[position] != 0x3D:
        return None
    position += 1
    while position < len(data) and data[position] <= 0x20:
        position += 1
    if position >= len(data) or data[position] not in b"\"'":
        return None
    quote = data[position]
    end = data.find(bytes([quote]), position + 1)
    if end < 0:
        return None
    potential = data[position + 1:end]
    if any(b <= 0x20 for b in potential):
        return None
    encoding = get_an_encoding(potential)
    return "UTF-8" if encoding in ("UTF-16LE", "UTF-16BE") else encoding
