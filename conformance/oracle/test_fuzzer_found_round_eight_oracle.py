"""Oracle test: float16 products over a dimension and float16 logsumexp, to the last bit.

Products are drawn near 1 so that long ones neither overflow nor vanish; each table is
reduced as laid out row-major, column-major and sliced, and the gradient of a product
is compared too.
"""

import numpy as np
import pytest
import torch

import refgrad

SHAPES = [(3, 5), (5, 3), (4, 37), (37, 4), (2, 3, 70), (70, 33), (200, 300)]
LAYOUTS = {
    "row-major": lambda t: t,
    "column-major": lambda t: t.mT.contiguous().mT,
    "sliced": lambda t: t[..., ::2],
}


def _pair(array, layout):
    return layout(torch.tensor(array)), layout(refgrad.tensor(array))


def _same(ours, theirs) -> bool:
    return ours.dtype == refgrad.float16 and np.array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("layout", LAYOUTS.values(), ids=LAYOUTS.keys())
def test_a_float16_product_is_torch_s(shape, layout):
    array = (1 + 0.05 * np.random.default_rng(len(shape) * shape[-1]).standard_normal(shape))
    theirs, ours = _pair(array.astype(np.float16), layout)
    for dim in [None, *range(len(shape))]:
        if dim is None:
            assert _same(ours.prod(), theirs.prod())
        else:
            assert _same(ours.prod(dim), theirs.prod(dim)), dim


@pytest.mark.parametrize("shape", SHAPES[:4])
def test_the_gradient_of_a_float16_product_is_torch_s(shape):
    array = (1 + 0.05 * np.random.default_rng(shape[0]).standard_normal(shape)).astype(np.float16)
    theirs, ours = torch.tensor(array).requires_grad_(), refgrad.tensor(array).requires_grad_()
    theirs.prod(0).sum().backward()
    ours.prod(0).sum().backward()
    assert _same(ours.grad, theirs.grad)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("layout", LAYOUTS.values(), ids=LAYOUTS.keys())
def test_a_float16_logsumexp_is_torch_s(shape, layout):
    array = 3 * np.random.default_rng(shape[0] + 1).standard_normal(shape)
    theirs, ours = _pair(array.astype(np.float16), layout)
    for dim in [*range(len(shape)), tuple(range(len(shape)))]:
        for keepdim in (False, True):
            assert _same(ours.logsumexp(dim, keepdim), theirs.logsumexp(dim, keepdim)), dim
