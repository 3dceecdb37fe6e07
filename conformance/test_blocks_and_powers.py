"""Black-box tests: block_diag and vander. The same assertions run on torch."""

import pytest
import torch

from conformance._support import graph_nodes, raises


def test_block_diag_lays_matrices_vectors_and_numbers_along_the_diagonal():
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    b = torch.tensor([5.0, 6.0, 7.0], requires_grad=True)
    c = torch.tensor(8.0, requires_grad=True)
    y = torch.block_diag(a, b, c)
    assert y.tolist() == [[1.0, 2.0, 0.0, 0.0, 0.0, 0.0],
                          [3.0, 4.0, 0.0, 0.0, 0.0, 0.0],
                          [0.0, 0.0, 5.0, 6.0, 7.0, 0.0],
                          [0.0, 0.0, 0.0, 0.0, 0.0, 8.0]]
    assert graph_nodes(y) == [(0, "BlockDiagBackward0")] + [(1, "AccumulateGrad")] * 3
    assert not [n for n in dir(y.grad_fn) if n.startswith("_saved_")]  # torch shows none
    y.backward(torch.arange(24.0).reshape(4, 6))
    assert a.grad.tolist() == [[0.0, 1.0], [6.0, 7.0]]
    assert b.grad.tolist() == [14.0, 15.0, 16.0] and c.grad.shape == () and c.grad.item() == 23.0


def test_block_diag_of_one_input_and_of_none():
    assert torch.block_diag(torch.tensor(3)).tolist() == [[3]]
    assert torch.block_diag(torch.tensor([1, 2])).tolist() == [[1, 2]]
    assert torch.block_diag(torch.ones(2, 3)).tolist() == [[1.0] * 3] * 2
    empty = torch.block_diag()
    assert empty.shape == (1, 0) and empty.dtype == torch.float32 and empty.grad_fn is None


def test_block_diag_of_empty_blocks():
    assert torch.block_diag(torch.ones(0, 3), torch.ones(2, 0)).tolist() == [[0.0] * 3] * 2
    assert torch.block_diag(torch.ones(0), torch.ones(2, 0)).shape == (3, 0)  # a row each
    assert torch.block_diag(torch.ones(0)).shape == (1, 0)
    x = torch.ones(0, requires_grad=True)
    y = torch.block_diag(x, torch.ones(1, 2, requires_grad=True))
    y.sum().backward()
    assert y.shape == (2, 2) and x.grad.shape == (0,)


@pytest.mark.parametrize(("first", "second", "dtype"), [
    (torch.tensor([1, 2]), torch.tensor([1.5]), torch.float32),
    (torch.tensor([1, 2]), torch.tensor([True]), torch.int64),
    (torch.tensor([True]), torch.tensor([False]), torch.bool),
    (torch.tensor([1], dtype=torch.int8), torch.tensor([2], dtype=torch.uint8), torch.int16),
    (torch.tensor([1.0], dtype=torch.float16), torch.tensor([2]), torch.float16),
    (torch.tensor([1.0], dtype=torch.float64), torch.tensor([2.0]), torch.float64),
    (torch.tensor(1.0, dtype=torch.float64), torch.tensor([2.0]), torch.float32),  # 0-d: weaker
])
def test_block_diag_promotes_as_arithmetic_does(first, second, dtype):
    y = torch.block_diag(first, second)
    assert y.dtype == dtype and y.shape == (2, first.numel() + 1)


def test_block_diag_gradients_come_back_in_each_inputs_dtype():
    x = torch.ones(2, requires_grad=True)
    y = torch.block_diag(x, torch.ones(2, dtype=torch.float64))
    assert y.dtype == torch.float64
    assert [n is None for n, _ in y.grad_fn.next_functions] == [False, True]
    (y * torch.arange(8.0, dtype=torch.float64).reshape(2, 4)).sum().backward()
    assert x.grad.dtype == torch.float32 and x.grad.tolist() == [0.0, 1.0]


