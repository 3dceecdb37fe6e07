"""refgrad's generator: the parts torch does not show."""

import numpy as np

import refgrad
from refgrad._generator import Generator, seeded_key, temper
from refgrad._sampling import fused, permutation


def test_the_first_words_are_the_tempered_twisted_key():
    g = Generator().manual_seed(5)
    bits = np.random.MT19937()
    bits.state = {"bit_generator": "MT19937", "state": {"key": seeded_key(5), "pos": 624}}
    expected = bits.random_raw(700).astype(np.uint32)
    assert np.array_equal(g.words(700), expected)
    assert np.array_equal(temper(np.array([0], np.uint32)), [0])


def test_words_and_pairs_come_from_one_stream():
    a, b = Generator().manual_seed(9), Generator().manual_seed(9)
    high, low = a.words(2).astype(np.uint64)
    assert b.words64(1)[0] == (high << np.uint64(32)) | low


def test_seed_is_random_and_reported():
    g = Generator()
    seeds = {g.seed() for _ in range(3)}
    assert len(seeds) == 3 and g.initial_seed() in seeds and all(0 <= s < 2**64 for s in seeds)
    assert refgrad.seed() == refgrad.initial_seed()


def test_fused_rounds_once():
    a = np.array([1.0 + 2.0**-30], dtype=np.float64)
    twice = (1.0 + 2.0**-30) ** 2 - 1.0  # the product's rounding loses the 2**-60
    assert fused(a, a[0], -1.0)[0] == 2.0**-29 + 2.0**-60 != twice
    single = np.array([1.0 + 2.0**-12], dtype=np.float32)
    assert fused(single, single[0], -1.0)[0] == np.float32(2.0**-11 + 2.0**-24)


def test_a_permutation_holds_every_index_once():
    order = permutation(Generator().manual_seed(1), 1000)
    assert sorted(order.tolist()) == list(range(1000)) and order.dtype == np.int64
    assert permutation(Generator(), 0).tolist() == []
    assert permutation(Generator(), 1).tolist() == [0]


def test_normal_broadcasts_its_tangent():
    import refgrad.autograd.forward_ad as fw

    with fw.dual_level():
        mean = fw.make_dual(refgrad.zeros(2, 1, dtype=refgrad.float64),
                            refgrad.ones(2, 1, dtype=refgrad.float64))
        out = refgrad.normal(mean, refgrad.ones(3, dtype=refgrad.float64))
        assert fw.unpack_dual(out).tangent.shape == (2, 3)
