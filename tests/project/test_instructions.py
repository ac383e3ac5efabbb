"""The instruction guard of issue 38: callgrind counts the instructions of
the corpus parsed from bytes and parsed + to_html (tools/profile_parse.py);
a change that costs more than 2% above the figures recorded in
tools/instructions.json fails. Instruction counts are deterministic for the
same binary, inputs and environment (here: the same within 0.02% from run
to run), so the bound does not move with the machine's load.

When a change makes the parse cheaper, record the new figures
(`python tools/profile_parse.py --record`) so the guard keeps up."""
import json
import subprocess
import sys
from pathlib import Path

from tests.conformance.data import corpus_dir
from tests.tools import load_tool

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "profile_parse.py"
RECORD = ROOT / "tools" / "instructions.json"

profile_parse = load_tool("profile_parse")


def test_the_record_names_its_commit_environment_and_pages():
    record = json.loads(RECORD.read_text())
    assert len(record["commit"]) >= 7 and record["tolerance"] == 0.02
    assert set(record["environment"]) == {"python", "valgrind", "machine", "compiler",
                                          "build"}
    corpus = sorted(p.name for p in corpus_dir().iterdir() if p.suffix in (".html", ".htm"))
    assert record["sets"]["corpus"]["names"] == corpus
    subset = record["sets"]["subset"]["names"]
    assert len(subset) == record["sets"]["subset"]["pages"] and set(subset) < set(corpus)
    for figures in record["sets"].values():
        assert figures["bytes"] == sum((corpus_dir() / n).stat().st_size
                                       for n in figures["names"])
        assert 0 < figures["parse_bytes"] < figures["parse_to_html"]
    stages = record["sets"]["corpus"]["stages"]
    assert list(stages["bytes"]) == list(stages["html"]) == profile_parse.STAGES
    assert sum(stages["bytes"].values()) == record["sets"]["corpus"]["parse_bytes"]
    assert sum(stages["html"].values()) == record["sets"]["corpus"]["parse_to_html"]


def test_a_count_more_than_two_percent_above_the_record_fails():
    record = {"tolerance": 0.02, "sets": {"corpus": {"parse_bytes": 1000,
                                                     "parse_to_html": 2000}}}
    ok = profile_parse.compare(record, "corpus", {"bytes": 1020, "html": 1500})
    assert not ok["parse_bytes"]["over"] and not ok["parse_to_html"]["over"]
    over = profile_parse.compare(record, "corpus", {"bytes": 1021, "html": 2041})
    assert over["parse_bytes"]["over"] and over["parse_to_html"]["over"]
    assert over["parse_to_html"]["ratio"] == 2041 / 2000


def test_the_corpus_costs_no_more_instructions_than_recorded():
    """Parse every corpus page from bytes, and parse + to_html, under
    callgrind: at most 2% above tools/instructions.json (fails, too, when
    valgrind is missing or the environment differs from the record's)."""
    proc = subprocess.run([sys.executable, str(TOOL), "--check", "--json"],
                          capture_output=True, text=True, cwd=str(ROOT))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    result = json.loads(proc.stdout)
    assert set(result["counts"]) == {"parse_bytes", "parse_to_html"}
    for figures in result["counts"].values():
        assert figures["ratio"] <= 1.02 and figures["measured"] > 0


def test_the_profile_puts_each_function_in_a_stage(tmp_path):
    """On two pages: the stages add up to the total, hardly anything is left
    in "other", the serializer costs nothing without to_html."""
    pages = sorted(p for p in corpus_dir().iterdir() if p.suffix in (".html", ".htm"))[:2]
    for page in pages:
        (tmp_path / page.name).write_bytes(page.read_bytes())
    proc = subprocess.run([sys.executable, str(TOOL), str(tmp_path), "--json", "--top", "3"],
                          capture_output=True, text=True, cwd=str(ROOT))
    assert proc.returncode == 0, proc.stderr
    document = json.loads(proc.stdout)
    assert document["pages"] == 2
    for mode, figures in document["modes"].items():
        stages = figures["stages"]
        assert list(stages) == profile_parse.STAGES
        assert sum(s["instructions"] for s in stages.values()) == figures["instructions"]
        assert stages["other"]["instructions"] < 0.01 * figures["instructions"]
        for name in ("tokenizer states", "tree builder modes", "nodes and attributes",
                     "sniffing and decoding", "text appends"):
            assert stages[name]["share"] > 0.01, (mode, name)
    assert document["modes"]["bytes"]["stages"]["serializer"]["instructions"] == 0
    assert document["modes"]["html"]["stages"]["serializer"]["share"] > 0.05
    top = document["modes"]["bytes"]["stages"]["tokenizer states"]["top"]
    assert all(t["where"].startswith("tokenizer/") for t in top)
