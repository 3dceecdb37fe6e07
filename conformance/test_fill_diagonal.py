"""Black-box tests: Tensor.fill_diagonal_. The same assertions run on torch."""

import pytest
import torch

from conformance._support import raises


def _filled(rows, cols, wrap):
    """The places a (rows, cols) matrix's diagonal covers: again every cols + 1 rows if wrap."""
    on = {(i, i) for i in range(min(rows, cols))}
    if wrap and rows > cols + 1:
        on |= {(i, i % (cols + 1)) for i in range(rows) if i % (cols + 1) < cols}
    return on


def _expected(shape, wrap):
    rows, cols = shape
    on = _filled(rows, cols, wrap)
    return [[1.0 if (i, j) in on else 0.0 for j in range(cols)] for i in range(rows)]


@pytest.mark.parametrize("shape", [(3, 3), (5, 2), (7, 3), (2, 5), (3, 7), (1, 1), (4, 3)])
@pytest.mark.parametrize("wrap", [False, True])
def test_values_of_matrices(shape, wrap):
    x = torch.zeros(shape)
    assert x.fill_diagonal_(1.0, wrap=wrap) is x
    assert x.tolist() == _expected(shape, wrap)


@pytest.mark.parametrize(("shape", "wrap", "version"), [
    ((3, 3), False, 1), ((3, 3), True, 1), ((5, 2), False, 1), ((5, 2), True, 2),
    ((4, 3), True, 1), ((2, 5), True, 1), ((0, 0), True, 1), ((0, 3), True, 1),
    ((3, 0), True, 2), ((2, 2, 2), True, 1),
])
def test_each_fill_moves_the_version(shape, wrap, version):
    x = torch.zeros(shape)
    x.fill_diagonal_(1, wrap=wrap)
    assert x._version == version


def test_more_dimensions_fill_the_main_diagonal_only():
    x = torch.zeros(2, 2, 2)
    x.fill_diagonal_(1, wrap=True)
    assert x.tolist() == [[[1.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 1.0]]]
    y = torch.zeros(2, 2, 2, 2)
    y.fill_diagonal_(3)
    assert y.sum().item() == 6.0 and y[1, 1, 1, 1].item() == 3.0 and y[0, 0, 0, 0].item() == 3.0


@pytest.mark.parametrize(("dtype", "value", "filled"), [
    (torch.int64, 2.7, 2), (torch.int64, True, 1), (torch.bool, 2, True), (torch.uint8, -1, 255),
    (torch.int32, 1.5, 1), (torch.float32, torch.tensor(3.0), 3.0),
])
def test_the_value_in_the_tensors_dtype(dtype, value, filled):
    x = torch.zeros(3, 3, dtype=dtype)
    x.fill_diagonal_(value)
    assert x.dtype == dtype and x.diagonal().tolist() == [filled] * 3
    assert x.sum().item() == 3 * filled


def test_a_nan_is_written():
    x = torch.zeros(2, 2).fill_diagonal_(float("nan"))
    assert x.isnan().tolist() == [[True, False], [False, True]]


@pytest.mark.parametrize(("make", "call", "kind", "message"), [
    (lambda: torch.zeros(3), lambda x: x.fill_diagonal_(1), RuntimeError,
     "dimensions must larger than 1"),
    (lambda: torch.zeros(()), lambda x: x.fill_diagonal_(1), RuntimeError,
     "dimensions must larger than 1"),
    (lambda: torch.zeros(2, 3, 2), lambda x: x.fill_diagonal_(1), RuntimeError,
     "all dimensions of input must be of equal length"),
    (lambda: torch.zeros(2, 3, 3), lambda x: x.fill_diagonal_(1, wrap=True), RuntimeError,
     "all dimensions of input must be of equal length"),
    (lambda: torch.zeros(3, 3, dtype=torch.uint8), lambda x: x.fill_diagonal_(300),
     RuntimeError, "value cannot be converted to type uint8_t without overflow"),
    (lambda: torch.zeros(7, 2, dtype=torch.int8), lambda x: x.fill_diagonal_(300, wrap=True),
     RuntimeError, "value cannot be converted to type int8_t without overflow"),
    (lambda: torch.zeros(2, 2, dtype=torch.float16), lambda x: x.fill_diagonal_(1e10),
     RuntimeError, "value cannot be converted to type c10::Half without overflow"),
    (lambda: torch.zeros(2, 2), lambda x: x.fill_diagonal_(torch.tensor([3.0])), TypeError,
     "fill_diagonal_(): argument 'fill_value' (position 1) must be Number, not Tensor"),
    (lambda: torch.zeros(2, 2),
     lambda x: x.fill_diagonal_(torch.tensor(2.0, requires_grad=True)), TypeError,
     "fill_diagonal_(): argument 'fill_value' (position 1) must be Number, not Tensor"),
    (lambda: torch.zeros(2, 2), lambda x: x.fill_diagonal_("a"), TypeError,
     "fill_diagonal_(): argument 'fill_value' (position 1) must be Number, not str"),
    (lambda: torch.zeros(2, 2), lambda x: x.fill_diagonal_(None), TypeError,
     "fill_diagonal_(): argument 'fill_value' (position 1) must be Number, not NoneType"),
    (lambda: torch.zeros(2, 2), lambda x: x.fill_diagonal_(1, True, 3), TypeError,
     "fill_diagonal_() takes from 1 to 2 positional arguments but 3 were given"),
    (lambda: torch.zeros(2, 2), lambda x: x.fill_diagonal_(1, 1), TypeError,
     "fill_diagonal_(): argument 'wrap' (position 2) must be bool, not int"),
    (lambda: torch.zeros(2, 2), lambda x: x.fill_diagonal_(), TypeError,
     'fill_diagonal_() missing 1 required positional arguments: "fill_value"'),
])
def test_refusals_leave_the_tensor_as_it_was(make, call, kind, message):
    x = make()
    before = x.tolist()
    with raises(kind, message):
        call(x)
    assert x.tolist() == before and x._version == 0


