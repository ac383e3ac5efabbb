# The end
# https://html.spec.whatwg.org/multipage/parsing.html#the-end
#
# What the tree builder does of it: "stop parsing" (the modes that handle
# the end-of-file token call it). The rest -- the document's readiness, the
# scripts that run when it has been parsed -- is the driver's
# (lexpy/driver/scripts.pxi runs the deferred scripts).


# https://html.spec.whatwg.org/multipage/parsing.html#stop-parsing
cdef void stop_parsing(TreeBuilder* tb) noexcept nogil:
    while tb.open.count > 0:
        open_elements_pop(tb)
    # (Not in the standard, which drops the parser: the tree builder's
    # bits leave the nodes of the finished document.)
    formatting_release(tb)
    tb.halt.stopped = True
