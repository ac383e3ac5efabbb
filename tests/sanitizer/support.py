"""Shared by the sanitizer tests: where the data is (../shared/sanitizer,
or LEXPY_SANITIZER_DATA), and the security oracle of its README (inert with
scripting on and off, stable, idempotent)."""
import json
import os
from pathlib import Path

from tests.tools import load_tool

ROOT = Path(__file__).resolve().parents[2]

HTML = "http://www.w3.org/1999/xhtml"
SVG = "http://www.w3.org/2000/svg"
MATHML = "http://www.w3.org/1998/Math/MathML"
XLINK = "http://www.w3.org/1999/xlink"


def data_dir() -> Path:
    env = os.environ.get("LEXPY_SANITIZER_DATA")
    path = Path(env) if env else ROOT.parent / "shared" / "sanitizer"
    if not (path / "wpt" / "cases.json").is_file():
        raise RuntimeError("sanitizer data not found at %s; set LEXPY_SANITIZER_DATA" % path)
    return path


def load(name):
    return json.loads((data_dir() / name).read_text(encoding="utf-8"))


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
