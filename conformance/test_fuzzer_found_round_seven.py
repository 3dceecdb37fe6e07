"""Behaviour the differential fuzzer found in its seventh round, and the sweep that followed
it: the writes torch's kernels count on a fresh result when every operand is an inference
tensor and inference mode is off (the shuffles, the select and strided scatters, the new_*
fills, the logical ops, frexp, mvlgamma, amin and amax, and the counting kernels).
The same assertions run on torch.
"""

import warnings

import pytest
import torch
import torch.nn.functional as F


def inference(shape, dtype=torch.float32, memory_format=torch.contiguous_format):
    """An inference tensor: made, and laid out, inside inference mode."""
    with torch.inference_mode():
        x = torch.arange(float(torch.Size(shape).numel())).reshape(shape).to(dtype)
        return x.contiguous(memory_format=memory_format)


SHUFFLES = [
    lambda x: F.pixel_shuffle(x, 2), lambda x: F.pixel_unshuffle(x, 2),
    lambda x: F.channel_shuffle(x, 2), lambda x: torch.native_channel_shuffle(x, 2),
]


@pytest.mark.parametrize("shuffle", SHUFFLES)
@pytest.mark.parametrize("make", [
    lambda: inference((1, 4, 2, 2)), lambda: inference((4, 2, 2)),
    lambda: inference((1, 4, 2, 2)).transpose(-1, -2),
    lambda: inference((2, 4, 2, 2), memory_format=torch.channels_last),
    lambda: inference((1, 1, 1, 2)).expand(1, 4, 2, 2),
    lambda: inference((1, 4, 2, 2), dtype=torch.int64),
])
def test_a_shuffle_of_an_inference_tensor_is_written_once(shuffle, make):
    x = make()
    assert x.is_inference()
    result = shuffle(x)
    assert not result.is_inference()
    assert result._version == 1


@pytest.mark.parametrize("shuffle", SHUFFLES)
def test_a_shuffle_of_a_normal_tensor_or_in_inference_mode_counts_no_write(shuffle):
    x = torch.arange(16.0).reshape(1, 4, 2, 2)
    assert shuffle(x)._version == 0
    assert shuffle(x.requires_grad_())._version == 0
    with torch.inference_mode():
        assert shuffle(x.detach() * 1).is_inference()


@pytest.mark.parametrize("shuffle", SHUFFLES[:2])
def test_an_empty_pixel_shuffle_of_an_inference_tensor_is_written_once(shuffle):
    assert shuffle(inference((0, 4, 2, 2)))._version == 1
    assert shuffle(inference((1, 4, 0, 2)))._version == 1


def test_the_pixel_unshuffle_the_fuzzer_found():
    with torch.inference_mode():
        v = torch.zeros(1, 2, dtype=torch.float64).float_power(2)
    result = F.pixel_unshuffle(v[None, None].expand(1, 1, 2, 2), 2)
    assert (result.shape, result.stride(), result._version) == ((1, 4, 1, 1), (4, 1, 1, 1), 1)


def flat(values, dtype=torch.float32):
    """A tensor of ``values`` made inside inference mode."""
    with torch.inference_mode():
        return torch.tensor(values, dtype=dtype)


def versions(result) -> tuple:
    return tuple(t._version for t in (result if isinstance(result, tuple) else (result,)))


@pytest.mark.parametrize("make, expected", [
    (lambda x: x.select_scatter(x[0], 0, 0), (2,)),
    (lambda x: x.as_strided_scatter(x[0], (3,), (1,)), (2,)),
    (lambda x: torch.frexp(x), (1, 1)),
    (lambda x: (x + 2).mvlgamma(1), (0,)),  # x + 2 is made outside: a normal tensor
    (lambda x: torch.mvlgamma(flat([2.5, 3.0]), 2), (1,)),
    (lambda x: x.new_ones(2), (1,)), (lambda x: x.new_zeros(0), (1,)),
    (lambda x: x.new_full((2,), 1.5), (1,)), (lambda x: x.new_zeros(2, requires_grad=True), (1,)),
    (lambda x: x.new_empty(2), (0,)), (lambda x: torch.ones_like(x), (0,)),
    (lambda x: torch.logical_xor(x, x), (1,)), (lambda x: torch.logical_and(x, x[0]), (1,)),
    (lambda x: torch.logical_or(x, torch.ones(3)), (0,)),  # one normal operand
    (lambda x: x.amin(), (1,)), (lambda x: x.amax(0), (1,)),
    (lambda x: x.long().amin(), (0,)),  # x.long() is made outside: a normal tensor
    (lambda x: flat([[1, 2], [3, 4]], torch.int64).amin(1), (0,)),
    (lambda x: flat([[1, 2], [3, 4]], torch.int32).amin(1), (1,)),
    (lambda x: flat([[1, 2], [3, 4]], torch.int64).amax(1), (1,)),
    (lambda x: flat([[], []]).t().amax(1), (0,)), (lambda x: flat([[], []]).t().amin(1), (0,)),
    (lambda x: torch.diff(flat([True, False, True], torch.bool)), (1,)),
])
def test_results_of_inference_tensors_count_their_kernels_writes(make, expected):
    x = flat([[0.5, -1.5, 2.0], [0.25, 3.0, -0.75]])
    assert versions(make(x)) == expected


