"""Oracle test: refgrad's tensor repr against real torch 2.13, on random tensors.

Collected only in the oracle session, where torch is installed. Each example
builds one NumPy array, gives torch a copy (``torch.from_numpy``), gives
refgrad's printer a stand-in object carrying the same array, and compares the
two strings character for character.
"""

import math

import numpy as np
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance._support import StandIn
from refgrad._formatting import tensor_repr
from refgrad._printoptions import set_printoptions

DTYPES = {
    "float32": np.float32,
    "float64": np.float64,
    "float16": np.float16,
    "int64": np.int64,
    "int32": np.int32,
    "bool": np.bool_,
}
FLOATS = ("float32", "float64", "float16")
SPECIALS = [0.0, -0.0, math.nan, math.inf, -math.inf, 1.0, -1.0, 0.5, 1e-4, 1e8, 1000.0]


class CloneBackward0:
    """Stands in for the grad_fn that ``t.clone()`` gives a tensor in torch."""


# --- value strategies -------------------------------------------------------


def scaled_floats(lo: int, span: int):
    """Floats whose magnitudes lie within a few decades, so fixed mode shows up."""
    return st.builds(
        lambda m, e: m * 10.0**e,
        st.floats(-10, 10, allow_nan=False, allow_infinity=False),
        st.integers(lo, lo + span),
    )


@st.composite
def float_elements(draw):
    """One element strategy per array: each array has its own character."""
    kind = draw(st.sampled_from(["scaled", "integral", "mixed", "wild"]))
    if kind == "scaled":
        lo, span = draw(st.integers(-12, 12)), draw(st.integers(0, 3))
        base = scaled_floats(lo, span)
    elif kind == "integral":
        base = st.integers(-(10**6), 10**6).map(float)
    elif kind == "mixed":
        base = st.one_of(st.integers(-2000, 2000).map(float), scaled_floats(-6, 10))
    else:
        base = st.floats(allow_nan=True, allow_infinity=True)
    return st.one_of(base, base, base, st.sampled_from(SPECIALS))


def element_strategy(name: str, draw):
    if name in FLOATS:
        return draw(float_elements())
    if name == "bool":
        return st.booleans()
    bits = 63 if name == "int64" else 31
    wide = st.integers(-(2**bits), 2**bits - 1)
    return st.one_of(st.integers(-10, 10), st.integers(-5000, 5000), wide)


def cast(values, name: str, shape) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):
        return (
            np.array(values, dtype=np.float64 if name in FLOATS else object)
            .astype(DTYPES[name])
            .reshape(shape)
        )


@st.composite
def small_arrays(draw, name: str):
    shape = tuple(draw(st.lists(st.integers(0, 5), max_size=4)))
    count = int(np.prod(shape, dtype=np.int64))
    values = draw(st.lists(element_strategy(name, draw), min_size=count, max_size=count))
    return cast(values, name, shape)


@st.composite
def large_arrays(draw, name: str):
    """More than 1000 elements, to exercise summarising; values from a seeded RNG."""
    shape = draw(
        st.sampled_from(
            [
                (1001,),
                (2000,),
                (3001,),
                (40, 50),
                (2, 600),
                (600, 2),
                (11, 10, 10),
                (7, 1, 150),
                (2, 3, 13, 14),
                (5, 5, 5, 9),
                (1, 1001),
            ]
        )
    )
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if name == "bool":
        return rng.random(shape) < 0.5
    if name not in FLOATS:
        return rng.integers(-(10 ** draw(st.integers(0, 9))), 10**9, shape).astype(DTYPES[name])
    kind = draw(st.sampled_from(["normal", "integral", "wide", "specials"]))
    scale = 10.0 ** draw(st.integers(-10, 10))
    values = rng.standard_normal(shape) * scale
    if kind == "integral":
        values = np.round(values)
    elif kind == "wide":
        values = values * 10.0 ** rng.integers(-8, 9, shape)
    elif kind == "specials":
        picks = rng.integers(0, len(SPECIALS), shape)
        values = np.where(rng.random(shape) < 0.3, np.take(SPECIALS, picks), values)
    with np.errstate(over="ignore"):
        return values.astype(DTYPES[name])


@st.composite
def tensors(draw):
    name = draw(st.sampled_from(list(DTYPES)))
    big = draw(st.integers(0, 9)) == 0
    array = draw(large_arrays(name) if big else small_arrays(name))
    if name not in FLOATS:
        return array, "none"
    return array, draw(st.sampled_from(["none", "requires_grad", "grad_fn"]))


def torch_and_standin(array: np.ndarray, autograd: str):
    t = torch.from_numpy(array.copy())
    stand_in = StandIn(array)
    if autograd != "none":
        t.requires_grad_()
        stand_in.requires_grad = True
    if autograd == "grad_fn":
        t = t.clone()
        stand_in.grad_fn = CloneBackward0()
    return t, stand_in


OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "precision": st.integers(0, 8),
        "threshold": st.sampled_from([0, 5, 20, 100, 1000, math.inf]),
        "edgeitems": st.integers(0, 4),
        "linewidth": st.integers(10, 140),
        "sci_mode": st.sampled_from([None, True, False]),
        "profile": st.sampled_from(["default", "short", "full"]),
    },
)


def check(array, autograd, options=None):
    t, stand_in = torch_and_standin(array, autograd)
    torch.set_printoptions(**(options or {}))
    set_printoptions(**(options or {}))
    try:
        expected, got = repr(t), tensor_repr(stand_in)
    finally:
        torch.set_printoptions(profile="default")
        set_printoptions(profile="default")
    assert got == expected, f"\n{got}\n!=\n{expected}"


@settings(max_examples=2000, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(tensors())
def test_repr_matches_torch(drawn):
    check(*drawn)


@settings(max_examples=500, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(tensors(), OPTIONS)
def test_repr_matches_torch_under_printoptions(drawn, options):
    check(*drawn, options)
