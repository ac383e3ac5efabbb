"""Readers and runners of the html5lib-tests / WPT conformance suites, shared
by the pytest suites (tests/conformance/test_*_suite.py) and tools/conformance.py."""