def test_block_diag_gradient_pieces_are_cut_as_torchs_formula_cuts_them():
    ins = [torch.ones(3, requires_grad=True), torch.tensor(2.0, requires_grad=True),
           torch.ones(1, requires_grad=True), torch.ones(2, 2, requires_grad=True)]
    out = torch.block_diag(*ins)
    g = torch.arange(float(out.numel())).view(out.shape)  # (5, 7)
    pieces = out.grad_fn(g)
    assert [tuple(p.shape) for p in pieces] == [(1, 3), (), (1,), (2, 2)]
    assert [p.stride() for p in pieces] == [(7, 1), (), (7,), (7, 1)]
    assert all(p._is_view() for p in pieces)
    out.backward(g)  # the engine sums the (1, 3) row to (3,): a new tensor, taken over
    assert [x.grad._version for x in ins] == [0, 0, 0, 1]
    assert ins[0].grad.tolist() == [0.0, 1.0, 2.0]
    assert ins[3].grad.tolist() == [[26.0, 27.0], [33.0, 34.0]]


def test_block_diag_gradient_after_an_empty_vector_starts_a_row_higher():
    ins = [torch.ones(1, requires_grad=True), torch.zeros(0, requires_grad=True),
           torch.ones(1, 2, requires_grad=True)]
    out = torch.block_diag(*ins)  # the empty vector fills a row of no columns
    assert out.shape == (3, 3)
    g = torch.arange(9.0).view(3, 3)
    empty = out.grad_fn(g)[1]
    assert empty.shape == (0,) and not empty._is_view() and empty._version == 1
    out.backward(g)
    assert ins[2].grad.tolist() == [[4.0, 5.0]]  # row 1, not the block's row 2
    assert ins[1].grad._version == 1


