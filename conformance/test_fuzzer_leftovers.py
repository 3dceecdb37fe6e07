"""Differences the fuzzer rounds had left: writes counted on the fresh results of
inference operands, the order cosine_similarity records its sides in, the layout of
integers converted to floats and of a resized out=, and more.
The same assertions run on torch.
"""

import pytest
import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode


class PassingMode(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def versions(result):
    if isinstance(result, tuple):
        return tuple(t._version for t in result)
    return result._version


def inference(*tensors):
    with torch.inference_mode():
        return tuple(t.clone() for t in tensors)


A = torch.tensor([[2.0, 1.0, 0.5], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]], dtype=torch.float64)
B = torch.tensor([[1.0, 2.0], [0.0, 1.0], [3.0, 1.0]], dtype=torch.float64)
X = torch.tensor([0.5, -1.5, 2.0, 0.25, -0.75])
EDGES = torch.tensor([-1.0, 0.0, 1.0])
COUNTS = torch.tensor([1, 0, 3, 1, 2])


@pytest.mark.parametrize("make, expected", [
    (lambda a, b, x, e, c: torch.histc(x, 4), 2),
    (lambda a, b, x, e, c: torch.histc(x[:0], 4), 2),
    (lambda a, b, x, e, c: torch.histogram(x, 3), (2, 1)),
    (lambda a, b, x, e, c: torch.histogram(x, 3, density=True), (4, 1)),
    (lambda a, b, x, e, c: torch.histogram(x, e), (2, 1)),
    (lambda a, b, x, e, c: torch.isreal(x), 1),
    (lambda a, b, x, e, c: torch.isreal(a.t()), 1),
    (lambda a, b, x, e, c: torch.linalg.det(a), 1),
    (lambda a, b, x, e, c: torch.det(a[:0, :0]), 1),
    (lambda a, b, x, e, c: torch.linalg.slogdet(a), (1, 1)),
    (lambda a, b, x, e, c: torch.slogdet(a), (1, 1)),
    (lambda a, b, x, e, c: torch.linalg.solve(a, b), 1),
    (lambda a, b, x, e, c: torch.linalg.solve(a, b[:, 0]), 1),
    (lambda a, b, x, e, c: torch.linalg.solve(a, b.t(), left=False), 1),
    (lambda a, b, x, e, c: torch.linalg.solve_ex(a, b), (1, 1)),
    (lambda a, b, x, e, c: torch.linalg.tensorsolve(a, b[:, 0]), 1),
    (lambda a, b, x, e, c: torch.linalg.lu(a), (1, 1, 2)),
    (lambda a, b, x, e, c: torch.linalg.lu(b.t()), (1, 1, 2)),
    (lambda a, b, x, e, c: torch.linalg.lu(b), (1, 2, 1)),
    (lambda a, b, x, e, c: torch.linalg.householder_product(b, b[:2, 0]), 1),
    (lambda a, b, x, e, c: torch.frexp(x), (1, 1)),
    (lambda a, b, x, e, c: torch.bincount(c), 1),
    (lambda a, b, x, e, c: torch.bincount(c, x), 1),
    (lambda a, b, x, e, c: torch.bincount(c[:0], x[:0]), 1),
    (lambda a, b, x, e, c: torch.isin(x, x[:2]), 1),
    (lambda a, b, x, e, c: torch.isin(x, 0.5), 1),
    (lambda a, b, x, e, c: torch.isin(x[:0], x), 0),
    (lambda a, b, x, e, c: torch.linalg.matrix_exp(a), 2),
    (lambda a, b, x, e, c: torch.linalg.matrix_exp(a[:1, :1]), 0),
    (lambda a, b, x, e, c: torch.linalg.matrix_exp(a[:0, :0]), 1),
    (lambda a, b, x, e, c: torch.linalg.matrix_exp(a.expand(1, 3, 3)), 2),
    (lambda a, b, x, e, c: torch.linalg.matrix_exp(a.expand(2, 3, 3)), 0),
    (lambda a, b, x, e, c: torch.addbmm(a[:2, :2], b.reshape(3, 2, 1), b.reshape(3, 1, 2)), 5),
    (lambda a, b, x, e, c: torch.addbmm(a[:2, :2], b.reshape(3, 2, 1), b.reshape(3, 1, 2),
                                        beta=0), 4),
    (lambda a, b, x, e, c: torch.addbmm(a[0, :2], b.reshape(3, 2, 1)[:1], b.reshape(3, 1, 2)[:1]),
     3),
    (lambda a, b, x, e, c: torch.addbmm(a[:2, :2], b.reshape(3, 2, 1)[:0], b.reshape(3, 1, 2)[:0],
                                        beta=0), 2),
])
def test_writes_into_fresh_results_of_inference_operands_count(make, expected):
    result = make(*inference(A, B, X, EDGES, COUNTS))
    assert versions(tuple(result) if isinstance(result, tuple) else result) == expected
    normal = make(A, B, X, EDGES, COUNTS)  # with the autograd layer, no write is counted
    zero = tuple(0 for _ in expected) if isinstance(expected, tuple) else 0
    assert versions(tuple(normal) if isinstance(normal, tuple) else normal) == zero


