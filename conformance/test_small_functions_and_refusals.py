"""Black-box tests: the deprecated cholesky, C++'s printing of a tensor in meshgrid's refusal,
cartesian_prod's and quantile's refusals, and convolutions of empty inputs, as torch gives them.
"""

import re
import warnings

import pytest
import torch
import torch.nn.functional as F


def _spd(upper_batch=()):
    a = torch.tensor([[4.0, 2.0, 0.4], [2.0, 3.0, 0.1], [0.4, 0.1, 2.0]], dtype=torch.float64)
    return a.expand(*upper_batch, 3, 3).clone().requires_grad_()


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_is_linalg_cholesky_with_its_own_node(upper):
    a = _spd((2,))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        factor = a.cholesky(upper)
        assert torch.equal(torch.cholesky(a, upper=upper), factor)
    assert type(factor.grad_fn).__name__ == "CholeskyBackward0"
    expected = torch.linalg.cholesky(a)
    expected = expected.mT if upper else expected
    assert torch.allclose(factor, expected)
    weights = torch.arange(18.0, dtype=torch.float64).reshape(2, 3, 3)
    (mine,) = torch.autograd.grad((factor * weights).sum(), a)
    (theirs,) = torch.autograd.grad((expected * weights).sum(), a)
    assert torch.allclose(mine, theirs)


def test_cholesky_warns_that_it_is_deprecated(warn_always):
    with pytest.warns(UserWarning) as caught:
        torch.eye(2).cholesky()
    text = str(caught[0].message).split(" (Triggered internally")[0]
    assert text.startswith("torch.cholesky is deprecated in favor of torch.linalg.cholesky and "
                           "will be removed in a future PyTorch release.\nL = torch.cholesky(A)")
    assert text.endswith("U = torch.linalg.cholesky(A).mH\nThis transform will produce "
                         "equivalent results for all valid (symmetric positive definite) inputs.")


@pytest.mark.parametrize("make, error, text", [
    (lambda: torch.tensor([[1.0, 2.0], [2.0, 1.0]]), torch.linalg.LinAlgError,
     "cholesky: The factorization could not be completed because the input is not "
     "positive-definite (the leading minor of order 2 is not positive-definite)."),
    (lambda: torch.stack([torch.eye(2), torch.tensor([[1.0, 2.0], [2.0, 1.0]])]),
     torch.linalg.LinAlgError, "cholesky: (Batch element 1): The factorization could not be "
     "completed because the input is not positive-definite (the leading minor of order 2 is "
     "not positive-definite)."),
    (lambda: torch.ones(3), RuntimeError,
     "cholesky: The input tensor A must have at least 2 dimensions."),
    (lambda: torch.ones(2, 3), RuntimeError,
     "cholesky: A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda: torch.ones(2, 2, dtype=torch.long), NotImplementedError,
     "\"cholesky_cpu\" not implemented for 'Long'"),
    (lambda: torch.ones(2, 2, dtype=torch.half), NotImplementedError,
     "\"cholesky_cpu\" not implemented for 'Half'"),
])
def test_cholesky_refuses_as_torch(make, error, text):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(error, match=f"^{re.escape(text)}$"):
            make().cholesky()


def test_cholesky_of_no_matrices_and_a_wrong_upper():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert torch.ones(2, 0, 0).cholesky(True).shape == (2, 0, 0)
        with pytest.raises(TypeError, match="^cholesky\\(\\): argument 'upper' must be bool, "
                           "not int$"):
            torch.eye(2).cholesky(upper=2)


@pytest.mark.parametrize("tensors, shape", [
    ((torch.ones(2, 2),), [2, 2]), ((torch.ones(()),), []),
    ((torch.ones(2), torch.ones(2, 3)), [2, 3]),
])
def test_cartesian_prod_takes_only_vectors(tensors, shape):
    with pytest.raises(RuntimeError, match=f"^Expect a 1D vector, but got shape "
                       f"{re.escape(str(shape))}$"):
        torch.cartesian_prod(*tensors)


