"""Black-box tests: the overload a dispatch mode is handed for common ops (str(func),
func.name(), func.overloadpacket), nonzero and its forms reaching a mode, and the copy of
an inference tensor made under a mode. The same assertions run on torch.
"""

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode


class Seen(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.seen = []
        self.funcs = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append(str(func))
        self.funcs.append(func)
        return func(*args, **(kwargs or {}))


def _tensors():
    x = torch.tensor([[0.5, -0.25], [0.75, 0.1]])
    y = torch.tensor([[1.5, 2.0], [3.0, 4.0]])
    return x, y, torch.tensor([[1, 2], [3, 4]]), x > 0.2


OVERLOADS = [  # (the call on x, y, an integer tensor i and a bool mask b; what the mode sees)
    (lambda x, y, i, b: x + y, ["aten.add.Tensor"]),
    (lambda x, y, i, b: x + 2, ["aten.add.Tensor"]),
    (lambda x, y, i, b: torch.add(x, y, alpha=2), ["aten.add.Tensor"]),
    (lambda x, y, i, b: 2 - x, ["aten.rsub.Scalar"]),
    (lambda x, y, i, b: x * 2, ["aten.mul.Tensor"]),
    (lambda x, y, i, b: x / y, ["aten.div.Tensor"]),
    (lambda x, y, i, b: torch.div(x, 2, rounding_mode="floor"), ["aten.div.Tensor_mode"]),
    (lambda x, y, i, b: x // 2, ["aten.floor_divide.default"]),
    (lambda x, y, i, b: x % 2, ["aten.remainder.Scalar"]),
    (lambda x, y, i, b: x % y, ["aten.remainder.Tensor"]),
    (lambda x, y, i, b: torch.fmod(x, 2), ["aten.fmod.Scalar"]),
    (lambda x, y, i, b: x ** 2, ["aten.pow.Tensor_Scalar"]),
    (lambda x, y, i, b: x ** y, ["aten.pow.Tensor_Tensor"]),
    (lambda x, y, i, b: 2 ** x, ["aten.pow.Scalar"]),  # refgrad's row takes a "self"
    (lambda x, y, i, b: torch.xlogy(2, x), ["aten.xlogy.Scalar_Self"]),
    (lambda x, y, i, b: 2 % x, ["aten.remainder.Scalar_Tensor"]),
    (lambda x, y, i, b: x > 0.2, ["aten.gt.Scalar"]),
    (lambda x, y, i, b: x > y, ["aten.gt.Tensor"]),
    (lambda x, y, i, b: x == 0.5, ["aten.eq.Scalar"]),
    (lambda x, y, i, b: x.sum(), ["aten.sum.default"]),
    (lambda x, y, i, b: x.sum(0), ["aten.sum.dim_IntList"]),
    (lambda x, y, i, b: x.sum(dim=(0, 1), keepdim=True), ["aten.sum.dim_IntList"]),
    (lambda x, y, i, b: x.mean(1), ["aten.mean.dim"]),
    (lambda x, y, i, b: x.prod(0), ["aten.prod.dim_int"]),
    (lambda x, y, i, b: x.max(), ["aten.max.default"]),
    (lambda x, y, i, b: x.max(0), ["aten.max.dim"]),
    (lambda x, y, i, b: x.var(0), ["aten.var.correction"]),
    (lambda x, y, i, b: x.median(0), ["aten.median.dim"]),
    (lambda x, y, i, b: x.clamp(0, 0.3), ["aten.clamp.default"]),
    (lambda x, y, i, b: x.clamp(min=y), ["aten.clamp.Tensor"]),
    (lambda x, y, i, b: x.round(), ["aten.round.default"]),
    (lambda x, y, i, b: x.round(decimals=1), ["aten.round.decimals"]),
    (lambda x, y, i, b: x.transpose(0, 1), ["aten.transpose.int"]),
    (lambda x, y, i, b: x[0], ["aten.select.int"]),
    (lambda x, y, i, b: x[:, 1:], ["aten.slice.Tensor"]),
    (lambda x, y, i, b: x[b], ["aten.index.Tensor"]),
    (lambda x, y, i, b: x.split(1), ["aten.split.Tensor"]),
    (lambda x, y, i, b: x.unbind(), ["aten.unbind.int"]),
    (lambda x, y, i, b: x.unsqueeze(0).squeeze(0), ["aten.unsqueeze.default", "aten.squeeze.dim"]),
    (lambda x, y, i, b: torch.where(b, x, y), ["aten.where.self"]),
    (lambda x, y, i, b: x.masked_fill(b, 0.0), ["aten.masked_fill.Scalar"]),
    (lambda x, y, i, b: x.lerp(y, 0.5), ["aten.lerp.Scalar"]),
    (lambda x, y, i, b: x.lerp(y, y), ["aten.lerp.Tensor"]),
    (lambda x, y, i, b: torch.xlogy(x, 2), ["aten.xlogy.Scalar_Other"]),
    (lambda x, y, i, b: i & 1, ["aten.bitwise_and.Scalar"]),
    (lambda x, y, i, b: i & i, ["aten.bitwise_and.Tensor"]),
    (lambda x, y, i, b: b.all(), ["aten.all.default"]),
    (lambda x, y, i, b: b.any(0), ["aten.any.dim"]),
    (lambda x, y, i, b: x.softmax(0), ["aten._softmax.default"]),
    (lambda x, y, i, b: torch.linalg.pinv(y), ["aten.linalg_pinv.atol_rtol_tensor"]),
    (lambda x, y, i, b: torch.linalg.svd(y), ["aten._linalg_svd.default"]),
    (lambda x, y, i, b: torch.nn.functional.logsigmoid(x), ["aten.log_sigmoid_forward.default"]),
    (lambda x, y, i, b: torch.nn.functional.nll_loss(x, i[0] - 1),
     ["aten.select.int", "aten.sub.Tensor", "aten.nll_loss_forward.default"]),
    (lambda x, y, i, b: x.to(torch.float64), ["aten._to_copy.default"]),
    (lambda x, y, i, b: x.clone().pow_(2), ["aten.clone.default", "aten.pow_.Scalar"]),
    (lambda x, y, i, b: x.clone().pow_(y), ["aten.clone.default", "aten.pow_.Tensor"]),
    (lambda x, y, i, b: x.clone().lt_(y), ["aten.clone.default", "aten.lt_.Tensor"]),
    (lambda x, y, i, b: x.clone().add_(2), ["aten.clone.default", "aten.add_.Tensor"]),
    (lambda x, y, i, b: x.clone().div_(y, rounding_mode="trunc"),
     ["aten.clone.default", "aten.div_.Tensor_mode"]),
    (lambda x, y, i, b: x.clone().clamp_(y), ["aten.clone.default", "aten.clamp_.Tensor"]),
    (lambda x, y, i, b: x.clone().fill_(2), ["aten.clone.default", "aten.fill_.Scalar"]),
    (lambda x, y, i, b: x.clone().round_(decimals=0),
     ["aten.clone.default", "aten.round_.decimals"]),
]


@pytest.mark.parametrize(("call", "seen"), OVERLOADS)
def test_a_mode_is_handed_the_overload_the_arguments_choose(call, seen):
    x, y, i, b = _tensors()
    with Seen() as mode:
        call(x, y, i, b)
    assert mode.seen == seen


def test_func_names_itself_as_an_op_overload():
    x = torch.ones(2, 3)
    with Seen() as mode:
        x.sum(0), x.sum(), x.neg()
    by_dim, whole, neg = mode.funcs
    assert (by_dim.name(), whole.name(), neg.name()) == ("aten::sum.dim_IntList", "aten::sum",
                                                         "aten::neg")
    assert (by_dim.__name__, whole.__name__) == ("sum.dim_IntList", "sum.default")
    assert by_dim._overloadname == "dim_IntList" and by_dim.namespace == "aten"
    assert repr(by_dim) == "<OpOverload(op='aten.sum', overload='dim_IntList')>"
    assert by_dim.overloadpacket is whole.overloadpacket
    assert by_dim.overloadpacket.__name__ == "sum" and str(by_dim.overloadpacket) == "aten.sum"
    assert repr(neg.overloadpacket) == "<OpOverloadPacket(op='aten.neg')>"


def _inputs(kind):
    """A normal 2 x 2 tensor with one zero, its mask, and the mode's context."""
    if kind == "inference tensors":
        with torch.inference_mode():
            x = torch.tensor([[0.5, 0.0], [0.75, 0.1]])
            return x, x > 0.2
    x = torch.tensor([[0.5, 0.0], [0.75, 0.1]])
    return x, x > 0.2


NONZERO = [  # (the call, what the mode sees with autograd on, where it is out of the way)
    (lambda x, b: x.nonzero(), ["aten.nonzero.default"], ["aten.nonzero.default"]),
    (lambda x, b: torch.nonzero(x), ["aten.nonzero.default"], ["aten.nonzero.default"]),
    (lambda x, b: torch.nonzero(x, as_tuple=True), ["aten.nonzero.default", "aten.unbind.int"],
     ["aten.nonzero_numpy.default"]),
    (lambda x, b: x.nonzero(as_tuple=True), ["aten.nonzero.default", "aten.unbind.int"],
     ["aten.nonzero_numpy.default"]),
    (lambda x, b: torch.where(b), ["aten.nonzero.default", "aten.unbind.int"],
     ["aten.where.default"]),
    (lambda x, b: torch.argwhere(x), ["aten.nonzero.default"], ["aten.argwhere.default"]),
    (lambda x, b: x[b], ["aten.index.Tensor"], ["aten.index.Tensor"]),
]


@pytest.mark.parametrize(("call", "on", "off"), NONZERO)
@pytest.mark.parametrize("kind", ["normal", "inference mode", "inference tensors"])
def test_nonzero_and_its_forms_reach_a_mode(call, on, off, kind):
    x, b = _inputs(kind)
    if kind == "inference mode":
        with torch.inference_mode(), Seen() as mode:
            out = call(x, b)
    else:
        with Seen() as mode:
            out = call(x, b)
    assert mode.seen == (on if kind == "normal" else off)
    piece = out[-1] if isinstance(out, tuple) else out
    assert piece._is_view() == (kind == "normal" and isinstance(out, tuple))
    if not piece.is_inference():
        assert piece._version == 0  # made below the mode: no write counted


def test_nonzero_as_tuple_gives_views_of_the_positions_as_torch_does():
    x, _ = _inputs("normal")
    rows, columns = torch.nonzero(x, as_tuple=True)
    assert rows._is_view() and rows._base is columns._base and rows.stride() == (1,)
    assert rows.tolist() == [0, 1, 1] and columns.tolist() == [0, 0, 1]
    (only,) = torch.nonzero(torch.tensor(2.0), as_tuple=True)
    assert only.tolist() == [0] and only._is_view()
    z, _ = _inputs("inference tensors")  # a normal result, its write into it counted
    assert z.nonzero()._version == 1 and torch.argwhere(z)._version == 1
    assert torch.nonzero(z, as_tuple=True)[0]._version == 1


@pytest.mark.parametrize("requires_grad", [False, True])
def test_a_copy_of_an_inference_tensor_under_a_mode_is_seen_alone_and_uncounted(requires_grad):
    with torch.inference_mode():
        z = torch.ones(2, 2, requires_grad=requires_grad)
    with Seen() as mode:
        c = z.clone()
        d = z.to(torch.float64)
    assert mode.seen == ["aten.clone.default", "aten.to.dtype"]
    for out in (c, d):
        assert out._version == 0 and out.grad_fn is None and not out.requires_grad
        assert not out.is_inference()
    plain = z.clone()  # without a mode: torch's write into the fresh copy, counted
    assert plain._version == 1 and (plain.grad_fn is not None) == requires_grad


def test_count_nonzero_and_nonzero_static_reach_a_mode():
    x, _ = _inputs("normal")
    with Seen() as mode:
        every = torch.count_nonzero(x)
        by_dims = torch.count_nonzero(x, (0, 1))
        along = x.count_nonzero(0)
        static = torch.nonzero_static(x, size=2)
    assert mode.seen == ["aten.count_nonzero.default", "aten.count_nonzero.dim_IntList",
                         "aten.count_nonzero.default", "aten.nonzero_static.default"]
    assert (every.item(), by_dims.item(), along.tolist()) == (3, 3, [2, 1])
    assert static.tolist() == [[0, 0], [1, 0]]


def test_bincount_and_histc_reach_a_mode_with_the_arguments_given():
    counts, weights = torch.tensor([0, 2, 2]), torch.tensor([0.5, 1.0, 2.0])
    with Seen() as mode:
        torch.bincount(counts), counts.bincount(weights), torch.bincount(counts, minlength=5)
        torch.histc(weights), weights.histc(bins=4, min=0, max=3)
    assert mode.seen == ["aten.bincount.default"] * 3 + ["aten.histc.default"] * 2


class Arguments(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.given = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.given.append((args[1:], kwargs or {}))
        return func(*args, **(kwargs or {}))


def test_bincount_and_histc_are_given_their_arguments_up_to_the_last_that_is_not_default():
    counts, weights = torch.tensor([0, 2, 2]), torch.tensor([0.5, 1.0, 2.0])
    with Arguments() as mode:
        torch.bincount(counts), torch.bincount(counts, minlength=5), weights.histc(3)
        torch.histc(weights, bins=4, min=0, max=3)
    assert mode.given == [((), {}), ((None, 5), {}), ((3,), {}), ((4, 0, 3), {})]
