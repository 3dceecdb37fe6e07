"""Black-box tests: torch.special's Bessel and Airy functions (J0, J1, Y0, Y1, I0, I1, K0, K1,
the scaled K0 and K1, the spherical j0, Airy's Ai): their values to the bit on a grid of edges,
branch points with their neighbours and random values (torch's, in _bessel_expected), their
dtypes, refusals, out=, and what a dispatch mode and the profiler see; and the values of the
kernels of the same kind, i0, i0e, i1, i1e, digamma, trigamma, ndtri, erfcx and log_ndtr.
The same assertions run on torch, which keeps the grid's values honest.
"""

import math

import numpy as np
import pytest
import torch

from conformance._bessel_expected import VALUES
from conformance._support import raises, recording_mode

NAMES = ("airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0",
         "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
         "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0")
ARGUMENT = {name: "x" if name in ("airy_ai", "spherical_bessel_j0") or name.startswith("scaled")
            else "input" for name in NAMES}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", NAMES)
def test_values_to_the_bit(name, dtype):
    table = VALUES[dtype]
    x = torch.tensor([float.fromhex(v) for v in table["x"]], dtype=getattr(torch, dtype))
    got = getattr(torch.special, name)(x).tolist()
    wrong = [(v, g, e) for v, g, e in zip(table["x"], got, table[name])
             if not (math.isnan(g) and e == "nan") and g.hex() != e]
    assert not wrong, wrong[:5]


_OTHERS = {"i0": lambda t: torch.i0(t), "i0e": lambda t: torch.special.i0e(t),
           "i1": lambda t: torch.special.i1(t), "i1e": lambda t: torch.special.i1e(t),
           "digamma": lambda t: torch.digamma(t), "trigamma": lambda t: torch.polygamma(1, t),
           "erfcx": lambda t: torch.special.erfcx(t),
           "log_ndtr": lambda t: torch.special.log_ndtr(t)}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", [*_OTHERS, "ndtri"])
def test_the_other_cephes_kernels_to_the_bit(name, dtype):
    """i0 and i1 with their scaled forms, digamma, trigamma (polygamma of order one), ndtri,
    erfcx and log_ndtr, whose kernels are of the same kind."""
    table = VALUES[dtype]
    points = table["p" if name == "ndtri" else "x"]
    x = torch.tensor([float.fromhex(v) for v in points], dtype=getattr(torch, dtype))
    got = (torch.special.ndtri(x) if name == "ndtri" else _OTHERS[name](x)).tolist()
    wrong = [(v, g, e) for v, g, e in zip(points, got, table[name])
             if not (math.isnan(g) and e == "nan") and g.hex() != e]
    assert not wrong, wrong[:5]


@pytest.mark.parametrize("name", NAMES)
def test_no_gradient_and_the_default_float(name):
    f = getattr(torch.special, name)
    x = torch.tensor([0.5, 3.0], requires_grad=True)
    y = f(x)
    assert y.grad_fn is None and not y.requires_grad
    assert f(torch.tensor([1, 3])).tolist() == f(torch.tensor([1.0, 3.0])).tolist()
    assert f(torch.tensor([True])).dtype == torch.float32
    assert f(x.detach().double()).dtype == torch.float64
    assert f(**{ARGUMENT[name]: x.detach()}).tolist() == y.tolist()
    wide = f(torch.ones(2, 3).t())
    assert wide.shape == (3, 2) and wide.stride() == (1, 3)  # the input's layout
    assert f(torch.empty(0, 3)).shape == (0, 3)


@pytest.mark.parametrize("name", NAMES)
def test_refusals(name):
    f = getattr(torch.special, name)
    with raises(NotImplementedError, f"\"{name}_cpu\" not implemented for 'Half'"):
        f(torch.ones(2, dtype=torch.float16))
    with raises(TypeError, f"special_{name}(): argument '{ARGUMENT[name]}' (position 1) must be "
                           "Tensor, not float"):
        f(2.0)
    with raises(TypeError, f"special_{name}() takes 1 positional argument but 2 were given"):
        f(torch.ones(2), 1)
    with raises(RuntimeError, "result type Float can't be cast to the desired output type Long"):
        f(torch.ones(2), out=torch.empty(2, dtype=torch.int64))


SPECIAL_OUTS = (*NAMES, "entr", "erfcx", "i0e", "i1", "i1e", "log_ndtr", "ndtri")


@pytest.mark.parametrize("name", SPECIAL_OUTS)
def test_out_that_overlaps_the_input_is_refused(name):
    x = torch.tensor([0.5, 2.0])
    out = torch.empty(2, dtype=torch.float64)
    assert getattr(torch.special, name)(x, out=out) is out and out.dtype == torch.float64
    with raises(RuntimeError, "unsupported operation: some elements of the input tensor and the "
                              "written-to tensor refer to a single memory location. Please clone() "
                              "the tensor before performing the operation."):
        getattr(torch.special, name)(x, out=x[:1])
    assert x.tolist() == [0.5, 2.0]


@pytest.mark.parametrize("name", ["xlog1py", "zeta", "legendre_polynomial_p"])
def test_two_input_out_that_overlaps_is_refused(name):
    x = torch.tensor([0.5, 2.0])
    with raises(RuntimeError, "unsupported operation: some elements of the input tensor and the "
                              "written-to tensor refer to a single memory location. Please clone() "
                              "the tensor before performing the operation."):
        getattr(torch.special, name)(x, torch.tensor([2.0, 3.0]), out=x[:1])


def test_what_a_dispatch_mode_and_the_profiler_see():
    from torch.profiler import profile

    f = torch.special.modified_bessel_k1
    x, whole, out = torch.tensor([0.5, 2.0]), torch.tensor([1, 2]), torch.empty(2)
    with recording_mode()() as mode:
        f(x), f(whole), f(x, out=out)
    assert mode.seen == ["aten.special_modified_bessel_k1.default"] * 2 + [
        "aten.special_modified_bessel_k1.out"]
    with profile() as p:
        f(x)
    with profile() as q:
        f(whole)
    assert [e.name for e in p.events()] == ["aten::special_modified_bessel_k1"]
    assert [e.name for e in q.events()] == ["aten::special_modified_bessel_k1", "aten::to",
                                            "aten::_to_copy", "aten::empty_strided",
                                            "aten::copy_"]


def test_known_values():
    x = torch.tensor([0.0, 2.404825557695773], dtype=torch.float64)
    j0 = torch.special.bessel_j0(x).tolist()
    assert j0[0] == 1.0 and abs(j0[1]) < 1e-15  # its first zero
    assert torch.special.bessel_y0(torch.tensor([0.0, -1.0])).tolist()[0] == -math.inf
    assert math.isnan(torch.special.bessel_y1(torch.tensor([-1.0])).item())
    assert torch.special.modified_bessel_k0(torch.tensor([0.0])).item() == math.inf
    assert torch.special.spherical_bessel_j0(torch.tensor([math.inf])).item() == 0.0
    assert abs(torch.special.airy_ai(torch.tensor([0.0], dtype=torch.float64)).item()
               - 0.3550280538878172) < 1e-16
    assert np.isclose(torch.special.scaled_modified_bessel_k1(
        torch.tensor([3.0], dtype=torch.float64)).item(),
        torch.special.modified_bessel_k1(torch.tensor([3.0], dtype=torch.float64)).item()
        * math.exp(3.0), rtol=1e-15)
