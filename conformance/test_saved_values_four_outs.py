"""out= of torch._C._nn's pools that return a pair, and of binary_cross_entropy's loss
written through a squeezed view of an out of another shape."""

import math
import warnings

import pytest
import torch

nn = torch._C._nn


def _rand(*shape, seed=0):
    return torch.rand(*shape, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


_POOLS = {
    "adaptive_max_pool2d": lambda x, out: nn.adaptive_max_pool2d(x, 2, out=out),
    "adaptive_max_pool3d": lambda x, out: nn.adaptive_max_pool3d(x.unsqueeze(2), 1, out=out),
    "max_pool2d_with_indices": lambda x, out: nn.max_pool2d_with_indices(x, 2, out=out),
    "max_pool3d_with_indices": lambda x, out: nn.max_pool3d_with_indices(
        x.unsqueeze(2), (1, 2, 2), out=out),
    "fractional_max_pool2d": lambda x, out: nn.fractional_max_pool2d(
        x, 2, 3, _rand(1, 2, 2, seed=1), out=out),
    "fractional_max_pool3d": lambda x, out: nn.fractional_max_pool3d(
        x.unsqueeze(2).expand(1, 2, 5, 5, 5), 2, 3, _rand(1, 2, 3, seed=1), out=out),
}
_WORDS = {"max_pool3d_with_indices": ("expected scalar type Double but found Float",
                                      "expected scalar type Long but found Int")}
_C_WORDS = ("Expected out tensor to have dtype double, but got float instead",
            "Expected out tensor to have dtype long int, but got int instead")


def _pair(values=torch.float64, indices=torch.int64, size=0):
    return torch.empty(size, dtype=values), torch.empty(size, dtype=indices)


@pytest.mark.parametrize("name", sorted(_POOLS))
def test_the_pools_write_a_pair(name):
    x = _rand(1, 2, 5, 5)
    values, indices = _pair()
    result = _POOLS[name](x, (values, indices))
    assert type(result) is tuple and result[0] is values and result[1] is indices
    expected = _POOLS[name](x, None)
    assert torch.equal(values, expected[0]) and torch.equal(indices, expected[1])
    assert values._version == indices._version == 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        values, indices = _pair(size=3)
        _POOLS[name](x, [values, indices])
    assert len(caught) == (0 if name == "max_pool3d_with_indices" else 2)
    assert torch.equal(values, expected[0]) and torch.equal(indices, expected[1])


@pytest.mark.parametrize("name", sorted(_POOLS))
def test_the_pools_refuse_an_out_of_the_wrong_kind(name):
    x = _rand(1, 2, 5, 5)
    words = _WORDS.get(name, _C_WORDS)
    for out, message in (((_pair(torch.float32)), words[0]),
                         ((_pair(indices=torch.int32)), words[1]),
                         ((_pair(torch.float32, torch.int32)), words[0])):
        with pytest.raises(RuntimeError) as caught:
            _POOLS[name](x, out)
        assert str(caught.value) == message
    with pytest.raises(TypeError) as caught:
        _POOLS[name](x, torch.empty(0, dtype=torch.float64))
    assert str(caught.value) == f"{name}(): argument 'out' must be tuple of Tensors, not Tensor"
    with pytest.raises(TypeError, match="^expected tuple of 2 elements but got 3$"):
        _POOLS[name](x, (*_pair(), torch.empty(0)))
    with pytest.raises(RuntimeError) as caught:
        _POOLS[name](x.requires_grad_(), _pair())
    assert str(caught.value) == (f"{name}(): functions with out=... arguments don't support "
                                 "automatic differentiation, but one of the arguments requires "
                                 "grad.")


def _loss():
    p, q = _rand(2, 3), _rand(2, 3, seed=1)
    return p, q, nn.binary_cross_entropy(p, q).flatten()


@pytest.mark.parametrize(("shape", "warned"), [
    ((0,), False), ((3,), True), ((6,), True), ((3, 2), True), ((1,), True), ((), True),
    ((2, 1, 3), False), ((8,), True)])
def test_an_unreduced_loss_keeps_the_outs_shape(shape, warned):
    p, q, loss = _loss()
    out = torch.zeros(shape, dtype=torch.float64)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert nn.binary_cross_entropy(p, q, None, 0, out=out) is out
    assert tuple(out.shape) == shape and out._version == 1
    assert len(caught) == int(warned)
    held = min(out.numel(), 6)
    assert torch.allclose(out.flatten()[:held], loss[:held])
    assert not out.flatten()[held:].any()


@pytest.mark.parametrize("shape", [(0,), (3,), (2, 3), (6,), (1,)])
@pytest.mark.parametrize("reduction", [1, 2])
def test_a_reduced_loss_is_taken_over_what_the_out_shows(shape, reduction):
    p, q, loss = _loss()
    out = torch.zeros(shape, dtype=torch.float64)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nn.binary_cross_entropy(p, q, None, reduction, out=out)
    assert out.shape == () and out._version == 1
    assert len(caught) == int(shape not in ((0,), (2, 3)))
    shown = loss[:math.prod(shape)]
    if reduction == 1 and not shown.numel():
        assert torch.isnan(out)
    else:
        assert torch.allclose(out, shown.sum() if reduction == 2 else shown.mean())
