"""keyed_hash (core.pxd) is SipHash-1-3: the same words as a plain Python
SipHash-1-3 for every length around the word size, whatever the key."""
import random

from tests.helpers import require_test_build

_testing = require_test_build("lexpy.core._testing")

MASK = (1 << 64) - 1


def _rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & MASK


def _round(v0, v1, v2, v3):
    v0 = (v0 + v1) & MASK
    v1 = _rotl(v1, 13) ^ v0
    v0 = _rotl(v0, 32)
    v2 = (v2 + v3) & MASK
    v3 = _rotl(v3, 16) ^ v2
    v0 = (v0 + v3) & MASK
    v3 = _rotl(v3, 21) ^ v0
    v2 = (v2 + v1) & MASK
    v1 = _rotl(v1, 17) ^ v2
    v2 = _rotl(v2, 32)
    return v0, v1, v2, v3


def sip13(k0, k1, data):
    v0 = k0 ^ 0x736f6d6570736575
    v1 = k1 ^ 0x646f72616e646f6d
    v2 = k0 ^ 0x6c7967656e657261
    v3 = k1 ^ 0x7465646279746573
    full = len(data) // 8 * 8
    words = [int.from_bytes(data[i:i + 8], "little") for i in range(0, full, 8)]
    words.append(int.from_bytes(data[full:], "little") | (len(data) & 0xFF) << 56)
    for m in words:
        v3 ^= m
        v0, v1, v2, v3 = _round(v0, v1, v2, v3)
        v0 ^= m
    v2 ^= 0xFF
    for _ in range(3):
        v0, v1, v2, v3 = _round(v0, v1, v2, v3)
    return v0 ^ v1 ^ v2 ^ v3


def test_keyed_hash_is_siphash_1_3():
    rng = random.Random(38)
    for length in list(range(0, 40)) + [255, 256, 300]:
        for _ in range(4):
            k0, k1 = rng.getrandbits(64), rng.getrandbits(64)
            data = bytes(rng.getrandbits(8) for _ in range(length))
            assert _testing.sip_hash_1_3(k0, k1, data) == sip13(k0, k1, data), length

