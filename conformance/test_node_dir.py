"""dir() of a node lists the names torch's node shows, and none of refgrad's machinery."""

import torch

EVERY_NODE = [
    "__call__", "__class__", "__delattr__", "__dir__", "__doc__", "__eq__", "__format__",
    "__ge__", "__getattribute__", "__getstate__", "__gt__", "__hash__", "__init__",
    "__init_subclass__", "__le__", "__lt__", "__ne__", "__new__", "__reduce__",
    "__reduce_ex__", "__repr__", "__setattr__", "__sizeof__", "__str__", "__subclasshook__",
    "_input_metadata", "_register_hook_dict", "_sequence_nr", "_set_sequence_nr", "metadata",
    "name", "next_functions", "register_hook", "register_prehook", "requires_grad",
]


def test_dir_of_built_in_nodes():
    a = torch.ones(2, requires_grad=True)
    b = a * a
    assert dir(b.grad_fn) == sorted(EVERY_NODE + ["_raw_saved_other", "_raw_saved_self",
                                                  "_saved_other", "_saved_self"])
    assert dir(a.exp().grad_fn) == sorted(EVERY_NODE + ["_raw_saved_result", "_saved_result"])
    assert dir(a.sum().grad_fn) == sorted(EVERY_NODE + ["_saved_self_sym_sizes"])
    assert dir(b.grad_fn.next_functions[0][0]) == sorted(EVERY_NODE + ["variable"])
    c = a.clone()
    c[0] = 5.0
    assert type(c.grad_fn).__name__ == "CopySlices" and dir(c.grad_fn) == EVERY_NODE


def test_dir_of_a_custom_function_s_node():
    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.save_for_backward(x)
            ctx.k, ctx._note = k, "kept"
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None

    node = Scale.apply(torch.ones(2, requires_grad=True), 3.0).grad_fn
    names = set(dir(node))
    assert {"k", "_note"} <= names  # what forward stored on ctx
    assert {"apply", "saved_tensors", "_raw_saved_tensors", "_forward_cls", "mark_dirty",
            "needs_input_grad", "save_for_backward", "set_materialize_grads", "to_save",
            "__dict__", "__module__", "__weakref__", "_sequence_nr", "metadata"} <= names
    assert not names & {"__call__", "__slots__", "__abstractmethods__", "_abc_impl",
                        "release_variables", "_saved", "_next_nodes", "_meta", "_seq"}
    assert dir(node) == sorted(names)
