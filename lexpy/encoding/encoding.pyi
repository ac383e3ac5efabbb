# Type stubs of the compiled lexpy.encoding.encoding module: a placeholder
# until the encoding stage (its own stub) lands.
