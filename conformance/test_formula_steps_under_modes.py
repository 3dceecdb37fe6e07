"""Black-box tests: the steps of gradient formulas that a dispatch mode sees. A formula
that scales by a number calls a Scalar overload; a number given to where is wrapped
with scalar_tensor first; zeros that a gradient is scattered into are new_zeros; a
clamp's mask is its comparisons; indexing's gradient is an out-of-place index_put under
a mode. None of it changes values, strides, versions or the create_graph graph. The same
assertions run on torch.
"""

import contextlib

import pytest
import torch

from conformance._support import node_names, recording_mode

Names = recording_mode(lambda func: str(func).replace("aten.", "").replace(".default", ""))
Calls = recording_mode(lambda func: func)
SEED = ["sum", "ones_like", "expand"]


def _leaf():
    return (torch.arange(6, dtype=torch.float64).reshape(2, 3) * 0.1 + 0.3).requires_grad_()


STEPS = [  # (function, what a mode sees in its backward, after the seed)
    (torch.expm1, ["detach", "add.Scalar", "mul.Tensor", "detach"]),
    (torch.exp2, ["detach", "mul.Tensor", "mul.Scalar", "detach"]),
    (torch.sqrt, ["detach", "mul.Scalar", "div.Tensor", "detach"]),
    (lambda x: x.mean(), ["expand", "div.Scalar", "detach"]),
    (lambda x: torch.pow(2.0, x), ["detach", "mul.Scalar", "mul.Tensor", "detach"]),
    (lambda x: torch.erfinv(x * 0.5),
     ["erfinv", "pow.Tensor_Scalar", "exp", "mul.Scalar", "mul.Tensor", "mul.Tensor", "detach"]),
    (lambda x: x.clamp(0.3, 0.7),
     ["scalar_tensor", "ge.Scalar", "le.Scalar", "logical_and_", "where.self", "detach"]),
    (lambda x: x.clamp(min=0.4), ["scalar_tensor", "ge.Scalar", "where.self", "detach"]),
    (lambda x: x.clamp(max=0.4), ["scalar_tensor", "le.Scalar", "where.self", "detach"]),
    (lambda x: torch.where(x > 0.5, x, x * 2),
     ["scalar_tensor", "where.self", "scalar_tensor", "where.self", "mul.Tensor", "add.Tensor",
      "detach"]),
    (lambda x: torch.where(x > 0.5, x, 0.0), ["scalar_tensor", "where.self", "detach"]),
    (lambda x: (x[:, :2] + torch.eye(2, dtype=x.dtype)).logdet(),
     ["scalar_tensor", "where.self", "detach", "unsqueeze", "expand", "diag_embed",
      "transpose.int", "linalg_lu_solve", "slice_backward", "detach"]),
    (lambda x: torch.pow(x, x),
     ["detach", "ge.Scalar", "eq.Scalar", "logical_and", "log", "mul.Tensor", "scalar_tensor",
      "where.self", "mul.Tensor", "sub.Scalar", "pow.Tensor_Tensor", "mul.Tensor", "mul.Tensor",
      "scalar_tensor", "eq.Scalar", "where.self", "add.Tensor", "detach"]),
    (lambda x: x.max(1).values,
     ["unsqueeze", "unsqueeze", "new_zeros", "scatter.src", "detach"]),
    (lambda x: x.sort(1).values, ["new_zeros", "scatter.src", "detach"]),
    (lambda x: x.topk(2).values, ["new_zeros", "scatter.src", "detach"]),
    (lambda x: x.gather(1, torch.tensor([[0], [2]])), ["new_zeros", "scatter_add", "detach"]),
    (lambda x: x[torch.tensor([0, 1, 1])], ["new_zeros", "index_put", "detach"]),
    (lambda x: x.index_select(1, torch.tensor([0, 2])), ["new_zeros", "index_add", "detach"]),
    (lambda x: x.cummax(1).values, ["zeros", "scatter_add", "detach"]),
    (lambda x: x.unbind(1)[1], ["zeros", "expand", "zeros", "expand", "stack", "detach"]),
    (lambda x: x.unbind(0)[0] * x.unbind(0)[1], [
        "mul.Tensor", "mul.Tensor", "zeros", "expand", "stack", "zeros", "expand", "stack",
        "add.Tensor", "detach"]),
    # operands worked out right first, as C++ evaluates them
    (torch.rsqrt, ["detach", "pow.Tensor_Scalar", "mul.Scalar", "mul.Tensor", "detach"]),
    (lambda x: x.var(), ["mean", "sub.Tensor", "mul.Scalar", "mul.Tensor", "detach"]),
    (lambda x: x.std(),
     ["detach", "mul.Scalar", "div.Tensor", "eq.Scalar", "masked_fill_.Scalar", "mean",
      "sub.Tensor", "mul.Scalar", "mul.Tensor", "detach"]),
    (torch.reciprocal, ["detach", "mul.Tensor", "neg", "mul.Tensor", "detach"]),
    (lambda x: x / (x + 1),
     ["div.Tensor", "div.Tensor", "neg", "mul.Tensor", "div.Tensor", "add.Tensor", "detach"]),
    (torch.sinc,
     ["mul.Scalar", "mul.Tensor", "mul.Scalar", "sin", "cos", "mul.Tensor", "sub.Tensor",
      "div.Tensor", "mul.Tensor", "scalar_tensor", "eq.Scalar", "where.self", "detach"]),
    (lambda x: x.logcumsumexp(1),
     ["detach", "scalar_tensor", "abs", "log", "gt.Scalar", "where.self", "lt.Scalar",
      "where.self", "sub.Tensor", "flip", "logcumsumexp", "flip", "add.Tensor", "exp",
      "sub.Tensor", "flip", "logcumsumexp", "flip", "add.Tensor", "exp", "sub.Tensor",
      "detach"]),
    (lambda x: torch.linalg.svd(x, full_matrices=False)[0],
     ["detach", "detach", "detach", "transpose.int", "mm", "transpose.int", "sub.Tensor",
      "mul.Tensor", "unsqueeze", "unsqueeze", "sub.Tensor", "diagonal", "fill_.Scalar",
      "unsqueeze", "div.Tensor", "mul.Tensor", "mm", "mm", "detach"]),
    (lambda x: torch.linalg.svd(x, full_matrices=False)[2],
     ["detach", "detach", "detach", "transpose.int", "mm", "transpose.int", "sub.Tensor",
      "mul.Tensor", "unsqueeze", "unsqueeze", "sub.Tensor", "diagonal", "fill_.Scalar",
      "div.Tensor", "unsqueeze", "mul.Tensor", "mm", "unsqueeze", "div.Tensor", "transpose.int",
      "mm", "mm", "add.Tensor", "sub.Tensor", "mm", "detach"]),
    (lambda x: torch.linalg.inv(x[:, :2] + torch.eye(2, dtype=x.dtype)),
     ["detach", "transpose.int", "mm", "transpose.int", "mm", "neg", "slice_backward",
      "detach"]),
    (lambda x: torch.linalg.cholesky(x[:, :2] @ x[:, :2].mT + torch.eye(2, dtype=x.dtype)),
     ["detach", "transpose.int", "mm", "tril", "tril", "transpose.int", "add.Tensor",
      "mul.Scalar", "transpose.int", "linalg_solve_triangular", "linalg_solve_triangular",
      "t", "mm", "t", "mm", "transpose.int", "slice_backward", "slice_backward",
      "add.Tensor", "detach"]),
    (lambda x: torch.linalg.eigvalsh(x[:, :2] @ x[:, :2].mT),
     ["detach", "detach", "transpose.int", "unsqueeze", "mul.Tensor", "mm", "t", "mm", "t",
      "mm", "transpose.int", "slice_backward", "slice_backward", "add.Tensor", "detach"]),
]


