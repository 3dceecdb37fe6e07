"""clone and to: the copies of an inference tensor made outside inference mode are written by
copy_, and only those."""

import refgrad as torch
from refgrad._ops.simple_functions import to


def test_to_writes_its_copy_of_an_inference_tensor_only_outside_the_mode():
    with torch.inference_mode():
        x = torch.ones(2, requires_grad=True)
        inside = to(x, torch.float64)
    assert inside.is_inference() and inside.grad_fn is None
    assert to(x, torch.float32) is x  # nothing to change: no copy, no write
    outside = to(x, torch.float64)
    assert outside._version_counter.value == 1 and outside.grad_fn.name().endswith("CopyBackwards")
    assert outside.dtype == torch.float64 and outside._data.flags.c_contiguous
