"""Instructions of single Python calls, counted by valgrind's callgrind
(deterministic, where time on a shared machine is not): the tests that
bound growth per doubling by instructions use it.

A script run under callgrind makes each call to be counted through
lexpy.core._testing.measured_call (a test build's C frame around a call);
callgrind collects only inside that frame and dumps after each call, so
the i-th dump is the i-th measured call alone."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from typing import List, Sequence

from tests.helpers import require_test_build
from tests.tools import TOOLS


def available() -> bool:
    return shutil.which("valgrind") is not None


def measured_call_symbol() -> str:
    """The C name of measured_call in the built module (callgrind's
    --dump-after takes no wildcard)."""
    module = require_test_build("lexpy.core._testing")
    with open(module.__file__, "rb") as f:
        found = re.search(rb"__pyx_pw_5lexpy_4core_8_testing_\d+measured_call", f.read())
    assert found, "measured_call not found in %s" % module.__file__
    return found.group().decode()


def count_calls(script: str, arguments: Sequence[str], timeout: int = 1800) -> List[int]:
    """Run `script` (Python source; sys.argv[1] is the project root, the
    rest `arguments`) under callgrind and return the instructions of each
    of its measured_call calls, in order."""
    symbol = measured_call_symbol()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        proc = subprocess.run(
            [shutil.which("valgrind"), "--tool=callgrind", "--callgrind-out-file=" + out,
             "--toggle-collect=" + symbol, "--dump-after=" + symbol,
             sys.executable, "-c", script, os.fspath(TOOLS.parent), *arguments],
            capture_output=True, text=True, timeout=timeout)
        assert proc.returncode == 0, proc.stderr[-2000:]
        counts = []
        for i in range(1, 1 + len([n for n in os.listdir(tmp) if re.fullmatch(r"callgrind\.out\.\d+", n)])):
            with open("%s.%d" % (out, i)) as f:
                counts.append(int(re.search(r"^summary: (\d+)", f.read(), re.M).group(1)))
        return counts
