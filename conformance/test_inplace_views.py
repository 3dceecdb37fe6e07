"""In-place view ops (squeeze_, unsqueeze_, t_, transpose_, swapaxes_, swapdims_) and detach_."""

import pytest
import torch
import torch.autograd.forward_ad as fwAD

from conformance._support import raises

LEAF = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF = "a view of " + LEAF
DETACH_VIEW = (
    "Can't detach views in-place. Use detach() instead. If you are using "
    "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, "
    "gradients are views of DDP buckets, and hence detach_() cannot be called on these "
    "gradients. To fix this error, please refer to the Optimizer.zero_grad() function in "
    "torch/optim/optimizer.py as the solution."
)
INFERENCE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details."
)

# (call, node, shape after, strides after), on a (2, 1, 3) tensor
CASES = {
    "squeeze_": (lambda y: y.squeeze_(), "SqueezeBackward3", (2, 3), (3, 1)),
    "squeeze_dim": (lambda y: y.squeeze_(1), "SqueezeBackward4", (2, 3), (3, 1)),
    "squeeze_negative_dim": (lambda y: y.squeeze_(-2), "SqueezeBackward4", (2, 3), (3, 1)),
    "squeeze_dims": (lambda y: y.squeeze_((0, 1)), "SqueezeBackward5", (2, 3), (3, 1)),
    "unsqueeze_": (lambda y: y.unsqueeze_(0), "UnsqueezeBackward1", (1, 2, 1, 3), (6, 3, 3, 1)),
    "unsqueeze_last": (lambda y: y.unsqueeze_(-1), "UnsqueezeBackward1", (2, 1, 3, 1),
                       (3, 3, 1, 1)),
    "transpose_": (lambda y: y.transpose_(0, 2), "TransposeBackward1", (3, 1, 2), (1, 3, 3)),
    "swapaxes_": (lambda y: y.swapaxes_(0, 2), "TransposeBackward1", (3, 1, 2), (1, 3, 3)),
    "swapdims_": (lambda y: y.swapdims_(0, -1), "TransposeBackward1", (3, 1, 2), (1, 3, 3)),
    "transpose_ by keyword": (lambda y: y.transpose_(dim0=2, dim1=0), "TransposeBackward1",
                              (3, 1, 2), (1, 3, 3)),
}

VIEWS = {
    "squeeze_": lambda y: y.squeeze(), "squeeze_dim": lambda y: y.squeeze(1),
    "squeeze_negative_dim": lambda y: y.squeeze(-2), "squeeze_dims": lambda y: y.squeeze((0, 1)),
    "unsqueeze_": lambda y: y.unsqueeze(0), "unsqueeze_last": lambda y: y.unsqueeze(-1),
    "transpose_": lambda y: y.transpose(0, 2), "swapaxes_": lambda y: y.swapaxes(0, 2),
    "swapdims_": lambda y: y.swapdims(0, -1), "transpose_ by keyword": lambda y: y.transpose(2, 0),
}


@pytest.mark.parametrize("name", CASES)
def test_the_same_tensor_changes_shape_and_records_its_node(name):
    change, node, shape, strides = CASES[name]
    x = torch.arange(6.0).view(2, 1, 3).requires_grad_()
    y = x * 2
    assert change(y) is y
    assert (tuple(y.shape), y.stride(), y._version) == (shape, strides, 1)
    assert type(y.grad_fn).__name__ == node
    assert type(y.grad_fn.next_functions[0][0]).__name__ == "MulBackward0"
    weights = torch.arange(6.0).view(shape)
    (y * weights).sum().backward()
    # the same gradient as through the view op of the same name
    x2 = x.detach().requires_grad_()
    view = VIEWS[name](x2 * 2)
    assert type(view.grad_fn).__name__ != node and view._base is not None
    (view * weights).sum().backward()
    assert x.grad.tolist() == x2.grad.tolist()
    assert x.grad.tolist() != (2 * torch.ones(2, 1, 3)).tolist()


