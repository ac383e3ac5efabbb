# Type stubs of the compiled lexpy.treebuilder.treebuilder module
# (lexpy/treebuilder/treebuilder.pyx): it has only a C API (treebuilder.pxd),
# for the parse driver (lexpy/driver/).
