"""torch._C._nn's functions by their own names: the out= their kernels take.

Most refuse an out of another dtype than the result's, each kernel in its own words; some
resize an out of the wrong shape without the warning the others give.
"""

import warnings

import pytest
import torch
import torch.nn.functional as F

nn = torch._C._nn


def test_out_given_by_keyword():
    x = torch.rand(2, 3, dtype=torch.float64)
    out = torch.empty(0, dtype=torch.float64)
    assert nn.elu(x, 2, out=out) is out and torch.equal(out, F.elu(x, 2))
    out = torch.empty(0, dtype=torch.float64)
    assert nn.mse_loss(x, x * 0, 1, out=out) is out and torch.equal(out, (x * x).mean())


@pytest.mark.parametrize(("call", "message"), [
    (lambda x, o: nn.elu(x, out=o), "Found dtype Double but expected Float"),
    (lambda x, o: nn.silu(x, out=o), "Found dtype Double but expected Float"),
    (lambda x, o: nn.im2col(x, 2, 1, 0, 1, out=o), "expected scalar type Float but found Double"),
    (lambda x, o: nn.reflection_pad2d(x, 1, out=o), "expected scalar type Float but found Double"),
    (lambda x, o: nn.replication_pad2d(x, 1, out=o),
     "Expected out tensor to have dtype float, but got double instead"),
    (lambda x, o: nn.adaptive_avg_pool2d(x, 2, out=o),
     "expected dtype float for `output` but got dtype double"),
])
def test_an_out_of_another_dtype_refused(call, message):
    x = torch.rand(1, 2, 4, 5)
    for out in (torch.empty(0, dtype=torch.float64), torch.empty(3, dtype=torch.float64)):
        with pytest.raises(RuntimeError) as caught:
            call(x, out)
        assert str(caught.value) == message


@pytest.mark.parametrize(("call", "count"), [
    (lambda x, o: nn.im2col(x, 2, 1, 0, 1, out=o), 0),
    (lambda x, o: nn.adaptive_avg_pool2d(x, 2, out=o), 0),
    (lambda x, o: nn.reflection_pad2d(x, 1, out=o), 0),
    (lambda x, o: nn.replication_pad2d(x, 1, out=o), 1),
    (lambda x, o: nn.elu(x, out=o), 1),
])
def test_an_out_resized_with_or_without_a_warning(call, count):
    x, out = torch.rand(1, 2, 4, 5), torch.empty(3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert call(x, out) is out
    assert len(caught) == count


def test_huber_loss_casting_into_its_out_warns_once():
    v, out = torch.rand(3, 4), torch.empty(3, dtype=torch.float64)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nn.huber_loss(v, v * 0, 1, out=out)
    assert len(caught) == 1 and torch.allclose(out, F.huber_loss(v, v * 0).double())
