"""Black-box tests: what a dispatch mode is handed for in-place writes and the formulas
behind them: index_put_ and a formula's index_put with their indices as a list, by
position; mul.Scalar and div.Scalar with their number by position; the clone torch's
autograd makes of what an in-place op writes, before the op. The same assertions run on
torch.
"""

import pytest
import torch

from conformance._support import calling_mode

Calls = calling_mode()
F64 = torch.float64
CPU = torch.device("cpu")
ZEROS = ("aten.zeros.default", ([],), {"dtype": F64, "layout": torch.strided, "device": CPU})


def _leaf():
    return (torch.arange(6, dtype=F64).reshape(2, 3) * 0.17 + 0.4).requires_grad_()


def _backward_seen(step):
    """What a mode sees of ``step(y)`` on a non-leaf y, then of the sum's backward."""
    x = _leaf()
    y = x * 1
    with Calls() as mode:
        step(y)
        y.sum().backward()
    return mode.seen


def test_assigned_through_a_mask_hands_over_the_indices_as_a_list():
    x = torch.arange(6, dtype=F64).reshape(2, 3)
    v = torch.tensor(9.0, dtype=F64)
    mask = x > 2
    with Calls() as mode:
        x[mask] = v
    assert mode.seen == [("aten.index_put_.default", ("T", ["T"], "T"), {})]
    assert x.tolist() == [[0.0, 1.0, 2.0], [9.0, 9.0, 9.0]]


def test_index_put_in_place_shows_accumulate_only_when_true():
    x = torch.zeros(3, dtype=F64)
    i = torch.tensor([0, 0])
    with Calls() as mode:
        x.index_put_((i,), torch.ones(2, dtype=F64))
        x.index_put_((i,), torch.ones(2, dtype=F64), accumulate=True)
    assert [s[1:] for s in mode.seen if s[0] == "aten.index_put_.default"] == [
        (("T", ["T"], "T"), {}), (("T", ["T"], "T", True), {})]
    assert x.tolist() == [3.0, 0.0, 0.0]


def test_a_mode_may_call_index_put_with_other_indices():
    class Other(torch.utils._python_dispatch.TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if str(func) == "aten.index_put_.default":
                args = (args[0], [torch.tensor([2])], *args[2:])
            return func(*args, **(kwargs or {}))

    x = torch.zeros(3, dtype=F64)
    with Other():
        x[torch.tensor([0])] = torch.tensor(5.0, dtype=F64)
    assert x.tolist() == [0.0, 0.0, 5.0]


def test_the_gradient_of_an_assignment_puts_a_zero_made_by_zeros():
    seen = _backward_seen(lambda y: y.__setitem__(y.detach() > 0.6, 0.0))
    assert ("aten.index_put_.default", ("T", ["T"], "T"), {}) in seen
    start = seen.index(ZEROS)
    assert seen[start + 1] == ("aten.index_put.default", ("T", ["T"], "T"), {})
    assert "aten.index.Tensor" not in [s[0] for s in seen]  # the value needs no gradient


def test_the_gradient_of_indexing_puts_with_accumulate_by_position():
    x = _leaf()
    with Calls() as mode:
        x[torch.tensor([1, 0])].sum().backward()
    assert ("aten.index_put.default", ("T", ["T"], "T", True), {}) in mode.seen


@pytest.mark.parametrize("step, number", [
    (lambda x: x.sqrt(), 2), (lambda x: x.mean(0), 2), (lambda x: x.rsqrt(), -0.5)])
def test_a_formulas_number_goes_by_position(step, number):
    x = _leaf()
    with Calls() as mode:
        step(x).sum().backward()
    scalar = [s for s in mode.seen if s[0] in ("aten.mul.Scalar", "aten.div.Scalar")]
    assert scalar and all(s[2] == {} and len(s[1]) == 2 for s in scalar)
    assert number in [s[1][1] for s in scalar]


def test_a_powers_gradient_takes_its_exponent_as_a_float():
    seen = _backward_seen(lambda y: y.pow_(2))
    assert ("aten.pow.Tensor_Scalar", ("T", 1.0), {}) in seen
    assert ("aten.mul.Scalar", ("T", 2.0), {}) in seen
    assert [type(s[1][1]) for s in seen if s[0] == "aten.mul.Scalar"] == [float]


@pytest.mark.parametrize("name, step", [
    ("sin_", lambda y, w: y.sin_()), ("pow_", lambda y, w: y.pow_(2)),
    ("mul_", lambda y, w: y.mul_(w)), ("div_", lambda y, w: y.div_(w))])
def test_an_in_place_op_that_keeps_self_is_seen_after_its_clone(name, step):
    x, w = _leaf(), _leaf()
    y = x * 1
    with Calls() as mode:
        step(y, w)
    names = [s[0] for s in mode.seen]
    assert names[:2] == ["aten.clone.default", f"aten.{name}.{names[1].split('.')[-1]}"]
    assert mode.seen[0][1:] == (("T",), {})
    y.sum().backward()
    assert x.grad is not None


@pytest.mark.parametrize("step", [
    lambda y, w: y.exp_(), lambda y, w: y.mul_(2.0), lambda y, w: y.add_(w),
    lambda y, w: y.detach().sin_(), lambda y, w: y.mul_(w.detach())])
def test_an_in_place_op_that_keeps_no_self_makes_no_clone(step):
    x, w = _leaf(), _leaf()
    y = x * 1
    with Calls() as mode:
        step(y, w)
    assert "aten.clone.default" not in [s[0] for s in mode.seen]


def test_the_clone_is_what_the_node_keeps():
    x = _leaf()
    y = x * 1
    with Calls() as mode:
        y.sin_()
        (g,) = torch.autograd.grad(y.sum(), x)
    assert torch.allclose(g, x.detach().cos())
    assert [s[0] for s in mode.seen].count("aten.clone.default") == 1


def test_a_mask_behind_a_whole_dimension_is_written_by_the_modes_func():
    x = torch.zeros(3, dtype=F64)
    with pytest.warns(UserWarning, match="expanded tensors is deprecated"), Calls() as mode:
        x.expand(2, 3)[:, torch.tensor([True, False, False])] = 3.0
    assert mode.seen[-1] == ("aten.index_put_.default", ("T", [None, "T"], "T"), {})
    assert x.tolist() == [3.0, 0.0, 0.0] and x._version == 1


def test_indices_after_a_whole_dimension_are_written_under_a_mode():
    x = torch.zeros(2, 3, dtype=F64)
    with Calls():
        x[:, torch.tensor([0, 2])] = 5.0
        x[..., None, torch.tensor([False, True, False])] = 7.0
    assert x.tolist() == [[5.0, 7.0, 5.0], [5.0, 7.0, 5.0]]
