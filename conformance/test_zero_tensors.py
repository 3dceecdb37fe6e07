"""sgn's gradient is a zero tensor: what it says of itself, what it refuses, how a leaf
and a dispatch mode receive it."""

import warnings

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from conformance._support import raises

IMMUTABLE = ("ZeroTensors are immutable. Please use the materialized zero tensor obtained "
             "using .clone() if you want a mutable tensor.")
COPY_IMMUTABLE = ("ZeroTensors are immutable. Please materialize the tensor using `.clone()`, "
                  "if you want a mutable zero tensor.")


def _leaf():
    return torch.tensor([1.0, -2.0], requires_grad=True)


def _sgn_grad(x=None):
    x = _leaf() if x is None else x
    return torch.autograd.grad(x.sgn().sum(), x)[0]


def test_sgn_gradient_is_a_zero_tensor():
    g = _sgn_grad()
    assert g._is_zerotensor()
    assert not _leaf()._is_zerotensor()
    assert not torch.zeros(2)._is_zerotensor()
    assert repr(g) == "tensor([0., 0.])"
    assert g.data_ptr() == 0
    assert g[0].item() == 0.0
    assert (g + 1).tolist() == [1.0, 1.0]
    assert g.detach()._is_zerotensor()
    assert not g.clone()._is_zerotensor()
    assert g.numpy(force=True).tolist() == [0.0, 0.0]


VIEWS = [lambda g: g.view(4), lambda g: g.detach().reshape(-1), lambda g: g[0],
         lambda g: g.t(), lambda g: g[0].expand(3, 2), lambda g: g.unsqueeze(0),
         lambda g: g.select(1, 0), lambda g: g.narrow(0, 0, 1), lambda g: g.diagonal(),
         lambda g: g.split(1)[0], lambda g: g.flatten(), lambda g: g.as_strided((2,), (1,)),
         lambda g: g.view_as(g)]


@pytest.mark.parametrize("view", VIEWS)
def test_a_view_of_a_zero_tensor_is_one(view):
    x = torch.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
    x.sgn().sum().backward()
    v = view(x.grad)
    assert v._is_zerotensor() and v.data_ptr() == 0
    with raises(RuntimeError, "tolist() shouldn't be called on a tensor with unallocated "
                              "storage"):
        v.tolist()
    with raises(RuntimeError, IMMUTABLE):
        v.add_(1)


def test_a_view_of_a_zero_tensor_points_at_its_offset():
    x = torch.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
    x.sgn().sum().backward()
    row, column = x.grad[1], x.grad.t()[1]  # offsets 2 and 1, from no memory at all
    assert (row.data_ptr(), column.data_ptr()) == (8, 4)
    assert row._is_zerotensor() and column._is_zerotensor()
    with raises(RuntimeError, IMMUTABLE):
        row.add_(1)


@pytest.mark.parametrize("copy", [lambda g: g.clone(), lambda g: g + 1, lambda g: g.neg(),
                                  lambda g: g.sum(), lambda g: g.double()])
def test_a_copy_of_a_zero_tensor_is_plain(copy):
    c = copy(_sgn_grad().view(2, 1))
    assert not c._is_zerotensor()
    assert all(value == 0 or value == 1 for value in c.reshape(-1).tolist())


def test_is_zerotensor_takes_no_arguments():
    with raises(TypeError, "TensorBase._is_zerotensor() takes no arguments (1 given)"):
        _sgn_grad()._is_zerotensor(1)


def test_a_zero_tensor_has_no_list_and_no_array():
    g = _sgn_grad()
    with raises(RuntimeError, "tolist() shouldn't be called on a tensor with unallocated "
                              "storage"):
        g.tolist()
    with raises(RuntimeError, " Cannot convert a ZeroTensor to numpy. Set force=True if you "
                              "need the zero array."):
        g.numpy()


@pytest.mark.parametrize("write", [lambda g: g.add_(1), lambda g: g.mul_(2),
                                   lambda g: g.zero_(), lambda g: g.fill_(3),
                                   lambda g: g.neg_()])
def test_a_zero_tensor_refuses_writes(write):
    g = _sgn_grad()
    with raises(RuntimeError, IMMUTABLE):
        write(g)
    assert g._version == 0


