"""tools/conformance.py: the percentage is passed of total, and an expected
failure that passes (XPASS) is flagged and counted as a failure."""
from tests.conformance import xfail
from tests.conformance.corrections import CORRECTIONS
from tests.tools import load_tool


def test_an_expected_failure_that_passes_is_flagged(monkeypatch, capsys):
    report = load_tool("conformance")
    monkeypatch.setitem(xfail.XFAIL, "serializer/core.test:1", "pretend")
    assert report.main(["--suite", "serializer"]) == 0
    out = capsys.readouterr().out
    assert "XPASS serializer/core.test:1" in out
    assert "serializer   229 passed     1 failed    0 xfail   230 total (99.6%) 1 XPASS" in out


def test_the_percentage_is_passed_of_total(capsys):
    report = load_tool("conformance")
    report.main(["--suite", "encoding"])
    out = capsys.readouterr().out
    assert "encoding      83 passed     0 failed    0 xfail    83 total (100.0%)" in out


def test_corrected_cases_are_counted(capsys):
    report = load_tool("conformance")
    report.main(["--suite", "selectors"])
    out = capsys.readouterr().out
    selectors = [case for case in CORRECTIONS if case.startswith("selectors/")]
    assert selectors
    assert "(%d against corrected expectations" % len(selectors) in out
