"""Black-box tests of corners the differential fuzzer found: a 0-d input's gradient
through index_select, prelu of a 0-d input, and more. The same assertions run on torch.
"""

import torch

from conformance._support import raises  # noqa: F401 - used by later cases


def test_index_select_of_a_0d_input_adds_its_gradient_with_index_add():
    x = torch.tensor(0.7, requires_grad=True)
    x.index_select(0, torch.tensor([0])).sum().backward()
    assert x.grad.tolist() == 1.0 and x.grad._version == 1
    y = x.index_select(0, torch.tensor([0]))
    (g,) = torch.autograd.grad(y, x, torch.tensor(3.0, requires_grad=True), create_graph=True)
    assert type(g.grad_fn).__name__ == "IndexAddBackward0" and g._version == 1
    assert [type(n).__name__ if n else None for n, _ in g.grad_fn.next_functions] == [
        None, "AccumulateGrad"]
