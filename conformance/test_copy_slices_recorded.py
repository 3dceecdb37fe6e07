"""The gradient a write through a view hands its base, when a graph is recorded.

Under ``create_graph=True`` the gradient that ``CopySlices`` passes on has a graph
of its own: a copy of the incoming gradient (``CopyBackwards``), the view's window
taken out of it (``AsStridedBackward0``), cloned for the write's own backward
(``CloneBackward0``), and that backward's answer copied back (``CopySlices``).
Graphs are written in preorder, one dot per level below the root.
"""

import pytest
import torch

from conformance._support import preorder_names

WRITES = {
    "item": (lambda v, w: v.__setitem__(0, 7.0), [0.0, 4.0, 6.0]),
    "mask": (lambda v, w: v.__setitem__(v > 1.5, 7.0), [2.0, 0.0, 0.0]),
    "fill": (lambda v, w: v.fill_(7.0), [0.0, 0.0, 0.0]),
    "mul_number": (lambda v, w: v.mul_(2.0), [8.0, 16.0, 24.0]),
    "mul_tensor": (lambda v, w: v.mul_(w), [0.5, 9.0, 37.5]),
}
TOP = ("MulBackward0 .CopySlices ..CopyBackwards ...None ...AddBackward0 ....MulBackward0"
       " ....MulBackward0")
CLONED = "...CloneBackward0 ....AsStridedBackward0"
GRAPHS = {
    "item": f"{TOP} ..None .None",
    "mask": f"{TOP} ..IndexPutBackward0 {CLONED} ...None .None",
    "fill": f"{TOP} ..None .None",
    "mul_number": f"{TOP} ..MulBackward0 {CLONED} ...None .None",
    "mul_tensor": f"{TOP} ..MulBackward0 {CLONED} ...AccumulateGrad .None",
}


def names(node, depth=4):
    return preorder_names(node, depth)


def leaves():
    a = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
    w = torch.tensor([0.5, 1.5, 2.5], dtype=torch.float64, requires_grad=True)
    return a, w


@pytest.mark.parametrize("name", sorted(WRITES))
def test_the_recorded_gradient_shows_torchs_steps(name):
    write, expected = WRITES[name]
    a, w = leaves()
    b = a * 1
    write(b[:], w)
    (ga, _) = torch.autograd.grad((b * b).sum(), [a, w], create_graph=True, allow_unused=True)
    assert ga.tolist() == expected
    assert names(ga.grad_fn) == GRAPHS[name]


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("write", ["mul", "item"])
def test_what_copyslices_hands_on_is_written_twice_and_no_view(create_graph, write):
    a, w = leaves()
    b = a * 1
    view = b[1:]
    if write == "mul":
        view.mul_(w[1:].detach().requires_grad_())
    else:
        view[0] = 7.0
    seen = []
    before = b.grad_fn.next_functions[0][0]  # b's node before the write
    before.register_prehook(lambda g: seen.append(
        (g[0]._version, g[0]._is_view(), g[0].requires_grad, g[0].stride())))
    torch.autograd.grad((b * b).sum(), [a], create_graph=create_graph)
    assert seen == [(2, False, create_graph, (1,))]


def test_second_order_gradients_through_a_column_write():
    a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=torch.float64,
                     requires_grad=True)
    w = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
    b = a.t() * 1
    b[1].mul_(w)
    ga, gw = torch.autograd.grad((b * b).sum(), [a, w], create_graph=True)
    assert ga.tolist() == [[2.0, 1.0, 6.0], [8.0, 22.5, 12.0]]
    assert gw.tolist() == [4.0, 75.0]
    second = torch.autograd.grad((ga * ga).sum() + (gw * gw).sum(), [a, w])
    assert second[0].tolist() == [[8.0, 33.0, 24.0], [32.0, 4702.5, 48.0]]
    assert second[1].tolist() == [72.0, 8850.0]