def test_by_name():
    x = torch.zeros(2, 2).fill_diagonal_(fill_value=4, wrap=True)
    assert x.tolist() == [[4.0, 0.0], [0.0, 4.0]]
    assert not hasattr(torch, "fill_diagonal_")


def test_a_leaf_that_requires_grad_is_refused():
    a = torch.zeros(3, 3, requires_grad=True)
    with raises(RuntimeError, "a view of a leaf Variable that requires grad is being used in an "
                              "in-place operation."):
        a.fill_diagonal_(1)
    assert a._version == 0 and a.tolist() == [[0.0] * 3] * 3
    with torch.no_grad():
        a.fill_diagonal_(7.0)
    assert a.diagonal().tolist() == [7.0] * 3 and a._version == 1 and a.requires_grad


def test_a_tensor_that_requires_grad_gets_copy_slices_and_no_gradient_on_the_diagonal():
    a = torch.ones(3, 3, requires_grad=True)
    b = a * 2
    b.fill_diagonal_(5.0)
    assert b.tolist() == [[5.0, 2.0, 2.0], [2.0, 5.0, 2.0], [2.0, 2.0, 5.0]]
    assert type(b.grad_fn).__name__ == "CopySlices" and b._version == 1
    assert [type(n).__name__ for n, _ in b.grad_fn.next_functions] == ["MulBackward0"]
    (b * torch.arange(9.0).reshape(3, 3)).sum().backward()
    assert a.grad.tolist() == [[0.0, 2.0, 4.0], [6.0, 0.0, 10.0], [12.0, 14.0, 0.0]]


def test_the_wrapped_diagonal_gets_no_gradient_either():
    a = torch.ones(7, 3, requires_grad=True)
    b = a.clone()
    b.fill_diagonal_(0, wrap=True)
    assert b._version == 2
    b.sum().backward()
    assert a.grad.tolist() == [[0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0],
                               [1.0, 1.0, 1.0], [0.0, 1.0, 1.0], [1.0, 0.0, 1.0],
                               [1.0, 1.0, 0.0]]


def test_views_write_through_to_their_base():
    base = torch.zeros(4, 4)
    v = base[1:, 1:]
    v.fill_diagonal_(1)
    assert base.tolist() == [[0.0] * 4, [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0],
                             [0.0, 0.0, 0.0, 1.0]]
    assert base._version == v._version == 1
    every_other = torch.zeros(4, 6)
    every_other[:, ::2].fill_diagonal_(3)
    assert [(i, j) for i in range(4) for j in range(6) if every_other[i, j] == 3] == [
        (0, 0), (1, 2), (2, 4)]


@pytest.mark.parametrize(("rows", "cols"), [(3, 4), (3, 6)])
def test_a_transposed_tall_matrix_wraps_as_a_contiguous_one(rows, cols):
    x = torch.arange(float(rows * cols)).reshape(rows, cols).t()  # (cols, rows), not contiguous
    x.fill_diagonal_(-1, wrap=True)
    on = _filled(cols, rows, wrap=True)
    assert x.tolist() == [[-1.0 if (i, j) in on else float(j * cols + i) for j in range(rows)]
                          for i in range(cols)]


def test_a_transposed_tall_matrix_can_wrap_out_of_its_storage():
    # the wrapped diagonal's start is worked out as if the rows were laid out one after another
    x = torch.arange(14.0).reshape(2, 7).t()
    with raises(RuntimeError, "setStorage: sizes [3], strides [8], storage offset 3, and "
                              "itemsize 4 requiring a storage size of 80 are out of bounds for "
                              "storage of size 56"):
        x.fill_diagonal_(-1, wrap=True)
    assert x._version == 1 and x.diagonal().tolist() == [-1.0, -1.0]  # the first fill stays


def test_a_view_of_a_tensor_that_requires_grad():
    a = torch.ones(4, 4, requires_grad=True)
    b = a * 1
    v = b[1:, 1:]
    v.fill_diagonal_(0.0)
    assert type(v.grad_fn).__name__ == "AsStridedBackward0"
    assert type(b.grad_fn).__name__ == "CopySlices"
    b.sum().backward()
    assert a.grad.tolist() == [[1.0] * 4, [1.0, 0.0, 1.0, 1.0], [1.0, 1.0, 0.0, 1.0],
                               [1.0, 1.0, 1.0, 0.0]]
    leaf = torch.ones(2, 2, requires_grad=True)
    with raises(RuntimeError, "a view of a leaf Variable that requires grad is being used in an "
                              "in-place operation."):
        leaf[0:].fill_diagonal_(0)


def test_forward_mode_tangent_is_zero_on_the_diagonal():
    import torch.autograd.forward_ad as fwAD

    with fwAD.dual_level():
        b = fwAD.make_dual(torch.ones(3, 3), torch.full((3, 3), 2.0)) * 1
        b.fill_diagonal_(0.0)
        assert fwAD.unpack_dual(b).tangent.tolist() == [[0.0, 2.0, 2.0], [2.0, 0.0, 2.0],
                                                        [2.0, 2.0, 0.0]]
