"""Black-box tests: under a dispatch mode torch's gradient formulas for prod, cumprod and
max() take the way they take for a tensor subclass (ones, cat, cumprod and flip; masks
and where; a mask times the share), amax's reshapes come in torch's order with its dims
as given, and silu, mish and logit are differentiated by their one fused op when no graph
is made. The values are the ones torch gives under a mode. The same assertions run on
torch.
"""

import math

import pytest
import torch

from conformance._support import calling_mode

F = torch.nn.functional
F64 = torch.float64
CPU = torch.device("cpu")
OPTIONS = {"dtype": F64, "layout": torch.strided, "device": CPU}

Calls = calling_mode()


def _leaf(values):
    return torch.tensor(values, dtype=F64).t().requires_grad_()  # transposed, as a sweep's


def _formula(fn, x, create_graph=False):
    """What a mode sees of the gradient alone, and the gradient."""
    y = fn(x)
    with Calls() as mode:
        (g,) = torch.autograd.grad(y, x, create_graph=create_graph)
    return [s for s in mode.seen if s[0] != "aten.detach.default"], g


SAFE = ["aten.ones.default", "aten.slice.Tensor", "aten.cat.default", "aten.cumprod.default",
        "aten.slice.Tensor", "aten.flip.default", "aten.cat.default", "aten.cumprod.default",
        "aten.flip.default", "aten.mul.Tensor", "aten.mul.Tensor"]
WITH_ZERO = [[0.5, 0.0, 2.0], [3.0, 0.0, -1.5]]
NO_ZERO = [[0.5, 2.0, 2.0], [3.0, 3.0, -1.5]]


@pytest.mark.parametrize("values", [WITH_ZERO, NO_ZERO])
def test_prod_of_a_whole_tensor_multiplies_the_other_factors(values):
    x = _leaf(values)
    seen, g = _formula(lambda x: x.prod(), x)
    names = [s[0] for s in seen]
    assert names[:3] == ["aten.ones_like.default", "aten.clone.default", "aten.view.default"]
    assert names[3:-1] == SAFE and names[-1] == "aten.view.default"
    assert seen[3] == ("aten.ones.default", ([1],), OPTIONS)
    assert seen[4] == ("aten.slice.Tensor", ("T", 0, 0, 5), {})
    flat = x.detach().reshape(-1).tolist()
    expected = [math.prod(flat[:k] + flat[k + 1:]) for k in range(6)]
    assert g.reshape(-1).tolist() == pytest.approx(expected)


def test_prod_along_a_dim_unsqueezes_then_multiplies():
    x = _leaf(NO_ZERO)
    seen, g = _formula(lambda x: x.prod(1).sum(), x)
    names = [s[0] for s in seen]
    assert names[2:4] == ["aten.unsqueeze.default", "aten.unsqueeze.default"]
    assert names[4:] == SAFE
    assert seen[4] == ("aten.ones.default", ([3, 1],), OPTIONS)
    assert seen[6] == ("aten.cat.default", (["T", "T"], 1), {})
    assert torch.allclose(g, x.detach().prod(1, keepdim=True) / x.detach())


MASKED = ["aten.mul.Tensor", "aten.eq.Scalar", "aten.zeros.default", "aten.cumsum.default",
          "aten.eq.Scalar", "aten.bitwise_not.default", "aten.masked_fill.Scalar",
          "aten.flip.default", "aten.cumsum.default", "aten.flip.default", "aten.div.Tensor",
          "aten.where.self", "aten.eq.Scalar", "aten.max.dim", "aten.zeros_like.default",
          "aten.scatter_.value", "aten.logical_and_.default", "aten.bitwise_not.default",
          "aten.bitwise_and_.Tensor", "aten.bitwise_not.default", "aten.masked_fill.Scalar",
          "aten.cumprod.default", "aten.ne.Scalar", "aten.masked_fill.Scalar",
          "aten.sub.Scalar", "aten.relu_.default", "aten.gather.default", "aten.eq.Scalar",
          "aten.masked_fill_.Scalar", "aten.mul.Tensor", "aten.sum.dim_IntList",
          "aten.mul.Tensor", "aten.where.self"]


@pytest.mark.parametrize("values, dim", [(WITH_ZERO, 0), (WITH_ZERO, 1), (NO_ZERO, 1)])
def test_cumprod_takes_the_masked_way(values, dim):
    x = _leaf(values)
    seen, g = _formula(lambda x: x.cumprod(dim).sum(), x)
    assert [s[0] for s in seen[2:]] == MASKED
    assert ("aten.zeros_like.default", ("T",), {}) in seen
    assert ("aten.sub.Scalar", ("T", 1), {}) in seen
    plain = torch.autograd.grad(x.cumprod(dim).sum(), x)[0]
    assert torch.allclose(g, plain)


@pytest.mark.parametrize("values", [NO_ZERO, [[math.nan, 1.0], [2.0, math.nan]]])
def test_max_of_a_whole_tensor_multiplies_a_mask(values):
    x = _leaf(values)
    seen, g = _formula(lambda x: x.max(), x)
    assert [s[0] for s in seen[1:]] == [
        "aten.isnan.default", "aten.isnan.default", "aten.logical_and.default",
        "aten.eq.Tensor", "aten.logical_or_.default", "aten.sum.default", "aten.div.Tensor",
        "aten.mul.Tensor"]
    assert g._version == 0 and g.stride() == x.stride()
    flat = x.detach().reshape(-1)
    top = flat.max()
    hits = flat.isnan() if top.isnan() else flat == top
    assert g.reshape(-1).tolist() == (hits / hits.sum()).tolist()


