"""Behaviour the differential fuzzer found once it drew awkward layouts and rarer ops: frexp's
results laid out like the input, the writes nextafter's zeros and isclose's result count, the
layout of std's gradient without degrees of freedom, embedding's renorm through
embedding_renorm_, a softmax row holding inf, rms_norm's copy into the suggested format,
threshold_ into an expanded tensor, as_strided over a channels-last storage, set_'s first
refusal, the fills of a 3-d max pool of an inference tensor, and addr_ reading its own writes
and checking its vectors first.
The same assertions run on torch.
"""

import math
import warnings

import pytest
import torch
import torch.nn.functional as F

from conformance._support import preorder_names


def column_transposed():
    """A (1, 2) tensor with strides (1, 1): a column, transposed."""
    return torch.tensor([[0.75], [3.0]]).t()


def test_frexp_keeps_a_dense_inputs_strides():
    mantissa, exponent = column_transposed().frexp()
    assert (mantissa.stride(), exponent.stride()) == ((1, 1), (1, 1))
    assert column_transposed().sin().stride() == (2, 1)  # an ordinary iteration does not
    x = torch.arange(12.0).reshape(2, 3, 2).permute(2, 0, 1)
    assert torch.frexp(x).mantissa.stride() == x.stride()
    assert torch.frexp(torch.arange(12.0).reshape(3, 4)[1:, 1::2]).exponent.stride() == (2, 1)


def test_nextafters_zeros_for_other_are_written_once():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = torch.tensor([1.0, 0.0, 3.0], requires_grad=True)
    torch.nextafter(x, y).backward(torch.tensor([5.0, 6.0, 7.0]))
    assert (x.grad.tolist(), x.grad._version) == ([0.0, 6.0, 0.0], 0)
    assert (y.grad.tolist(), y.grad._version) == ([0.0, 0.0, 0.0], 1)
    other = torch.tensor([[0.5, 0.25], [2.0, 4.0], [1.0, 1.0]]).t().requires_grad_()
    (zeros,) = torch.autograd.grad(torch.nextafter(torch.ones(2, 3), other).sum(), other)
    assert (zeros.stride(), zeros._version) == ((3, 1), 1)  # zeros of the shape: row-major
    torch.nextafter(torch.ones(2, 3), other).sum().backward()
    assert other.grad.stride() == (1, 2)  # accumulated in the leaf's layout


@pytest.mark.parametrize(("dtype", "options", "version"), [
    (torch.float32, {}, 1), (torch.float32, {"equal_nan": True}, 2),
    (torch.float32, {"rtol": 0, "atol": 0}, 0), (torch.float32, {"rtol": 0, "atol": 0,
                                                                 "equal_nan": True}, 1),
    (torch.float64, {"rtol": 0}, 1), (torch.int64, {"equal_nan": True}, 1),
    (torch.int64, {"rtol": 0, "atol": 0}, 0), (torch.bool, {}, 1)])
def test_iscloses_result_counts_its_writes(dtype, options, version):
    a = torch.tensor([1.0, 2.0, float("nan")]).to(dtype)
    b = torch.tensor([1.0, 2.5, float("nan")]).to(dtype)
    assert torch.isclose(a, b, **options)._version == version


def test_stds_gradient_without_degrees_of_freedom_is_laid_out_as_its_comparison():
    x = column_transposed().requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no degrees of freedom
        (g,) = torch.autograd.grad(x.std(correction=2), x, create_graph=True)
        (h,) = torch.autograd.grad(x.var(correction=3), x)
    assert (g.stride(), h.stride()) == ((1, 1), (1, 1))
    assert preorder_names(g.grad_fn, 1) == "MulBackward0 .MaskedFillBackward0 .None"
    assert not any(math.isfinite(v) for v in g.flatten().tolist() + h.flatten().tolist())


