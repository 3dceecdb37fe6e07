"""Black-box tests: behaviour the differential fuzzer found in its sixteenth round.

The class margin losses run no kernel for an empty batch, so no dtype is refused
there; prelu's second derivative gives contiguous zeros where no gradient came;
a refused op frees its operands at once, so a leaf's gradient accumulator does
not outlive it; max and min along a dimension of a 0-d inference tensor write
their results once; as_strided's gradient for an empty tensor is written once;
scatter with reduce and an empty index asks nothing of src; and max, min, amax
and amin refuse an empty dimension after the autograd layer's work. The same
assertions run on torch.
"""

import warnings

import pytest
import torch
import torch.nn.functional as F

STALE = "A view was created in inference mode and its base or another view of its base"


def _empty(dtype):
    return torch.zeros(0, 3, dtype=dtype)


@pytest.mark.parametrize("dtype", [torch.int64, torch.bool, torch.int32, torch.float16])
def test_multi_margin_loss_of_an_empty_batch_refuses_no_dtype(dtype):
    loss = F.multi_margin_loss(_empty(dtype), torch.zeros(0, dtype=torch.int64),
                               reduction="none")
    assert loss.dtype == dtype and loss.shape == (0,)


def test_multi_margin_loss_of_an_empty_batch_checks_neither_target_nor_weight_dtype():
    loss = F.multi_margin_loss(_empty(torch.float32), torch.zeros(0, dtype=torch.int32),
                               weight=torch.ones(3, dtype=torch.float64), reduction="none")
    assert loss.dtype == torch.float32 and loss.shape == (0,)
    assert F.multi_margin_loss(_empty(torch.int64), torch.zeros(0, dtype=torch.int64),
                               reduction="sum").dtype == torch.int64


@pytest.mark.parametrize("dtype", [torch.int64, torch.float16])
def test_multilabel_margin_loss_of_an_empty_batch_refuses_no_dtype(dtype):
    loss = F.multilabel_margin_loss(_empty(dtype), torch.zeros(0, 3, dtype=torch.int64),
                                    reduction="none")
    assert loss.dtype == dtype and loss.shape == (0,)


def test_an_empty_float16_batch_has_a_gradient():
    x = torch.zeros(0, 3, dtype=torch.float16, requires_grad=True)
    F.multi_margin_loss(x, torch.zeros(0, dtype=torch.int64), reduction="none").sum().backward()
    assert x.grad.dtype == torch.float16 and x.grad.shape == (0, 3)


@pytest.mark.parametrize("make", [lambda: torch.rand(2, 1).t(), lambda: torch.rand(3, 2).t(),
                                  lambda: torch.rand(1, 3, 1).permute(2, 1, 0),
                                  lambda: torch.rand(2, 3, 2, 2).to(
                                      memory_format=torch.channels_last)])
def test_prelus_second_derivative_zeros_are_contiguous(make):
    v = make().requires_grad_(True)
    w = torch.rand(1, requires_grad=True)
    g, = torch.autograd.grad(F.prelu(v, w).sum(), v, create_graph=True)
    h, = torch.autograd.grad(g.sum(), v)
    assert h.is_contiguous() and h._version == 1
    assert not h.any()


def test_a_refused_op_frees_its_operands_and_the_leafs_accumulator():
    v = torch.rand(2, 1).t().requires_grad_(True)
    y = torch.rand(2, 3, 2).permute(2, 0, 1)
    try:
        v.exp() * y  # does not broadcast
    except RuntimeError:
        pass
    with torch.no_grad():
        v.swapdims_(0, -1)
    v.sum().backward()  # a new accumulator, made for the new shape
    assert v.grad.shape == (2, 1)


@pytest.mark.parametrize("keepdim", [True, False])
@pytest.mark.parametrize("op", ["max", "min"])
def test_max_along_a_dimension_of_a_0d_inference_tensor_writes_once(op, keepdim):
    with torch.inference_mode():
        a = torch.rand(())
    assert [r._version for r in getattr(a, op)(0, keepdim=keepdim)] == [1, 1]
    assert [r._version for r in getattr(a, op)(-1, keepdim=keepdim)] == [1, 1]


@pytest.mark.parametrize("base, size, stride", [((2, 3), (0,), (1,)), ((0, 3), (0, 1), (3, 1)),
                                                 ((2, 3), (2, 0), (3, 1)), ((0,), (0,), (1,))])
def test_as_strideds_gradient_for_an_empty_view_is_written_once(base, size, stride):
    x = torch.zeros(base, requires_grad=True)
    x.as_strided(size, stride).sum().backward()
    assert x.grad.shape == base and x.grad._version == 1


def test_a_no_grad_write_through_an_empty_views_view_leaves_the_gradient_written_once():
    v = torch.zeros(0, 3).requires_grad_(True)
    w = v[..., :1]
    with torch.no_grad():
        w.unsqueeze(0).squeeze(0).add_(1)
    w.sum().backward()
    assert v.grad._version == 1


@pytest.mark.parametrize("reduce", ["add", "multiply"])
def test_scatter_with_reduce_and_an_empty_index_asks_nothing_of_src(reduce):
    src = torch.tensor([1.5, -2.0, 0.0])
    index = torch.zeros(0, 3, dtype=torch.int64)
    x, y = torch.zeros(0, 3), torch.ones(2, 3)
    with warnings.catch_warnings():  # reduce= with a tensor src is deprecated, warned once
        warnings.simplefilter("ignore", UserWarning)
        assert x.scatter_(0, index, src, reduce=reduce) is x and x._version == 1
        assert torch.equal(y.scatter(0, index, src, reduce=reduce), y)
    assert torch.equal(y.scatter_(0, index, 2.0, reduce=reduce), torch.ones(2, 3))


def _stale():
    base = torch.zeros(0, 3).requires_grad_(True).clone()
    with torch.inference_mode():
        view = base.squeeze()
    base.mul_(2)
    return view


@pytest.mark.parametrize("call", [lambda t: t.max(0, keepdim=True), lambda t: t.min(0),
                                  lambda t: t.max(), lambda t: t.amax(0), lambda t: t.amin(),
                                  lambda t: t.max(5)])
def test_a_stale_inference_view_is_refused_before_the_empty_dimension(call):
    with pytest.raises(RuntimeError, match=STALE):
        call(_stale())


@pytest.mark.parametrize("call, error, saves", [  # max.dim keeps only its indices, an output
    (lambda t: t.max(), RuntimeError, 1), (lambda t: t.max(0), IndexError, 0),
    (lambda t: t.min(5), IndexError, 0), (lambda t: t.amax(0), IndexError, 1),
    (lambda t: t.amin(), RuntimeError, 1)])
def test_an_empty_dimension_is_refused_after_the_node_is_numbered_and_saved(call, error, saves):
    x = torch.zeros(0, 3, requires_grad=True)
    before = (x * 1).grad_fn._sequence_nr()
    packed = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        with pytest.raises(error):
            call(x)
    assert (x * 1).grad_fn._sequence_nr() - before == 2
    assert len(packed) == saves and all(t is x for t in packed)
