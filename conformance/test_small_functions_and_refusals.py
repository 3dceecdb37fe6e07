"""Black-box tests: the deprecated cholesky, C++'s printing of a tensor in meshgrid's refusal,
cartesian_prod's and quantile's refusals, and convolutions of empty inputs, as torch gives them.
"""

import re
import warnings

import pytest
import torch
import torch.nn.functional as F


@pytest.fixture
def warn_always():
    torch.set_warn_always(True)
    yield
    torch.set_warn_always(False)


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
