"""html5lib-tests encoding/*.dat through the parser: lexpy.parse(bytes)
must decode each case with the expected encoding (the sniffing algorithm for
a declaration in the first 1024 bytes, the tree builder's "changing the
encoding while parsing" for a <meta> after them), and so must lexpy.Parser
fed the bytes in small chunks. tools/conformance.py runs the same cases
(tests/conformance/runners.py).

The scripted cases run their scripts through a JavaScript engine
(tests/conformance/javascript.py).
"""
import pytest

import lexpy
import lexpy.encoding as enc
from tests.conformance import data, runners
from tests.conformance.xfail import pytest_params

CASES = list(data.encoding_cases())


@pytest.mark.parametrize("case", pytest_params(CASES))
def test_encoding_case(case):
    problem = runners.run_encoding_case(case)
    assert problem is None, "%s: %s" % (case.id, problem)


@pytest.mark.parametrize("case", pytest_params(CASES, ":chunks"))
def test_encoding_case_fed_in_chunks(case):
    expected = enc.lookup(case.encoding).name
    whole = lexpy.dump(lexpy.parse(case.data, on_script=runners.script_runner(case.scripted)))
    for size in (1, 7, 512):
        parser = lexpy.Parser(on_script=runners.script_runner(case.scripted))
        for i in range(0, len(case.data), size):
            parser.feed(case.data[i:i + size])
        document = parser.close()
        assert document.encoding == expected, "%s in chunks of %d" % (case.id, size)
        assert lexpy.dump(document) == whole
