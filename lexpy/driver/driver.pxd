# What other modules may cimport from the driver: only what the test module
# (lexpy/driver/_testing.pyx, test builds) needs to reach one parse's
# tokenizer and tree builder. lexpy.parser uses the Python class.

from lexpy.tokenizer.tokenizer cimport Tokenizer
from lexpy.treebuilder.treebuilder cimport TreeBuilder

# Claim a TreeConstruction's tokenizer and tree builder as its own methods
# do (ParserBusyError while another thread uses it, ValueError once it
# cannot go on); construction_leave gives them back.
cdef int construction_enter(object construction, Tokenizer** tokenizer,
                            TreeBuilder** builder) except -1
cdef void construction_leave(object construction) noexcept
# Drop the tokenizer and the tree builder: the state a re-parse that ran
# out of memory leaves.
cdef int construction_discard(object construction) except -1
