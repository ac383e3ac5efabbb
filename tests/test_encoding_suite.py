"""html5lib-tests encoding/*.dat, checked against the encoding sniffer.

tools/conformance.py runs these cases through lexpy.parse(data).encoding
(tests/conformance/runners.py). Until parse() exists, this suite checks the
part that is the encoding module's own, right away:

- a case whose declaration is in the first 1024 bytes (or that has none)
  must be sniffed to the expected encoding by sniff() alone;
- a case whose <meta> comes after the first 1024 bytes is the tree
  builder's: sniff() must answer windows-1252 with confidence tentative
  (so the parser watches for <meta>), and "changing the encoding while
  parsing", given the encoding the first <meta> after the prescan window
  declares, must switch to the expected encoding. Which <meta> the tree
  builder meets is stood in for here by the prescan of the whole input;
  once parse() exists, the conformance runner checks it for real.

Cases that need a script engine are expected failures (xfail.py).
"""
import pytest

import lexpy.encoding as enc
from tests.conformance import data
from tests.conformance.xfail import xfail_reason

CASES = list(data.encoding_cases())


def params():
    result = []
    for case in CASES:
        reason = xfail_reason(case.id)
        marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
        result.append(pytest.param(case, id=case.id, marks=marks))
    return result


def test_the_suite_has_all_its_cases():
    assert len(CASES) == 83


@pytest.mark.parametrize("case", params())
def test_encoding_case(case):
    expected = enc.lookup(case.encoding)
    result = enc.sniff(case.data)
    if result.encoding is expected:
        return
    # Not declared in the first 1024 bytes: the tree builder's part.
    assert len(case.data) > 1024, "%s: sniffed %s, expected %s" % (
        case.id, result.encoding.name, expected.name)
    assert result == (enc.lookup("windows-1252"), "tentative", 0)
    assert enc.prescan(case.data[:1024]) is None
    declared = enc.prescan(case.data)      # stand-in for the tree builder's <meta>
    assert declared is not None
    assert enc.change_encoding(result.encoding, declared) is expected
