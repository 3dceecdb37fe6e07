"""torch.lu as torch's Python writes it: _lu_with_info's parser for A and pivot, get_infos
read for its truth, and out= checked after the factorization, then each tensor resized
like its result and copied into."""

import warnings

import pytest
import torch

from conformance._support import raises, shapes_mode

A = [[4.0, 2.0], [8.0, 2.0]]  # factors exact in float32, on any BLAS, with or without fma
LU = [8.0, 2.0, 0.5, 1.0]  # row by row


def _flat(t):
    return t.reshape(-1).tolist()


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.lu's deprecation
        yield


def _pair(int_dtype=torch.int32):
    return (torch.empty(0), torch.empty(0, dtype=int_dtype))


@pytest.mark.parametrize("kind", [tuple, list])
def test_the_sequence_given_comes_back_written(kind):
    out = kind(_pair())
    assert torch.lu(torch.tensor(A), out=out) is out
    assert _flat(out[0]) == pytest.approx(LU) and out[1].tolist() == [2, 2]
    assert [t._version for t in out] == [2, 2]  # resized, then copied into


def test_get_infos_writes_the_info_too():
    out = (*_pair(), torch.empty(3, dtype=torch.int32))
    assert torch.lu(torch.tensor(A), get_infos=True, out=out) is out
    assert out[2].shape == () and out[2].item() == 0
    assert [t._version for t in out] == [2, 2, 2]


def test_an_out_of_the_right_sizes_is_copied_into_without_a_resize():
    out = [torch.empty(2, 2), torch.empty(2, dtype=torch.int32)]
    torch.lu(torch.tensor(A), out=out)
    assert [t._version for t in out] == [1, 1]


def test_a_larger_out_shrinks_in_its_storage_and_a_transposed_one_keeps_its_strides():
    big = torch.empty(3, 3)
    nbytes = big.untyped_storage().nbytes()
    torch.lu(torch.tensor(A), out=(big, torch.empty(5, dtype=torch.int32)))
    assert big.shape == (2, 2) and big.stride() == (2, 1)
    assert big.untyped_storage().nbytes() == nbytes
    t = torch.empty(2, 2).t()
    torch.lu(torch.tensor(A), out=(t, torch.empty(2, dtype=torch.int32)))
    assert t.stride() == (1, 2) and _flat(t) == pytest.approx(LU)


def test_the_tensors_of_out_take_the_factors_cast_to_their_dtypes():
    out = (torch.empty(0, dtype=torch.int64), torch.empty(0, dtype=torch.int64))
    torch.lu(torch.tensor(A), out=out)
    assert out[0].tolist() == [[8, 2], [0, 1]] and out[1].dtype is torch.int64


@pytest.mark.parametrize("get_infos, given, words", [
    (False, 3, "expected tuple of 2 elements but got 3"),
    (True, 2, "expected tuple of 3 elements but got 2"),
])
def test_the_count_of_out_is_checked_after_the_factorization(get_infos, given, words):
    out = (*_pair(), torch.empty(0, dtype=torch.int32))[:given]
    with raises(TypeError, words):
        torch.lu(torch.tensor(A), get_infos=get_infos, out=out)
    assert [t._version for t in out] == [0] * given
    with raises(RuntimeError, "torch.lu_factor: Expected tensor with 2 or more dimensions. "
                "Got size: [3] instead"):
        torch.lu(torch.ones(3), out=out)  # the factorization refuses first


@pytest.mark.parametrize("out, words", [
    (lambda: torch.empty(2), "argument 'out' must be tuple of Tensors, not Tensor"),
    (lambda: torch.tensor(1.0), "len() of a 0-d tensor"),
    (lambda: 3, "object of type 'int' has no len()"),
    (lambda: iter(list(_pair())), "object of type 'list_iterator' has no len()"),
])
def test_an_out_that_is_no_tuple_or_list_is_refused_in_pythons_words(out, words):
    with raises(TypeError, words):
        torch.lu(torch.tensor(A), out=out())


