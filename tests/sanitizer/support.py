"""Shared by the sanitizer tests: where the data is (../shared/sanitizer,
or LEXPY_SANITIZER_DATA), and the security oracle of its README (inert with
scripting on and off, stable, idempotent)."""
from tests.tools import load_tool

HTML = "http://www.w3.org/1999/xhtml"
SVG = "http://www.w3.org/2000/svg"
MATHML = "http://www.w3.org/1998/Math/MathML"
XLINK = "http://www.w3.org/1999/xlink"


# The oracle lives in tools/fuzz_sanitize.py (the fuzzer judges with it too).
_FUZZ = load_tool("fuzz_sanitize")
dangerous_url = _FUZZ.dangerous_url
css_dangerous = _FUZZ.css_dangerous
inert_problems = _FUZZ.inert_problems
reparse = _FUZZ.reparse
security_problems = _FUZZ.security_problems
generate = _FUZZ.generate

# The agreement classifier of tools/sanitizer_agreement.py (the tool prints
# the figures; the tests hold its classes).
AGREEMENT = load_tool("sanitizer_agreement")
# Where the data is: the tool's lookup (../shared/sanitizer or LEXPY_SANITIZER_DATA).
data_dir = AGREEMENT.data_dir
load = AGREEMENT.load
