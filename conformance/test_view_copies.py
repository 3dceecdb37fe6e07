"""The copies of views: torch.permute_copy and its kin, and torch.detach.

Each copy gives the view's values in memory of its own, row-major, and records the
view's node under a ``_copy`` name, keeping what the view's node keeps; its gradient
and second derivative are the view's. A copy of inference operands starts at version 1.
"""

import pytest
import torch

from conformance._support import node_names

preorder = node_names


def leaf():
    """A transposed float64 leaf: strides (1, 2)."""
    return (torch.arange(6, dtype=torch.float64).reshape(3, 2).t() * 0.17 + 0.4).requires_grad_()


CASES = {  # name: (the copy, the view it copies, its node)
    "alias_copy": (lambda x: torch.alias_copy(x), lambda x: x[...], "AliasBackward0_copy"),
    "as_strided_copy": (lambda x: torch.as_strided_copy(x, (2, 2), (1, 2)),
                        lambda x: torch.as_strided(x, (2, 2), (1, 2)), "AsStridedBackward0_copy"),
    "diagonal_copy": (lambda x: torch.diagonal_copy(x, 1), lambda x: x.diagonal(1),
                      "DiagonalBackward0_copy"),
    "expand_copy": (lambda x: torch.expand_copy(x[:1], (4, 3)), lambda x: x[:1].expand(4, 3),
                    "ExpandBackward0_copy"),
    "permute_copy": (lambda x: torch.permute_copy(x, (1, 0)), lambda x: x.permute(1, 0),
                     "PermuteBackward0_copy"),
    "select_copy": (lambda x: torch.select_copy(x, 1, 2), lambda x: x.select(1, 2),
                    "SelectBackward0_copy"),
    "slice_copy": (lambda x: torch.slice_copy(x, 1, 0, None, 2), lambda x: x[:, ::2],
                   "SliceBackward0_copy"),
    "squeeze_copy": (lambda x: torch.squeeze_copy(x[:1]), lambda x: x[:1].squeeze(),
                     "SqueezeBackward0_copy"),
    "squeeze_copy_dim": (lambda x: torch.squeeze_copy(x[:1], 0), lambda x: x[:1].squeeze(0),
                         "SqueezeBackward1_copy"),
    "squeeze_copy_dims": (lambda x: torch.squeeze_copy(x[:1], (0, 1)),
                          lambda x: x[:1].squeeze((0, 1)), "SqueezeBackward2_copy"),
    "t_copy": (lambda x: torch.t_copy(x), lambda x: x.t(), "TBackward0_copy"),
    "transpose_copy": (lambda x: torch.transpose_copy(x, 0, -1), lambda x: x.transpose(0, -1),
                       "TransposeBackward0_copy"),
    "unfold_copy": (lambda x: torch.unfold_copy(x, 1, 2, 1), lambda x: x.unfold(1, 2, 1),
                    "UnfoldBackward0_copy"),
    "unsqueeze_copy": (lambda x: torch.unsqueeze_copy(x, 1), lambda x: x.unsqueeze(1),
                       "UnsqueezeBackward0_copy"),
    "view_copy": (lambda x: torch.view_copy(x, (2, 3, 1)), lambda x: x.reshape(2, 3, 1),
                  "ViewBackward0_copy"),
    "split_copy": (lambda x: torch.split_copy(x, 2, 1)[1], lambda x: x.split(2, 1)[1],
                   "SplitBackward0_copy"),
    "split_with_sizes_copy": (lambda x: torch.split_with_sizes_copy(x, [1, 2], 1)[1],
                              lambda x: x.split([1, 2], 1)[1], "SplitWithSizesBackward0_copy"),
    "unbind_copy": (lambda x: torch.unbind_copy(x, 1)[2], lambda x: x.unbind(1)[2],
                    "UnbindBackward0_copy"),
}