@pytest.mark.parametrize("q, shown", [
    (2.0, "2"), (-1.5, "-1.5"), (2, "2"), (1e20, "1e+20"), (1.23456789, "1.23457"),
    (1234567.0, "1.23457e+06"), (float("nan"), "nan"), (100000.0, "100000"),
])
@pytest.mark.parametrize("name", ["quantile", "nanquantile"])
def test_quantile_prints_q_as_cpp_prints_a_double(name, q, shown):
    with pytest.raises(RuntimeError, match=f"^quantile\\(\\) q must be in the range \\[0, 1\\] "
                       f"but got {re.escape(shown)}$"):
        getattr(torch, name)(torch.rand(3), q)


_PRINTED = [
    (torch.tensor([[1.5, 2.25], [3.0, -4.0]]),
     " 1.5000  2.2500\n 3.0000 -4.0000\n[ torch.FloatTensor{2,2} ]"),
    (torch.tensor([[1e6, 2.25], [3.0, -4.0]]),
     " 1.0000e+06  2.2500e+00\n 3.0000e+00 -4.0000e+00\n[ torch.FloatTensor{2,2} ]"),
    (torch.tensor([[0.001, 0.002], [0.003, 0.0004]]),
     "0.001 *\n 1.0000  2.0000\n  3.0000  0.4000\n[ torch.FloatTensor{2,2} ]"),
    (torch.tensor([[123456.5, 234567.25], [200000.0, 300000.0]]),
     "100000 *\n 1.2346  2.3457\n  2.0000  3.0000\n[ torch.FloatTensor{2,2} ]"),
    (torch.tensor([[float("nan"), float("inf")], [-float("inf"), 1.5]]),
     "    nan     inf\n   -inf  1.5000\n[ torch.FloatTensor{2,2} ]"),
    (torch.tensor([[1, 2], [3, 4]]), " 1  2\n 3  4\n[ torch.LongTensor{2,2} ]"),
    (torch.tensor([[True, False]]), " 1  0\n[ CPUBoolType{1,2} ]"),
    (torch.tensor([[-0.0, 0.0]]), "-0  0\n[ torch.FloatTensor{1,2} ]"),
    (torch.tensor([[0.5, -500.0]]), "   0.5000 -500.0000\n[ torch.FloatTensor{1,2} ]"),
    (torch.tensor([[3e10, 1.0]]), " 3.0000e+10  1.0000e+00\n[ torch.FloatTensor{1,2} ]"),
    (torch.tensor([[1.0, float("nan")]]), " 1 nan\n[ torch.FloatTensor{1,2} ]"),
    (torch.zeros(0, 3), "[ torch.FloatTensor{0,3} ]"),
    (torch.zeros(2, 0, 3), "[ torch.FloatTensor{2,0,3} ]"),
    (torch.ones(2, 2, dtype=torch.float64, requires_grad=True),
     " 1  1\n 1  1\n[ torch.DoubleTensor{2,2} ]"),
    (torch.ones(1, 1, dtype=torch.int8), " 1\n[ torch.CharTensor{1,1} ]"),
    (torch.arange(8.0).reshape(2, 2, 2) + 0.5, "(1,.,.) = \n 0.5000  1.5000\n  2.5000  "
     "3.5000\n\n(2,.,.) = \n 4.5000  5.5000\n  6.5000  7.5000\n[ torch.FloatTensor{2,2,2} ]"),
    (torch.tensor([[[0.001, 0.002], [0.003, 0.0004]]]), "(1,.,.) = \n0.001 *\n  1.0000  "
     "2.0000\n   3.0000  0.4000\n[ torch.FloatTensor{1,2,2} ]"),
    (torch.arange(12.0).reshape(2, 3, 1, 2), "(1,1,.,.) = \n 0  1\n\n(2,1,.,.) = \n 6  7\n\n"
     "(1,2,.,.) = \n 2  3\n\n(2,2,.,.) = \n 8  9\n\n(1,3,.,.) = \n 4  5\n\n(2,3,.,.) = \n"
     " 10  11\n[ torch.FloatTensor{2,3,1,2} ]"),
    (torch.arange(40).reshape(1, 40), "Columns 1 to 20  0   1   2   3   4   5   6   7   8   9  "
     "10  11  12  13  14  15  16  17  18  19\n\nColumns 21 to 40 20  21  22  23  24  25  26  27"
     "  28  29  30  31  32  33  34  35  36  37  38  39\n[ torch.LongTensor{1,40} ]"),
    (torch.arange(10.0).reshape(1, 1, 10) * 1.5, "(1,.,.) = \nColumns 1 to 8   0.0000   1.5000"
     "   3.0000   4.5000   6.0000   7.5000   9.0000  10.5000\n\nColumns 9 to 10  12.0000  "
     "13.5000\n[ torch.FloatTensor{1,1,10} ]"),
]


