"""Seeded random streams: the same seed gives torch's numbers, word for word.

The words are recomputed here by a plain-Python Mersenne Twister (the textbook
mt19937), and each sampler's numbers are rebuilt from them, so every test
checks the target's numbers against arithmetic written independently of it.
"""

import math
from fractions import Fraction

import numpy as np
import pytest
import torch

from conformance._support import raises


def mt19937_words(seed: int, count: int) -> list:
    """The first ``count`` outputs of mt19937 seeded with the seed's low 32 bits."""
    state = [seed % 2**32]
    for i in range(1, 624):
        state.append((1812433253 * (state[i - 1] ^ (state[i - 1] >> 30)) + i) % 2**32)
    out = []
    while len(out) < count:
        for i in range(624):
            y = (state[i] & 0x80000000) | (state[(i + 1) % 624] & 0x7FFFFFFF)
            state[i] = state[(i + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        for y in state:
            y ^= y >> 11
            y ^= (y << 7) & 0x9D2C5680
            y ^= (y << 15) & 0xEFC60000
            out.append(y ^ (y >> 18))
    return out[:count]


def doubles(words: list) -> list:
    """53 bits of each pair of words, the first word high, as a number in [0, 1)."""
    pairs = zip(words[0::2], words[1::2])
    return [((high << 32 | low) % 2**53) / 2**53 for high, low in pairs]


SEEDS = [0, 1, 7, 2**31 + 3, 2**40 + 11]


def test_seed_zero_gives_torchs_numbers():
    torch.manual_seed(0)
    assert torch.rand(3).tolist() == [0.49625658988952637, 0.7682217955589294,
                                      0.08847743272781372]
    torch.manual_seed(0)
    assert torch.randn(3, dtype=torch.float64).tolist() == [
        1.5409961082440433, -0.2934289057609464, -2.1787893820745574]
    torch.manual_seed(0)
    assert torch.randint(0, 10, (8,)).tolist() == [4, 9, 3, 0, 3, 9, 7, 3]
    torch.manual_seed(0)
    assert torch.randperm(8).tolist() == [4, 0, 7, 3, 2, 5, 1, 6]


def test_a_seeded_linear_layer_starts_from_torchs_weights():
    torch.manual_seed(0)
    layer = torch.nn.Linear(3, 2)
    assert layer.weight.tolist() == [
        [-0.004322517663240433, 0.3097158372402191, -0.4751853346824646],
        [-0.4248946011066437, -0.2223689705133438, 0.15482072532176971]]
    assert layer.bias.tolist() == [-0.011439144611358643, 0.45777493715286255]


@pytest.mark.parametrize("seed", SEEDS)
def test_rand_takes_24_bits_of_a_word_in_single_and_53_of_two_in_double(seed):
    words = mt19937_words(seed, 1400)
    torch.manual_seed(seed)
    assert torch.rand(700).tolist() == [(w % 2**24) / 2**24 for w in words[:700]]
    torch.manual_seed(seed)
    assert torch.rand(700, dtype=torch.float64).tolist() == doubles(words)


def test_only_the_low_32_bits_of_the_seed_choose_the_stream():
    torch.manual_seed(2**32 + 1)
    high = torch.rand(5)
    assert torch.initial_seed() == 2**32 + 1
    torch.manual_seed(1)
    assert torch.equal(torch.rand(5), high)
    torch.manual_seed(-1)
    assert torch.initial_seed() == 2**64 - 1
    assert torch.rand(4).tolist() == [(w % 2**24) / 2**24 for w in mt19937_words(2**32 - 1, 4)]


@pytest.mark.parametrize("seed", SEEDS)
def test_randint_takes_a_word_below_2_to_the_28_and_two_from_there(seed):
    words = mt19937_words(seed, 200)
    torch.manual_seed(seed)
    assert torch.randint(-5, 2**28 - 5 - 1, (50,)).tolist() == [
        -5 + w % (2**28 - 1) for w in words[:50]]
    torch.manual_seed(seed)
    wide = [(high << 32 | low) for high, low in zip(words[0::2], words[1::2])]
    assert torch.randint(-3, 2**28 - 3, (50,)).tolist() == [-3 + w % 2**28 for w in wide[:50]]
    torch.manual_seed(seed)
    drawn = torch.randint(-2**63, 2**63 - 1, (50,)).tolist()
    assert drawn == [-2**63 + w % (2**64 - 1) for w in wide[:50]]


@pytest.mark.parametrize("n", [1, 2, 9, 700])
def test_randperm_is_fisher_yates_on_one_word_a_place(n):
    words, order = mt19937_words(5, max(n - 1, 0)), list(range(n))
    for i, word in enumerate(words):
        j = i + word % (n - i)
        order[i], order[j] = order[j], order[i]
    torch.manual_seed(5)
    assert torch.randperm(n).tolist() == order


def test_few_normals_come_one_pair_at_a_time_and_the_sine_waits():
    u = doubles(mt19937_words(3, 16))
    expected = []
    for first, second in zip(u[0::2], u[1::2]):
        radius = math.sqrt(-2.0 * math.log1p(-second))
        expected += [radius * math.cos(2 * math.pi * first),
                     radius * math.sin(2 * math.pi * first)]
    torch.manual_seed(3)
    got = torch.randn(3, dtype=torch.float64).tolist() + torch.randn(
        1, dtype=torch.float64).tolist()
    assert got == expected[:4]
    state = torch.get_rng_state().numpy()
    assert state[16:24].view(np.uint64)[0] == 8  # two pairs: eight words
    torch.manual_seed(3)
    assert torch.randn(5).tolist() == [float(np.float32(x)) for x in expected[:5]]


def test_sixteen_or_more_normals_are_made_sixteen_at_a_time():
    u = doubles(mt19937_words(4, 2 * 32))
    torch.manual_seed(4)
    drawn = torch.randn(16, dtype=torch.float64).tolist()
    for j in range(8):
        radius = math.sqrt(-2 * math.log(1 - u[j]))
        angle = 2 * math.pi * u[j + 8]
        assert drawn[j] == radius * math.cos(angle)
        assert drawn[j + 8] == radius * math.sin(angle)
    torch.manual_seed(4)
    assert torch.randn(17, dtype=torch.float64)[:1].tolist() == drawn[:1]
    torch.manual_seed(4)
    assert torch.randn(15, dtype=torch.float64)[0].item() != drawn[0]


def test_uniform_bounds_are_applied_with_one_rounding():
    words = mt19937_words(7, 400)
    span, low = Fraction(2.1) - Fraction(-3.7), Fraction(-3.7)
    expected = [float(Fraction(x) * Fraction(float(span)) + low) for x in doubles(words)]
    torch.manual_seed(7)
    assert torch.empty(200, dtype=torch.float64).uniform_(-3.7, 2.1).tolist() == expected


def test_a_number_that_rounds_to_the_upper_bound_becomes_the_lower_one():
    torch.manual_seed(7)
    values = torch.empty(20000).uniform_(0.3, 0.30001)
    low, high = np.float32(0.3), np.float32(0.30001)
    words = np.array(mt19937_words(7, 20000))
    assert values.max().item() < high
    assert (values.numpy() == low).sum() > (words % 2**24 == 0).sum()
    torch.manual_seed(0)
    halves = torch.rand(20000, dtype=torch.float16)
    singles = np.array([(w % 2**24) / 2**24 for w in mt19937_words(0, 20000)], np.float32)
    rounded_up = singles.astype(np.float16) == 1
    assert rounded_up.any() and (halves.numpy()[rounded_up] == 0).all()
    assert np.array_equal(halves.numpy()[~rounded_up], singles[~rounded_up].astype(np.float16))


def _fields(state) -> dict:
    raw = state.numpy()
    return {"seed": int(raw[:8].view(np.uint64)[0]), "left": int(raw[8:12].view(np.int32)[0]),
            "next": int(raw[16:24].view(np.uint64)[0]),
            "key": raw[24:24 + 624 * 8].view(np.uint64),
            "normal": float(raw[5024:5032].view(np.float64)[0]),
            "normal_valid": int(raw[5040:5044].view(np.int32)[0])}


def test_the_state_is_torchs_5056_bytes():
    torch.manual_seed(2**33 + 5)
    fields = _fields(torch.get_rng_state())
    assert torch.get_rng_state().shape == (5056,)
    assert (fields["seed"], fields["left"], fields["next"]) == (2**33 + 5, 1, 0)
    key = [5]
    for i in range(1, 624):
        key.append((1812433253 * (key[-1] ^ (key[-1] >> 30)) + i) % 2**32)
    assert fields["key"].tolist() == key
    torch.rand(3)
    assert (_fields(torch.get_rng_state())["left"], _fields(torch.get_rng_state())["next"]) == (
        622, 3)
    torch.rand(621)
    assert (_fields(torch.get_rng_state())["left"], _fields(torch.get_rng_state())["next"]) == (
        1, 624)


def test_the_held_back_normal_number_is_part_of_the_state():
    torch.manual_seed(5)
    torch.randn(1, dtype=torch.float64)
    fields = _fields(torch.get_rng_state())
    assert fields["normal_valid"] == 1 and fields["normal"] != 0
    expected = fields["normal"]
    assert torch.randn(1, dtype=torch.float64).item() == expected
    assert _fields(torch.get_rng_state())["normal_valid"] == 0
    torch.randn(1, dtype=torch.float64)
    torch.manual_seed(5)
    assert _fields(torch.get_rng_state())["normal_valid"] == 0


def _edited(offset: int, value, kind) -> "torch.Tensor":
    torch.manual_seed(9)
    torch.rand(3)
    raw = torch.get_rng_state().numpy().copy()
    raw[offset:offset + np.dtype(kind).itemsize].view(kind)[0] = value
    return torch.from_numpy(raw)


@pytest.mark.parametrize("offset, value, kind", [
    (8, 0, np.int32), (8, 625, np.int32), (12, 0, np.int32), (16, 625, np.uint64)])
def test_a_state_out_of_range_is_refused_and_changes_nothing(offset, value, kind):
    bad = _edited(offset, value, kind)
    torch.manual_seed(4)
    before = torch.get_rng_state()
    with raises(RuntimeError, "Invalid mt19937 state"):
        torch.set_rng_state(bad)
    assert torch.equal(torch.get_rng_state(), before)


def test_a_state_whose_next_word_is_not_where_left_says_is_followed():
    words = [(w % 2**24) / 2**24 for w in mt19937_words(9, 624 + 10)]
    torch.set_rng_state(_edited(8, 300, np.int32))  # left 300 where 622 belongs; next 3
    drawn = torch.rand(299 + 10).tolist()
    assert drawn[:299] == words[3:302]  # from next on, until left runs out
    assert drawn[299:] == words[624:634]  # then the twist, as if 302..623 were drawn
    assert _fields(torch.get_rng_state())["next"] == 10


def test_seeds_torch_refuses():
    with raises(RuntimeError, "manual_seed expected a long, but got float"):
        torch.Generator().manual_seed(1.5)
    with raises(RuntimeError, "manual_seed expected a long, but got bool"):
        torch.Generator().manual_seed(True)
    with raises(ValueError, "Overflow when unpacking long long"):
        torch.Generator().manual_seed(2**64)
    with raises(ValueError, "Overflow when unpacking long long"):
        torch.manual_seed(-2**63 - 1)
    assert torch.manual_seed(2.5).initial_seed() == 2
    assert torch.Generator().initial_seed() == 67280421310721


def test_generators_keep_their_own_streams():
    g = torch.Generator().manual_seed(11)
    torch.manual_seed(11)
    first = torch.rand(4, generator=g)
    assert torch.equal(first, torch.rand(4))
    h = torch.Generator()
    h.set_state(g.get_state())
    assert torch.equal(torch.randn(20, generator=g), torch.randn(20, generator=h))


@pytest.mark.parametrize(("like", "plain"), [
    (lambda x, g: torch.rand_like(x, generator=g), lambda g: torch.rand(2, 3, generator=g)),
    (lambda x, g: torch.randn_like(x, generator=g), lambda g: torch.randn(2, 3, generator=g)),
    (lambda x, g: torch.randint_like(x, 7, generator=g),
     lambda g: torch.randint(7, (2, 3), generator=g).float()),
    (lambda x, g: torch.randint_like(x, 2, 9, generator=g),
     lambda g: torch.randint(2, 9, (2, 3), generator=g).float()),
])
def test_the_like_draws_take_a_generator(like, plain):
    x = torch.ones(2, 3)
    drawn = like(x, torch.Generator().manual_seed(5))
    assert drawn.tolist() == plain(torch.Generator().manual_seed(5)).tolist()
    assert drawn.tolist() != like(x, torch.Generator().manual_seed(6)).tolist()