def test_t_and_transpose_send_each_gradient_back_to_its_place():
    x = torch.arange(6.0, requires_grad=True)
    y = (x * 1).view(2, 3)
    y.t_()
    y.unsqueeze_(0)
    y.squeeze_()
    assert type(y.grad_fn).__name__ == "SqueezeBackward3"
    (y * torch.arange(6.0).view(3, 2)).sum().backward()
    assert x.grad.tolist() == [0.0, 2.0, 4.0, 1.0, 3.0, 5.0]


def test_t_twice_stacks_two_nodes_and_double_backward_runs_through():
    x = torch.arange(6.0, requires_grad=True)
    y = (x * x).view(2, 3)
    y.t_()
    y.t_()
    assert [type(y.grad_fn).__name__, type(y.grad_fn.next_functions[0][0]).__name__] == [
        "TBackward1", "TBackward1"]
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    assert g.tolist() == [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg.tolist() == [2.0] * 6


def test_the_nodes_keep_torchs_saved_values():
    x = torch.ones(2, 1, 3, requires_grad=True)
    node = (x * 1).squeeze_(1).grad_fn
    assert (node._saved_dim, node._saved_self_sym_sizes) == (1, (2, 1, 3))
    node = (x * 1).squeeze_((0, 1)).grad_fn
    assert (node._saved_dim, node._saved_self_sym_sizes) == ((0, 1), (2, 1, 3))
    assert (x * 1).squeeze_().grad_fn._saved_self_sym_sizes == (2, 1, 3)
    assert (x * 1).unsqueeze_(0).grad_fn._saved_dim == 0
    node = (x * 1).transpose_(0, 1).grad_fn
    assert (node._saved_dim0, node._saved_dim1) == (0, 1)


def test_t_of_one_dimension_or_none_changes_nothing_but_the_version():
    x = torch.ones(3)
    assert tuple(x.t_().shape) == (3,) and x._version == 1
    assert tuple(torch.ones(()).t_().shape) == ()


def test_a_tensor_that_requires_no_grad_changes_shape_without_a_node():
    x = torch.ones(2, 1, 3)
    x.transpose_(0, 2)
    assert (tuple(x.shape), x.stride(), x._version, x.grad_fn) == ((3, 1, 2), (1, 3, 3), 1, None)


def test_under_no_grad_the_history_stays_and_a_leaf_may_change():
    x = torch.ones(2, 3, requires_grad=True)
    y = x * 2
    with torch.no_grad():
        y.t_()
    assert type(y.grad_fn).__name__ == "MulBackward0" and tuple(y.shape) == (3, 2)
    # the graph still has the old shape: its check refuses the gradient
    with raises(RuntimeError, "Function SumBackward0 returned an invalid gradient at index 0 - "
                              "got [3, 2] but expected shape compatible with [2, 3]"):
        y.sum().backward()
    leaf = torch.ones(2, 3, requires_grad=True)
    with torch.no_grad():
        leaf.t_()
    assert leaf.is_leaf and leaf._version == 1
    (leaf * torch.arange(6.0).view(3, 2)).sum().backward()
    assert leaf.grad.tolist() == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]


def test_a_gradient_that_no_longer_fits_dot_grad_is_refused_as_torch_refuses_it():
    x = torch.ones(2, 3, requires_grad=True)
    (x * 1).sum().backward()
    with torch.no_grad():
        x.t_()
    with raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) "
                              "at non-singleton dimension 1"):
        (x * 1).sum().backward()


REFUSED = {
    "leaf": (lambda: torch.ones(2, 1, 3, requires_grad=True), LEAF),
    "view of a leaf": (lambda: torch.ones(2, 2, 3, requires_grad=True)[0], VIEW_OF_LEAF),
}


@pytest.mark.parametrize("name", ["squeeze_", "unsqueeze_", "transpose_", "squeeze_dims"])
@pytest.mark.parametrize("what", REFUSED)
def test_refused_like_every_in_place_op_and_left_unchanged(name, what):
    make, message = REFUSED[what]
    t = make()
    before = (tuple(t.shape), t._version, t.grad_fn)
    with raises(RuntimeError, message):
        CASES[name][0](t)
    assert (tuple(t.shape), t._version, t.grad_fn) == before