@pytest.mark.parametrize("call, dims", [
    (lambda x: x.amax(), []), (lambda x: x.amax(1).sum(), [1]),
    (lambda x: x.amin((0, -1), True).sum(), [0, -1])])
def test_amax_reshapes_the_result_first_and_sums_its_dims_as_given(call, dims):
    x = _leaf(NO_ZERO)
    seen, _ = _formula(call, x)
    names = [s[0] for s in seen]
    assert ("aten.sum.dim_IntList", ("T", dims, True), {}) in seen
    assert names.index("aten.eq.Tensor") < names.index("aten.sum.dim_IntList")
    if dims != [0, -1]:  # not keepdim: the result's reshape, the mask, the gradient's
        at = names.index("aten.eq.Tensor")
        assert names[at - 1] == names[at + 1] == "aten.view.default"
    else:
        assert "aten.view.default" not in names


@pytest.mark.parametrize("fn, name, extra", [
    (F.silu, "aten.silu_backward.default", ()), (F.mish, "aten.mish_backward.default", ()),
    (torch.logit, "aten.logit_backward.default", ()),
    (lambda x: torch.logit(x, 0.1), "aten.logit_backward.default", (0.1,))])
def test_a_fused_gradient_is_one_op(fn, name, extra):
    x = _leaf([[0.2, 0.5, 0.7], [0.05, 0.95, 0.3]])
    seen, g = _formula(lambda x: fn(x).sum(), x)
    assert seen[-1] == (name, ("T", "T", *extra), {})
    assert len(seen) == 3  # ones_like, expand, the fused op
    assert torch.allclose(g, torch.autograd.grad(fn(x).sum(), x)[0])


def test_a_graph_made_by_backward_takes_the_steps():
    x = _leaf([[0.2, 0.5, 0.7], [0.05, 0.95, 0.3]])
    seen, g = _formula(lambda x: F.silu(x).sum(), x, create_graph=True)
    names = [s[0] for s in seen]
    assert "aten.silu_backward.default" not in names
    assert "aten.sigmoid.default" in names
    assert g.grad_fn is not None


ONE_MINUS = [("aten.empty_like.default", ("T",), {"memory_format": torch.preserve_format}),
             ("aten.fill_.Scalar", ("T", 1.0), {}), ("aten.sub_.Tensor", ("T", "T"), {})]


def test_silus_steps_come_in_torchs_order():
    x = _leaf([[0.2, 0.5, 0.7], [0.05, 0.95, 0.3]])
    y = F.silu(x).sum()
    with Calls() as mode:
        torch.autograd.grad(y, x, create_graph=True)
    assert mode.seen[2:] == [
        ("aten.sigmoid.default", ("T",), {}), ("aten.detach.default", ("T",), {}),
        *ONE_MINUS, ("aten.mul.Tensor", ("T", "T"), {}),
        ("aten.add.Scalar", ("T", 1.0), {}), ("aten.mul.Tensor", ("T", "T"), {}),
        ("aten.mul.Tensor", ("T", "T"), {})]


def test_mishs_steps_come_in_torchs_order():
    x = _leaf([[0.2, 0.5, 0.7], [0.05, 0.95, 0.3]])
    y = F.mish(x).sum()
    with Calls() as mode:
        torch.autograd.grad(y, x, create_graph=True)
    names = [s[0] for s in mode.seen if s[0] != "aten.detach.default"][2:]
    assert names == ["aten.sigmoid.default", "aten.exp.default", "aten.log1p.default",
                     "aten.tanh.default", "aten.mul.Tensor", *[s[0] for s in ONE_MINUS],
                     "aten.mul.Tensor", "aten.mul.Tensor", "aten.add.Tensor", "aten.mul.Tensor"]


@pytest.mark.parametrize("eps, filler", [
    (None, [("aten.empty.memory_format", ([],), OPTIONS),
            ("aten.fill_.Scalar", ("T", math.nan), {})]),
    (0.1, [("aten.zeros.default", ([],), OPTIONS)])])
def test_logits_steps_come_in_torchs_order(eps, filler):
    x = _leaf([[0.2, 0.5, 0.7], [0.05, 0.95, 0.3]])
    y = torch.logit(x, eps).sum()
    with Calls() as mode:
        (g,) = torch.autograd.grad(y, x, create_graph=True)
    low, high = (0.0, 1.0) if eps is None else (eps, 1 - eps)
    expected = [*filler, *ONE_MINUS, ("aten.mul.Tensor", ("T", "T"), {}),
                ("aten.div.Tensor", ("T", "T"), {}), ("aten.le.Scalar", ("T", high), {}),
                ("aten.ge.Scalar", ("T", low), {}), ("aten.logical_and.default", ("T", "T"), {}),
                ("aten.where.self", ("T", "T", "T"), {})]
    seen = [s if s[0] != "aten.fill_.Scalar" or not math.isnan(s[1][1])
            else (s[0], ("T", math.nan), {}) for s in mode.seen[2:]]
    assert len(seen) == len(expected)
    for got, want in zip(seen, expected):
        assert got[0] == want[0] and got[2] == want[2]
        assert all(a == b or a != a and b != b for a, b in zip(got[1], want[1]))
    assert g.grad_fn is not None


def test_atanhs_denominator_comes_first():
    x = _leaf([[0.2, 0.5, 0.7], [0.05, 0.6, 0.3]])
    seen, _ = _formula(lambda x: x.atanh().sum(), x)
    assert [s[0] for s in seen[2:]] == [
        "aten.pow.Tensor_Scalar", *[s[0] for s in ONE_MINUS[:1]], "aten.fill_.Scalar",
        "aten.sub_.Tensor", "aten.mul.Scalar", "aten.div.Tensor"]
    assert seen[3][2] == {"memory_format": torch.preserve_format}
