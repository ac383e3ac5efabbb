# What other modules may cimport from the driver: only what the test module
# (lexpy/driver/_testing.pyx, test builds) needs to reach one parse's
# tokenizer and tree builder. lexpy.parser uses the Python class.

from lexpy.tokenizer.tokenizer cimport Tokenizer
from lexpy.treebuilder.treebuilder cimport TreeBuilder
from lexpy.dom.dom cimport CNode

# Claim a TreeConstruction's tokenizer and tree builder as its own methods
# do (ParserBusyError while another thread uses it, ValueError once it
# cannot go on); construction_leave gives them back.
cdef int construction_enter(object construction, Tokenizer** tokenizer,
                            TreeBuilder** builder) except -1
cdef void construction_leave(object construction) noexcept
# Drop the tokenizer and the tree builder: the state a re-parse that ran
# out of memory leaves.
cdef int construction_discard(object construction) except -1

# The fragment case of a str in one stretch without the GIL (the sanitizer's
# hot path): a new parse in the context of an HTML element named
# `context_name` (scripting on, processing instructions), fed `text` and
# ended, its nodes moved into a new DocumentFragment, then
# `hook(hook_context, fragment)` run in the same stretch. Returns the
# TreeConstruction (its Document holds the fragment: keep it while the
# fragment is used); `result` gets the hook's value, `fragment` the node.
ctypedef int (*FragmentHook)(void* hook_context, CNode* fragment) noexcept nogil
cdef object construction_fragment_text(bytes context_name, str text, FragmentHook hook,
                                       void* hook_context, int* result, CNode** fragment)
