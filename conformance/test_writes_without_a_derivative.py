"""scatter's reduce= overloads write into out= without a derivative: a NotImplemented node,
only a leaf out refused, in aten::scatter's name; forward mode refuses them first."""


import pytest
import torch
import torch.autograd.forward_ad as fwAD

from conformance._support import OUT_GRAD, raises, recording_mode
from conformance._warned import caught_always

# scatter's reduce=, the deprecations, resized outs: warnings are not what these test
pytestmark = pytest.mark.filterwarnings("ignore")


def _index():
    return torch.tensor([2, 0, 1])


@pytest.mark.parametrize("reduce, src, expected", [
    ("add", lambda: torch.tensor([1.0, 2.0, 3.0], requires_grad=True), [4.0, 5.0, 3.0]),
    ("multiply", lambda: torch.tensor([1.0, 2.0, 3.0], requires_grad=True), [4.0, 6.0, 2.0]),
    ("add", lambda: 5.0, [7.0, 7.0, 7.0]),
])
def test_scatter_with_reduce_writes_out_and_records_not_implemented(reduce, src, expected):
    x = torch.full((3,), 2.0, requires_grad=True)
    out, given = torch.empty(5), src()
    result = torch.scatter(x, 0, _index(), given, reduce=reduce, out=out)
    assert result is out and out.tolist() == expected and out.shape == (3,)
    assert out.grad_fn.name() == "torch::autograd::NotImplemented" and out._version == 1
    edges = [n for n, _ in out.grad_fn.next_functions]
    assert len(edges) == (2 if isinstance(given, torch.Tensor) else 1)
    assert all(type(n).__name__ == "AccumulateGrad" for n in edges)
    with raises(RuntimeError, "derivative for aten::scatter is not implemented"):
        out.sum().backward()


def test_only_src_requiring_grad_is_enough_for_the_node():
    src = torch.ones(3, requires_grad=True)
    out = torch.empty(3)
    torch.scatter(torch.zeros(3), 0, _index(), src, reduce="add", out=out)
    assert out.requires_grad and out.grad_fn.next_functions[0][0].variable is src


def test_an_out_with_history_is_an_edge_of_the_node():
    out = torch.zeros(3, requires_grad=True) * 1
    torch.scatter(torch.zeros(3), 0, _index(), torch.ones(3), reduce="multiply", out=out)
    assert [type(n).__name__ for n, _ in out.grad_fn.next_functions] == ["MulBackward0"]


@pytest.mark.parametrize("make_out", [
    lambda: torch.empty(3, requires_grad=True),
    lambda: torch.empty(3, requires_grad=True).view(3),
])
@pytest.mark.parametrize("src", [lambda: torch.ones(3), lambda: 1.0])
def test_a_leaf_out_that_requires_grad_is_refused_in_the_kernels_name(make_out, src):
    out = make_out()
    with raises(RuntimeError, OUT_GRAD.format("aten::scatter")):
        torch.scatter(torch.zeros(3), 0, _index(), src(), reduce="add", out=out)
    assert out._version == 0


def test_without_reduce_any_grad_is_still_refused_in_scatters_name():
    with raises(RuntimeError, OUT_GRAD.format("scatter")):
        torch.scatter(torch.zeros(3, requires_grad=True), 0, _index(), torch.ones(3),
                      out=torch.empty(3))


def test_an_unknown_reduction_is_refused_by_the_kernel_under_grad():
    with raises(RuntimeError, "reduce argument must be either add or multiply."):
        torch.scatter(torch.zeros(3, requires_grad=True), 0, _index(), 1.0, reduce="max",
                      out=torch.empty(3))


def test_under_no_grad_the_write_has_no_history():
    x, out = torch.zeros(3, requires_grad=True), torch.empty(3)
    with torch.no_grad():
        torch.scatter(x, 0, _index(), torch.ones(3), reduce="add", out=out)
    assert out.tolist() == [1.0, 1.0, 1.0] and out.grad_fn is None and not out.requires_grad


def test_forward_mode_refuses_in_the_kernels_name_before_it_writes():
    out = torch.zeros(3)
    with fwAD.dual_level():
        x = fwAD.make_dual(torch.zeros(3), torch.ones(3))
        with raises(NotImplementedError,
                    "Trying to use forward AD with aten::scatter that does not support it."):
            torch.scatter(x, 0, _index(), torch.ones(3), reduce="add", out=out)
    assert out._version == 0


@pytest.mark.parametrize("call, said", [
    (lambda x, s: torch.scatter(x, 0, _index(), torch.ones(3), reduce="add"), "aten::scatter"),
    (lambda x, s: torch.scatter(torch.zeros(3), 0, _index(), s, reduce="add"), "aten::scatter"),
    (lambda x, s: torch.scatter(x, 0, _index(), torch.ones(3), reduce="max"), "aten::scatter"),
    (lambda x, s: torch.scatter(x, 0, _index().float(), 1.0, reduce="add"), "aten::scatter"),
    (lambda x, s: x.scatter(0, _index(), s, reduce="multiply"), "aten::scatter"),
    (lambda x, s: torch.zeros(3).scatter_(0, _index(), s, reduce="add"), "aten::scatter_"),
    (lambda x, s: x.clone().scatter_(0, _index(), 2.0, reduce="multiply"), "aten::scatter_"),
])
def test_forward_mode_refuses_the_reductions_before_their_warning_and_checks(call, said):
    with fwAD.dual_level(), caught_always(torch) as caught:
        x = fwAD.make_dual(torch.zeros(3), torch.ones(3))
        s = fwAD.make_dual(torch.ones(3), torch.ones(3))
        with raises(NotImplementedError,
                    f"Trying to use forward AD with {said} that does not support it."):
            call(x, s)
    assert caught == []


@pytest.mark.parametrize("x, out, seen", [
    (lambda: torch.zeros(3, requires_grad=True), lambda: torch.empty(3),
     ["aten.scatter.reduce_out"]),
    (lambda: torch.zeros(3), lambda: torch.empty(3, requires_grad=True), []),
])
def test_a_mode_sees_the_write_unless_autograd_refused_it(x, out, seen):
    given, written, index, src = x(), out(), _index(), torch.ones(3)
    with recording_mode()() as mode:
        try:
            torch.scatter(given, 0, index, src, reduce="add", out=written)
        except RuntimeError as error:
            assert str(error) == OUT_GRAD.format("aten::scatter")
    assert mode.seen == seen
    assert (written.grad_fn is not None) == bool(seen)
