# Type stubs of the compiled lexpy.core.core module (lexpy/core/core.pyx):
# it has no Python API (core.pxd is for the other compiled modules; the
# tests' views of it are lexpy.core._testing, in test builds).
