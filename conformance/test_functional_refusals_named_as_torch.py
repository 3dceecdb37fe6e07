"""F's functions refuse arguments in the names and positions torch's show: the pools that
choose by return_indices under their underscored names, adaptive_avg_pool2d, rrelu and
_threshold under theirs, softmin through the softmax method (position 1), and bilinear's
wrong input2 before its missing weight. The same assertions run on torch."""

import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises

X = torch.ones(1, 2, 4)
MISSING = "() missing 1 required positional argument: "


@pytest.mark.parametrize(("call", "message"), [
    (lambda: F.adaptive_avg_pool2d(X), "adaptive_avg_pool2d" + MISSING + "'output_size'"),
    (lambda: F.adaptive_avg_pool3d(X), "adaptive_avg_pool3d" + MISSING + "'output_size'"),
    (lambda: F.adaptive_avg_pool2d(X, 2, 3),
     "adaptive_avg_pool2d() takes 2 positional arguments but 3 were given"),
    (lambda: F.adaptive_max_pool1d(X), "_adaptive_max_pool1d" + MISSING + "'output_size'"),
    (lambda: F.adaptive_max_pool2d(X, 2, foo=3),
     "_adaptive_max_pool2d() got an unexpected keyword argument 'foo'"),
    (lambda: F.adaptive_max_pool3d_with_indices(X),
     "adaptive_max_pool3d_with_indices" + MISSING + "'output_size'"),
    (lambda: F.max_pool1d(X), "_max_pool1d" + MISSING + "'kernel_size'"),
    (lambda: F.max_pool2d(X), "_max_pool2d" + MISSING + "'kernel_size'"),
    (lambda: F.max_pool1d(X, 2, foo=1), "_max_pool1d() got an unexpected keyword argument 'foo'"),
    (lambda: F.max_pool2d_with_indices(X), "max_pool2d_with_indices" + MISSING + "'kernel_size'"),
    (lambda: F.fractional_max_pool2d(X), "_fractional_max_pool2d" + MISSING + "'kernel_size'"),
    (lambda: F.fractional_max_pool3d(X), "_fractional_max_pool3d" + MISSING + "'kernel_size'"),
    (lambda: F.threshold(X, X), "_threshold" + MISSING + "'value'"),
    (lambda: F.threshold(X, 1, 2, False, 5),
     "_threshold() takes from 3 to 4 positional arguments but 5 were given"),
    (lambda: F.rrelu(X, dim=1), "rrelu() got an unexpected keyword argument 'dim'"),
    (lambda: F.rrelu(), "rrelu" + MISSING + "'input'"),
    (lambda: F.softmin(X, X), "softmax(): argument 'dim' (position 1) must be int, not Tensor"),
    (lambda: F.softmin(X, dim=1.5),
     "softmax(): argument 'dim' (position 1) must be int, not float"),
    (lambda: F.softmin(X, 0, dtype=1), "softmax(): argument 'dtype' must be torch.dtype, not int"),
    (lambda: F.bilinear(X, 1), "bilinear(): argument 'input2' (position 2) must be Tensor, not "
     "int"),
])
def test_the_refusal_names_what_torch_names(call, message):
    with raises(TypeError, message):
        call()


def test_the_public_names_stay():
    assert [f.__name__ for f in (F.max_pool2d, F.fractional_max_pool2d, F.adaptive_max_pool1d,
                                 F.adaptive_avg_pool2d, F.rrelu)] == [
        "max_pool2d", "fractional_max_pool2d", "adaptive_max_pool1d", "adaptive_avg_pool2d",
        "rrelu"]


def test_softmin_still_computes():
    x = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    y = F.softmin(x, torch.tensor(1))
    assert torch.allclose(y, F.softmax(-x, 1))
    assert type(y.grad_fn).__name__ == "SoftmaxBackward0"
    assert type(y.grad_fn.next_functions[0][0]).__name__ == "NegBackward0"
    assert F.softmin(x, 1, dtype=torch.float64).dtype == torch.float64