def test_copy_into_a_zero_tensor_refuses_in_its_own_words():
    with raises(RuntimeError, COPY_IMMUTABLE):
        _sgn_grad().copy_(torch.ones(2))


def test_the_leaf_takes_the_zero_tensor_and_refuses_a_second_gradient():
    x = _leaf()
    x.sgn().sum().backward()
    assert x.grad._is_zerotensor()
    with raises(RuntimeError, IMMUTABLE):
        x.mul(2).sum().backward()


def test_a_zero_tensor_added_into_a_gradient_leaves_its_values():
    x = _leaf()
    x.mul(2).sum().backward()
    x.sgn().sum().backward()
    assert not x.grad._is_zerotensor()
    assert x.grad.tolist() == [2.0, 2.0]
    assert x.grad._version == 1


def test_sums_of_zero_tensors_in_the_engine():
    x = _leaf()
    (x.sgn() + x.sgn()).sum().backward()
    assert x.grad._is_zerotensor()
    y = _leaf()
    (y.sgn() + y).sum().backward()
    assert not y.grad._is_zerotensor()
    assert y.grad.tolist() == [1.0, 1.0]


def test_under_create_graph_the_leaf_copies_it():
    x = _leaf()
    (g,) = torch.autograd.grad(x.sgn().sum(), x, create_graph=True)
    assert g._is_zerotensor()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # create_graph's reference cycle
        x.sgn().sum().backward(create_graph=True)
    assert not x.grad._is_zerotensor()
    assert x.grad.tolist() == [0.0, 0.0]
    x.grad = None  # breaks the cycle torch warns about


def test_hooks_and_transposed_leaves():
    seen = []
    x = _leaf()
    x.register_hook(lambda g: seen.append(g._is_zerotensor()))
    x.sgn().sum().backward()
    assert seen == [True]
    t = torch.arange(6.0).reshape(3, 2).t().requires_grad_()
    g = _sgn_grad(t)
    assert g._is_zerotensor() and g.stride() == (3, 1)


def test_abs_second_derivative_is_a_zero_tensor():
    x = _leaf()
    (g,) = torch.autograd.grad(x.abs().sum(), x, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg._is_zerotensor()


def test_efficientzerotensor():
    z = torch._efficientzerotensor((2, 3), dtype=torch.float64)
    assert z._is_zerotensor()
    assert (z.shape, z.dtype, z.stride()) == (torch.Size([2, 3]), torch.float64, (3, 1))
    assert torch._efficientzerotensor(2).shape == torch.Size([2])


class _Names(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append((str(func), [a for a in args if not isinstance(a, torch.Tensor)],
                          dict(kwargs or {})))
        return func(*args, **(kwargs or {}))


def test_a_mode_sees_efficientzerotensor():
    x = _leaf()
    with _Names() as mode:
        g = _sgn_grad(x)
    assert g._is_zerotensor()
    assert mode.seen[-1] == ("aten._efficientzerotensor.default", [[2]],
                             {"dtype": torch.float32, "layout": torch.strided,
                              "device": torch.device("cpu")})


def test_forward_mode_tangent_of_sgn_is_plain_zeros():
    import torch.autograd.forward_ad as fwAD

    with fwAD.dual_level():
        dual = fwAD.make_dual(torch.tensor([1.0, -2.0]), torch.tensor([1.0, 1.0]))
        tangent = fwAD.unpack_dual(dual.sgn()).tangent
        assert not tangent._is_zerotensor()
        assert tangent.tolist() == [0.0, 0.0]


@pytest.mark.parametrize(("function", "version", "values"), [
    (lambda x: x.sgn() + x * 2, 1, [[2.0], [2.0]]),
    (lambda x: x * 2 + x.sgn(), 0, [[2.0], [2.0]]),
    (lambda x: torch.cat([x.sgn(), x * 3]), 1, [[3.0], [3.0]]),
    (lambda x: torch.cat([x * 3, x.sgn()]), 0, [[3.0], [3.0]]),
    (lambda x: x.sgn() - x, 1, [[-1.0], [-1.0]]),
])
def test_a_zero_tensor_reaching_a_plain_gradient_is_added_in_place(function, version, values):
    x = torch.tensor([[0.3], [-0.8]], requires_grad=True)
    (g,) = torch.autograd.grad(function(x).sum(), x)  # grad mode off: the engine's add_
    assert (g._version, g.tolist()) == (version, values)
