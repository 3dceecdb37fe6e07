"""Black-box tests: Tensor._view_func, _view_func_unsafe and _rev_view_func_unsafe: a tracked
view made again on another base, the base's layout checked, and torch's refusals."""

import pytest
import torch

from conformance._support import raises


def _layout(t):
    return tuple(t.shape), t.stride(), t.storage_offset()


def _leaf():
    return torch.arange(12.0).reshape(3, 4).clone().requires_grad_()


def _new_base():
    return torch.arange(100.0, 112.0).reshape(3, 4).clone()


VIEWS = {
    "slice": lambda x: x[1:], "t": lambda x: x.t(), "select": lambda x: x[1],
    "view": lambda x: x.view(4, 3), "chain": lambda x: x.t()[1:],
    "diagonal": lambda x: x.diagonal(1),
    "expand": lambda x: x[:1].expand(2, 4), "unfold": lambda x: x.unfold(1, 2, 1),
    "as_strided": lambda x: x.as_strided((2, 2), (1, 2), 1), "unbind": lambda x: x.unbind(0)[1],
    "split": lambda x: x.split(2, 1)[1], "permute": lambda x: x.permute(1, 0),
    "unsqueeze": lambda x: x.unsqueeze(0), "flatten": lambda x: x.flatten(),
    "squeeze": lambda x: x[:1].squeeze(0), "select_last": lambda x: x.select(1, -1),
}


@pytest.mark.parametrize("replay", [False, True], ids=["as_strided", "replayed"])
@pytest.mark.parametrize("name", VIEWS)
def test_a_view_is_made_again_on_a_base_laid_out_alike(name, replay):
    x = _leaf()
    with torch.autograd._force_original_view_tracking(replay):
        v = VIEWS[name](x)
    new = _new_base()
    for method in (v._view_func, v._view_func_unsafe):
        again = method(new)
        assert _layout(again) == _layout(v)
        assert again._base is new and not again.requires_grad
        assert again.tolist() == VIEWS[name](new).tolist()
    graded = _new_base().requires_grad_()
    node = v._view_func(graded).grad_fn
    expected = {"slice": "SliceBackward0", "t": "TBackward0", "chain": "SliceBackward0"}
    if replay and name in expected:
        assert type(node).__name__ == expected[name]
    elif not replay:
        assert type(node).__name__ == "AsStridedBackward0"


def test_no_view_and_no_tracked_view_give_none():
    x = _leaf()
    new = _new_base()
    for t in (x, x * 2, x.detach(), x[[0, 1]]):
        assert t._view_func(new) is None
        assert t._view_func_unsafe(new) is None
        assert t._rev_view_func_unsafe(new) is None
    with torch.inference_mode():
        inference = torch.zeros(3, 4)
    assert inference[1:]._view_func(new) is None


def test_views_made_without_grad_are_tracked():
    x = _leaf()
    with torch.no_grad():
        v = x[1:]
    assert _layout(v._view_func(_new_base())) == ((2, 4), (4, 1), 4)
    with torch.inference_mode():
        w = x[1:]
    assert _layout(w._view_func(_new_base())) == ((2, 4), (4, 1), 4)
    assert _layout(torch.zeros(3, 4)[1:]._view_func(_new_base())) == ((2, 4), (4, 1), 4)


BASES = {  # base laid out otherwise: _view_func gives None, _view_func_unsafe the view
    "sizes": lambda: torch.zeros(4, 3), "strides": lambda: torch.zeros(4, 3).t(),
    "a bigger storage": lambda: torch.zeros(24)[:12].view(3, 4),
    "an offset": lambda: torch.zeros(13)[1:].view(3, 4),
}


@pytest.mark.parametrize("base", BASES)
def test_a_base_laid_out_otherwise(base):
    v = _leaf()[1:]
    assert v._view_func(BASES[base]()) is None
    assert _layout(v._view_func_unsafe(BASES[base]())) == ((2, 4), (4, 1), 4)


