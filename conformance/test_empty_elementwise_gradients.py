"""Empty elementwise results and gradients with dimensions of size one, as torch lays them out.

torch counts every empty tensor contiguous, so an elementwise op over tensors of
one shape writes a row-major empty result; a zero stride on a size-one
dimension of a gradient breaks the layout contract, so the leaf copies it; and a
fresh empty gradient is taken over as ``.grad`` (version 0) or added into in
place, as a non-empty one is. Also: an op on inference tensors alone gives no
tangent.
"""

import pytest
import torch

SHAPES = [((0, 1), False), ((1, 0), True), ((0, 1, 3), False), ((0, 1, 3), True),
          ((1, 0, 1), False), ((0, 1, 1), False)]
OPS = ["logit", "sinc", "pow", "exp", "atan2"]


def _leaf(shape, transposed):
    x = torch.rand(shape, dtype=torch.float64)
    return (x.transpose(0, -1) if transposed else x).requires_grad_()


def _op(name, x, other):
    if name == "pow":
        return x.pow(other)
    if name == "atan2":
        return x.atan2(other)
    return getattr(x, name)()


# (result, gradient under create_graph, its gradient, .grad) strides, .grad's version
EXPECTED = {
    ((0, 1), False, 'logit'): ((1, 1), (1, 0), (1, 1), (1, 1), 0),
    ((0, 1), False, 'sinc'): ((1, 1), (1, 0), (1, 1), (1, 1), 1),
    ((0, 1), False, 'pow'): ((1, 1), (1, 0), (1, 0), (1, 1), 1),
    ((0, 1), False, 'exp'): ((1, 1), (1, 1), (1, 1), (1, 1), 0),
    ((0, 1), False, 'atan2'): ((1, 1), (1, 1), (1, 1), (1, 1), 0),
    ((1, 0), True, 'logit'): ((1, 1), (1, 0), (1, 1), (1, 1), 0),
    ((1, 0), True, 'sinc'): ((1, 1), (1, 0), (1, 1), (1, 1), 1),
    ((1, 0), True, 'pow'): ((1, 1), (1, 0), (1, 0), (1, 1), 1),
    ((1, 0), True, 'exp'): ((1, 1), (1, 1), (1, 1), (1, 1), 0),
    ((1, 0), True, 'atan2'): ((1, 1), (1, 1), (1, 1), (1, 1), 0),
    ((0, 1, 3), False, 'logit'): ((3, 3, 1), (3, 0, 1), (3, 3, 1), (3, 3, 1), 0),
    ((0, 1, 3), False, 'sinc'): ((3, 3, 1), (3, 0, 1), (3, 3, 1), (3, 3, 1), 1),
    ((0, 1, 3), False, 'pow'): ((3, 3, 1), (3, 0, 1), (3, 0, 1), (3, 3, 1), 1),
    ((0, 1, 3), False, 'exp'): ((3, 3, 1), (3, 3, 1), (3, 3, 1), (3, 3, 1), 0),
    ((0, 1, 3), False, 'atan2'): ((3, 3, 1), (3, 3, 1), (3, 3, 1), (3, 3, 1), 0),
    ((0, 1, 3), True, 'logit'): ((1, 1, 1), (1, 1, 1), (1, 1, 1), (1, 3, 3), 1),
    ((0, 1, 3), True, 'sinc'): ((1, 1, 1), (1, 1, 1), (1, 1, 1), (1, 3, 3), 1),
    ((0, 1, 3), True, 'pow'): ((1, 1, 1), (1, 3, 3), (1, 0, 3), (1, 3, 3), 0),
    ((0, 1, 3), True, 'exp'): ((1, 1, 1), (1, 1, 1), (1, 1, 1), (1, 3, 3), 1),
    ((0, 1, 3), True, 'atan2'): ((1, 1, 1), (1, 1, 1), (1, 1, 1), (1, 3, 3), 1),
    ((1, 0, 1), False, 'logit'): ((1, 1, 1), (0, 1, 0), (1, 1, 1), (1, 1, 1), 0),
    ((1, 0, 1), False, 'sinc'): ((1, 1, 1), (0, 1, 0), (1, 1, 1), (1, 1, 1), 1),
    ((1, 0, 1), False, 'pow'): ((1, 1, 1), (0, 1, 0), (0, 1, 0), (1, 1, 1), 1),
    ((1, 0, 1), False, 'exp'): ((1, 1, 1), (1, 1, 1), (1, 1, 1), (1, 1, 1), 0),
    ((1, 0, 1), False, 'atan2'): ((1, 1, 1), (1, 1, 1), (1, 1, 1), (1, 1, 1), 0),
    ((0, 1, 1), False, 'logit'): ((1, 1, 1), (1, 0, 0), (1, 1, 1), (1, 1, 1), 0),
    ((0, 1, 1), False, 'sinc'): ((1, 1, 1), (1, 0, 0), (1, 1, 1), (1, 1, 1), 1),
    ((0, 1, 1), False, 'pow'): ((1, 1, 1), (1, 0, 0), (1, 0, 0), (1, 1, 1), 1),
    ((0, 1, 1), False, 'exp'): ((1, 1, 1), (1, 1, 1), (1, 1, 1), (1, 1, 1), 0),
    ((0, 1, 1), False, 'atan2'): ((1, 1, 1), (1, 1, 1), (1, 1, 1), (1, 1, 1), 0),
}


@pytest.mark.parametrize("shape,transposed", SHAPES)
@pytest.mark.parametrize("name", OPS)
def test_empty_results_and_gradients_take_torchs_layout(shape, transposed, name):
    x, other = _leaf(shape, transposed), _leaf(shape, transposed)
    y = _op(name, x, other)
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), x)
    fresh = _leaf(shape, transposed)
    _op(name, fresh, other.detach()).sum().backward()
    got = (y.stride(), g.stride(), gg.stride(), fresh.grad.stride(), fresh.grad._version)
    assert got == EXPECTED[(shape, transposed, name)]


@pytest.mark.parametrize("branches,version", [(("exp", "logit"), 1), (("exp", "sin", "logit"), 2)])
def test_empty_gradients_reaching_a_leaf_twice_are_added_in_place(branches, version):
    x = torch.rand(0, 1, dtype=torch.float64, requires_grad=True)
    sum(getattr(x, name)() for name in branches).sum().backward()
    assert (x.grad.stride(), x.grad._version) == ((1, 1), version)


@pytest.mark.parametrize("make", [lambda: torch.rand(0, 3).t(),
                                  lambda: torch.rand(2, 0, 3).permute(2, 0, 1)])
def test_deg2rad_keeps_an_empty_inputs_strides(make):
    x = make()
    assert x.deg2rad().stride() == x.stride()
    assert x.rad2deg().stride() == x.stride()


def test_an_op_on_inference_tensors_alone_gives_no_tangent():
    import torch.autograd.forward_ad as fwAD

    with torch.inference_mode():
        primal = torch.rand(2, 1)
    with fwAD.dual_level():
        dual = fwAD.make_dual(primal, torch.ones_like(primal))
        assert fwAD.unpack_dual(dual).tangent is not None
        assert fwAD.unpack_dual(dual.sin()).tangent is None
        assert fwAD.unpack_dual(dual.view(2)).tangent is None
        assert fwAD.unpack_dual(dual * 2).tangent is not None  # a number has autograd's keys
        assert fwAD.unpack_dual(dual + torch.rand(2, 1)).tangent is not None
