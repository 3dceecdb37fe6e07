"""resize_, resize_as_ and set_ on an inference tensor outside inference mode: the tensor
takes its new sizes or memory first, and only then is the write refused; set_'s own dtype
check comes before either."""

import pytest
import torch

REFUSED = "Inplace update to inference tensor outside InferenceMode is not allowed"


def _inference():
    with torch.inference_mode():
        return torch.ones(2, 3)


@pytest.mark.parametrize("write, shape, stride", [
    (lambda i: i.resize_(4), (4,), (1,)),
    (lambda i: i.resize_(3, 2), (3, 2), (2, 1)),
    (lambda i: i.resize_as_(torch.ones(6)), (6,), (1,)),
    (lambda i: torch.resize_as_(i, torch.ones(5)), (5,), (1,)),
    (lambda i: i.set_(torch.ones(2)), (2,), (1,)),
    (lambda i: i.set_(), (0,), (1,)),
    (lambda i: i.set_(torch.ones(5).untyped_storage()), (5,), (1,)),
    (lambda i: i.set_(torch.ones(5).untyped_storage(), 1, (2,), (1,)), (2,), (1,)),
])
def test_the_change_is_made_before_the_refusal(write, shape, stride):
    i = _inference()
    with pytest.raises(RuntimeError, match=f"^{REFUSED}"):
        write(i)
    assert tuple(i.shape) == shape and i.stride() == stride


def test_the_same_sizes_are_no_write_and_a_wrong_dtype_is_refused_first():
    i = _inference()
    assert i.resize_(2, 3) is i
    with pytest.raises(RuntimeError, match="^Could not set tensor of type double to a tensor "
                                           "of type float$"):
        i.set_(torch.ones(2, dtype=torch.float64))
    assert tuple(i.shape) == (2, 3)
