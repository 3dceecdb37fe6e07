"""torch.fill, torch.scalar_tensor, torch.unravel_index and the switches that are only kept.

torch.fill is fill_ out of place: FillBackward0 for a number, FillBackward1 for a 0-d tensor,
laid out as empty_like lays out its input, written once after it is made.
"""

import warnings

import pytest
import torch


def leaf():
    return (torch.arange(6, dtype=torch.float64).reshape(3, 2).t() * 0.17 + 0.4).requires_grad_()


def test_fill_with_a_number():
    x = leaf()
    y = torch.fill(x, 3)
    assert y.grad_fn.name() == "FillBackward0" and y.stride() == (1, 2) and y._version == 0
    assert y.tolist() == [[3.0] * 3] * 2 and y.dtype == torch.float64
    y.sum().backward()
    assert x.grad.tolist() == [[0.0] * 3] * 2


def test_fill_with_a_tensor_sends_the_sum_to_the_value():
    x, v = leaf(), torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
    y = torch.fill(x, v)
    assert y.grad_fn.name() == "FillBackward1" and len(y.grad_fn.next_functions) == 2
    (y * torch.arange(6.0, dtype=torch.float64).view(2, 3)).sum().backward()
    assert v.grad.item() == 15.0 and x.grad.abs().sum().item() == 0


def test_fill_of_inference_tensors_starts_at_version_one():
    with torch.inference_mode():
        a = torch.ones(2, 3)
    assert torch.fill(a, 1)._version == 1


def test_scalar_tensor_takes_the_default_dtype():
    assert torch.scalar_tensor(True).dtype == torch.float32
    assert torch.scalar_tensor(3, dtype=torch.int64).dtype == torch.int64
    t = torch.scalar_tensor(2.5, requires_grad=True)
    assert t.shape == () and t.requires_grad and t.item() == 2.5


def test_unravel_index_gives_views_of_one_int64_tensor():
    rows, cols = torch.unravel_index(torch.tensor([[1, -5], [9, 3]], dtype=torch.int32), (2, 4))
    assert rows.tolist() == [[0, 0], [0, 0]] and cols.tolist() == [[1, 3], [1, 3]]
    assert rows.dtype == torch.int64 and rows.stride() == (4, 2) and rows._is_view()
    assert torch.unravel_index(torch.tensor(5), ()) == ()
    assert [t.tolist() for t in torch.unravel_index(torch.tensor([4, 7]), 8)] == [[4, 7]]


@pytest.mark.parametrize("call, error, message", [
    (lambda: torch.scalar_tensor(1j), RuntimeError, "value cannot be converted to type float "
     "without overflow"),
    (lambda: torch.scalar_tensor("a"), TypeError, "scalar_tensor\\(\\): argument 's' \\(position "
     "1\\) must be Number, not str"),
    (lambda: torch.fill(torch.ones(2), torch.ones(2)), RuntimeError, "fill_ only supports "
     "0-dimension value tensor but got tensor with 1 dimensions."),
    (lambda: torch.fill(torch.ones(2, dtype=torch.uint8), 300), RuntimeError, "value cannot be "
     "converted to type uint8_t without overflow"),
    (lambda: torch.unravel_index(torch.tensor([1.0]), (2, 4)), TypeError, "expected 'indices' "
     "to be integer dtype, but got torch.float32"),
    (lambda: torch.unravel_index(torch.tensor([True]), (2, 4)), TypeError, "expected 'indices' "
     "to be integer dtype, but got torch.bool"),
    (lambda: torch.unravel_index(torch.tensor([1]), [2, -4]), ValueError, "'shape' cannot have "
     "negative values, but got \\(2, -4\\)"),
    (lambda: torch.unravel_index(torch.tensor([1]), 4.0), TypeError, "expected 'shape' to be int "
     "or sequence of ints, but got <class 'float'>"),
    (lambda: torch.unravel_index(torch.tensor([1]), [2, 2.0]), TypeError, "expected 'shape' "
     "sequence to only contain ints, but got <class 'float'>"),
    (lambda: torch.unravel_index(torch.tensor([1]), (0, 2)), RuntimeError, "ZeroDivisionError"),
    (lambda: torch.set_deterministic_debug_mode("x"), RuntimeError, "invalid value of "
     "debug_mode, expected one of `default`, `warn`, `error`, but got x"),
    (lambda: torch.set_deterministic_debug_mode(5), RuntimeError, "invalid value of debug_mode, "
     "expected 0, 1, or 2, but got 5"),
    (lambda: torch.set_deterministic_debug_mode(1.0), TypeError, "debug_mode must be str or int, "
     "but got <class 'float'>"),
    (lambda: torch.use_deterministic_algorithms(1), TypeError, "_set_deterministic_algorithms"
     "\\(\\): argument 'mode' \\(position 1\\) must be bool, not int"),
    (lambda: torch.use_deterministic_algorithms(True, warn_only=1), TypeError,
     "_set_deterministic_algorithms\\(\\): argument 'warn_only' must be bool, not int"),
    (lambda: torch.set_float32_matmul_precision(3), RuntimeError, "set_float32_matmul_precision "
     "expects a str, but got int"),
])
def test_refusals(call, error, message):
    with pytest.raises(error, match=f"^{message}$"):
        call()


def test_the_deterministic_switches_read_back_what_was_set():
    try:
        torch.set_deterministic_debug_mode("warn")
        assert torch.get_deterministic_debug_mode() == 1
        assert torch.are_deterministic_algorithms_enabled()
        assert torch.is_deterministic_algorithms_warn_only_enabled()
        torch.use_deterministic_algorithms(True)
        assert torch.get_deterministic_debug_mode() == 2
        torch.set_deterministic_debug_mode(True)
        assert torch.get_deterministic_debug_mode() == 1
    finally:
        torch.set_deterministic_debug_mode(0)
    assert not torch.are_deterministic_algorithms_enabled()
    assert not torch.is_deterministic_algorithms_warn_only_enabled()


def test_an_unknown_matmul_precision_warns_and_changes_nothing():
    assert torch.get_float32_matmul_precision() == "highest"
    try:
        torch.set_float32_matmul_precision("medium")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            torch.set_float32_matmul_precision("x")
        assert str(caught[0].message).startswith(
            "x is not one of 'highest', 'high', or 'medium'; the currentsetFloat32MatmulPrecision"
            " call has no effect.")
        assert torch.get_float32_matmul_precision() == "medium"
    finally:
        torch.set_float32_matmul_precision("highest")