@pytest.mark.parametrize("t, printed", _PRINTED)
def test_meshgrid_refusal_prints_the_tensor_as_cpp_does(t, printed):
    with pytest.raises(RuntimeError) as caught:
        torch.meshgrid(t, indexing="ij")
    assert str(caught.value) == ("torch.meshgrid: Expected 0D or 1D tensor in the tensor list "
                                 f"but got: {printed}")


@pytest.mark.parametrize("conv, input, weight, kwargs, shape", [
    (F.conv2d, (1, 1, 0, 1), (1, 1, 0, 1), {}, "[1, 1, 0, 1]"),
    (F.conv2d, (1, 1, 0, 1), (1, 1, 0, 1), {"dilation": 2}, "[1, 1, 0, 1]"),
    (F.conv2d, (1, 2, 0, 1), (2, 1, 0, 1), {"groups": 2}, "[1, 2, 0, 1]"),
    (F.conv1d, (1, 1, 0), (1, 1, 0), {}, "[1, 1, 1, 0]"),
    (F.conv1d, (1, 1, 0), (1, 1, 1), {"padding": 1}, "[1, 1, 1, 0]"),
    (F.conv3d, (1, 1, 0, 1, 1), (1, 1, 0, 1, 1), {}, "[1, 1, 0, 1, 1]"),
])
def test_a_convolution_of_no_positions_needs_no_batch_or_no_channels(conv, input, weight,
                                                                     kwargs, shape):
    with pytest.raises(RuntimeError, match=f"^Only zero batch or zero channel inputs are "
                       f"supported, but got input shape: {re.escape(shape)}$"):
        conv(torch.rand(input), torch.zeros(weight), **kwargs)


@pytest.mark.parametrize("dtype", [torch.float64, torch.long, torch.bool])
def test_the_empty_input_is_refused_before_the_dtypes(dtype):
    with pytest.raises(RuntimeError, match="^Only zero batch"):
        F.conv2d(torch.rand(1, 1, 0, 1).to(dtype), torch.zeros(1, 1, 0, 1))


@pytest.mark.parametrize("input, weight, kwargs, shape", [
    ((2, 0, 3, 3), (1, 0, 0, 2), {"dilation": 2}, (2, 0, 5, 1)),
    ((2, 0, 3, 3), (3, 0, 1, 2), {"dilation": 2}, (2, 0, 3, 1)),
    ((2, 0, 3, 3), (3, 0, 0, 2), {"padding": 1, "stride": 2}, (2, 0, 3, 2)),
    ((2, 0, 3), (3, 0, 0), {"dilation": 3}, (2, 0, 6)),
])
def test_no_input_channels_give_torchs_output_sizes(input, weight, kwargs, shape):
    x = torch.rand(input, dtype=torch.float64, requires_grad=True)
    w = torch.zeros(weight, dtype=torch.float64, requires_grad=True)
    conv = F.conv1d if len(input) == 3 else F.conv2d
    y = conv(x, w, **kwargs)
    assert y.shape == shape and type(y.grad_fn).__name__ == "ConvolutionBackward0"
    y.sum().backward()
    assert x.grad.shape == x.shape and w.grad.shape == w.shape