def test_a_normal_operand_beside_an_inference_one_counts_nothing():
    (a,) = inference(A)
    assert torch.linalg.solve(a, B)._version == 0
    assert torch.isin(inference(X)[0], X)._version == 0


def test_a_matrix_exponential_of_a_nan_is_written_once():
    (a,) = inference(torch.tensor([[1.0, float("nan")], [0.0, 2.0]]))
    assert torch.linalg.matrix_exp(a)._version == 1


def test_results_a_dispatch_mode_makes_count_nothing():
    a, x = inference(A, X)
    with PassingMode():
        results = (torch.linalg.det(a), torch.histc(x, 4), torch.isreal(x), *torch.linalg.lu(a),
                   *torch.frexp(x), torch.linalg.matrix_exp(a), torch.linalg.matrix_rank(a),
                   torch.linalg.solve(a, a[0]))
    assert [t._version for t in results] == [0] * len(results)


def test_inference_mode_results_count_nothing():
    with torch.inference_mode():
        result = torch.histc(X, 4)
    assert result.is_inference()


def test_matrix_rank_is_written_through_its_out_form_whatever_its_operands():
    (a,) = inference(A)
    assert torch.linalg.matrix_rank(A)._version == 1
    assert torch.linalg.matrix_rank(a, hermitian=True)._version == 1
    assert torch.linalg.matrix_rank(A.requires_grad_(False), atol=torch.tensor(0.5))._version == 1
    with torch.no_grad():
        assert torch.linalg.matrix_rank(A)._version == 1


def test_cosine_similarity_makes_its_second_side_first():
    v1 = torch.tensor([1.5, -2.0, 0.0], requires_grad=True)
    v2 = torch.full((1, 2, 2, 3), 0.5, requires_grad=True)
    out = F.cosine_similarity(v2, v1, dim=-1)
    first, second = (n for n, _ in out.grad_fn.next_functions[0][0].next_functions)
    # each quotient's divisor side: an expansion of v2, then one of v1
    expand2, expand1 = first.next_functions[0][0], second.next_functions[0][0]
    assert expand1._sequence_nr() < expand2._sequence_nr()
    assert second._sequence_nr() < first._sequence_nr()


def test_a_multi_grad_hook_holds_the_gradient_the_engine_accumulates_first():
    v1 = torch.tensor([1.5, -2.0, 0.0], requires_grad=True)
    v2 = torch.full((1, 2, 2, 3), 0.5, requires_grad=True)
    order = []
    torch.autograd.graph.register_multi_grad_hook((v2, v1), lambda grads: order.append("all"))
    v1.register_hook(lambda grad: order.append("v1"))
    v2.register_hook(lambda grad: order.append("v2"))
    F.cosine_similarity(v2, v1, dim=-1).sum().backward()
    assert order == ["v2", "all", "v1"]
    # v2's gradient was still held by the hook: copied, one write; v1's was taken over
    assert (v1.grad._version, v2.grad._version) == (0, 1)


