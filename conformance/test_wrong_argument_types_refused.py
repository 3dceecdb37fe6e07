"""Arguments of the wrong type that a body could make sense of are refused with torch's
TypeError: a lone tensor for concat's tensors, a tensor for pinverse's float rcond, a float
for randint_like's bounds, a float or a tensor of one element for cumsum_'s dim. What torch
reads as a number still runs. The same assertions run on torch."""

import warnings

import pytest
import torch

from conformance._support import raises

X = torch.arange(6.0).reshape(2, 3)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: torch.concat(X), "concat(): argument 'tensors' (position 1) must be tuple of "
     "Tensors, not Tensor"),
    (lambda: torch.concatenate(X, 0), "concatenate(): argument 'tensors' (position 1) must be "
     "tuple of Tensors, not Tensor"),
    (lambda: torch.concat(tensors=X), "concat(): argument 'tensors' must be tuple of Tensors, "
     "not Tensor"),
    (lambda: torch.pinverse(X, torch.ones(2, 3)), "pinverse(): argument 'rcond' (position 2) "
     "must be float, not Tensor"),
    (lambda: torch.pinverse(X, rcond=X), "pinverse(): argument 'rcond' must be float, not "
     "Tensor"),
    (lambda: X.pinverse(X), "pinverse(): argument 'rcond' (position 1) must be float, not "
     "Tensor"),
    (lambda: torch.tensor(0.7).cumsum_(torch.tensor(0.0)), "cumsum_(): argument 'dim' "
     "(position 1) must be int, not Tensor"),
    (lambda: torch.ones(2).cumsum_(torch.tensor([0])), "cumsum_(): argument 'dim' "
     "(position 1) must be int, not Tensor"),
    (lambda: torch.tensor(0.7).cumsum_(0.5), "cumsum_(): argument 'dim' (position 1) must be "
     "int, not float"),
    (lambda: torch.tensor(0.7).cumsum_(dim=torch.tensor(0.0)), "cumsum_(): argument 'dim' "
     "must be int, not Tensor"),
])
def test_the_wrong_type_is_refused(call, message):
    with raises(TypeError, message):
        call()


def test_the_aliases_still_join_sequences():
    assert torch.concat([X, X], dim=1).shape == (2, 6)
    assert torch.concatenate((X, X), axis=1).shape == (2, 6)
    assert torch.concat.__name__ == "concat" and torch.concatenate.__name__ == "concatenate"


def test_a_0d_tensor_rcond_is_read_as_its_number():
    assert torch.equal(torch.pinverse(X, torch.tensor(0.1)), torch.pinverse(X, 0.1))
    assert torch.equal(X.pinverse(torch.tensor(0.1)), torch.pinverse(X))


@pytest.mark.parametrize(("call", "got"), [
    (lambda: torch.randint_like(X, 0.5), "(Tensor, float)"),
    (lambda: torch.randint_like(X, 0.5, 3), "(Tensor, float, int)"),
    (lambda: torch.randint_like(X, 0, 3.5), "(Tensor, int, float)"),
    (lambda: torch.randint_like(X, high=0.5), "(Tensor, high=float)"),
    (lambda: torch.randint_like(X, True), "(Tensor, bool)"),
    (lambda: torch.randint_like(X, 2, True), "(Tensor, int, bool)"),
    (lambda: torch.randint_like(X), "(Tensor)"),
    (lambda: torch.randint_like(X, 1.5, memory_format=1), "(Tensor, float, memory_format=int)"),
])
def test_randint_like_refuses_bounds_that_are_not_ints(call, got):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # and nothing is drawn: NumPy does not warn
        with pytest.raises(TypeError) as caught:
            call()
    first = str(caught.value).split("\n")[0]
    assert first == (f"randint_like() received an invalid combination of arguments - got {got}, "
                     "but expected one of:")
    assert " * (Tensor input, Tensor high, *, torch.Generator generator," in str(caught.value)


def test_randint_like_reads_a_tensor_high_as_its_number():
    torch.manual_seed(0)
    as_int = torch.randint_like(X, 3)
    torch.manual_seed(0)
    assert torch.equal(torch.randint_like(X, torch.tensor(3)), as_int)
    torch.manual_seed(0)
    assert torch.equal(torch.randint_like(X, torch.tensor(3.7)), as_int)
    torch.manual_seed(0)
    from_a_tensor_low = torch.randint_like(X, torch.tensor(1), 5)
    torch.manual_seed(0)
    assert torch.equal(from_a_tensor_low, torch.randint_like(X, 1, 5))
    with raises(RuntimeError, "high must be a scalar tensor and on CPU"):
        torch.randint_like(X, torch.tensor([3, 4, 5]))
    with raises(RuntimeError, "random_ expects 'from' to be less than 'to', but got from=0 >= "
                "to=-3"):
        torch.randint_like(X, torch.tensor(-3))
