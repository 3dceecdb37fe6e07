"""Every differentiable row of the op table, run on a device and checked against the CPU.

The inputs and parameters come from the gradient sweep's recipes; the same call then
runs on copies moved to the device. Each output must stay on the device, hold the
CPU's values and have the same grad_fn, and each gradient must come back on the
device with the CPU's values. On the simulated device this also proves that no row
turns a device array into a host array behind the user's back.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import refgrad
from tests._gradient_support import _differentiable, _grad_outputs
from tests.devices import AVAILABLE, use
from tests.test_gradients_complex import COMPLEX_ROWS
from tests.test_op_gradients import COVERED, RECIPES, drawn_case

CUDA = refgrad.device("cuda", 0)


def _to_device(value):
    if isinstance(value, refgrad.Tensor):
        return value.detach().cuda().requires_grad_(value.requires_grad)
    if isinstance(value, list | tuple):
        return type(value)(_to_device(v) for v in value)
    return value


def _close(on_device, on_host):
    # force: a gradient may be a zero tensor (sgn's), which numpy() refuses without it
    np.testing.assert_allclose(on_device.detach().cpu().numpy(force=True),
                               on_host.detach().numpy(force=True), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("where", AVAILABLE)
@pytest.mark.parametrize("name", [n for n in COVERED if n not in COMPLEX_ROWS])
@settings(max_examples=5)
@given(data=st.data())
def test_a_row_on_a_device_matches_the_cpu(name, where, data):
    inputs, params, rng = drawn_case(data, name)
    call = RECIPES[name].call
    outputs = _differentiable(call(*inputs, **params))
    upstream = _grad_outputs(outputs, rng)
    refgrad.autograd.backward(outputs, upstream)
    with pytest.MonkeyPatch.context() as patch:
        use(where, patch)
        moved = [_to_device(t) for t in inputs]
        params = {k: _to_device(v) for k, v in params.items()}
        got = _differentiable(call(*moved, **params))
        assert len(got) == len(outputs)
        for a, b in zip(got, outputs):
            assert a.device == CUDA and a.grad_fn.name() == b.grad_fn.name()
            _close(a, b)
        refgrad.autograd.backward(got, [_to_device(u) for u in upstream])
        for a, b in zip(moved, inputs):
            assert a.grad.device == CUDA
            _close(a.grad, b.grad)


@pytest.mark.parametrize("name", sorted(COMPLEX_ROWS))
def test_complex_rows_refuse_device_arrays_rather_than_answer(name):
    """Complex tensors are host-only (chapter 02c): a row given device arrays raises."""
    inputs = [refgrad.rand(3, 2, dtype=refgrad.float64) + 0.5 for _ in RECIPES[name].values]
    with pytest.MonkeyPatch.context() as patch:
        use("simulated", patch)
        with pytest.raises(TypeError, match="^implicit conversion of a device array"):
            RECIPES[name].call(*[t.cuda() for t in inputs])
