"""Black-box tests: division differentiated twice under a dispatch mode that records what it is
handed (its calls, and the arguments themselves): the ops the mode sees, and the values,
strides and versions of the gradients, are torch's, for a leaf of one, three and a transposed
six elements. The same assertions run on torch."""

import pytest
import torch

from conformance._support import calling_mode, node_names, recording_mode

SEEN = [  # what a mode sees, after the division itself
    "sum", "ones_like", "expand", "div.Tensor", "div.Tensor", "neg", "mul.Tensor",
    "div.Tensor", "add.Tensor", "sum", "ones_like", "expand", "div.Tensor", "div.Tensor",
    "neg", "mul.Tensor", "mul.Tensor", "div.Tensor", "div.Tensor", "neg", "mul.Tensor",
    "div.Tensor", "add.Tensor", "div.Tensor", "div.Tensor", "neg", "mul.Tensor", "div.Tensor",
    "add.Tensor", "add.Tensor"]
LEAF = ["torch::autograd::AccumulateGrad"]
LEAVES = {
    "three": lambda: torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True),
    "zero-d": lambda: torch.tensor(2.0, dtype=torch.float64, requires_grad=True),
    "transposed": lambda: (torch.arange(6, dtype=torch.float64).reshape(3, 2).t() * 0.17
                           + 0.4).requires_grad_(),
}


def _short(func) -> str:
    return str(func).replace("aten.", "").replace(".default", "")


@pytest.mark.parametrize("leaf", sorted(LEAVES))
@pytest.mark.parametrize("mode", [recording_mode(_short), calling_mode()])
def test_division_twice_under_a_recording_mode(leaf, mode):
    x = LEAVES[leaf]()
    with mode() as recorder:
        y = (x + 1) / x
        (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
        g.sum().backward()
    names = [_short(s[0]) if isinstance(s, tuple) else s for s in recorder.seen]
    # the leaf's first gradient is kept, or copied into the transposed leaf's layout
    tail = ["new_empty_strided", "copy_"] if leaf == "transposed" else ["detach"]
    assert names == ["add.Tensor", "div.Tensor", *SEEN, *tail]
    expected = 2 / (x.detach() ** 3)
    assert torch.allclose(x.grad, expected) and x.grad.stride() == x.stride()
    assert node_names(g.grad_fn) == [
        "AddBackward0", "MulBackward0", "DivBackward0", "DivBackward0", "AddBackward0", *LEAF * 3,
        "DivBackward0", *LEAF]
    row_major = (3, 1) if leaf == "transposed" else x.stride()  # the quotient's layout
    assert (g.stride(), g._version) == (row_major, 0)