@pytest.mark.parametrize("self_shape, dim, index, source, error, text", [
    ((3, 4), 0, [0], (), RuntimeError, "index_copy_(): Source/destination tensor must have same "
     "slice shapes. Destination slice shape: 4 at dimension 0 and source slice shape:  at "
     "dimension 0."),
    ((), 0, [0, 1], (2, 2), RuntimeError, "index_copy_(): Source/destination tensor must have "
     "same slice shapes. Destination slice shape:  at dimension 0 and source slice shape: 2 at "
     "dimension 0."),
    ((3, 4), 0, [0, 1], (1, 5), RuntimeError, "index_copy_(): Source/destination tensor must "
     "have same slice shapes. Destination slice shape: 4 at dimension 0 and source slice shape: "
     "5 at dimension 0."),
    ((3, 4), 1, [0, 1], (3, 3), IndexError, "index_copy_(): Number of indices (2) should be "
     "equal to source.size(dim) (3)"),
])
def test_index_copy_checks_slices_before_the_number_of_indices(self_shape, dim, index, source,
                                                               error, text):
    with pytest.raises(error, match=f"^{re.escape(text)}$"):
        torch.zeros(self_shape).index_copy(dim, torch.tensor(index), torch.ones(source))


@pytest.mark.parametrize("index", [[0.0, 1.0], [0, 1]])
def test_index_copy_checks_dtypes_before_the_number_of_indices(index):
    with pytest.raises(RuntimeError, match="^index_copy_\\(\\): (Expected a long|self and source)"):
        torch.zeros(3, 4).index_copy(0, torch.tensor(index),
                                     torch.ones(1, 4, dtype=torch.float64))


def test_index_copy_of_a_scalar_source_into_a_vector_and_into_a_scalar():
    assert torch.zeros(3).index_copy(0, torch.tensor([1]), torch.tensor(2.0)).tolist() == [
        0.0, 2.0, 0.0]
    assert torch.zeros(()).index_copy(0, torch.tensor([0, 0]), torch.ones(2)).item() == 1.0


def _table():
    return (torch.arange(15.0, dtype=torch.float64).reshape(5, 3) * 0.37 - 2).sin()


_BAG_INPUT, _BAG_OFFSETS = [1, 2, 4, 4, 0, 3, 1], [0, 2, 2, 5]


def _by_hand(mode, padding_idx=None, include_last_offset=False, sample_weights=None):
    """The bags built one at a time from picked rows, the gradients by autograd of those ops."""
    w = _table().requires_grad_()
    starts = _BAG_OFFSETS[:-1] if include_last_offset else _BAG_OFFSETS
    ends = starts[1:] + [len(_BAG_INPUT)]
    out = []
    for start, end in zip(starts, ends):
        picked = [p for p in range(start, end) if _BAG_INPUT[p] != padding_idx]
        if not picked:
            out.append(torch.zeros(3, dtype=torch.float64))
            continue
        rows = w[torch.tensor([_BAG_INPUT[p] for p in picked])]
        if sample_weights is not None:
            rows = rows * sample_weights[torch.tensor(picked)].unsqueeze(1)
        out.append(rows.sum(0) if mode == "sum" else rows.mean(0) if mode == "mean"
                   else rows.max(0).values)
    return w, torch.stack(out)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("padding_idx, include_last_offset", [
    (None, False), (4, False), (-1, False), (None, True), (1, True)])
def test_embedding_bag_matches_its_bags_built_by_hand(mode, padding_idx, include_last_offset):
    w, expected = _by_hand(mode, 4 if padding_idx == -1 else padding_idx, include_last_offset)
    mine = _table().requires_grad_()
    out = F.embedding_bag(torch.tensor(_BAG_INPUT), mine, torch.tensor(_BAG_OFFSETS), mode=mode,
                          padding_idx=padding_idx, include_last_offset=include_last_offset)
    assert type(out.grad_fn).__name__ == "EmbeddingBagBackward0"
    assert out.dtype == torch.float64 and torch.allclose(out, expected)
    g = torch.arange(1.0, out.numel() + 1, dtype=torch.float64).reshape(out.shape)
    (theirs,) = torch.autograd.grad((expected * g).sum(), w)
    (ours,) = torch.autograd.grad((out * g).sum(), mine)
    assert torch.allclose(ours, theirs)


