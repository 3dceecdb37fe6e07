"""The signal windows: torch's values (to the last bits of a cosine), dtypes and refusals."""

import numpy as np
import pytest
import torch

WINDOWS = {
    "hann": lambda n, periodic, **kw: torch.hann_window(n, periodic, **kw),
    "hamming": lambda n, periodic, **kw: torch.hamming_window(n, periodic, **kw),
    "hamming_params": lambda n, periodic, **kw: torch.hamming_window(n, periodic, 0.6, 0.3, **kw),
    "bartlett": lambda n, periodic, **kw: torch.bartlett_window(n, periodic, **kw),
    "blackman": lambda n, periodic, **kw: torch.blackman_window(n, periodic, **kw),
    "kaiser": lambda n, periodic, **kw: torch.kaiser_window(n, periodic, **kw),
    "kaiser_beta": lambda n, periodic, **kw: torch.kaiser_window(n, periodic, 5.0, **kw),
}


def _reference(name, n, periodic):
    """The formula, in float64, with NumPy's own windows where they exist."""
    m = n + 1 if periodic else n
    k = np.arange(m)
    if n <= 1:  # one sample is 1, periodic or not
        return np.ones(n)
    angle = 2 * np.pi * k / (m - 1)
    values = {
        "hann": 0.5 - 0.5 * np.cos(angle), "hamming": 0.54 - 0.46 * np.cos(angle),
        "hamming_params": 0.6 - 0.3 * np.cos(angle), "bartlett": np.bartlett(m),
        "blackman": 0.42 - 0.5 * np.cos(angle) + 0.08 * np.cos(2 * angle),
        "kaiser": np.kaiser(m, 12.0), "kaiser_beta": np.kaiser(m, 5.0)}[name]
    return values[:n]


@pytest.mark.parametrize("name", WINDOWS)
@pytest.mark.parametrize("n", [0, 1, 2, 3, 8, 17])
@pytest.mark.parametrize("periodic", [True, False])
def test_window_values(name, n, periodic):
    for dtype, tolerance in ((torch.float64, 1e-12), (torch.float32, 1e-6),
                             (torch.float16, 2e-3)):
        window = WINDOWS[name](n, periodic, dtype=dtype)
        assert window.dtype == dtype and window.shape == (n,) and window.grad_fn is None
        assert window.is_contiguous()
        np.testing.assert_allclose(window.double().numpy(), _reference(name, n, periodic),
                                   atol=tolerance)


def test_the_default_dtype_and_requires_grad():
    assert torch.hann_window(4).dtype == torch.float32
    w = torch.kaiser_window(4, requires_grad=True)
    assert w.requires_grad and w.is_leaf and w._version == 0


@pytest.mark.parametrize("call, error, message", [
    (lambda: torch.hann_window(-1), RuntimeError, "hann_window requires non-negative "
     "window_length, got window_length=-1"),
    (lambda: torch.hann_window(3, dtype=torch.int64), RuntimeError, "hann_window expects "
     "floating point dtypes, got: TensorOptions\\(dtype=long int, device=cpu, layout=Strided "
     "\\(default\\), requires_grad=false \\(default\\), pinned_memory=false, "
     "memory_format=\\(nullopt\\)\\)"),
    (lambda: torch.kaiser_window(3, dtype=torch.int32), RuntimeError, "kaiser_window expects "
     "floating point dtypes, got: TensorOptions\\(dtype=int, "),
    (lambda: torch.blackman_window(3, dtype=torch.bool), RuntimeError, "blackman_window expects "
     "floating point dtypes, got: TensorOptions\\(dtype=bool, "),
    (lambda: torch.hann_window(3.0), TypeError, "hann_window\\(\\): argument 'window_length' "
     "\\(position 1\\) must be int, not float"),
])
def test_refusals(call, error, message):
    with pytest.raises(error, match=f"^{message}"):
        call()


@pytest.mark.parametrize("name", sorted(WINDOWS))
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16])
@pytest.mark.parametrize("n", [0, 1, 2, 5])
@pytest.mark.parametrize("periodic", [True, False])
def test_a_periodic_windows_storage_holds_the_dropped_sample(name, dtype, n, periodic):
    w = WINDOWS[name](n, periodic, dtype=dtype)
    assert (w.stride(), w.storage_offset(), w._base, w._is_view(), w._version) == (
        (1,), 0, None, False, 0)
    held = n + 1 if periodic and n > 1 else n  # one sample is made alone
    w.as_strided((held,), (1,))
    with pytest.raises(RuntimeError, match="out of bounds for storage of size"):
        w.as_strided((held + 1,), (1,))
    if periodic and n > 1:  # the last sample of the symmetric window one longer
        longer = WINDOWS[name](n + 1, False, dtype=dtype)
        assert torch.equal(w.as_strided((held,), (1,)), longer)
