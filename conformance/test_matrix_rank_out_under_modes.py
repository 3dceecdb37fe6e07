"""Black-box tests: linalg.matrix_rank with out= under a dispatch mode, where autograd is on.
No result is made; out is resized where its shape is another (before the tolerances for
the overload of tensors, after them for numbers and tol); out's dtype is checked after the
tolerances; the count is computed and dropped, out left unwritten with its version; an
empty input fills out with zeros. The same assertions run on torch."""

import warnings

import pytest
import torch

from conformance._support import calling_mode, shape_and_dtype

Calls = calling_mode(show=shape_and_dtype)
B = torch.arange(24.0).view(2, 3, 4)
T = torch.tensor(0.5)
EPS = 4.76837158203125e-07  # float32's eps times 4
RESIZE = "aten.resize_.default"


def _names(mode) -> list:
    return [name.replace("aten.", "") for name, _, _ in mode.seen]


COUNT = ["_linalg_svd.default", "slice.Tensor", "unsqueeze.default", "mul.Tensor",
         "unsqueeze.default", "maximum.default", "gt.Tensor", "sum.dim_IntList"]

CASES = [  # (id, call, out's shape, the ops the mode sees)
    ("tensors", lambda out: torch.linalg.matrix_rank(B, out=out), (5,),
     ["resize_.default", "zeros.default", "full.default", *COUNT]),
    ("right_shape", lambda out: torch.linalg.matrix_rank(B, out=out), (2,),
     ["zeros.default", "full.default", *COUNT]),
    ("atol_number", lambda out: torch.linalg.matrix_rank(B, atol=0.5, out=out), (5,),
     ["full.default", "full.default", "resize_.default", *COUNT]),
    ("tol_number", lambda out: torch.linalg.matrix_rank(B, tol=0.5, out=out), (5,),
     ["full.default", "full.default", "resize_.default", *COUNT]),
    ("tol_tensor", lambda out: torch.linalg.matrix_rank(B, tol=T, out=out), (5,),
     ["zeros.default", "resize_.default", *COUNT]),
    ("atol_tensor", lambda out: torch.linalg.matrix_rank(B, atol=T, out=out), (5,),
     ["resize_.default", "full.default", "zeros.default", "gt.Scalar", "where.self", *COUNT]),
    ("rtol_tensor", lambda out: torch.linalg.matrix_rank(B, rtol=T, out=out), (5,),
     ["resize_.default", "zeros.default", *COUNT]),
]


@pytest.mark.parametrize(("call", "shape", "names"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_out_is_left_unwritten_and_the_count_dropped(call, shape, names):
    out = torch.full(shape, 7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with Calls() as mode:
            given = call(out)
    assert given is out and _names(mode) == names and out.shape == (2,)
    if shape == (2,):  # a resized out holds whatever its new memory held
        assert out.tolist() == [7, 7]
    assert out._version == (0 if shape == (2,) else 1)  # the resize_ alone


def test_a_resize_warns_where_out_held_elements():
    out = torch.full((5,), 7)
    with Calls() as mode:
        with pytest.warns(UserWarning, match=r"had shape \[5\], which does not match the "
                                             r"required output shape \[2\]"):
            torch.linalg.matrix_rank(B, out=out)
    assert mode.seen[0] == (RESIZE, ("T[5] int64", [2]), {})


def test_an_empty_input_fills_out_with_zeros():
    out, E = torch.full((2,), 7), torch.ones(2, 0, 0)
    with Calls() as mode:
        torch.linalg.matrix_rank(E, out=out)
    assert _names(mode) == ["zeros.default", "full.default", "fill_.Scalar"]
    assert out.tolist() == [0, 0] and out._version == 1


def test_a_bool_out_is_refused_after_the_tolerances():
    out = torch.zeros(2, dtype=torch.bool)
    with Calls() as mode:
        with pytest.raises(RuntimeError) as caught:
            torch.linalg.matrix_rank(B, out=out)
    assert str(caught.value) == ("torch.linalg.matrix_rank: Expected result to be safely "
                                 "castable from Long dtype, but got result with dtype Bool")
    assert _names(mode) == ["zeros.default", "full.default"]


def test_an_input_that_requires_grad_is_not_refused():
    A = B.clone().requires_grad_()
    out = torch.full((2,), 7)
    with Calls() as mode:
        torch.linalg.matrix_rank(A, out=out)
    assert _names(mode)[:3] == ["zeros.default", "full.default", "_linalg_svd.default"]
    assert out.tolist() == [7, 7] and out._version == 0