def test_an_element_that_is_no_tensor_fails_at_its_resize():
    with raises(AttributeError, "'NoneType' object has no attribute 'resize_as_'"):
        torch.lu(torch.tensor(A), out=(None, None))


def test_a_factor_that_needs_a_gradient_is_copied_with_its_history():
    a = torch.tensor(A, requires_grad=True)
    out = _pair()
    torch.lu(a, out=out)
    assert type(out[0].grad_fn).__name__ == "CopyBackwards" and not out[1].requires_grad
    out[0].sum().backward()
    assert _flat(a.grad) == pytest.approx([-1 / 8, 1.0, 17 / 16, 1 / 2])


@pytest.mark.parametrize("grad_mode", [torch.enable_grad, torch.no_grad])
def test_a_leaf_out_that_requires_grad_is_refused_by_its_resize(grad_mode):
    out = (torch.empty(2, 2, requires_grad=True), torch.empty(2, dtype=torch.int32))
    with grad_mode(), raises(RuntimeError, "cannot resize variables that require grad"):
        torch.lu(torch.tensor(A), out=out)


@pytest.mark.parametrize("flag, count, named", [
    (1, 3, True), ("x", 3, True), (0, 2, False), ("", 2, False)])
def test_get_infos_is_read_for_its_truth(flag, count, named):
    result = torch.lu(torch.tensor(A), get_infos=flag)
    assert len(result) == count
    assert (type(result).__name__ == "_lu_with_info") is named
    method = torch.tensor(A).lu(get_infos=flag)
    assert type(method) is tuple and len(method) == count  # the method's is never named


def test_a_true_get_infos_that_int_cannot_read_fails_in_the_count_message():
    with pytest.raises(ValueError):
        torch.lu(torch.tensor(A), get_infos="x", out=_pair())


@pytest.mark.parametrize("call, words", [
    (lambda: torch.lu(torch.tensor(A), pivot=1, out=3),
     "_lu_with_info(): argument 'pivot' must be bool, not int"),
    (lambda: torch.lu([1.0], out=3),
     "_lu_with_info(): argument 'input' (position 1) must be Tensor, not list"),
    (lambda: torch._lu_with_info(torch.tensor(A), 1),
     "_lu_with_info(): argument 'pivot' (position 2) must be bool, not int"),
])
def test_arguments_are_read_by_lu_with_infos_parser_before_out(call, words):
    with raises(TypeError, words):
        call()


def test_lu_with_info_is_the_named_triple_and_never_refuses_a_singular_matrix():
    result = torch._lu_with_info(torch.zeros(2, 2), check_errors=True)
    assert type(result).__name__ == "_lu_with_info"
    assert result.info.item() == 1 and result.pivots.tolist() == [1, 2]


_Seen = shapes_mode()


def test_a_mode_sees_the_factorization_then_each_resize_and_copy():
    a = torch.tensor(A)
    out = (torch.empty(0), torch.empty(2, dtype=torch.int64))
    with _Seen() as mode:
        torch.lu(a, out=out)
    assert mode.seen == [
        ("aten.linalg_lu_factor_ex.default", [[2, 2]], [], "tuple"),
        ("aten.resize_as_.default", [[0], [2, 2]], [], "Tensor"),
        ("aten.copy_.default", [[2, 2], [2, 2]], [], "Tensor"),
        ("aten.resize_as_.default", [[2], [2]], [], "Tensor"),
        ("aten.copy_.default", [[2], [2]], [], "Tensor"),
    ]
    assert [t._version for t in out] == [2, 1]


def test_under_inference_mode_a_mode_sees_lu_with_info_whole():
    a = torch.tensor(A)
    with torch.inference_mode(), _Seen() as mode:
        result = torch.lu(a, get_infos=True)
    assert mode.seen == [("aten._lu_with_info.default", [[2, 2], True, False], [], "tuple")]
    assert type(result).__name__ == "_lu_with_info"
