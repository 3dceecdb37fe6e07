"""Black-box tests: behaviour the differential fuzzer found in its fourteenth round.

unsafe_split and its kin, called in inference mode on a normal tensor, give views
that count their own writes from 0: a write to the input is not theirs, and their
node is out of date when their count is not the input's at the cut; make_dual copies
a tangent not laid out like the primal into the primal's layout and dtype; an empty
zero tensor (the gradient of sgn) lists as []. The same assertions run on torch.
"""

import re

import pytest
import torch
import torch.autograd.forward_ad as fwAD

INFERENCE_VIEW = re.escape("A view was created in inference mode and its base or another "
                           "view of its base has been modified inplace in normal mode.")


def _pieces(name):
    return {
        "unsafe_split": lambda t: t.unsafe_split(1),
        "unsafe_chunk": lambda t: t.unsafe_chunk(2),
        "unsafe_split_with_sizes": lambda t: t.unsafe_split_with_sizes([1, 1]),
        "function": lambda t: torch.unsafe_split(t, 1),
    }[name]


NAMES = ["unsafe_split", "unsafe_chunk", "unsafe_split_with_sizes", "function"]


@pytest.mark.parametrize("name", NAMES)
def test_unsafe_pieces_made_in_inference_mode_do_not_see_the_input_written(name):
    x = torch.ones(2, 3, requires_grad=True)
    with torch.inference_mode():
        piece = _pieces(name)(x)[0]
    assert piece._is_view() and piece._base is x and not piece.is_inference()
    x.detach().view(-1).mul_(2)
    assert x._version == 1 and piece._version == 0
    assert piece.is_leaf and piece.grad_fn is None and piece.requires_grad
    assert (piece * 3).grad_fn.name() == "MulBackward0"
    assert piece.tolist() == [[2.0, 2.0, 2.0]]  # the memory is still shared


@pytest.mark.parametrize("name", NAMES)
def test_an_unsafe_piece_written_itself_is_out_of_date(name):
    x = torch.ones(2, 3, requires_grad=True)
    with torch.inference_mode():
        piece = _pieces(name)(x)[1]
    with torch.no_grad():
        piece.mul_(2)
    assert piece._version == 1 and x._version == 0
    with pytest.raises(RuntimeError, match=INFERENCE_VIEW):
        piece.grad_fn  # noqa: B018 - reading it is what is refused


def test_an_unsafe_piece_of_an_input_written_before_is_out_of_date_at_once():
    x = torch.ones(2, 3, requires_grad=True)
    x.detach().add_(1)
    with torch.inference_mode():
        piece = x.unsafe_split(1)[0]
    assert piece._version == 0
    with pytest.raises(RuntimeError, match=INFERENCE_VIEW):
        piece.grad_fn  # noqa: B018


def test_split_pieces_made_in_inference_mode_still_share_the_count():
    x = torch.ones(2, 3, requires_grad=True)
    with torch.inference_mode():
        piece = x.split(1)[0]
    x.detach().mul_(2)
    assert piece._version == 1
    with pytest.raises(RuntimeError, match=INFERENCE_VIEW):
        piece.grad_fn  # noqa: B018


def test_unsafe_pieces_of_an_inference_tensor_are_inference_tensors():
    with torch.inference_mode():
        piece = torch.ones(2, 3).unsafe_split(1)[0]
    assert piece.is_inference() and not piece._is_view()


@pytest.mark.parametrize("primal, dtype", [
    (lambda: torch.zeros(3)[1:], torch.float32),  # an offset
    (lambda: torch.zeros(2, 2).t(), torch.float32),  # other strides
    (lambda: torch.zeros(3, dtype=torch.float16)[1:], torch.float16),
    (lambda: torch.zeros(3, dtype=torch.float64)[1:], torch.float64),
])
def test_a_tangent_copied_into_the_primal_layout_takes_the_primal_dtype(primal, dtype):
    p = primal()
    tangent = torch.full(p.shape, 1.1, dtype=torch.float64 if dtype != torch.float64
                         else torch.float32)
    with fwAD.dual_level():
        dual = fwAD.make_dual(p, tangent)
        got = fwAD.unpack_dual(dual).tangent
        assert got.dtype == dtype and got._version == 1
        assert got.stride() == p.stride()
        assert got.flatten().tolist() == tangent.to(dtype).flatten().tolist()
        assert fwAD.unpack_dual(dual.exp()).tangent.dtype == dtype


def test_a_zero_dimensional_reduction_copies_its_tangent_too():
    loss = torch.nn.functional.mse_loss(torch.ones(3), torch.zeros(3))
    with fwAD.dual_level():
        dual = fwAD.make_dual(loss, torch.tensor(0.1, dtype=torch.float64))
        got = fwAD.unpack_dual(dual.exp()).tangent
    assert got.dtype == torch.float32
    assert got.item() == pytest.approx(0.1 * 2.718281828459045, rel=1e-6)


def test_a_tangent_laid_out_like_the_primal_keeps_its_dtype():
    tangent = torch.ones(3, dtype=torch.float64)
    with fwAD.dual_level():
        dual = fwAD.make_dual(torch.zeros(3), tangent)
        assert fwAD.unpack_dual(dual).tangent is tangent
        assert fwAD.unpack_dual(dual.exp()).tangent.dtype == torch.float64


@pytest.mark.parametrize("shape, listed", [((0, 3), []), ((2, 0), [[], []]), ((0,), [])])
def test_an_empty_zero_tensor_lists_as_an_empty_tensor(shape, listed):
    x = torch.rand(shape, requires_grad=True)
    (g,) = torch.autograd.grad(x.sgn().sum(), x)
    assert g._is_zerotensor()
    assert g.tolist() == listed
    with pytest.raises(RuntimeError, match="Cannot convert a ZeroTensor to numpy"):
        g.numpy()


def test_a_zero_tensor_with_elements_still_refuses_tolist():
    x = torch.rand(2, requires_grad=True)
    (g,) = torch.autograd.grad(x.sgn().sum(), x)
    with pytest.raises(RuntimeError, match="tolist\\(\\) shouldn't be called on a tensor with "
                                           "unallocated storage"):
        g.tolist()


def test_the_second_gradient_through_sgn_of_an_empty_norm_lists():
    x = torch.rand(0, 3, requires_grad=True)
    s = x.sgn()
    (g,) = torch.autograd.grad(s.norm(), s, create_graph=True)
    h = torch.autograd.grad(g.sum(), (s, x), allow_unused=True)
    assert [t.tolist() for t in h] == [[], []]
