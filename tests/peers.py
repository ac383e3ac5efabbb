"""The peers' own test suites (../shared/peer-tests/), imported from where
they are (never copied into lexpy): bs4 4.15.0's bs4/tests/ as the package
``bs4_peer_tests`` and html5lib 1.1's html5lib/tests/ helpers as
``html5lib_peer_tests`` (their own package names would clash with lexpy's
``tests``)."""
from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from tests.conformance.data import peer_tests_dir


def _load_package(name: str, folder) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(
        name, folder / "__init__.py", submodule_search_locations=[str(folder)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def bs4_tests() -> ModuleType:
    """bs4/tests/__init__.py of beautifulsoup4 4.15.0 (the smoke tests)."""
    return _load_package("bs4_peer_tests", peer_tests_dir() / "bs4-4.15.0" / "tests")


def html5lib_tests_module(name: str) -> ModuleType:
    """A module of html5lib 1.1's html5lib/tests/ (support, ...)."""
    _load_package("html5lib_peer_tests", peer_tests_dir() / "html5lib-1.1" / "tests")
    return importlib.import_module("html5lib_peer_tests." + name)
