"""The rows the saved-values sweeps had not called: what each node keeps, compared with
torch's; the grid sampler's double backward shows its numbers, and _index_put_impl_ is
bound by torch's name."""

import pytest
import torch

from conformance._saved_values_five_rows import CASES as ROWS
from conformance._saved_values_five_twice import CASES as TWICE
from conformance._saved_values_five_twice import _leaf

CASES = {**TWICE, **ROWS}


def _shown(value):
    if isinstance(value, torch.Tensor):
        return tuple(value.shape), str(value.dtype).replace("torch.", "")
    if isinstance(value, tuple) and value and isinstance(value[0], torch.Tensor):
        return tuple(tuple(t.shape) for t in value)  # a list of tensors, such as indices
    return value


def _kept(out):
    node = out.grad_fn
    return node.name(), {name[7:]: _shown(getattr(node, name)) for name in dir(node)
                         if name.startswith("_saved_")}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_node_keeps_what_torchs_keeps(name):
    call, expected = CASES[name]
    torch.manual_seed(0)
    kept = _kept(call(_leaf(3, 4)))
    assert kept == expected
    assert all(type(kept[1][k]) is type(v) for k, v in expected[1].items())


def test_index_put_impl_writes_in_place_and_differentiates():
    x, values = _leaf(5) * 1, _leaf(2, seed=1)
    out = torch._index_put_impl_(x, (torch.tensor([0, 0]),), values, True, True)
    assert out is x and x._version == 1 and out.grad_fn.name() == "IndexPutImplBackward0"
    assert torch.allclose(x[0], _leaf(5)[0] + values.sum())
    (grad,) = torch.autograd.grad(x.sum(), values)
    assert torch.equal(grad, torch.ones(2, dtype=torch.float64))
    again = torch.ops.aten._index_put_impl_(_leaf(5) * 1, [torch.tensor([1])], values[:1])
    assert again.grad_fn._saved_accumulate is False
    assert "_index_put_impl_" in dir(torch)
    fw = torch.autograd.forward_ad
    with fw.dual_level():
        dual = fw.make_dual(torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64))
        written = fw.make_dual(torch.ones(1, dtype=torch.float64),
                               torch.full((1,), 3.0, dtype=torch.float64))
        tangent = fw.unpack_dual(torch._index_put_impl_(dual, (torch.tensor([2]),), written, True))
    assert tangent.tangent.tolist() == [1.0, 1.0, 4.0]


_TARGET = (torch.tensor([0, 2]),)


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda x: torch._index_put_impl_(x, (None,), torch.ones(2)), TypeError,
     "expected Tensor as element 0 in argument 1, but got NoneType"),
    (lambda x: torch._index_put_impl_(x, _TARGET, 1.0), TypeError,
     "_index_put_impl_(): argument 'values' (position 3) must be Tensor, not float"),
    (lambda x: torch._index_put_impl_(x, _TARGET, torch.ones(2), 1), TypeError,
     "_index_put_impl_(): argument 'accumulate' (position 4) must be bool, not int"),
    (lambda x: torch._index_put_impl_(x, _TARGET, torch.ones(2), unsafe=3), TypeError,
     "_index_put_impl_(): argument 'unsafe' must be bool, not int"),
    (lambda x: torch._index_put_impl_(x, _TARGET), TypeError,
     "_index_put_impl_() missing 1 required positional arguments: \"values\""),
    (lambda x: torch._index_put_impl_(x, _TARGET, torch.ones(2), False, False, 1), TypeError,
     "_index_put_impl_() takes from 3 to 5 positional arguments but 6 were given"),
    (lambda x: torch._index_put_impl_(x.detach().requires_grad_(), _TARGET, torch.ones(2)),
     RuntimeError, "a leaf Variable that requires grad is being used in an in-place operation."),
    (lambda x: torch._index_put_impl_(x, (torch.tensor([7]),), torch.ones(1)), IndexError,
     "index 7 is out of bounds for dimension 0 with size 5"),
])
def test_index_put_impl_refuses_in_torchs_words(call, error, message):
    with pytest.raises(error) as caught:
        call(torch.zeros(5))
    assert str(caught.value) == message


