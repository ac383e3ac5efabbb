"""The scripts of tools/ as modules, for tests that share their data (the
hostile shapes of bench.py, the documents of limits.py)."""
import functools
import importlib.util
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1] / "tools"


@functools.lru_cache(maxsize=None)
def load_tool(name):
    """tools/<name>.py, loaded once."""
    spec = importlib.util.spec_from_file_location("lexpy_tools_" + name,
                                                  TOOLS / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
