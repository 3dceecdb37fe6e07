"""numpy() and NumPy's array protocol on a tensor that requires grad, in each grad mode."""

import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises

REFUSED = ("Can't call numpy() on Tensor that requires grad. "
           "Use tensor.detach().numpy() instead.")
MODES = [torch.no_grad, torch.inference_mode, lambda: torch.set_grad_enabled(False)]


def arrays(t):
    """t.numpy(), np.asarray(t) and np.array(t); torch's __array__ lacks NumPy 2's copy=."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return t.numpy(), np.asarray(t), np.array(t)


@pytest.mark.parametrize("mode", MODES)
def test_numpy_of_a_tensor_that_requires_grad_without_grad_mode(mode):
    a = torch.ones(2, requires_grad=True)
    b = a * 2
    with mode():
        shared, asarray, copied = arrays(a)
        assert b.numpy().tolist() == [2.0, 2.0]
    assert np.shares_memory(shared, asarray)
    assert not np.shares_memory(shared, copied)
    shared[0] = 5.0  # the tensor's own memory
    assert a.tolist() == [5.0, 1.0] and a.requires_grad


def test_numpy_is_refused_while_grad_mode_is_on():
    a = torch.ones(2, requires_grad=True)
    for call in (a.numpy, lambda: np.asarray(a), lambda: (a * 2).numpy()):
        with raises(RuntimeError, REFUSED):
            call()
    with torch.no_grad(), torch.enable_grad(), raises(RuntimeError, REFUSED):
        a.numpy()
    assert a.numpy(force=True).tolist() == [1.0, 1.0]


def test_forward_of_a_custom_function_reads_its_input_with_numpy():
    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * float(x.numpy().sum())

        @staticmethod
        def backward(ctx, g):
            return g

    a = torch.ones(2, requires_grad=True)
    out = Scale.apply(a)
    assert out.tolist() == [2.0, 2.0] and type(out.grad_fn).__name__ == "ScaleBackward"


def test_mark_dirty_example_of_torch_s_docs():
    class Inplace(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x_npy = x.numpy()  # shares memory with x
            x_npy += 1
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output

    a = torch.tensor(1.0, requires_grad=True, dtype=torch.double).clone()
    b = a * a
    assert Inplace.apply(a) is a
    assert a.item() == 2.0 and a._version == 1
    assert type(a.grad_fn).__name__ == "InplaceBackward"
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        b.backward()
