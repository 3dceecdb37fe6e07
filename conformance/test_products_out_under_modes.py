"""Black-box tests: products with out= that torch writes in steps where autograd is on
(linalg.multi_dot, chain_matmul, kron) take their products in torch's order, the shapes a
mode sees being torch's, and write what the call writes with no mode, to the last bit; and
chain_matmul writes out= at all. The same assertions run on torch."""

import warnings

import pytest
import torch

from conformance._support import calling_mode


def _shapes(value):
    if isinstance(value, torch.Tensor):
        return tuple(value.shape)
    if isinstance(value, list | tuple):
        return type(value)(_shapes(v) for v in value)
    return value


Shapes = calling_mode(_shapes)


def _chain():
    """Matrices whose cheapest chain splits unevenly: 2 x 10, 10 x 2, 2 x 10, 10 x 2, 2 x 10."""
    a = torch.arange(20, dtype=torch.float64).reshape(2, 10) * 0.37 + 0.1
    b = torch.arange(20, dtype=torch.float64).reshape(10, 2) * 0.23 - 1.3
    return [a, b, a * 0.5, b * 1.7, a - 0.2]


PRODUCTS = [  # (id, the call given an out, what the mode sees, its tensors by shape)
    ("multi_dot_five", lambda o: torch.linalg.multi_dot(_chain(), out=o),
     [("aten.resize_.default", ((0,), [2, 10]), {}),
      ("aten.view.default", ((2, 10), [2, 10]), {}),
      ("aten.mm.default", ((2, 10), (10, 2)), {}),
      ("aten.mm.default", ((2, 10), (10, 2)), {}),
      ("aten.mm.default", ((2, 2), (2, 2)), {}),
      ("aten.mm.out", ((2, 2), (2, 10)), {"out": (2, 10)})]),
    ("multi_dot_four", lambda o: torch.linalg.multi_dot(_chain()[1:], out=o),
     [("aten.resize_.default", ((0,), [10, 10]), {}),
      ("aten.view.default", ((10, 10), [10, 10]), {}),
      ("aten.mm.default", ((2, 10), (10, 2)), {}),
      ("aten.mm.default", ((2, 2), (2, 10)), {}),
      ("aten.mm.out", ((10, 2), (2, 10)), {"out": (10, 10)})]),
    ("chain_matmul", lambda o: torch.chain_matmul(*_chain()[:3], out=o),
     [("aten.resize_.default", ((0,), [2, 10]), {}),
      ("aten.view.default", ((2, 10), [2, 10]), {}),
      ("aten.mm.default", ((2, 10), (10, 2)), {}),
      ("aten.mm.out", ((2, 2), (2, 10)), {"out": (2, 10)})]),
    ("kron", lambda o: torch.kron(_chain()[0][:, :3], torch.ones(2, dtype=torch.float64), out=o),
     [("aten.ones.default", ([2],), {"dtype": torch.float64, "device": torch.device("cpu"),
                                    "pin_memory": False}),
      ("aten._unsafe_view.default", ((2, 3), [2, 1, 3, 1]), {}),
      ("aten._unsafe_view.default", ((2,), [1, 1, 1, 2]), {}),
      ("aten.resize_.default", ((0,), [2, 6]), {}),
      ("aten._unsafe_view.default", ((2, 6), [2, 1, 3, 2]), {}),
      ("aten.mul.out", ((2, 1, 3, 1), (1, 1, 1, 2)), {"out": (2, 1, 3, 2)})]),
]


def _called(call, mode):
    out = torch.empty(0, dtype=torch.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with mode:
            given = call(out)
    return out, given


@pytest.mark.parametrize("call, expected", [pytest.param(*c[1:], id=c[0]) for c in PRODUCTS])
def test_a_product_with_out_shows_torchs_steps_and_writes_what_it_writes_alone(call, expected):
    mode = Shapes()
    out, given = _called(call, mode)
    assert mode.seen[-len(expected):] == expected  # after the steps that make the operands
    assert given is out
    alone, _ = _called(call, warnings.catch_warnings())
    assert out.shape == alone.shape and out.tolist() == alone.tolist()  # the same order of sums


def test_chain_matmul_writes_its_out():
    m = torch.arange(9, dtype=torch.float64).reshape(3, 3) * 0.3 + 0.1
    for matrices in ([m], [m, m], [m, m.t(), m]):
        out = torch.empty(0, dtype=torch.float64)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            given = torch.chain_matmul(*matrices, out=out)
            assert given is out
            assert out.tolist() == torch.chain_matmul(*matrices).tolist()