def _cropped_or_cornered(x, w, b, stride, padding):
    """What torch's slow 2-d kernel computes for a padding below zero."""
    F = torch.nn.functional
    if max(padding) <= 0:  # read as if unpadded: the output is that one's top-left corner
        sizes = [(n + 2 * p - k) // s + 1
                 for n, k, s, p in zip(x.shape[2:], w.shape[2:], stride, padding)]
        return F.conv2d(x, w, b, stride)[..., :sizes[0], :sizes[1]]
    for dim, p in zip((2, 3), padding):  # each read checked: the rows below zero cropped
        if p < 0:
            x = x.narrow(dim, -p, x.shape[dim] + 2 * p)
    return F.conv2d(x, w, b, stride, [max(p, 0) for p in padding])


@pytest.mark.parametrize(("stride", "padding"), [
    ((1, 1), (-1, -1)), ((1, 1), (0, -1)), ((2, 1), (-1, 0)), ((1, 2), (1, -1)),
    ((1, 1), (-2, 1)), ((2, 2), (2, -1))])
def test_thnn_conv2d_takes_a_padding_below_zero(stride, padding):
    x, w, b = _leaf(2, 2, 6, 7), _leaf(3, 2, 2, 3, seed=1), _leaf(3, seed=2)
    out = torch._C._nn.thnn_conv2d(x, w, (2, 3), b, stride, padding)
    expected = _cropped_or_cornered(x, w, b, stride, padding)
    assert out.shape == expected.shape and torch.allclose(out, expected)
    assert out.grad_fn._saved_padding == tuple(p % 2 ** 64 for p in padding)
    g = _leaf(*out.shape, seed=3).detach()
    mine = torch.autograd.grad(out, (x, w, b), g, create_graph=True)
    for got, wanted in zip(mine, torch.autograd.grad(expected, (x, w, b), g)):
        assert torch.allclose(got, wanted)
    assert mine[0].grad_fn._saved_padding == out.grad_fn._saved_padding
    with pytest.raises(RuntimeError, match="^negative padding is not supported$"):
        torch.autograd.grad(mine[0].sum(), (x, w))


def _bce_into(out, weight=None, reduction=0):
    """binary_cross_entropy into ``out``: (the loss, unreduced, as a row; the warnings)."""
    import warnings

    p, q = _leaf(2, 3).detach(), _leaf(2, 3, seed=1).detach()
    version = out._version
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            assert torch._C._nn.binary_cross_entropy(p, q, weight, reduction, out=out) is out
        finally:
            loss = torch.nn.functional.binary_cross_entropy(p, q, reduction="none").flatten()
    assert out._version == version + 1
    return loss, len(seen)


def test_bce_out_with_a_weight_is_weighed_as_out_shows_it():
    weight = _leaf(2, 3, seed=2).detach()
    out = torch.zeros(2, 3, dtype=torch.float64)
    loss, warned = _bce_into(out, weight, 2)
    assert warned == 0 and out.shape == () and torch.allclose(out, (loss * weight.flatten()).sum())
    row = torch.zeros(1, 3, dtype=torch.float64)
    loss, warned = _bce_into(row, weight[0], 2)
    assert warned == 1 and torch.allclose(row, (loss[:3] * weight[0]).sum())
    for out, message in [
            (torch.zeros(3, dtype=torch.float64),
             "output with shape [3] doesn't match the broadcast shape [2, 3]"),
            (torch.zeros(0, dtype=torch.float64), "The size of tensor a (0) must match the size "
             "of tensor b (3) at non-singleton dimension 1")]:
        with pytest.raises(RuntimeError) as caught:
            _bce_into(out, weight)
        assert str(caught.value) == message


def test_bce_out_not_contiguous_shows_what_the_squeezed_view_wrote():
    every_other = torch.zeros(6, dtype=torch.float64)[::2]
    loss, warned = _bce_into(every_other)
    assert warned == 1 and every_other.stride() == (2,)
    assert torch.equal(every_other, loss[::2])
    loss, warned = _bce_into(torch.zeros(6, dtype=torch.float64)[::2], None, 1)
    assert warned == 1
    transposed = torch.zeros(3, 2, dtype=torch.float64).t()
    loss, warned = _bce_into(transposed, None, 1)
    assert warned == 0 and transposed.shape == () and torch.allclose(transposed, loss.mean())
    memory = torch.zeros(8, dtype=torch.float64)
    loss, warned = _bce_into(memory[2:5])
    assert warned == 1 and torch.equal(memory[2:], loss) and not memory[:2].any()