@pytest.mark.parametrize("padding_idx", [None, 1])
def test_embedding_bag_per_sample_weights_get_their_gradient(padding_idx):
    weights = torch.tensor([0.5, -1.0, 2.0, 0.25, 1.5, -0.75, 3.0], dtype=torch.float64)
    theirs_p = weights.clone().requires_grad_()
    w, expected = _by_hand("sum", padding_idx, sample_weights=theirs_p)
    mine, mine_p = _table().requires_grad_(), weights.clone().requires_grad_()
    out = F.embedding_bag(torch.tensor(_BAG_INPUT), mine, torch.tensor(_BAG_OFFSETS),
                          mode="sum", per_sample_weights=mine_p, padding_idx=padding_idx)
    assert [type(f).__name__ for f, _ in out.grad_fn.next_functions] == [
        "AccumulateGrad", "AccumulateGrad"]
    assert torch.allclose(out, expected)
    g = torch.arange(1.0, 13.0, dtype=torch.float64).reshape(4, 3)
    theirs = torch.autograd.grad((expected * g).sum(), (w, theirs_p), allow_unused=True)
    ours = torch.autograd.grad((out * g).sum(), (mine, mine_p))
    assert torch.allclose(ours[0], theirs[0])
    assert torch.allclose(ours[1], torch.zeros(7, dtype=torch.float64) if theirs[1] is None
                          else theirs[1])
    if padding_idx is not None:
        assert ours[1][[p for p, i in enumerate(_BAG_INPUT) if i == padding_idx]].eq(0).all()


def test_embedding_bag_of_a_matrix_is_one_bag_a_row():
    table = _table().requires_grad_()
    out = F.embedding_bag(torch.tensor([[1, 2, 4], [4, 0, 3]]), table, mode="max")
    assert type(out.grad_fn).__name__ == "EmbeddingBagBackward0"
    assert torch.equal(out, torch.stack([table[[1, 2, 4]].max(0).values,
                                         table[[4, 0, 3]].max(0).values]))
    assert out.grad_fn.next_functions[1] == (None, 0)


@pytest.mark.parametrize("call, error, text", [
    (lambda w: F.embedding_bag(torch.tensor([1]), w), ValueError,
     "offsets has to be a 1D Tensor but got None"),
    (lambda w: F.embedding_bag(torch.tensor([[1]]), w, torch.tensor([0])), ValueError,
     "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed "
     "length sequences. However, found offsets of type <class 'torch.Tensor'>"),
    (lambda w: F.embedding_bag(torch.tensor([1]), w, torch.tensor([[0]])), ValueError,
     "offsets has to be a 1D Tensor"),
    (lambda w: F.embedding_bag(torch.tensor([[[1]]]), w), ValueError,
     "input has to be 1D or 2D Tensor, but got Tensor of dimension 3"),
    (lambda w: F.embedding_bag(torch.tensor([1]), w, torch.tensor([0]), mode="min"), ValueError,
     "mode has to be one of sum, mean or max"),
    (lambda w: F.embedding_bag(torch.tensor([1]), w[0], torch.tensor([0])), ValueError,
     "weight has to be a 2D Tensor, but got Tensor of dimension 1"),
    (lambda w: F.embedding_bag(torch.tensor([1, 2]), w, torch.tensor([0]),
                               per_sample_weights=torch.ones(3)), ValueError,
     "embedding_bag: If per_sample_weights (torch.Size([3])) is not None, then it must have the "
     "same shape as the input (torch.Size([2]))"),
    (lambda w: F.embedding_bag(torch.tensor([1]), w, torch.tensor([0]), mode="max",
                               per_sample_weights=torch.ones(1)), NotImplementedError,
     "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for "
     "mode='sum' (got mode='max'). Please open a feature request on GitHub."),
    (lambda w: F.embedding_bag(torch.tensor([1]), w, torch.tensor([0]), mode="max",
                               scale_grad_by_freq=True), ValueError,
     "max mode does not support scaling the gradient by the frequency"),
    (lambda w: F.embedding_bag(torch.tensor([1.0]), w, torch.tensor([0]), padding_idx=5),
     RuntimeError, "padding_idx must be within the number of embeddings, -5 through 4, but "
     "got 5"),
    (lambda w: F.embedding_bag(torch.tensor([1.0]), w, torch.tensor([0])), RuntimeError,
     "Expected tensor for argument #1 'indices' to have one of the following scalar types: "
     "Long, Int; but got torch.FloatTensor instead (while checking arguments for "
     "embedding_bag)"),
    (lambda w: F.embedding_bag(torch.tensor([1]), w.int(), torch.tensor([0])), RuntimeError,
     "Expected tensor for argument #1 'weight' to have one of the following scalar types: "
     "Half, BFloat16, Float, Double; but got torch.IntTensor instead (while checking "
     "arguments for embedding_bag)"),
    (lambda w: F.embedding_bag(torch.tensor([1, 2]), w, torch.tensor([1])), RuntimeError,
     "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
     "position 0. However, got 1\n[ torch.LongTensor{} ]"),
    (lambda w: F.embedding_bag(torch.tensor([1]), w, torch.tensor([0, 5])), RuntimeError,
     "offsets[-1] can not be greater than input's length 1 but got offsets[-1] of 5"),
    (lambda w: F.embedding_bag(torch.tensor([0, 7]), w, torch.tensor([0]), mode="sum"),
     RuntimeError, "Index 1 of input takes value 7 which is not in the valid range [0, 5)"),
    (lambda w: F.embedding_bag(torch.tensor([0, -1]), w, torch.tensor([0]), mode="max"),
     RuntimeError, "embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to "
     "be -1"),
    (lambda w: F.embedding_bag(torch.tensor([0, 7]), w.double(), torch.tensor([0])),
     RuntimeError, "embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to "
     "be 7"),
])
def test_embedding_bag_refuses_as_torch(call, error, text):
    with pytest.raises(error, match=f"^{re.escape(text)}$"):
        call(torch.ones(5, 3))


