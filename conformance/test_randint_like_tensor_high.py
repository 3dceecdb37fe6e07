"""Black-box tests: randint_like's forms, a tensor high among them."""

import warnings

import pytest
import torch

from conformance._support import raises


def _drawn(*bounds, **options):
    torch.manual_seed(0)
    return torch.randint_like(torch.zeros(5), *bounds, **options).tolist()


@pytest.mark.parametrize(("high", "number"), [
    (torch.tensor(10), 10), (torch.tensor(10.7), 10), (torch.tensor(10, dtype=torch.int32), 10),
    (torch.tensor(True), 1), (torch.tensor(2**40), 2**40)])
def test_a_tensor_high_is_read_as_its_integer(high, number):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 2**40 in float32: torch's precision warning
        assert _drawn(high) == _drawn(number)
        assert _drawn(high, dtype=torch.int64) == _drawn(number, dtype=torch.int64)


def test_whole_number_tensors_are_taken_as_either_bound():
    assert _drawn(2, torch.tensor(10)) == _drawn(2, 10)
    assert _drawn(torch.tensor(2), torch.tensor(10)) == _drawn(2, 10)
    assert _drawn(high=torch.tensor(7)) == _drawn(7)


def test_a_tensor_high_must_be_a_scalar():
    for high in (torch.tensor([10]), torch.tensor([10, 11])):
        with raises(RuntimeError, "high must be a scalar tensor and on CPU"):
            _drawn(high)
    with raises(RuntimeError, "random_ expects 'from' to be less than 'to', but got from=0 >= "
                              "to=-3"):
        _drawn(torch.tensor(-3))


@pytest.mark.parametrize(("bounds", "got"), [
    ((5.5,), "(Tensor, float)"), ((True,), "(Tensor, bool)"), ((2.0, 10), "(Tensor, float, int)"),
    ((2, 10.0), "(Tensor, int, float)"), (("a",), "(Tensor, str)"),
    ((None,), "(Tensor, NoneType)")])
def test_a_bound_that_is_no_whole_number_is_refused_with_the_forms(bounds, got):
    with pytest.raises(TypeError) as caught:
        _drawn(*bounds)
    lines = str(caught.value).splitlines()
    assert lines[0] == (f"randint_like() received an invalid combination of arguments - got "
                        f"{got}, but expected one of:")
    assert " * (Tensor input, Tensor high, *, torch.memory_format memory_format = None, " \
           "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, " \
           "bool pin_memory = False, bool requires_grad = False)" in lines