def test_the_dtype_is_not_compared_nor_requires_grad():
    v = _leaf()[1:]
    again = v._view_func(torch.zeros(3, 4, dtype=torch.float64))
    assert again.dtype == torch.float64 and _layout(again) == ((2, 4), (4, 1), 4)
    assert v._view_func(torch.zeros(3, 4, dtype=torch.int64)).dtype == torch.int64
    base = torch.zeros(3, 4, requires_grad=True)
    again = v._view_func(base)
    assert type(again.grad_fn).__name__ == "AsStridedBackward0"
    again.sum().backward()
    assert base.grad.tolist() == [[0.0] * 4, [1.0] * 4, [1.0] * 4]


def test_strides_of_single_elements_are_not_compared():
    x = torch.zeros(1, 4, requires_grad=True)
    new = torch.zeros(4, 1).t()  # strides (1, 1), where x has (4, 1)
    assert x[:, 1:]._view_func(new).tolist() == [[0.0, 0.0, 0.0]]


def test_argument_errors():
    v = _leaf()[1:]
    new = _new_base()
    with raises(TypeError, '_view_func() missing 1 required positional arguments: "new_base"'):
        v._view_func()
    with raises(TypeError, '_view_func() missing 1 required positional arguments: "new_base"'):
        v._view_func_unsafe()
    with raises(TypeError, "_view_func(): argument 'new_base' (position 1) must be Tensor, not "
                           "str"):
        (v * 1)._view_func("a")
    with raises(TypeError, "_view_func() got an unexpected keyword argument 'bogus'"):
        v._view_func(new, bogus=1)
    with raises(TypeError, "_view_func() takes from 1 to 3 positional arguments but 4 were given"):
        v._view_func(new, 1, 2, 3)
    assert _layout(v._view_func(new_base=new, symint_visitor_fn=abs)) == ((2, 4), (4, 1), 4)


def test_the_way_back():
    v = _leaf()[1:]
    with raises(RuntimeError, "No _rev_view_func() found"):
        v._rev_view_func_unsafe(v.detach())
    for t in (v, v * 1):
        with raises(RuntimeError, "_rev_view_func expect a single argument that is a Tensor"):
            t._rev_view_func_unsafe("a")
        with raises(TypeError, "TensorBase._rev_view_func_unsafe() takes exactly one argument "
                               "(0 given)"):
            t._rev_view_func_unsafe()


REARRANGED = {  # views whose ops are undone by ops: the node of the last one undone
    "transpose": (lambda x: x.transpose(0, 2), "TransposeBackward0"),
    "permute": (lambda x: x.permute(2, 0, 1), "PermuteBackward0"),
    "movedim": (lambda x: x.movedim(0, 2), "PermuteBackward0"),
    "unsqueeze": (lambda x: x.unsqueeze(1), "SqueezeBackward1"),
    "squeeze": (lambda x: x.squeeze(), "UnsqueezeBackward0"),
    "squeeze_dim": (lambda x: x.squeeze(1), "UnsqueezeBackward0"),
    "squeeze_dims": (lambda x: x.squeeze((1,)), "UnsqueezeBackward0"),
    "view": (lambda x: x.view(12), "ViewBackward0"),
    "reshape": (lambda x: x.reshape(4, 3), "ViewBackward0"),
    "flatten": (lambda x: x.flatten(), "ViewBackward0"),
    "mT": (lambda x: x.mT, "TransposeBackward0"),
    "expand": (lambda x: x.expand(2, 3, 1, 4), "AsStridedBackward0"),
    "unfold": (lambda x: x.unfold(2, 2, 1), "AsStridedBackward0"),
    "select_T": (lambda x: x[:, 0].T, "AsStridedBackward0"),
}


def _replayed(make):
    x = (torch.arange(12.0).reshape(3, 1, 4) + 1).requires_grad_()
    with torch.autograd._force_original_view_tracking(True):
        return make(x)


@pytest.mark.parametrize("name", REARRANGED)
def test_the_way_back_from_a_replayed_view(name):
    make, node = REARRANGED[name]
    v = _replayed(make)
    for new in (v.detach(), v.detach().clone()):
        back = v._rev_view_func_unsafe(new)
        assert _layout(back) == ((3, 1, 4), (4, 4, 1), 0) and back._base is not None
        assert not back.requires_grad
    graded = v.detach().clone().requires_grad_()
    assert type(v._rev_view_func_unsafe(graded).grad_fn).__name__ == node