ALL = {"return_inverse": True, "return_counts": True}


@pytest.mark.parametrize("values, consecutive, rows, unique", [
    ([1.0, 2.0, 3.0], (0, 1, 1), (0, 0, 1), (1, 1, 1)),
    ([1.0, 1.0, 3.0], (1, 1, 2), (0, 0, 1), (1, 1, 1)),
    ([[1.0, 1.0], [1.0, 1.0]], (1, 1, 2), (0, 0, 1), (1, 1, 1)),
    ([[1.0, 2.0], [3.0, 4.0]], (0, 1, 1), (0, 0, 1), (1, 1, 1)),
    ([], (0, 0, 0), (0, 0, 0), (0, 0, 0)),
    (3.0, (0, 1, 1), None, (1, 1, 1)),
])
def test_the_counting_kernels_writes(values, consecutive, rows, unique):
    x = flat(values)
    assert versions(torch.unique_consecutive(x, **ALL)) == consecutive
    assert versions(torch.unique(x, **ALL)) == unique
    assert versions(torch.unique(x, sorted=False, **ALL)) == unique
    if rows is not None:
        assert versions(torch.unique_consecutive(x, dim=-1, **ALL)) == rows
        assert versions(torch.unique(x, dim=0, **ALL)) == rows


def test_one_dimension_given_as_zero_takes_the_flat_kernel():
    x = flat([1.0, 1.0, 3.0])
    assert versions(torch.unique_consecutive(x, dim=0, **ALL)) == (1, 1, 2)
    assert versions(torch.unique_consecutive(x, dim=-1, **ALL)) == (0, 0, 1)


def test_an_empty_matrix_has_its_inverse_filled():
    assert versions(torch.unique(flat([[], []]).t(), **ALL)) == (0, 1, 0)
    assert versions(torch.unique_consecutive(flat([[], []]), **ALL)) == (0, 1, 0)


def test_in_inference_mode_or_of_normal_tensors_nothing_is_counted():
    x = torch.tensor([1.0, 1.0, 3.0])
    assert versions(torch.unique_consecutive(x, **ALL)) == (0, 0, 0)
    assert versions(x.new_ones(2)) + versions(torch.logical_not(x)) == (0, 0)
    with torch.inference_mode():
        assert x.new_ones(2).is_inference() and torch.logical_xor(x, x).is_inference()


@pytest.mark.parametrize("x", [torch.tensor([[True, False, True], [False, False, True]]),
                               torch.rand(2, 3)])
def test_scatter_without_src_or_value_fits_no_signature(x):
    index = torch.tensor([[0, 1, 0]])
    with pytest.raises(TypeError, match="^scatter\\(\\) received an invalid combination of "
                                        "arguments - got \\(int, Tensor\\), but expected"):
        x.scatter(0, index)
    with pytest.raises(TypeError, match="^scatter_\\(\\) received an invalid combination"):
        x.clone().scatter_(0, index)


def expanded():
    return torch.rand(2, 1).expand(2, 3)


@pytest.mark.parametrize("write, message", [
    (lambda: expanded().baddbmm_(expanded()[None], expanded()[None]),
     "Expected size for first two dimensions of batch2 tensor to be: \\[1, 3\\] but got: "
     "\\[1, 2\\]."),
    (lambda: expanded()[None].baddbmm_(torch.rand(1, 2, 2, 1), torch.rand(1, 2, 3)),
     "batch1 must be a 3D tensor"),
    (lambda: expanded().addmm_(torch.rand(2, 2), torch.rand(3, 3)),
     "mat1 and mat2 shapes cannot be multiplied \\(2x2 and 3x3\\)"),
    (lambda: expanded().addbmm_(torch.rand(1, 2, 2), torch.rand(1, 3, 3)),
     "Incompatible matrix sizes for bmm \\(2x2 and 3x3\\)"),
    (lambda: expanded()[0].addmv_(torch.rand(2, 2), torch.rand(3)),
     "size mismatch, got input \\(3\\), mat \\(2x2\\), vec \\(3\\)"),
])
def test_a_product_into_shared_memory_checks_its_operands_first(write, message):
    with pytest.raises(RuntimeError, match=f"^{message}"):
        write()


def test_a_product_of_fitting_operands_into_shared_memory_is_refused_for_it():
    with pytest.raises(RuntimeError, match="^unsupported operation: more than one element"):
        expanded().addmm_(torch.rand(2, 2), torch.rand(2, 3))


SPD = [[4.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.5, 2.0]]


@pytest.mark.parametrize("make, expected", [
    (lambda a: torch.linalg.cholesky_ex(a), (1, 0)), (lambda a: torch.linalg.cholesky(a), (1,)),
    (lambda a: torch.linalg.cholesky_ex(flat([[]])[:0, :0]), (0, 1)),
    (lambda a: torch.cholesky(a), (3,)), (lambda a: torch.cholesky(a, upper=True), (3,)),
    (lambda a: torch.cholesky_inverse(a), (1,)), (lambda a: torch.cholesky_solve(a, a), (2,)),
    (lambda a: torch.geqrf(a), (1, 1)),
])
def test_factorizations_of_inference_tensors_count_their_writes(make, expected):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.cholesky's deprecation, warned once
        result = make(flat(SPD))
    assert versions(result) == expected


