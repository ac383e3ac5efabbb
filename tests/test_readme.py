"""The README's test command is exactly what CI runs."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = 'python -m pip install -e ".[test]" && python -m pytest'
    assert command in readme
    assert ci.rstrip().splitlines()[-1] == command
