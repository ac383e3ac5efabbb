"""The scripts of tools/ as modules, for tests that share their data (the
hostile shapes of bench.py, the documents of limits.py)."""
import functools
import importlib.util
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1] / "tools"


@functools.lru_cache(maxsize=None)
def load_tool(name):
    """tools/<name>.py, loaded once."""
    spec = importlib.util.spec_from_file_location("lexpy_tools_" + name,
                                                  TOOLS / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    # Registered before it runs, as an import would (dataclasses look their
    # module up in sys.modules).
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