def test_a_view_made_in_no_grad_mode_is_refused():
    x = torch.ones(2, 2, 3, requires_grad=True)
    with torch.no_grad():
        v = x[0]
    with pytest.raises(RuntimeError, match="A view was created in no_grad mode and is being "
                                           "modified inplace with grad mode enabled"):
        v.t_()
    assert tuple(v.shape) == (2, 3)


def test_an_output_of_a_many_output_view_is_refused():
    x = torch.ones(2, 3, requires_grad=True)
    a, _ = (x * 1).unbind(0)
    with pytest.raises(RuntimeError, match="is a view and is being modified inplace. This view "
                                           "is the output of a function that returns multiple "
                                           "views."):
        a.unsqueeze_(0)


def test_an_inference_tensor_changes_only_inside_inference_mode():
    with torch.inference_mode():
        x = torch.ones(2, 3)
        x.t_()
    assert tuple(x.shape) == (3, 2)
    with raises(RuntimeError, INFERENCE):
        x.t_()
    assert tuple(x.shape) == (2, 3)  # changed, then refused


def test_the_argument_checks():
    x = torch.ones(2, 1, 3)
    with raises(RuntimeError, "t_() expects a tensor with <= 2 dimensions, but self is 3D"):
        x.t_()
    with raises(IndexError, "Dimension out of range (expected to be in range of [-3, 2], "
                            "but got 5)"):
        x.transpose_(0, 5)
    with raises(IndexError, "Dimension out of range (expected to be in range of [-3, 2], "
                            "but got 5)"):
        x.squeeze_(5)
    with raises(IndexError, "Dimension out of range (expected to be in range of [-4, 3], "
                            "but got 5)"):
        x.unsqueeze_(5)
    with raises(RuntimeError, "dim 0 appears multiple times in the list of dims"):
        x.squeeze_((0, 0))
    assert (tuple(x.shape), x._version) == ((2, 1, 3), 0)


def test_a_saved_tensor_changed_afterwards_fails_the_version_check():
    x = torch.ones(2, 1, 3, requires_grad=True)
    y = x * 2
    z = y * y
    y.squeeze_(1)
    with pytest.raises(RuntimeError, match=r"\[torch.FloatTensor \[2, 3\]\], which is output 0 "
                                           r"of Squeeze4, is at version 1; expected version 0"):
        z.sum().backward()
    x = torch.ones(2, 3, requires_grad=True)
    y = x.exp()  # saves its result
    y.t_()
    with pytest.raises(RuntimeError, match=r"which is output 0 of Exp, is at version 1"):
        y.sum().backward()


def test_a_view_keeps_its_base_and_is_regenerated_by_as_strided():
    x = torch.ones(2, 2, 3, requires_grad=True)
    y = x * 2
    row = y[0]
    row.t_()
    assert row._base is y and tuple(row.shape) == (3, 2)
    assert [type(row.grad_fn).__name__, type(row.grad_fn.next_functions[0][0]).__name__] == [
        "TBackward1", "SelectBackward0"]
    y.mul_(2)
    assert type(row.grad_fn).__name__ == "AsStridedBackward0"
    (row * torch.arange(6.0).view(3, 2)).sum().backward()
    assert x.grad.tolist() == [[[0.0, 8.0, 16.0], [4.0, 12.0, 20.0]], [[0.0] * 3] * 2]


def test_a_write_through_the_changed_view_reaches_the_base():
    x = torch.ones(2, 2, 3, requires_grad=True)
    y = x * 1
    row = y[0]
    row.t_()
    row.mul_(torch.arange(6.0).view(3, 2))
    assert type(y.grad_fn).__name__ == "CopySlices"
    assert type(row.grad_fn).__name__ == "AsStridedBackward0"
    y.sum().backward()
    assert x.grad[0].tolist() == [[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]]
    assert x.grad[1].tolist() == [[1.0] * 3] * 2