@pytest.mark.parametrize(("call", "seen"), STEPS)
def test_a_formula_shows_torchs_steps(call, seen):
    x = _leaf()
    with Names() as mode:
        y = call(x)
        start = len(mode.seen)
        y.sum().backward()
    assert mode.seen[start:] == [*SEED, *seen]


def test_a_number_scaled_by_a_formula_is_handed_as_a_number():
    x = _leaf()
    with Calls() as mode:
        x.sqrt().sum().backward()
    (scaled,) = [func for func in mode.seen if str(func) == "aten.mul.Scalar"]
    assert scaled.name() == "aten::mul.Scalar"


def _arguments(call):
    x, seen = _leaf(), []

    class Arguments(torch.utils._python_dispatch.TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if str(func) in ("aten.scalar_tensor.default", "aten.new_zeros.default"):
                seen.append((str(func), [a if not isinstance(a, torch.Tensor) else
                                         tuple(a.shape) for a in args], kwargs))
            return func(*args, **(kwargs or {}))

    with Arguments():
        call(x).sum().backward()
    return seen


def test_wrapped_zeros_and_new_zeros_take_torchs_arguments():
    options = {"dtype": torch.float64, "layout": torch.strided, "device": torch.device("cpu")}
    assert _arguments(lambda x: x.clamp(0.3, 0.7)) == [
        ("aten.scalar_tensor.default", [0.0], options)]
    assert _arguments(lambda x: x.sort(1).values) == [("aten.new_zeros.default",
                                                      [(2, 3), [2, 3]], {})]
    assert _arguments(lambda x: x[torch.tensor([0, 1, 1])]) == [
        ("aten.new_zeros.default", [(3, 3), [2, 3]], options)]


def test_where_wraps_its_numbers_other_first():
    x = _leaf().detach()
    with Calls() as mode:
        out = torch.where(x > 0.5, 1, 0)
    assert [str(f) for f in mode.seen] == [
        "aten.gt.Scalar", "aten.scalar_tensor.default", "aten.scalar_tensor.default",
        "aten.where.self"]
    assert out.dtype == torch.int64 and out.stride() == (3, 1)


LAYOUTS = [  # gradients whose steps a mode changes, checked with and without one
    lambda x: x.sqrt(), lambda x: x.mean(), lambda x: x.clamp(0.5, 0.9),
    lambda x: x.clamp(min=0.6), lambda x: torch.where(x > 0.7, x, 0.0),
    lambda x: x.max(1).values, lambda x: x.sort(0).values, lambda x: x.topk(1, 0).values,
    lambda x: x.gather(0, torch.tensor([[1, 0, 1]])),
    lambda x: x.index_select(0, torch.tensor([1, 1])), lambda x: x.cummax(1).values,
    torch.rsqrt, lambda x: x.var(), torch.reciprocal, torch.sinc, lambda x: x.logcumsumexp(1),
    lambda x: torch.linalg.svd(x, full_matrices=False)[2],
    lambda x: torch.linalg.eigvalsh(x[:, :2] @ x[:, :2].mT),
    lambda x: x.unbind(1)[1], lambda x: x.unbind(0)[0] * x.unbind(0)[1],
    lambda x: (x[:, :2] + torch.eye(2, dtype=x.dtype)).logdet(),
    lambda x: torch.linalg.inv(x[:, :2] + torch.eye(2, dtype=x.dtype)),
    lambda x: torch.linalg.cholesky(x[:, :2] @ x[:, :2].mT + torch.eye(2, dtype=x.dtype)),
]


def _measured(call, mode):
    x = (torch.arange(6, dtype=torch.float64).reshape(3, 2).t() * 0.17 + 0.4).requires_grad_()
    with mode:
        y = call(x)
        (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
        (gg,) = torch.autograd.grad(g.sum(), x)
        x2 = x.detach().clone().requires_grad_()
        call(x2).sum().backward()
    return (node_names(g.grad_fn), g.stride(), gg.tolist(), x2.grad.stride(),
            x2.grad._version)


@pytest.mark.parametrize("call", LAYOUTS)
def test_a_mode_changes_no_value_stride_or_graph(call):
    alone = _measured(call, contextlib.nullcontext())
    assert _measured(call, Names())[1:] == alone[1:]
    assert _measured(call, Names())[0] == alone[0]


def test_indexing_puts_its_gradient_out_of_place_under_a_mode():
    index = torch.tensor([0, 1, 1])
    alone = _measured(lambda x: x[index], contextlib.nullcontext())
    seen = _measured(lambda x: x[index], Names())
    assert alone[0][0] == "IndexPutImplBackward0" and seen[0][0] == "IndexPutBackward0"
    assert seen[0][1:] == alone[0][1:] and seen[1:] == alone[1:]
    versions = []
    for mode in (contextlib.nullcontext(), Names()):
        x = _leaf()
        with mode:
            (g,) = torch.autograd.grad(x[index].sum(), x, create_graph=True)
        versions.append(g._version)
    assert versions == [1, 0]


CHECKED = [
    (lambda a: torch.linalg.inv(a), "linalg.inv", "linalg_inv_ex"),
    (lambda a: torch.linalg.cholesky(a), "linalg.cholesky", "linalg_cholesky_ex"),
]


@pytest.mark.parametrize(("call", "api", "op"), CHECKED)
def test_a_factorization_checks_its_errors_in_the_open(call, api, op):
    seen = []

    class Arguments(torch.utils._python_dispatch.TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append((str(func), [a for a in args if not isinstance(a, torch.Tensor)],
                         kwargs))
            return func(*args, **(kwargs or {}))

    good, singular = torch.eye(2, dtype=torch.float64), torch.zeros(3, 2, 2, dtype=torch.float64)
    with Arguments():
        call(good)
        with pytest.raises(torch.linalg.LinAlgError):
            call(singular)
    check = ("aten._linalg_check_errors.default", [api], {"is_matrix": True})
    assert [s[0] for s in seen[:2]] == [f"aten.{op}.default", check[0]]
    assert seen[1] == check
    assert seen[-1] == (check[0], [api], {"is_matrix": False})
