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
