"""expand, broadcast_to and flip take their sizes or dims by torch's keyword names; expand
needs some sizes, even on a 0-d tensor."""

import torch

from conformance._support import raises

MISSING = 'expand() missing 1 required positional arguments: "size"'


def test_sizes_and_dims_by_name():
    x = torch.arange(6.0).view(2, 3)
    assert x.expand(size=(2, 2, 3)).stride() == (0, 3, 1)
    assert x.expand((2, 2, 3), implicit=True).shape == (2, 2, 3)
    assert torch.broadcast_to(x, size=(2, 2, 3)).stride() == (0, 3, 1)
    assert torch.broadcast_to(input=x, size=(2, 2, 3)).shape == (2, 2, 3)
    assert x.flip(dims=(0,)).tolist() == [[3.0, 4.0, 5.0], [0.0, 1.0, 2.0]]
    assert torch.flip(x, dims=(1,)).tolist() == [[2.0, 1.0, 0.0], [5.0, 4.0, 3.0]]


def test_size_twice_is_refused():
    with raises(TypeError, "expand() got multiple values for argument 'size'"):
        torch.zeros(2, 3).expand(2, size=(2, 2, 3))


def test_expand_without_sizes_is_refused_on_a_0d_tensor():
    with raises(TypeError, MISSING):
        torch.tensor(1.0).expand()
    with raises(TypeError, MISSING):
        torch.tensor(1.0).expand(*[-1] * 0)
    assert torch.tensor(1.0).expand(()).shape == ()
