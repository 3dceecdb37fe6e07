"""Black-box tests: the numbers gradient formulas write into their steps reach a dispatch
mode with torch's types (a float zero for sinc's and pow's masks, an int zero for atan2's
fill and where's gradient, a float for logdet's test of the sign, an int base for
logaddexp2's power, float powers for a p-norm's gradient), xlogy's and xlog1py's masks come
after their products, and the numbers of xlogy and xlog1py by a number go by position. The
same assertions run on torch. One reduced dimension is put back as the caller named it.
"""

import pytest
import torch

from conformance._support import calling_mode
from conformance._support import other_operand as _other
from conformance._support import transposed_leaf as _leaf

F64 = torch.float64
OPTIONS = {"dtype": F64, "layout": torch.strided, "device": torch.device("cpu")}

Calls = calling_mode()


def _seen(fn):
    x = _leaf()
    with Calls() as mode:
        fn(x).sum().backward()
    return [s for s in mode.seen if s[0] != "aten.detach.default"], x.grad


CASES = [
    (torch.sinc, ("aten.eq.Scalar", ("T", 0.0), {})),
    (lambda x: x ** _other(x), ("aten.eq.Scalar", ("T", 0.0), {})),
    (lambda x: torch.pow(_other(x), x), ("aten.eq.Scalar", ("T", 0), {})),
    (lambda x: torch.atan2(x, _other(x)), ("aten.masked_fill.Scalar", ("T", "T", 0), {})),
    (lambda x: torch.logaddexp2(x, _other(x)), ("aten.pow.Scalar", (2, "T"), {})),
    (lambda x: x.norm(3), ("aten.pow_.Scalar", ("T", 1.0), {})),
    (lambda x: x.norm(3), ("aten.pow.Tensor_Scalar", ("T", 2.0), {})),
    (lambda x: torch.dist(x, _other(x), 3), ("aten.pow_.Scalar", ("T", 1.0), {})),
    (lambda x: torch.xlogy(x, 0.5), ("aten.xlogy.Scalar_Other", ("T", 0.5), {})),
    (lambda x: x.renorm(1, 0, 0.5),
     ("aten.linalg_vector_norm.default", ("T", 1, [1], True), {"dtype": F64})),
    (lambda x: torch.where(x > 0.5, x, 0.0), ("aten.scalar_tensor.default", (0,), OPTIONS)),
    (lambda x: torch.logdet(x[:, :2] + 2 * torch.eye(2, dtype=F64)),
     ("aten.eq.Scalar", ("T", -1.0), {})),
    (lambda x: torch.special.xlog1py(x, -2.0),
     ("aten.special_xlog1py.other_scalar", ("T", -2.0), {})),
]


@pytest.mark.parametrize("fn, entry", CASES)
def test_a_formulas_number_has_torchs_type(fn, entry):
    seen, _ = _seen(fn)
    assert any(s == entry and all(type(a) is type(b) for a, b in zip(s[1], entry[1]))
               for s in seen)  # 0 == 0.0: the types are compared apart


_MASK = ["aten.le.Scalar", "aten.eq.Scalar", "aten.bitwise_and.Tensor",
         "aten.masked_fill.Scalar"]


@pytest.mark.parametrize("fn, product, bound", [
    (lambda x: torch.xlogy(x, _other(x)), "aten.xlogy.Tensor", 0.0),
    (lambda x: torch.special.xlog1py(x, _other(x)), "aten.special_xlog1py.default", -1.0),
])
def test_the_mask_of_xlogy_comes_after_its_product(fn, product, bound):
    seen, grad = _seen(fn)
    names = [s[0] for s in seen]
    start = names.index(product, names.index(product) + 1)  # the gradient's
    assert names[start:start + 5] == [product, *_MASK]  # and y's gradient not made
    assert seen[start + 1][1] == ("T", bound) and seen[start + 2][1] == ("T", 0.0)
    assert torch.allclose(grad, torch.special.xlog1py(torch.ones(2, 3, dtype=F64), _other(
        grad)) if "1py" in product else torch.log(_other(grad)))


@pytest.mark.parametrize("reduce, shape, unsqueezes", [
    (lambda x: x.sum(-1), (2, 3), [-1]), (lambda x: x.mean(-1), (3,), [-1]),
    (lambda x: x.sum((0, -1)), (2, 3), [0, 1]), (lambda x: x.sum((-1, 0)), (2, 3, 4), [0, 2]),
    (lambda x: x.std(-1), (2, 3), [-1]), (lambda x: x.norm(3, -1), (2, 3), [-1]),
])
def test_one_reduced_dimension_is_put_back_as_given(reduce, shape, unsqueezes):
    x = torch.arange(1.0, 1.0 + torch.Size(shape).numel(), dtype=F64).reshape(shape)
    x.requires_grad_()
    y = reduce(x).sum()
    with Calls() as mode:
        y.backward()
    seen = [s[1][1] for s in mode.seen if s[0] == "aten.unsqueeze.default"]
    assert seen[:len(unsqueezes)] == unsqueezes
