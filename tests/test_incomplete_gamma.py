"""White-box: the incomplete gamma kernels against references computed to 150 bits."""

import numpy as np
import pytest

from refgrad._ops.incomplete_gamma import regularized

# (a, x, P(a, x), Q(a, x)), each rounded once to float64
REFERENCES = [
    (0.5, 0.5, 0.6826894921370859, 0.3173105078629141),
    (3.0, 1.0, 0.08030139707139419, 0.9196986029286058),
    (100.0, 110.0, 0.8417213299399129, 0.15827867006008708),
    (1000.0, 1100.0, 0.99894067674607, 0.0010593232539299773),
    (0.001, 0.5, 0.9994399333435292, 0.0005600666564707498),
    (20.0, 0.0001, 4.109926183173567e-99, 1.0),
    (5000.0, 4900.0, 0.07794495622651391, 0.9220550437734861),
    (0.1, 30.0, 0.9999999999999996, 4.476766580012692e-16),
    (2.0, 700.0, 1.0, 6.911633257175599e-302),
    (50.0, 1.0, 1.2337508979097351e-65, 1.0),
]


@pytest.mark.parametrize(("a", "x", "p", "q"), REFERENCES)
def test_each_side_is_accurate_where_it_is_computed_directly(a, x, p, q):
    lower = regularized(np.array([a]), np.array([x]), False)[0]
    upper = regularized(np.array([a]), np.array([x]), True)[0]
    # the smaller of the two carries full relative precision; the larger, 1 - it, absolute
    small, large = (lower, upper) if p < q else (upper, lower)
    small_ref, large_ref = (p, q) if p < q else (q, p)
    assert small == pytest.approx(small_ref, rel=1e-12, abs=0)
    assert large == pytest.approx(large_ref, rel=0, abs=1e-15)


def test_the_two_sum_to_one_and_broadcast():
    a = np.array([[0.3], [4.0], [60.0]])
    x = np.array([0.1, 4.5, 70.0, 300.0])
    lower, upper = regularized(a, x, False), regularized(a, x, True)
    assert lower.shape == (3, 4)
    np.testing.assert_allclose(lower + upper, 1.0, rtol=0, atol=4e-16)
    assert np.all(np.diff(lower, axis=1) >= 0)  # P never falls as x grows
