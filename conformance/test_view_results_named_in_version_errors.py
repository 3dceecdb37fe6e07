"""Black-box tests: the version error for the result of an in-place op on a view names
the view's new node while something still holds it, and the op that saved the result
once nothing does. The same assertions run on torch."""

import pytest
import torch

from conformance._support import raises

VIEWS = {
    "slice": lambda b: b[:1], "select": lambda b: b[0], "view": lambda b: b.view(4),
    "t": lambda b: b.t(), "as_strided": lambda b: b.as_strided((2,), (1,)),
    "diagonal": lambda b: b.diagonal(),
}
# what writes the result again after exp_ saved it, and which node the error then names
WRITES = {
    "the base": (lambda b, v: b.mul_(2), "AsStrided"),  # the view still holds its node
    "a sibling view": (lambda b, v: b[1:].add_(1), "AsStrided"),
    "the base, then a read of the view's grad_fn": (  # the read makes a new node
        lambda b, v: (b.mul_(2), v.grad_fn), "Exp"),
    "the view itself": (lambda b, v: v.mul_(2), "Exp"),  # its node is let go mid-backward
    "the view, twice": (lambda b, v: (v.add_(1), v.mul_(2)), "Exp"),
}


def _message(view, write):
    a = torch.ones(2, 2, requires_grad=True)
    b = a * 1
    v = VIEWS[view](b)
    v.exp_()
    WRITES[write][0](b, v)
    with pytest.raises(RuntimeError) as found:
        b.sum().backward()
    return str(found.value)


@pytest.mark.parametrize("write", list(WRITES))
@pytest.mark.parametrize("view", list(VIEWS))
def test_the_node_named_is_the_views_while_it_lives(view, write):
    shape = list(VIEWS[view](torch.ones(2, 2)).shape)
    assert _message(view, write).startswith(
        "one of the variables needed for gradient computation has been modified by an "
        f"inplace operation: [torch.FloatTensor {shape}], which is output 0 of "
        f"{WRITES[write][1]}, is at version ")


@pytest.mark.parametrize("op", ["relu_", "sigmoid_", "tanh_", "sqrt_"])
def test_every_op_that_saves_its_result_names_the_view_while_it_lives(op):
    a = torch.ones(2, 2, requires_grad=True)
    b = a * 1
    v = b.t()[0]
    getattr(v, op)()
    b.mul_(2)
    with raises(RuntimeError, "one of the variables needed for gradient computation has been "
                              "modified by an inplace operation: [torch.FloatTensor [2]], which "
                              "is output 0 of AsStrided, is at version 2; "
                              "expected version 1 instead. Hint: enable anomaly detection to "
                              "find the operation that failed to compute its gradient, with "
                              "torch.autograd.set_detect_anomaly(True, check_nan=False)."):
        b.sum().backward()


def test_under_hooks_the_written_result_is_not_checked():
    a = torch.ones(2, 2, requires_grad=True)
    b = a * 1
    v = b[:1]
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        v.exp_()
    b.mul_(2)
    b.sum().backward()  # exp's gradient reads its result as it is now, doubled
    e = torch.tensor(1.0).exp()
    assert torch.allclose(a.grad, torch.stack([4 * e.expand(2), torch.full((2,), 2.0)]))
