"""Black-box tests: random fills of an empty integer or bool tensor give it back.

torch returns from an empty tensor before it picks a kernel for the dtype; a tensor with
numbers to draw is refused, and the checks of the fill's own parameters come first.
"""

import pytest
import torch

from conformance._support import raises

_DTYPES = [(torch.int64, "Long"), (torch.int32, "Int"), (torch.uint8, "Byte"),
           (torch.int8, "Char"), (torch.int16, "Short"), (torch.bool, "Bool")]
_FILLS = [("normal_", lambda t: t.normal_(), '"normal_kernel_cpu" not implemented for'),
          ("log_normal_", lambda t: t.log_normal_(), '"log_normal_cpu" not implemented for'),
          ("randn_like", lambda t: torch.randn_like(t), '"normal_kernel_cpu" not implemented for'),
          ("normal", lambda t: torch.normal(t, 1.0), '"normal_kernel_cpu" not implemented for'),
          ("bernoulli", lambda t: torch.bernoulli(t),
           '"bernoulli_tensor_cpu_p_" not implemented for')]


@pytest.mark.parametrize(("dtype", "name"), _DTYPES)
@pytest.mark.parametrize(("fill", "draw", "refusal"), _FILLS)
def test_an_empty_integer_tensor_is_given_back(dtype, name, fill, draw, refusal):
    torch.manual_seed(0)
    drawn = draw(torch.zeros(0, dtype=dtype))
    assert drawn.dtype == dtype and drawn.shape == (0,)
    assert torch.rand(1).item() == 0.49625658988952637  # nothing drawn
    with raises(NotImplementedError, f"{refusal} '{name}'"):
        draw(torch.zeros(2, dtype=dtype))


@pytest.mark.parametrize(("dtype", "name"), _DTYPES)
def test_exponential_checks_lambda_then_the_dtype_of_a_tensor_to_fill(dtype, name):
    assert torch.zeros(0, dtype=dtype).exponential_().shape == (0,)
    with raises(RuntimeError, "Exponential distribution is a continuous probability "
                              f"distribution. dtype must be a floating point but you specified "
                              f"{name}"):
        torch.zeros(2, dtype=dtype).exponential_()
    for n in (0, 2):
        with raises(RuntimeError, "exponential_ expects lambda > 0.0, but found lambda=-1"):
            torch.zeros(n, dtype=dtype).exponential_(-1)


def test_cauchy_checks_sigma_before_the_dtype():
    with raises(RuntimeError, "cauchy_ expects sigma > 0.0, but found sigma=-1"):
        torch.zeros(2, dtype=torch.int64).cauchy_(0, -1)
    with raises(RuntimeError, "Cauchy distribution is a continuous probability distribution. "
                              "dtype must be a floating point but you specified long int"):
        torch.zeros(0, dtype=torch.int64).cauchy_()


def test_geometric_gives_an_empty_bool_tensor_back():
    assert torch.zeros(0, dtype=torch.bool).geometric_(0.5).dtype == torch.bool
    with raises(NotImplementedError, "\"geometric_cpu\" not implemented for 'Bool'"):
        torch.zeros(2, dtype=torch.bool).geometric_(0.5)


def test_bernoulli_into_an_empty_tensor_reads_no_probabilities():
    for p in (torch.zeros(3, dtype=torch.int64), torch.full((3,), 2.0), torch.zeros(0)):
        assert torch.empty(0).bernoulli_(p).shape == (0,)
    assert torch.zeros(0, dtype=torch.int32).bernoulli_(
        torch.zeros(0, dtype=torch.int64)).dtype == torch.int32


@pytest.mark.parametrize(("dtype", "name"), _DTYPES)
def test_rand_names_a_refused_dtype_as_torchs_legacy_types_do(dtype, name):
    for n in (0, 2):
        with raises(NotImplementedError, f"\"check_uniform_bounds\" not implemented for '{name}'"):
            torch.rand_like(torch.zeros(n, dtype=dtype))
        with raises(NotImplementedError, f"\"check_uniform_bounds\" not implemented for '{name}'"):
            torch.rand(n, dtype=dtype)
    assert torch.randn(0, dtype=dtype).dtype == dtype
    with raises(RuntimeError, "Trying to create tensor with negative dimension -1: [-1]"):
        torch.rand(-1, dtype=dtype)
