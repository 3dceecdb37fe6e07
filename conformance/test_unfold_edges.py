"""unfold on a 0-d tensor, and the dimension its errors name."""

import torch

from conformance._support import raises


def test_zero_size_window_of_a_0d_tensor_is_empty():
    x = torch.tensor(5.0, requires_grad=True)
    y = x.unfold(0, 0, 3)
    assert y.shape == (0,) and y.stride() == (1,)
    (y * 3).sum().backward()
    assert x.grad.item() == 0.0


def test_one_window_of_a_0d_tensor():
    assert torch.tensor(5.0).unfold(-1, 1, 5).tolist() == [5.0]


def test_0d_dim_out_of_range():
    with raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], "
                            "but got 1)"):
        torch.tensor(5.0).unfold(1, 0, 1)


def test_error_names_the_wrapped_dim():
    with raises(RuntimeError, "maximum size for tensor at dimension 1 is 1 but size is 2"):
        torch.zeros(3, 1).unfold(-1, 2, 1)
    with raises(RuntimeError, "maximum size for tensor at dimension 0 is 1 but size is 2"):
        torch.tensor(1.0).unfold(-1, 2, 1)
