"""Black-box tests: float16 draws made as torch's kernels make them, in single precision.

Each float16 draw is compared with the float32 draw it is built from, under the same
seed, and the generator is checked to be left where torch leaves it.
"""

import warnings

import pytest
import torch


def _state_after(draw):
    torch.manual_seed(0)
    value = draw()
    return value, torch.get_rng_state()


@pytest.mark.parametrize("n", [17, 20, 31, 33, 100])
def test_half_normals_redraw_the_tail_without_drawing_it_first(n):
    half, half_state = _state_after(lambda: torch.randn(n, dtype=torch.float16))
    whole = n - n % 16
    single, single_state = _state_after(lambda: torch.randn(whole + 16))
    expected = torch.cat([single[:n - 16], single[whole:whole + 16]]).half()
    assert half.tolist() == expected.tolist()
    assert torch.equal(half_state, single_state)  # 16 uniforms fewer than n + 16


@pytest.mark.parametrize("n", [16, 32, 48])
def test_half_normals_of_whole_blocks_are_single_ones_rounded(n):
    half, half_state = _state_after(lambda: torch.randn(n, dtype=torch.float16))
    single, single_state = _state_after(lambda: torch.randn(n))
    assert half.tolist() == single.half().tolist()
    assert torch.equal(half_state, single_state)


def test_half_probabilities_meet_single_precision_uniforms():
    torch.manual_seed(3)
    p = torch.rand(4000).half()
    drawn, drawn_state = _state_after(lambda: torch.bernoulli(p))
    uniforms, uniforms_state = _state_after(lambda: torch.rand(4000))
    assert drawn.dtype == torch.float16
    assert drawn.tolist() == (uniforms < p.float()).half().tolist()
    assert torch.equal(drawn_state, uniforms_state)
    written, _ = _state_after(lambda: torch.empty(4000, dtype=torch.int32).bernoulli_(p))
    assert written.tolist() == (uniforms < p.float()).int().tolist()


def test_a_near_probability_in_half_is_not_rounded_down():
    drawn, _ = _state_after(lambda: torch.bernoulli(torch.full((2000,), 0.7,
                                                                 dtype=torch.float16)))
    uniforms, _ = _state_after(lambda: torch.rand(2000))
    assert drawn.tolist() == (uniforms < 0.7001953125).half().tolist()


@pytest.mark.parametrize(("low", "high"), [(-0.7, 0.7), (0.1, 0.3), (-3.3, 1e-3)])
def test_half_uniform_bounds_are_single_precision_numbers(low, high):
    half, half_state = _state_after(
        lambda: torch.empty(3000, dtype=torch.float16).uniform_(low, high))
    single, single_state = _state_after(lambda: torch.empty(3000).uniform_(low, high))
    expected = single.half()
    expected[expected == torch.tensor(high).half()] = torch.tensor(low).half()
    assert half.tolist() == expected.tolist()
    assert torch.equal(half_state, single_state)


def test_multinomial_sums_half_weights_in_single_precision():
    for weights in (torch.full((10,), 10000.0), torch.arange(1.0, 101.0),
                    torch.arange(1.0, 1001.0).reshape(4, 250)):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a sum past 65504 warns of nothing
            half, half_state = _state_after(
                lambda w=weights: torch.multinomial(w.half(), 50, replacement=True))
        single, single_state = _state_after(
            lambda w=weights: torch.multinomial(w.half().float(), 50, replacement=True))
        assert half.tolist() == single.tolist()
        assert torch.equal(half_state, single_state)
        assert len(set(half.flatten().tolist())) > 1  # not all in one category


def test_half_quotients_past_its_range_are_infinities_without_warnings():
    weights = torch.arange(1, 1001, dtype=torch.float16)
    quotients, _ = _state_after(
        lambda: weights / torch.empty_like(weights).exponential_(1.0))
    infinite = set(torch.nonzero(quotients.isinf()).flatten().tolist())
    assert len(infinite) >= 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        drawn, _ = _state_after(lambda: torch.multinomial(weights, 3))
    assert set(drawn.tolist()) <= infinite  # the largest quotients, in some order


@pytest.mark.parametrize("seed", [50458, 0, 7])
def test_half_normals_drawn_one_at_a_time_are_doubles_rounded_by_way_of_single(seed):
    def draw(dtype):
        torch.manual_seed(seed)
        return torch.randn_like(torch.empty(5, 4, dtype=dtype).t())

    half, double = draw(torch.float16), draw(torch.float64)
    assert half.stride() == double.stride() == (1, 4)
    assert half.tolist() == double.float().half().tolist()
