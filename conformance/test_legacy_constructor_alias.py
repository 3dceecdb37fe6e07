"""torch.Tensor(t) with a tensor: a view of all of t, as t.alias() makes, with no copy and no
warning. The same assertions run on torch.
"""

import warnings

import torch


def test_a_tensor_argument_gives_a_view_sharing_memory_and_versions():
    base = torch.ones(2, 3)
    x = base.t()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = torch.Tensor(x)
    assert y is not x and type(y) is torch.Tensor
    assert y._is_view() and y._base is base and y.data_ptr() == x.data_ptr()
    assert y.shape == (3, 2) and y.stride() == (1, 3) and y.dtype == torch.float32
    y.add_(1)
    assert x._version == y._version == 1 and x.tolist() == [[2.0, 2.0]] * 3


def test_the_dtype_is_kept_and_a_view_aliases_its_base():
    assert torch.Tensor(torch.ones(2, dtype=torch.int64)).dtype == torch.int64
    assert torch.Tensor(torch.ones(2, dtype=torch.float64)).dtype == torch.float64
    x = torch.ones(4)
    y = torch.Tensor(x[1:3])
    assert y._base is x and y.tolist() == [1.0, 1.0]


def test_the_view_joins_the_graph():
    x = torch.ones(2, requires_grad=True)
    y = torch.Tensor(x)
    assert y.requires_grad and not y.is_leaf and type(y.grad_fn).__name__ == "AliasBackward0"
    (y * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]
    with torch.no_grad():
        z = torch.Tensor(x)
    assert z.grad_fn is None and z._base is x and z.requires_grad  # as a view made so is


def test_a_parameter_gives_a_plain_tensor_and_a_subclass_its_own_class():
    p = torch.nn.Parameter(torch.ones(2))
    assert type(torch.Tensor(p)) is torch.Tensor

    class Mine(torch.Tensor):
        pass

    x = torch.ones(2, requires_grad=True)
    m = Mine(x)
    assert type(m) is Mine and m._base is x and type(m.grad_fn).__name__ == "AliasBackward0"
    m.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]
    y = torch.ones(2)
    Mine(y).mul_(3)
    assert y.tolist() == [3.0, 3.0] and y._version == 1


def test_an_inference_tensor_gives_an_inference_tensor():
    with torch.inference_mode():
        t = torch.ones(2)
    y = torch.Tensor(t)
    assert y.is_inference() and y.data_ptr() == t.data_ptr()