def test_block_diag_gradcheck():
    a = torch.rand(2, 3, dtype=torch.float64, requires_grad=True)
    b = torch.rand(3, dtype=torch.float64, requires_grad=True)
    c = torch.rand((), dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(torch.block_diag, (a, b, c))
    assert torch.autograd.gradgradcheck(torch.block_diag, (a, b, c))


@pytest.mark.parametrize(("call", "kind", "message"), [
    (lambda: torch.block_diag(torch.ones(2, 2, 2)), RuntimeError,
     "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input 0 has 3 dimensions"),
    (lambda: torch.block_diag(torch.ones(2), torch.ones(1, 2, 2)), RuntimeError,
     "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input 1 has 3 dimensions"),
    (lambda: torch.block_diag([torch.ones(2)]), TypeError,
     "expected Tensor as element 0 in argument 0, but got list"),
    (lambda: torch.block_diag(torch.ones(2), 3), TypeError,
     "expected Tensor as element 1 in argument 0, but got int"),
])
def test_block_diag_refusals(call, kind, message):
    with raises(kind, message):
        call()


def _powers(x, n, increasing):
    return [[v ** (k if increasing else n - 1 - k) for k in range(n)] for v in x]


@pytest.mark.parametrize("n", [None, 0, 1, 2, 4])
@pytest.mark.parametrize("increasing", [False, True])
def test_vander_values(n, increasing):
    x = [1.0, 2.0, 3.0]
    y = torch.vander(torch.tensor(x), N=n, increasing=increasing)
    assert y.dtype == torch.float32 and y.tolist() == _powers(x, 3 if n is None else n,
                                                              increasing)


@pytest.mark.parametrize(("dtype", "result"), [
    (torch.int8, torch.int64), (torch.uint8, torch.int64), (torch.int32, torch.int64),
    (torch.int64, torch.int64), (torch.bool, torch.int64), (torch.float16, torch.float16),
    (torch.float64, torch.float64),
])
def test_vander_dtypes(dtype, result):
    y = torch.vander(torch.tensor([1, 0, 1], dtype=dtype), N=3)
    assert y.dtype == result and y.tolist() == [[1, 1, 1], [0, 0, 1], [1, 1, 1]]


def test_vander_of_an_empty_vector():
    assert torch.vander(torch.tensor([])).shape == (0, 0)
    assert torch.vander(torch.tensor([]), N=3).shape == (0, 3)
    assert torch.vander(torch.tensor([0.0, 2.0]), N=3).tolist() == [[0.0, 0.0, 1.0],
                                                                     [4.0, 2.0, 1.0]]


def test_vander_records_torchs_in_place_graph():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    copies = [(1, "CopySlices"), (2, "CopySlices"), (3, None), (3, "UnsqueezeBackward0"),
              (4, "AccumulateGrad"), (2, "CumprodBackward0"), (3, "SliceBackward0"),
              (4, "CopySlices"), (5, None), (5, "UnsqueezeBackward0"), (6, "AccumulateGrad")]
    y = torch.vander(x)
    assert graph_nodes(y) == [(0, "FlipBackward0")] + copies
    assert y.grad_fn._saved_dims == (1,)
    cut = y.grad_fn.next_functions[0][0].next_functions[1][0].next_functions[0][0]
    assert (cut._saved_dim, cut._saved_start, cut._saved_end, cut._saved_step) == (1, 1, None, 1)
    assert cut._saved_self_sym_sizes == (3, 3)
    increasing = torch.vander(x, N=4, increasing=True)
    assert graph_nodes(increasing) == [(d - 1, name) for d, name in copies]
    assert torch.vander(x, N=1).grad_fn is None and torch.vander(x, N=0).grad_fn is None


@pytest.mark.parametrize(("dtype", "name"), [(torch.float32, "Float"),
                                             (torch.float64, "Double")])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_vander_cannot_be_differentiated(dtype, name, n):
    # the cumprod's saved input is a slice that the copy after it overwrites
    x = torch.tensor([1.0, 2.0, 3.0], dtype=dtype, requires_grad=True)
    y = torch.vander(x, N=n)
    message = (
        "one of the variables needed for gradient computation has been modified by an "
        f"inplace operation: [torch.{name}Tensor [3, {n - 1}]], which is output 0 of "
        "AsStrided, is at version 3; expected version 2 instead. Hint: enable anomaly "
        "detection to find the operation that failed to compute its gradient, with "
        "torch.autograd.set_detect_anomaly(True, check_nan=False).")
    with raises(RuntimeError, message):
        y.sum().backward(retain_graph=True)
    with raises(RuntimeError, message):
        y.sum().backward()
    assert x.grad is None


def test_linalg_vander_is_the_differentiable_one():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    assert torch.linalg.vander(x).tolist() == torch.vander(x, increasing=True).tolist()
    torch.linalg.vander(x).sum().backward()
    assert x.grad.tolist() == [3.0, 5.0, 7.0]  # 1 + 2x


@pytest.mark.parametrize(("call", "kind", "message"), [
    (lambda: torch.vander(torch.ones(3), N=-1), RuntimeError, "N must be non-negative."),
    (lambda: torch.vander(torch.ones(2, 2)), RuntimeError, "x must be a one-dimensional tensor."),
    (lambda: torch.vander(torch.ones(2, 2), N=-1), RuntimeError,
     "x must be a one-dimensional tensor."),
    (lambda: torch.vander(torch.tensor(2.0)), RuntimeError, "x must be a one-dimensional tensor."),
    (lambda: torch.vander(torch.ones(3), 2.0), TypeError,
     "vander(): argument 'N' (position 2) must be int, not float"),
    (lambda: torch.vander(torch.ones(3), increasing=1), TypeError,
     "vander(): argument 'increasing' must be bool, not int"),
    (lambda: torch.vander([1, 2]), TypeError,
     "vander(): argument 'x' (position 1) must be Tensor, not list"),
])
def test_vander_refusals(call, kind, message):
    with raises(kind, message):
        call()


def test_neither_is_a_method():
    assert not hasattr(torch.ones(2), "vander") and not hasattr(torch.ones(2), "block_diag")


def test_forward_mode_tangents_go_through_the_writes():
    import torch.autograd.forward_ad as fwAD

    with fwAD.dual_level():
        x = fwAD.make_dual(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 0.0, 2.0]))
        tangent = fwAD.unpack_dual(torch.vander(x)).tangent
        assert tangent.tolist() == [[2.0, 1.0, 0.0], [0.0, 0.0, 0.0], [12.0, 2.0, 0.0]]
        a = fwAD.make_dual(torch.ones(1, 2), torch.full((1, 2), 3.0))
        blocks = torch.block_diag(a, torch.ones(1, dtype=torch.float64))
        assert fwAD.unpack_dual(blocks).tangent.tolist() == [[3.0, 3.0, 0.0], [0.0, 0.0, 0.0]]