def test_embeddings_max_norm_renorms_in_place_before_the_lookup():
    weight = torch.tensor([[0.1, 0.2], [3.0, 4.0]], requires_grad=True)
    out = F.embedding(torch.tensor([0, 0]), weight, max_norm=0.5)
    assert weight._version == 1  # written, though no row it picks is over the norm
    assert torch.equal(out, torch.tensor([[0.1, 0.2], [0.1, 0.2]]))
    F.embedding(torch.tensor([1]), weight, max_norm=0.5)
    assert weight._version == 2
    assert torch.allclose(weight[1].detach(), torch.tensor([0.3, 0.4]), atol=1e-6)
    F.embedding_bag(torch.tensor([0, 1]), weight, torch.tensor([0]), max_norm=0.5)
    assert weight._version == 3


@pytest.mark.parametrize(("weight", "error", "message"), [
    (torch.tensor([0.5, 0.25, 1.0]), RuntimeError,
     "Expected 2-dimensional tensor, but got 1-dimensional tensor for argument #1 'self' "
     "(while checking arguments for embedding_renorm_)"),
    (torch.zeros(0, 3), IndexError,
     "select(): index 0 out of range for tensor of size [0, 3] at dimension 0"),
])
def test_embeddings_max_norm_is_checked_by_embedding_renorm(weight, error, message):
    with pytest.raises(error) as raised:
        F.embedding(torch.tensor([0, 0]), weight.requires_grad_(), max_norm=0.5)
    assert str(raised.value) == message


def test_embeddings_padding_idx_zero_is_not_checked_against_the_weight():
    with pytest.raises(RuntimeError, match="^index_select\\(\\): self indexing axis dim "
                       "should be positive$"):  # the lookup's own refusal, not padding_idx's
        F.embedding(torch.tensor([[0]]), torch.zeros(0, 3), padding_idx=0)
    with pytest.raises(AssertionError, match="Padding_idx must be within num_embeddings"):
        F.embedding(torch.tensor([[0]]), torch.zeros(2, 3), padding_idx=2)


def test_renorm_of_an_expanded_weight_is_refused_only_where_a_row_is_scaled():
    small = torch.tensor([[0.2], [0.9]]).expand(2, 3)
    F.embedding(torch.tensor([0]), small, max_norm=0.5)  # row 0's norm is under it
    assert small._version == 1
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        F.embedding(torch.tensor([1]), small, max_norm=0.5)
    rows = torch.tensor([0.9, 0.1, 0.2]).expand(2, 3)  # the rows share memory, in turn
    F.embedding(torch.tensor([0, 1]), rows, max_norm=0.5)
    assert torch.allclose(rows, torch.tensor([0.9, 0.1, 0.2]) * (0.5 / (0.86 ** 0.5 + 1e-7)))


@pytest.mark.parametrize("function", [torch.softmax, torch.log_softmax])
def test_a_softmax_row_holding_inf_is_all_nan(function):
    x = torch.tensor([[2.0, float("inf")], [-1.5, 0.0], [float("-inf"), 1.0]])
    y = function(x, -1)
    assert all(math.isnan(v) for v in y[0].tolist())
    assert not any(math.isnan(v) for v in y[1:].flatten().tolist())
    assert all(math.isnan(v) for v in function(x.t(), 0)[:, 0].tolist())
    assert torch.logsumexp(x, -1)[0].item() == float("inf")  # logsumexp's shift is finite


@pytest.mark.parametrize(("make", "copied"), [
    (lambda: torch.arange(4.0).reshape(2, 2).t(), True),
    (lambda: torch.arange(12.0).reshape(2, 3, 2).permute(2, 0, 1), True),
    (lambda: torch.arange(24.0).reshape(2, 3, 2, 2).to(memory_format=torch.channels_last),
     False),
    (lambda: torch.arange(4.0).reshape(2, 2), False)])