def skipping_slice(n=3):
    """A (1, n) slice of integers whose stride along its elements skips one: (1, 2)."""
    return torch.arange(2 * n).reshape(n, 2).t()[:1]


@pytest.mark.parametrize("op, expected", [
    (torch.sin, (3, 1)), (torch.sigmoid, (3, 1)), (torch.sqrt, (3, 1)),
    (lambda x: torch.xlogy(x, x), (3, 1)), (lambda x: x / x, (3, 1)),
    (lambda x: (x > 2).sin(), (3, 1)),  # a lone bool operand is converted too
    (lambda x: x * 0.5, (1, 1)),  # a number: no operands laid out alike
    (lambda x: x.abs(), (1, 1)),  # an integer result: nothing converted
    (lambda x: x.double().sin(), (3, 1)),
    (lambda x: torch.where(x > 2, 1.0, 2.0), (1, 1)),  # a condition stays as it is
])
def test_integer_operands_are_laid_out_as_their_float_copies(op, expected):
    x = skipping_slice()
    assert x.stride() == (1, 2)
    assert op(x).stride() == expected


def test_a_float_slice_keeps_its_own_order():
    x = torch.arange(6.0).reshape(3, 2).t()[:1]
    assert x.sin().stride() == (1, 1)


def test_integer_operands_of_more_dimensions_are_converted_first():
    z = torch.arange(24).reshape(2, 3, 4).permute(2, 0, 1)[:1, :, ::2]
    assert z.stride() == (1, 12, 8)
    assert z.sin().stride() == (4, 2, 1)
    assert (z / 2).stride() == (1, 2, 1)


@pytest.mark.parametrize("op", [torch.eq, torch.lt, torch.add, torch.mul])
@pytest.mark.parametrize("elements", [0, 1])
def test_a_resized_out_takes_the_iterators_size_one_strides(op, elements):
    a = torch.tensor([[1.0], [2.0]]).t()
    assert a.stride() == (1, 1)
    dtype = torch.bool if op in (torch.eq, torch.lt) else torch.float32
    out = torch.empty(elements, dtype=dtype)
    if elements:
        with pytest.warns(UserWarning, match="^An output with one or more elements was resized"):
            op(a, 1.0, out=out)
    else:
        op(a, 1.0, out=out)
    assert out.stride() == (1, 1)
    alike = torch.empty(0, dtype=dtype)
    op(a, a, out=alike)  # operands laid out alike: row-major, as the result
    assert alike.stride() == op(a, a).stride() == (2, 1)


def test_a_resized_out_of_a_converted_operand():
    out = torch.empty(0)
    torch.sin(skipping_slice(), out=out)
    assert out.stride() == (3, 1)


@pytest.mark.parametrize("matrix", [
    [[1.0, float("inf")], [2.0, 3.0]], [[float("-inf")]], [[1.0, 2.0, float("inf")]],
])
@pytest.mark.parametrize("options", [{}, {"tol": 0.5}, {"atol": 0.5, "rtol": 0.0}])
def test_the_rank_of_a_matrix_holding_inf_counts_no_value(matrix, options):
    assert torch.linalg.matrix_rank(torch.tensor(matrix), **options).item() == 0


def test_the_rank_of_a_matrix_holding_nan_is_refused():
    with pytest.raises(torch.linalg.LinAlgError, match="^linalg.svd: The algorithm failed to "
                                                       "converge because the input matrix "
                                                       "contained non-finite values.$"):
        torch.linalg.matrix_rank(torch.tensor([[1.0, float("nan")], [float("inf"), 3.0]]))
