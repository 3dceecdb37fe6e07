"""A bool tensor of one element inside a size (a view's, a factory's, split's sizes, roll's
shifts) is refused with torch's RuntimeError; inside a list of dims it is the int 1, and an
integer tensor is a size as before. The same assertions run on torch."""

import pytest
import torch

from conformance._support import raises

BOOL_IN_SIZES = (
    "Expected scalar.isIntegral( false) to be true, but got false.  (Could this error message "
    "be improved?  If so, please report an enhancement request to PyTorch.)"
)
YES = torch.tensor(True)
x = torch.ones(4)

SIZED = {
    "view": lambda b: x.view(-1, b),
    "view_tuple": lambda b: x.view((-1, b)),
    "view_first": lambda b: x.view(b, -1),
    "reshape": lambda b: x.reshape(-1, b),
    "torch_reshape": lambda b: torch.reshape(x, (-1, b)),
    "repeat": lambda b: x.repeat(b),
    "tile": lambda b: x.tile((b,)),
    "torch_tile": lambda b: torch.tile(x, (b,)),
    "zeros": lambda b: torch.zeros(b),
    "zeros_tuple": lambda b: torch.zeros((b, 2)),
    "ones": lambda b: torch.ones(b, 2),
    "full": lambda b: torch.full((b,), 1.0),
    "empty": lambda b: torch.empty(b),
    "randn": lambda b: torch.randn(b),
    "randint": lambda b: torch.randint(5, (b,)),
    "new_zeros": lambda b: x.new_zeros((b,)),
    "new_ones": lambda b: x.new_ones(b),
    "new_full": lambda b: x.new_full((b,), 1.0),
    "new_empty": lambda b: x.new_empty((b,)),
    "resize_": lambda b: torch.ones(4).resize_(b),
    "as_strided": lambda b: x.as_strided((b,), (1,)),
    "empty_strided": lambda b: torch.empty_strided((b,), (1,)),
    "unflatten": lambda b: x.unflatten(0, (b, 4)),
    "split": lambda b: x.split([b, 3]),
    "torch_split": lambda b: torch.split(x, [b, 3]),
    "split_with_sizes": lambda b: x.split_with_sizes([b, 3]),
    "tensor_split": lambda b: x.tensor_split([b]),
    "roll": lambda b: x.roll((b,), 0),
}


@pytest.mark.parametrize("name", SIZED)
def test_a_bool_tensor_in_a_size_is_refused(name):
    with raises(RuntimeError, BOOL_IN_SIZES):
        SIZED[name](YES)


@pytest.mark.parametrize("bool_tensor", [torch.tensor(True), torch.tensor([True])],
                         ids=["0-d", "one element"])
def test_any_bool_tensor_of_one_element_is_refused(bool_tensor):
    with raises(RuntimeError, BOOL_IN_SIZES):
        x.view(-1, bool_tensor)
    with raises(RuntimeError, BOOL_IN_SIZES):
        torch.zeros(bool_tensor, 2)


@pytest.mark.parametrize("name", SIZED)
def test_an_integer_tensor_in_a_size_is_that_size(name):
    as_tensor, as_int = SIZED[name](torch.tensor(1)), SIZED[name](1)
    if isinstance(as_int, tuple):
        assert [t.shape for t in as_tensor] == [t.shape for t in as_int]
    else:
        assert as_tensor.shape == as_int.shape


def test_the_sizes_are_read_in_order():
    with raises(RuntimeError, BOOL_IN_SIZES):  # the bool before the string
        x.view(YES, "a")
    with raises(TypeError, "view(): argument 'size' failed to unpack the object at pos 2 with "
                           "error \"type must be tuple of ints,but got str\""):
        x.view(4, "a", YES)


def test_a_python_bool_after_the_first_size_is_an_int():
    assert x.view(-1, True).shape == x.view(-1, 1).shape
    assert x.reshape(-1, True).shape == x.reshape(-1, 1).shape
    assert torch.zeros(2, True).shape == torch.zeros(2, 1).shape


def test_a_bool_tensor_for_a_symint_is_torchs_assertion():
    with pytest.raises(RuntimeError, match=r"\Ascalar\.isIntegral\( false\) INTERNAL ASSERT"):
        torch.select_scatter(torch.ones(2, 2), torch.ones(2), 0, YES)


m = torch.arange(6.0).reshape(2, 3)
DIMS = {
    "permute": lambda d: m.permute(0, d),
    "flip": lambda d: m.flip(d),
    "sum": lambda d: m.sum((d,)),
    "amax": lambda d: m.amax(d),
    "std": lambda d: m.std(d),
    "movedim": lambda d: m.movedim((d,), (0,)),
}


@pytest.mark.parametrize("name", DIMS)
def test_a_bool_tensor_in_dims_is_one(name):
    assert torch.equal(DIMS[name](YES), DIMS[name](1))