def test_a_view_changed_under_no_grad_is_regenerated_with_its_new_shape():
    x = torch.ones(2, 1, requires_grad=True)
    v = (x * 1)[0]
    with torch.no_grad():
        v.squeeze_()
    assert (type(v.grad_fn).__name__, tuple(v.shape), v.requires_grad) == (
        "AsStridedBackward0", (), True)


def test_hooks_and_retain_grad_stay_with_the_node_they_were_bound_to():
    x = torch.ones(2, 3, requires_grad=True)
    y = x * 2
    seen = []
    y.register_hook(lambda g: seen.append(("before", tuple(g.shape))))
    y.retain_grad()
    y.t_()
    y.register_hook(lambda g: seen.append(("after", tuple(g.shape))))
    y.sum().backward()
    assert seen == [("before", (2, 3)), ("after", (2, 3))]
    assert tuple(y.grad.shape) == (2, 3)


def test_the_tangent_changes_shape_with_the_tensor_and_stays_a_view_of_the_base_tangent():
    with fwAD.dual_level():
        b = fwAD.make_dual(torch.ones(2, 2, 3), torch.arange(12.0).view(2, 2, 3)) * 1
        v = b[0]
        v.t_()
        tangent = fwAD.unpack_dual(v).tangent
        base_tangent = fwAD.unpack_dual(b).tangent
        assert tangent.tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
        assert tangent._base is base_tangent or tangent._base is base_tangent._base
        d = fwAD.make_dual(torch.ones(2, 1), torch.arange(2.0).view(2, 1)) * 1
        d.squeeze_(1)
        d.mul_(fwAD.make_dual(torch.ones(2), torch.ones(2)))
        assert fwAD.unpack_dual(d).tangent.tolist() == [1.0, 2.0]


def test_detach_in_place_cuts_a_result_loose():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    assert y.detach_() is y
    assert (y.requires_grad, y.is_leaf, y.grad_fn, y._version) == (False, True, None, 0)
    y.requires_grad_()
    (y * 2).sum().backward()
    assert y.grad.tolist() == [2.0, 2.0] and x.grad is None


def test_detach_in_place_of_a_leaf_and_of_a_base_with_views():
    x = torch.ones(2, 3, requires_grad=True)
    x.detach_()
    assert (x.requires_grad, x.is_leaf) == (False, True)
    x = torch.ones(2, 3, requires_grad=True)
    y = x * 2
    row = y[0]
    y.detach_()
    assert row.requires_grad and type(row.grad_fn).__name__ == "SelectBackward0"
    assert not y.requires_grad


@pytest.mark.parametrize("make", [
    lambda: torch.ones(2, 3, requires_grad=True)[0],
    lambda: torch.ones(3)[0:2],
])
def test_detach_in_place_refuses_any_view(make):
    v = make()
    before = v.requires_grad
    with raises(RuntimeError, DETACH_VIEW):
        v.detach_()
    assert v.requires_grad == before


def test_detach_in_place_drops_the_tangent():
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.ones(3), torch.arange(3.0)) * 1
        d.detach_()
        assert fwAD.unpack_dual(d).tangent is None


def test_matmul_of_a_vector_by_a_matrix_squeezes_in_place():
    v = torch.ones(2, requires_grad=True)
    out = torch.matmul(v, torch.ones(2, 3))
    assert type(out.grad_fn).__name__ == "SqueezeBackward4" and out._version == 1
    assert type(out.grad_fn.next_functions[0][0]).__name__ == "MmBackward0"


@pytest.mark.parametrize("shape", [(), (3,), (2, 2)])
def test_the_gradient_copy_slices_hands_on_is_no_view_and_at_version_2(shape):
    seen = []

    class Pair(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone(), x.clone()

        @staticmethod
        def backward(ctx, g1, g2):
            seen.append((g2._version, g2._is_view(), g2.tolist()))
            return g2

    a = torch.full(shape, 0.5, requires_grad=True)
    _, y = Pair.apply(a)
    (y[...] if shape == () else y[:1]).mul_(3)
    (g,) = torch.autograd.grad(y.sum(), [a])
    assert seen == [(2, False, g.tolist())] and g._version == 2 and not g._is_view()
