"""Black-box tests: nonzero_static, _is_all_true, _is_any_true and complex() of a tensor.

The same assertions run on torch.
"""

import pytest
import torch

from conformance._support import raises


def test_nonzero_static_pads_or_cuts_to_its_size():
    x = torch.tensor([[0.0, 1.0], [2.0, 0.0]], requires_grad=True)
    out = x.nonzero_static(size=3)
    assert out.tolist() == [[0, 1], [1, 0], [-1, -1]] and out.dtype == torch.int64
    assert out.stride() == (2, 1) and not out.requires_grad
    assert torch.nonzero_static(x, size=1, fill_value=7).tolist() == [[0, 1]]
    assert x.nonzero_static(size=0).shape == (0, 2)
    assert torch.nonzero_static(torch.tensor(1.0), size=2).shape == (2, 0)
    assert torch.nonzero_static(torch.tensor([0, 3]), size=3, fill_value=9).tolist() == [
        [1], [9], [9]]


@pytest.mark.parametrize(("call", "kind", "message"), [
    (lambda x: torch.nonzero_static(x, size=-1), RuntimeError,
     "nonzero_static: 'size' must be an non-negative integer"),
    (lambda x: torch.nonzero_static(x, 3), TypeError,
     "nonzero_static() takes from 2 to 1 positional arguments but 2 were given"),
    (lambda x: x.nonzero_static(), TypeError,
     'nonzero_static() missing 1 required positional arguments: "size"'),
    (lambda x: torch.nonzero_static(x, size=2.0), TypeError,
     "nonzero_static(): argument 'size' must be int, not float"),
    (lambda x: x.nonzero_static(size=3, fill_value=2.5), TypeError,
     "nonzero_static(): argument 'fill_value' must be int, not float"),
    (lambda x: x.nonzero_static(size=3, fill_value=True), TypeError,
     "nonzero_static(): argument 'fill_value' must be int, not bool"),
])
def test_nonzero_static_refusals(call, kind, message):
    with raises(kind, message):
        call(torch.tensor([[0.0, 1.0], [2.0, 0.0]]))


def test_all_and_any_of_a_bool_tensor():
    flags = torch.tensor([True, False])
    assert flags._is_any_true().item() and not flags._is_all_true().item()
    assert flags._is_all_true().dtype == torch.bool and flags._is_all_true().shape == ()
    assert torch.tensor([], dtype=torch.bool)._is_all_true().item()
    for name, line in (("_is_all_true", 2144), ("_is_any_true", 2148)):
        with raises(RuntimeError, 'self.scalar_type() == at::kBool INTERNAL ASSERT FAILED at "/'
                                  "__w/pytorch/pytorch/aten/src/ATen/native/ReduceOps.cpp"
                                  f'":{line}, please report a bug to PyTorch. '):
            getattr(torch.tensor([1.0, 2.0]), name)()


def test_complex_of_a_one_element_tensor():
    assert complex(torch.tensor([2.5])) == 2.5 + 0j and type(complex(torch.tensor(3))) is complex
    assert complex(torch.tensor([True])) == 1 + 0j
    assert torch.tensor(2.0).__complex__() == 2 + 0j
    with raises(ValueError, "only one element tensors can be converted to Python scalars"):
        complex(torch.tensor([1.0, 2.0]))