@pytest.mark.parametrize("name", CASES)
def test_a_copy_records_the_views_node_and_owns_its_memory(name):
    copy, view, node = CASES[name]
    x = leaf()
    y, v = copy(x), view(x)
    assert y.grad_fn.name() == node and not y._is_view() and y.is_contiguous()
    assert y.data_ptr() != x.data_ptr()
    assert torch.equal(y, v) and y.dtype == v.dtype
    weight = torch.arange(y.numel(), dtype=torch.float64).reshape(y.shape) * 0.3 - 0.5
    (g,) = torch.autograd.grad((y * y * weight).sum(), x, create_graph=True)
    (g_view,) = torch.autograd.grad((v * v * weight).sum(), x, create_graph=True)
    assert torch.allclose(g, g_view, rtol=0, atol=1e-12)
    assert node in preorder(g.grad_fn)
    (gg,) = torch.autograd.grad(g.sum(), x)
    (gg_view,) = torch.autograd.grad(g_view.sum(), x)
    assert torch.allclose(gg, gg_view, rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", CASES)
def test_a_copy_of_inference_tensors_starts_at_version_one(name):
    with torch.inference_mode():
        x = leaf().detach()
    assert CASES[name][0](x)._version == 1


def test_a_view_copy_no_view_could_give_is_the_reshapes_own_copy():
    with torch.inference_mode():
        x = leaf().detach()
    assert torch.view_copy(x, (6,))._version == 0
    assert torch.view_copy(x, (2, 3, 1))._version == 1


def test_a_copy_keeps_what_the_view_keeps():
    x = leaf()
    assert torch.permute_copy(x, (1, 0)).grad_fn._saved_dims == (1, 0)
    node = torch.select_copy(x, 1, 2).grad_fn
    assert (node._saved_dim, node._saved_index, node._saved_self_sym_sizes) == (1, 2, (2, 3))
    node = torch.slice_copy(x).grad_fn
    assert (node._saved_dim, node._saved_start, node._saved_end, node._saved_step) == (
        0, None, None, 1)
    assert torch.view_copy(x, (3, 2)).grad_fn._saved_self_sym_sizes == (2, 3)


def test_pieces_come_as_tuples():
    x = leaf()
    for pieces in (torch.split_copy(x, 2, 1), torch.split_with_sizes_copy(x, [2, 1], 1),
                   torch.unbind_copy(x)):
        assert type(pieces) is tuple and all(not p._is_view() for p in pieces)


def test_view_copy_reshapes_what_no_view_could_and_a_dtype_is_not_recorded():
    x = leaf()
    assert torch.view_copy(x, (6,)).tolist() == x.reshape(6).tolist()
    bits = torch.view_copy(x, torch.int64)
    assert bits.dtype == torch.int64 and not bits.requires_grad and bits.grad_fn is None


def test_detach_shares_memory_and_detach_copy_has_no_derivative():
    x = leaf()
    d = torch.detach(x)
    assert d.data_ptr() == x.data_ptr() and not d.requires_grad and not d._is_view()
    c = torch.detach_copy(x)
    assert c.requires_grad and c.grad_fn.name() == "torch::autograd::NotImplemented"
    assert c.data_ptr() != x.data_ptr() and c.stride() == (3, 1)
    with pytest.raises(RuntimeError, match="^derivative for aten::detach_copy is not implemented$"):
        c.sum().backward()


@pytest.mark.parametrize("call, error, message", [
    (lambda x: torch.permute_copy(x, (0,)), RuntimeError, "number of dimensions in the tensor"),
    (lambda x: torch.permute_copy(x, (0, 0)), RuntimeError, "duplicate dims are not allowed"),
    (lambda x: torch.select_copy(x, 0, 5), IndexError, "select\\(\\): index 5 out of range"),
    (lambda x: torch.transpose_copy(x, 0, 5), IndexError, "Dimension out of range"),
    (lambda x: torch.expand_copy(x, (2,)), RuntimeError, "the number of sizes provided"),
    (lambda x: torch.unfold_copy(x, 1, 5, 1), RuntimeError, "maximum size for tensor at "
     "dimension 1 is 3 but size is 5"),
    (lambda x: torch.squeeze_copy(x, 5), IndexError, "Dimension out of range"),
    (lambda x: torch.view_copy(x, (5,)), RuntimeError, "shape '\\[5\\]' is invalid for input "
     "of size 6"),
    (lambda x: torch.split_copy(x, -1, 1), RuntimeError, "split expects split_size be "
     "non-negative"),
    (lambda x: torch.split_with_sizes_copy(x, [1, 1], 1), RuntimeError, "split_with_sizes "
     "expects split_sizes to sum exactly to 3"),
    (lambda x: torch.t_copy(x[None]), RuntimeError, "t\\(\\) expects a tensor with <= 2 "
     "dimensions, but self is 3D"),
    (lambda x: torch.slice_copy(x, 0, 0, 1, 0), RuntimeError, "slice step must be positive"),
    (lambda x: torch.diagonal_copy(x, 0, 1, 1), RuntimeError, "diagonal dimensions cannot be "
     "identical 1, 1"),
    (lambda x: torch.unbind_copy(x[0, 0]), IndexError, "Dimension specified as 0 but tensor "
     "has no dimensions"),
])
def test_a_copy_refuses_what_its_view_refuses(call, error, message):
    with pytest.raises(error, match=message):
        call(leaf())