CUT = {  # views undone by an as_strided within the new view's storage
    "select_t": (lambda x: x[0].t(), "[3, 1, 4], strides [4, 4, 1]", 16),
    "diagonal": (lambda x: x.diagonal(0, 0, 2), "[3, 1, 4], strides [4, 4, 1]", 12),
    "unbind": (lambda x: x.unbind(2)[1], "[3, 1, 4], strides [4, 4, 1]", 12),
    "as_strided": (lambda x: x.as_strided((2, 2), (1, 2), 1), "[3, 1, 4], strides [4, 4, 1]",
                   16),
    "chain": (lambda x: x.squeeze(1).t()[1:], "[4, 3], strides [1, 4]", 36),
}


@pytest.mark.parametrize("name", CUT)
def test_the_way_back_needs_room_for_the_base(name):
    make, geometry, nbytes = CUT[name]
    v = _replayed(make)
    assert _layout(v._rev_view_func_unsafe(v.detach())) == ((3, 1, 4), (4, 4, 1), 0)
    needed = 48
    with raises(RuntimeError, f"setStorage: sizes {geometry}, storage offset 0, and itemsize 4 "
                              f"requiring a storage size of {needed} are out of bounds for "
                              f"storage of size {nbytes}"):
        v._rev_view_func_unsafe(v.detach().clone())


SLICED = {  # views whose last op is a slice, undone by slice_inverse: (dim, start, end, step)
    "slice": (lambda x: x[1:], (0, 1, 2**63 - 1, 1)),
    "step": (lambda x: x[:, :, ::2], (2, 0, 2**63 - 1, 2)),
    "narrow": (lambda x: x.narrow(2, 1, 2), (2, 1, 3, 1)),
    "split": (lambda x: x.split(3, 2)[1], (2, 3, 4, 1)),
    "split_with_sizes": (lambda x: x.split_with_sizes([1, 3], 2)[1], (2, 1, 4, 1)),
    "chunk": (lambda x: x.chunk(2, 0)[1], (0, 2, 3, 1)),
    "tensor_split": (lambda x: x.tensor_split(2, 2)[1], (2, 2, 4, 1)),
}


@pytest.mark.parametrize("name", SLICED)
def test_the_way_back_from_a_slice(name):
    make, (dim, start, end, step) = SLICED[name]
    x = (torch.arange(12.0).reshape(3, 1, 4) + 1).requires_grad_()
    base = x * 1
    with torch.autograd._force_original_view_tracking(True):
        v = make(base)
    y = torch.zeros(3, 1, 4, requires_grad=True)
    new = make(y * 1)  # a slice of a tensor laid out as the base
    back = v._rev_view_func_unsafe(new)
    node = back.grad_fn
    assert type(node).__name__ == "SliceInverseBackward0" and back._base is new._base
    assert _layout(back) == ((3, 1, 4), (4, 4, 1), 0)
    assert (node._saved_dim, node._saved_start, node._saved_end, node._saved_step) == (
        dim, start, end, step)
    assert node.next_functions[0][0] is new.grad_fn
    assert node.next_functions[1][0] is base.grad_fn
    weights = torch.arange(12.0).reshape(3, 1, 4)
    to_y, to_x = torch.autograd.grad((back * weights).sum(), [y, x])
    inside = torch.zeros(3, 1, 4)
    make(inside).copy_(make(weights))
    assert torch.equal(to_y, inside) and torch.equal(to_x, weights - inside)


def test_the_way_back_from_a_slice_without_grad():
    with torch.autograd._force_original_view_tracking(True):
        v = torch.arange(6.0, requires_grad=True).clone()[1:4]
    big = torch.zeros(20)
    back = v._rev_view_func_unsafe(big[:3])
    assert type(back.grad_fn).__name__ == "SliceInverseBackward0" and back.requires_grad
    assert _layout(back) == ((6,), (1,), 0) and back._base is big
    with torch.no_grad():
        back = v._rev_view_func_unsafe(big[:3])
    assert back.grad_fn is None and back._base is big
    with raises(RuntimeError, "setStorage: sizes [6], strides [1], storage offset 0, and "
                              "itemsize 4 requiring a storage size of 24 are out of bounds for "
                              "storage of size 12"):
        v._rev_view_func_unsafe(torch.ones(3, requires_grad=True))