def test_embedding_bag_swaps_the_old_argument_order_back_with_a_warning():
    table = _table()
    with pytest.warns(UserWarning, match="^Argument order of nn.functional.embedding_bag was "
                      "changed. Usage `embedding_bag\\(weight, input, ...\\)` is deprecated"):
        out = F.embedding_bag(table, torch.tensor([[1, 2]]), mode="sum")
    assert torch.equal(out, (table[1] + table[2]).unsqueeze(0))


def test_cholesky_under_a_mode_is_handed_upper_only_when_it_is_not_the_default():
    from torch.utils._python_dispatch import TorchDispatchMode

    seen = []

    class Seen(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if "cholesky" in str(func):
                seen.append((str(func), args[1:], kwargs or {}))
            return func(*args, **(kwargs or {}))

    a = torch.eye(2, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with Seen():
            upper = a.cholesky(True)
            lower = torch.cholesky(a)
    assert seen == [("aten.cholesky.default", (True,), {}), ("aten.cholesky.default", (), {})]
    assert type(upper.grad_fn).__name__ == type(lower.grad_fn).__name__ == "CholeskyBackward0"


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bags_gradient_is_a_node_without_a_derivative(mode):
    table = _table().requires_grad_()
    out = F.embedding_bag(torch.tensor([1, 2, 4]), table, torch.tensor([0, 1]), mode=mode)
    g = torch.ones(2, 3, dtype=torch.float64, requires_grad=True)
    (gw,) = torch.autograd.grad(out, table, g, create_graph=True)
    assert type(gw.grad_fn).__name__ == "EmbeddingBagBackwardBackward0"
    assert gw.grad_fn.next_functions[0][0] is not None
    with pytest.raises(NotImplementedError, match="^the derivative for '_embedding_bag_backward' "
                       "is not implemented.$"):
        torch.autograd.grad(gw.sum(), g)


@pytest.mark.parametrize("call, name", [
    (lambda d: d.cholesky(True), "cholesky"),
    (lambda d: F.embedding_bag(torch.tensor([1, 2]), d, torch.tensor([0])), "_embedding_bag"),
])
def test_forward_ad_is_refused_as_torch_refuses_it(call, name):
    import torch.autograd.forward_ad as fwAD

    primal = torch.eye(3, dtype=torch.float64) * 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with fwAD.dual_level():
            dual = fwAD.make_dual(primal, torch.ones(3, 3, dtype=torch.float64))
            with pytest.raises(NotImplementedError, match=f"^Trying to use forward AD with {name} "
                               "that does not support it because it has not been implemented "
                               "yet.\nPlease file an issue to PyTorch"):
                call(dual)
