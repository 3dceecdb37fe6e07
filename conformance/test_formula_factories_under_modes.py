"""Black-box tests: the tensors that torch's C++ formulas make like another reach a dispatch
mode with the options those formulas name (div's gradient with a rounding mode, addcdiv's,
hinge_embedding_loss's zeros and margin), and what they make is laid out as torch's. The
same assertions run on torch.
"""

import pytest
import torch

from conformance._support import calling_mode
from conformance._support import other_operand as _other
from conformance._support import transposed_leaf as _leaf

F = torch.nn.functional
F64 = torch.float64
OPTIONS = {"dtype": F64, "layout": torch.strided, "device": torch.device("cpu")}

Calls = calling_mode()


CASES = [
    (lambda x: torch.div(x, _other(x), rounding_mode="floor"),
     ("aten.zeros_like.default", ("T",), OPTIONS)),
    (lambda x: torch.addcdiv(x, x, _other(x), value=0.5),
     ("aten.empty_like.default", ("T",), {"memory_format": torch.preserve_format})),
    (lambda x: F.hinge_embedding_loss(x, torch.ones(2, 3, dtype=F64)),
     ("aten.zeros_like.default", ("T",), {"memory_format": torch.contiguous_format})),
    (lambda x: F.hinge_embedding_loss(x, torch.ones(2, 3, dtype=F64)),
     ("aten.empty_like.default", ("T",), {"memory_format": torch.preserve_format})),
]


@pytest.mark.parametrize("fn, entry", CASES)
def test_a_formulas_factory_names_torchs_options(fn, entry):
    x = _leaf()
    with Calls() as mode:
        fn(x).sum().backward()
    assert entry in mode.seen
    func, given, named = mode.kept[mode.seen.index(entry)]
    made = func(*given, **named)
    assert made.shape == given[0].shape and made.dtype == given[0].dtype


@pytest.mark.parametrize("reduction", ["none", "sum"])
def test_hinge_embedding_loss_lays_out_as_torch(reduction):
    x = _leaf()
    target = torch.tensor([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]], dtype=F64)
    y = F.hinge_embedding_loss(x, target, reduction=reduction)
    y.sum().backward()
    assert y.stride() == ((3, 1) if reduction == "none" else ())
    assert x.grad.stride() == (1, 2)
    assert torch.equal(x.grad, torch.tensor([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]], dtype=F64))


CONVERSIONS = {
    "double": lambda x: x.double(),
    "half": lambda x: x.half(),
    "to_dtype": lambda x: x.to(torch.float16),
    "type": lambda x: x.type(torch.float64),
    "to_copy": lambda x: x.to(dtype=torch.float64, copy=True),
}


@pytest.mark.parametrize("name", sorted(CONVERSIONS))
def test_a_conversions_gradient_names_the_layout_and_the_device(name):
    x = torch.ones(2, requires_grad=True)
    y = CONVERSIONS[name](x)
    with Calls() as mode:
        y.sum().backward()
    copies = [entry for entry in mode.seen if entry[0] == "aten._to_copy.default"]
    assert copies == [("aten._to_copy.default", ("T",),
                       {"dtype": torch.float32, "layout": torch.strided,
                        "device": torch.device("cpu")})]
    assert x.grad.tolist() == [1.0, 1.0]
