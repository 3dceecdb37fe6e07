"""The results that follow the processor's vector width, checked for both widths on any host.

Each test replaces the answer of refgrad._vector_width (NOTE [Vector width]) and checks the model
against patterns measured on torch 2.13 with each build (ATEN_CPU_CAPABILITY and
ONEDNN_MAX_CPU_ISA set to avx2 on an AVX-512 processor give the AVX2 ones).
"""

import math
import warnings

import numpy as np
import pytest

import refgrad as torch
import refgrad.nn.functional as F
from refgrad import _vector_width
from refgrad._ops.softmax_tails import scalar_positions


@pytest.fixture
def width(monkeypatch, request):
    """Pretend torch's kernels were built for ``request.param`` bytes a vector."""
    monkeypatch.setattr(_vector_width, "vector_bytes", lambda: request.param)
    return request.param


@pytest.fixture
def fresh_answers():
    """The cached answers forgotten before and after, so the environment is read again."""
    _vector_width.vector_capability.cache_clear()
    _vector_width.onednn_avx512.cache_clear()
    yield
    _vector_width.vector_capability.cache_clear()
    _vector_width.onednn_avx512.cache_clear()


@pytest.mark.parametrize(("chosen", "answer"), [("avx2", "AVX2"), ("default", "DEFAULT"),
                                                ("avx512", "AVX512")])
def test_the_variable_chooses_the_build_as_torchs_does(monkeypatch, fresh_answers, chosen, answer):
    monkeypatch.setenv("ATEN_CPU_CAPABILITY", chosen)
    assert torch.backends.cpu.get_cpu_capability() == answer
    assert _vector_width.vector_bytes() == (64 if answer == "AVX512" else 32)


def test_an_unknown_choice_is_ignored_with_torchs_warning(monkeypatch, fresh_answers):
    monkeypatch.setenv("ATEN_CPU_CAPABILITY", "sse9")
    with pytest.warns(UserWarning, match="^ignoring invalid value for ATEN_CPU_CAPABILITY: sse9$"):
        answer = torch.backends.cpu.get_cpu_capability()
    monkeypatch.delenv("ATEN_CPU_CAPABILITY")
    _vector_width.vector_capability.cache_clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.backends.cpu.get_cpu_capability() == answer


@pytest.mark.parametrize("cap", ["AVX2", "avx2_vnni", "SSE41"])
def test_a_cap_below_avx512_keeps_onednn_off_it(monkeypatch, fresh_answers, cap):
    monkeypatch.setenv("ONEDNN_MAX_CPU_ISA", cap)
    assert not _vector_width.onednn_avx512()
    monkeypatch.setenv("ONEDNN_MAX_CPU_ISA", "AVX512_CORE")
    _vector_width.onednn_avx512.cache_clear()
    assert _vector_width.onednn_avx512() == _vector_width.hardware_avx512()


# (shape, dim, threads, vector bytes): the positions torch's softmax computes one at a time,
# "s", and a vector at a time, "v", as measured on torch 2.13
MEASURED = [
    ((2, 40), 0, 1, 64, "v" * 32 + "s" * 8),
    ((2, 40), 0, 2, 64, "s" * 40),
    ((2, 40), 0, 1, 32, "v" * 32 + "s" * 8),
    ((2, 40), 0, 2, 32, ("v" * 16 + "s" * 4) * 2),
    ((2, 20), 0, 1, 32, "v" * 16 + "s" * 4),
    ((5, 33), 0, 1, 64, "v" * 32 + "s"),
    ((5, 33), 0, 2, 32, "v" * 16 + "s" + "v" * 16),
    ((3, 4, 5), 0, 1, 32, "v" * 16 + "s" * 4),
    ((3, 4, 5), 1, 1, 32, "s" * 15),
]


@pytest.mark.parametrize(("shape", "dim", "threads", "width", "pattern"), MEASURED,
                         indirect=["width"])
def test_softmax_leaves_torchs_positions_to_its_scalar_loop(shape, dim, threads, width, pattern):
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        found = scalar_positions(shape, dim)
    finally:
        torch.set_num_threads(before)
    assert "".join("s" if s else "v" for s in found.ravel()) == pattern


@pytest.mark.parametrize("width", [32, 64], indirect=True)
def test_a_float16_softmax_rounds_exactly_the_scalar_loops_exponentials(width):
    x = torch.tensor(np.random.default_rng(5).standard_normal((3, 70)) * 6).half()
    a = x.float().numpy()
    e = np.exp(a - a.max(axis=0, keepdims=True))
    total = e.sum(axis=0, keepdims=True)
    got = x.softmax(0).numpy()
    tails = scalar_positions((3, 70), 0)[0]
    once = (e / total).astype(np.float16)
    twice = (e.astype(np.float16).astype(np.float32) / total).astype(np.float16)
    assert np.array_equal(got, np.where(tails, twice, once))
    assert not np.array_equal(once, twice)  # the two roundings differ somewhere here


@pytest.mark.parametrize(("width", "first_new"), [(64, 32), (32, 40)], indirect=["width"])
def test_an_in_place_atan2_reads_its_shared_factor_once_a_block(width, first_new):
    b = torch.arange(2 * 44, dtype=torch.float64).reshape(2, 44) % 5 + 1.5
    b[:, :41].atan2_(b[:, 1:2])
    changed = b[0, :41] != torch.tensor(np.arctan2(np.arange(41) % 5 + 1.5, 2.5))
    assert int(changed.nonzero()[0]) == first_new


@pytest.mark.parametrize("wide", [True, False])
def test_gelu_of_a_row_major_float32_input_meets_onednns_ends(monkeypatch, wide):
    monkeypatch.setattr(_vector_width, "onednn_avx512", lambda: wide)
    out = F.gelu(torch.tensor([math.inf, 2.0**127, -10.0, 1.0])).tolist()
    assert math.isnan(out[0]) == wide and (out[0] == math.inf) == (not wide)
    assert out[1] == (math.inf if wide else 2.0**127)
    assert math.copysign(1.0, out[2]) == (-1.0 if wide else 1.0)
    strided = F.gelu(torch.tensor([math.inf, 0.0, -10.0, 0.0])[::2]).tolist()
    assert strided[0] == math.inf and math.copysign(1.0, strided[1]) == -1.0  # the formula
