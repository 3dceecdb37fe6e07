"""torch.signal.windows: signatures, refusals, short windows, known values, autograd."""

import inspect
import math

import pytest
import torch

NAMES = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine",
         "general_hamming", "hamming", "hann", "kaiser", "nuttall"]
OWN = {"exponential": [("center", None), ("tau", 1.0)], "gaussian": [("std", 1.0)],
       "general_cosine": [("a", inspect.Parameter.empty)], "general_hamming": [("alpha", 0.54)],
       "kaiser": [("beta", 12.0)]}
# which name a window's refusals carry: the ones handing over unchecked speak as general_cosine
SPEAKER = {"general_hamming": "general_cosine", "hamming": "general_cosine",
           "hann": "general_cosine", "nuttall": "general_cosine"}


def window(name, M, **kw):
    if name == "general_cosine":
        kw.setdefault("a", [0.5, 0.5])
    return getattr(torch.signal.windows, name)(M, **kw)


def test_namespaces_after_import_torch():
    assert torch.signal.__all__ == ["windows"]
    assert torch.signal.windows.__all__ == NAMES
    assert torch.signal.windows.windows.__all__ == NAMES
    for name in NAMES:
        function = getattr(torch.signal.windows, name)
        assert function is getattr(torch.signal.windows.windows, name)
        assert function.__module__ == torch.signal.windows.windows.__name__


@pytest.mark.parametrize("name", NAMES)
def test_signature(name):
    params = list(inspect.signature(getattr(torch.signal.windows, name)).parameters.values())
    assert params[0].name == "M" and params[0].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    expected = OWN.get(name, []) + [("sym", True), ("dtype", None), ("layout", torch.strided),
                                    ("device", None), ("requires_grad", False)]
    assert [(p.name, p.default) for p in params[1:]] == expected
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params[1:])


@pytest.mark.parametrize("name", NAMES)
def test_common_refusals_in_order(name):
    who = SPEAKER.get(name, name)
    negative = f"^{who} requires non-negative window length, got M=-1$"
    with pytest.raises(ValueError, match=negative):
        window(name, -1, dtype=torch.int64, layout="csr")
    strided = f"^{who} is implemented for strided tensors only, got: csr$"
    with pytest.raises(ValueError, match=strided):
        window(name, 3, dtype=torch.int64, layout="csr")
    dtypes = f"^{who} expects float32 or float64 dtypes, got: "
    with pytest.raises(ValueError, match=dtypes + "torch.int64$"):
        window(name, 3, dtype=torch.int64)
    with pytest.raises(ValueError, match=dtypes + "torch.float16$"):
        window(name, 0, dtype=torch.float16)


def test_own_refusals():
    w = torch.signal.windows
    with pytest.raises(ValueError, match=r"^Tau must be positive, got: 0.0 instead\.$"):
        w.exponential(3, tau=0.0)
    with pytest.raises(ValueError, match="^Center must be None for symmetric windows$"):
        w.exponential(3, center=1.0)
    with pytest.raises(ValueError, match=r"^Standard deviation must be positive, got: -1 instead"):
        w.gaussian(3, std=-1)
    with pytest.raises(ValueError, match=r"^beta must be non-negative, got: -0.5 instead\.$"):
        w.kaiser(3, beta=-0.5)
    with pytest.raises(TypeError, match="^Coefficients must be a list/tuple$"):
        w.general_cosine(3, a=5)
    with pytest.raises(ValueError, match="^Coefficients cannot be empty$"):
        w.general_cosine(3, a=[])
    # the parameter checks come after the common ones, and M = 0 or 1 skips the coefficients
    with pytest.raises(ValueError, match="requires non-negative"):
        w.gaussian(-2, std=0.0)
    assert w.general_cosine(1, a=[]).tolist() == [1.0]
    assert w.general_cosine(0, a=5).shape == (0,)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_short_windows(name, dtype):
    for sym in (True, False):
        empty = window(name, 0, sym=sym, dtype=dtype, requires_grad=True)
        assert empty.shape == (0,) and empty.dtype == dtype
        assert empty.requires_grad and empty.grad_fn is None
        one = window(name, 1, sym=sym, dtype=dtype)
        assert one.tolist() == [1.0] and one.dtype == dtype


def test_default_dtype_is_followed():
    assert torch.signal.windows.hann(4).dtype == torch.float32
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        assert torch.signal.windows.kaiser(4).dtype == torch.float64
    finally:
        torch.set_default_dtype(old)


def close(t, values, tol=1e-12):
    assert t.shape == (len(values),)
    assert all(abs(a - b) <= tol for a, b in zip(t.tolist(), values))


def test_known_values():
    w = torch.signal.windows
    f64 = {"dtype": torch.float64}
    close(w.bartlett(5, **f64), [0.0, 0.5, 1.0, 0.5, 0.0])
    close(w.bartlett(4, sym=False, **f64), [0.0, 0.5, 1.0, 0.5])
    close(w.hann(5, **f64), [0.0, 0.5, 1.0, 0.5, 0.0])
    close(w.hamming(3, **f64), [0.08, 1.0, 0.08])
    close(w.blackman(3, **f64), [0.0, 1.0, 0.0], 1e-15)
    close(w.cosine(2, **f64), [math.sin(math.pi / 4)] * 2)
    close(w.cosine(3, sym=False, **f64), [math.sin(math.pi * (n + 0.5) / 4) for n in range(3)])
    close(w.gaussian(3, std=2.0, **f64), [math.exp(-1 / 8), 1.0, math.exp(-1 / 8)])
    close(w.exponential(3, tau=2.0, **f64), [math.exp(-0.5), 1.0, math.exp(-0.5)])
    close(w.exponential(3, sym=False, center=0.0, **f64), [1.0, math.exp(-1), math.exp(-2)])
    close(w.kaiser(3, beta=0.0, **f64), [1.0, 1.0, 1.0])
    close(w.general_cosine(3, a=[1.0, 2.0, 3.0], **f64), [1 - 2 + 3, 1 + 2 + 3, 1 - 2 + 3])
    nuttall = [0.3635819, 0.4891775, 0.1365995, 0.0106411]
    close(w.nuttall(3, **f64), [nuttall[0] - nuttall[1] + nuttall[2] - nuttall[3], 1.0,
                                nuttall[0] - nuttall[1] + nuttall[2] - nuttall[3]], 1e-15)


@pytest.mark.parametrize("name", ["bartlett", "blackman", "gaussian", "hamming", "hann", "kaiser",
                                  "nuttall", "general_hamming"])
def test_periodic_is_symmetric_one_longer(name):
    for M in (2, 5, 8):
        periodic = window(name, M, sym=False, dtype=torch.float64)
        longer = window(name, M + 1, dtype=torch.float64)
        assert torch.allclose(periodic, longer[:-1], atol=1e-12)


NODES = [("bartlett", "RsubBackward1"), ("cosine", "SinBackward0"), ("exponential", "ExpBackward0"),
         ("gaussian", "ExpBackward0"), ("kaiser", "DivBackward0"), ("hann", "SumBackward1"),
         ("blackman", "SumBackward1"), ("nuttall", "SumBackward1")]


@pytest.mark.parametrize("name,node", NODES)
def test_requires_grad_builds_a_graph(name, node):
    w = window(name, 6, requires_grad=True)
    assert w.requires_grad and w.grad_fn.name() == node
    w.sum().backward()
    assert window(name, 6).grad_fn is None and not window(name, 6).requires_grad