def test_rms_norm_copies_into_the_inputs_suggested_format(make, copied):
    x = make().requires_grad_()
    y = F.rms_norm(x, x.shape[-1:])
    assert (y.grad_fn.name() == "CloneBackward0") == copied
    assert y.is_contiguous(memory_format=torch.channels_last if x.dim() == 4 and not copied
                           else torch.contiguous_format)
    with torch.no_grad():
        assert F.rms_norm(x, x.shape[-1:]).stride() == y.stride()


def test_threshold_writes_into_an_expanded_tensor():
    x = torch.tensor([0.2, 0.7, 0.4]).expand(2, 3)
    F.threshold(x, 0.5, 2.0, inplace=True)
    assert x._version == 1 and torch.equal(x, torch.tensor([[2.0, 0.7, 2.0]] * 2))
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        F.relu(torch.tensor([0.2, -0.7]).expand(2, 2), inplace=True)


@pytest.mark.parametrize("make", [
    lambda: torch.arange(12.0).reshape(1, 3, 2, 2).to(memory_format=torch.channels_last),
    lambda: torch.arange(12.0).reshape(1, 3, 2, 2).to(memory_format=torch.channels_last) * 1,
    lambda: torch.arange(12.0).reshape(1, 3, 2, 2).contiguous(memory_format=torch.channels_last)])
def test_as_strided_reads_a_channels_last_storage_in_memory_order(make):
    x = make()
    assert x.as_strided((4,), (1,), 1).tolist() == [4.0, 8.0, 1.0, 5.0]
    x.as_strided((1,), (1,), 1).mul_(100)
    assert x[0, 1, 0, 0].item() == 400.0 and x._version == 1
    y = torch.as_strided_scatter(make(), torch.tensor([-1.0, -2.0]), (2,), (1,), 2)
    assert (y.stride(), y[0, 2, 0, 0].item(), y[0, 0, 0, 1].item()) == ((12, 1, 6, 3), -1.0, -2.0)


def test_set_refuses_a_source_of_another_dtype_before_the_leaf():
    leaf = torch.zeros(2, 3, dtype=torch.float64, requires_grad=True)
    with pytest.raises(RuntimeError, match="^Could not set tensor of type float to a tensor of "
                       "type double$"):
        leaf.set_(torch.zeros(1, 3))
    with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad"):
        leaf.set_(torch.zeros(1, 3, dtype=torch.float64))


def test_a_3d_max_pool_of_an_inference_tensor_counts_its_fills():
    with torch.inference_mode():
        x = torch.tensor([[[0.5, 0.75, 0.25]]])
    values, indices = F.max_pool3d(x[None, None], 1, return_indices=True)
    assert (values._version, indices._version, values.is_inference()) == (1, 1, False)
    assert F.max_pool3d(x[None], 1)._version == 1
    assert F.max_pool2d(x[None], 1)._version == 0
    assert F.max_pool3d(torch.tensor([[[[[0.5]]]]]), 1)._version == 0


def test_addr_into_a_matrix_whose_column_is_the_first_vector_reads_its_writes():
    m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    m.addr_(m[:, 0], torch.tensor([1.0, 10.0, 100.0]))
    # column 0 is written first; columns 1 and 2 then read the new first column
    assert m.tolist() == [[2.0, 22.0, 203.0], [8.0, 85.0, 806.0]]
    m = torch.tensor([[1.0, 2.0], [4.0, 5.0]])
    m.addr_(m[:, 1], torch.tensor([1.0, 1.0]), beta=2, alpha=0.5)
    assert m.tolist() == [[3.0, 5.0], [10.5, 12.5]]  # the last column: read before written


def test_addr_into_an_expanded_matrix_checks_the_vectors_first():
    m = torch.tensor([1.0, 2.0, 3.0]).expand(2, 3)
    vec = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="^addr: Expected 1-D argument vec2, but got 0-D$"):
        m.addr_(m[:, 0], vec[0])
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        m.addr_(vec, torch.ones(3))