@pytest.mark.parametrize("make, expected", [
    (lambda p: torch.bernoulli(p), (1,)), (lambda p: p.bernoulli(0.3), (1,)),
    (lambda p: torch.poisson(p), (1,)), (lambda p: torch._standard_gamma(p), (1,)),
    (lambda p: torch.normal(p, 1.0), (1,)), (lambda p: torch.normal(1.0, p), (2,)),
    (lambda p: torch.normal(p, p), (2,)), (lambda p: torch.normal(p, p[0]), (2,)),
    (lambda p: p.multinomial(1), (2,)), (lambda p: p.multinomial(2), (2,)),
    (lambda p: p.multinomial(1, True), (2,)), (lambda p: p.multinomial(3, True), (1,)),
    (lambda p: flat([[], []]).t().multinomial(2), (1,)),
    (lambda p: torch.rand_like(p), (0,)), (lambda p: torch.bernoulli(p.clone()), (0,)),
])
def test_draws_from_inference_tensors_count_their_writes(make, expected):
    torch.manual_seed(0)
    assert versions(make(flat([[0.2, 0.8], [0.5, 0.5]]))) == expected


@pytest.mark.parametrize("make, expected", [
    (lambda x, e: torch.binomial(flat([3.0, 5.0]), flat([0.5, 0.2])), (1,)),
    (lambda x, e: e.median(), (1,)), (lambda x, e: e.nanmedian(), (1,)),
    (lambda x, e: x.median(), (0,)),
    (lambda x, e: torch.roll(e, 1), (1,)), (lambda x, e: torch.roll(e, 1, 0), (1,)),
    (lambda x, e: torch.roll(x, 1), (0,)),
    (lambda x, e: torch.linalg.lu_factor_ex(flat([[2.0, 1.0], [1.0, 3.0]])), (1, 0, 0)),
    (lambda x, e: torch.linalg.lu_factor_ex(flat([[]])[:0]), (0, 0, 1)),
    (lambda x, e: torch.triangular_solve(x, flat([[2.0, 1.0], [0.0, 3.0]])), (1, 1)),
    (lambda x, e: torch.triangular_solve(flat([[], []]), flat([[2.0, 1.0], [0.0, 3.0]])), (3, 1)),
    (lambda x, e: torch.isin(x, x), (1,)), (lambda x, e: torch.isin(x, 0.5), (1,)),
    (lambda x, e: torch.isin(0.5, x), (1,)), (lambda x, e: torch.isin(e, x), (0,)),
    (lambda x, e: torch.isin(x, torch.tensor([0.5])), (0,)),  # one normal operand
])
def test_more_results_of_inference_tensors_count_their_writes(make, expected):
    torch.manual_seed(0)
    x, e = flat([[0.5, -1.5, 2.0], [0.25, 3.0, -0.75]]), flat([[], []]).t()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # triangular_solve's deprecation, warned once
        result = make(x, e)
    assert versions(result) == expected


@pytest.mark.parametrize("make, expected", [
    (lambda p, w: F.binary_cross_entropy(p, p), 2),
    (lambda p, w: F.binary_cross_entropy(p, p, reduction="sum"), 2),
    (lambda p, w: F.binary_cross_entropy(p, p, reduction="none"), 0),
    (lambda p, w: F.binary_cross_entropy(p, p, w), 3),
    (lambda p, w: F.binary_cross_entropy(p, p, w, reduction="none"), 1),
    (lambda p, w: F.binary_cross_entropy(p[0, 0], p[0, 0]), 1),
    (lambda p, w: F.binary_cross_entropy(p, p, torch.ones(3)), 0),  # a normal weight
])
def test_binary_cross_entropy_of_inference_tensors_counts_its_writes(make, expected):
    p, w = flat([[0.5, 0.4, 0.6], [0.25, 0.3, 0.75]]), flat([1.0, 2.0, 0.5])
    assert make(p, w)._version == expected


@pytest.mark.parametrize("shape, dim, keepdim, expected", [
    ((2, 3), -1, False, (2, 2)), ((2, 3), 0, True, (0, 0)), ((2, 3, 4), -1, False, (1, 1)),
    ((2, 3, 4), 1, False, (2, 2)), ((1, 1, 4, 4), 2, False, (1, 1)),
    ((2, 2, 2, 2), -3, False, (2, 2)), ((2, 3, 4), 2, True, (0, 0)), ((2, 0), 0, False, (0, 0)),
    ((), 0, True, (2, 2)), ((), 0, False, (2, 2)),
])
def test_mode_of_an_inference_tensor_counts_its_writes(shape, dim, keepdim, expected):
    with torch.inference_mode():
        x = torch.arange(float(torch.Size(shape).numel())).reshape(shape) % 3
    assert versions(torch.mode(x, dim, keepdim)) == expected
