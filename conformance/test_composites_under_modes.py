"""Black-box tests: where autograd is out of the way (inference mode, or inference tensors
only), a dispatch mode receives composite ops (reshape, flatten, ravel, movedim, .T and the
rest) whole, and what comes back shares memory without being a view; narrow and chunk still
give views. The same assertions run on torch.
"""

import torch

from conformance._mode_support import tagged_mode
from conformance._support import recording_mode


def _name(func) -> str:
    """The op's own name: torch's overload packet (aten.reshape), refgrad's ``name``."""
    packet = getattr(func, "overloadpacket", None)
    return func.name if packet is None else packet.__name__


Names = recording_mode(_name)


def _normal():
    return torch.arange(6.0).reshape(2, 3).clone()


def test_outside_inference_mode_the_mode_sees_the_view_and_gets_a_view():
    x = _normal()
    with Names() as mode:
        r = x.reshape(3, 2)
        f = x.flatten()
    assert mode.seen == ["view", "view"]
    assert r._is_view() and r._base is x and f._is_view() and f._base is x


def test_in_inference_mode_the_mode_sees_the_composite_and_gets_no_view():
    x, shape = _normal(), torch.empty(3, 2)
    with torch.inference_mode(), Names() as mode:
        r = x.reshape(3, 2)
        f = x.flatten()
        a = x.reshape_as(shape)
        v = x.view(3, 2)
    assert mode.seen == ["reshape", "flatten", "reshape_as", "view"]
    for out in (r, f, a):
        assert not out._is_view() and out._base is None and out.data_ptr() == x.data_ptr()
        assert not out.is_inference() and not out.requires_grad
    assert v._is_view() and v._base is x  # view is no composite: still a view


def test_what_comes_back_counts_its_own_writes():
    x = _normal().requires_grad_()
    with torch.inference_mode(), Names():
        r = x.reshape(3, 2)
    assert r.grad_fn is None and r.is_leaf and not r.requires_grad
    with torch.no_grad():
        x.add_(1)
    assert x._version == 1 and r._version == 0 and r[0, 0].item() == 1.0
    y = _normal()
    with torch.inference_mode(), Names():
        s = y.reshape(6)
        s.add_(1)
    assert s._version == 1 and y._version == 0 and y[0, 0].item() == 1.0


def test_a_copy_and_an_unchanged_input_come_back_as_they_are():
    x = _normal()
    with torch.inference_mode(), Names() as mode:
        copied = x.t().reshape(6)
        row = x[0].detach()
        flat = row.flatten()
    assert mode.seen[:2] == ["t", "reshape"] and mode.seen[-1] == "flatten"
    assert copied.is_inference() and copied.data_ptr() != x.data_ptr()
    assert flat is row


def test_inference_tensors_alone_hand_the_composite_over_outside_inference_mode():
    with torch.inference_mode():
        z = torch.ones(2, 3)
    normal = torch.empty(6)
    with Names() as mode:
        r = z.reshape(3, 2)
        f = z.flatten()
        a = z.reshape_as(normal)  # a normal tensor brings autograd: taken apart
    assert mode.seen == ["reshape", "flatten", "reshape"]
    assert r.is_inference() and not r._is_view() and f.shape == a.shape == (6,)


def test_each_mode_of_a_stack_sees_the_composite():
    seen = []
    Tagged = tagged_mode(seen, _name)
    x = _normal()
    with torch.inference_mode(), Tagged("outer"), Tagged("inner"):
        r = x.reshape(3, 2)
    assert seen == [("inner", "reshape"), ("outer", "reshape")] and not r._is_view()


def _within(out, x) -> bool:
    """Whether ``out`` starts inside ``x``'s memory."""
    return x.data_ptr() <= out.data_ptr() < x.data_ptr() + x.numel() * x.element_size()


_MORE = (  # (what the mode is told, the call) on a 2 x 3 tensor, given 3 x 2 and 4 x 2 x 3 ones
    ("view_as", lambda x, others: x.view_as(others[0])),
    ("expand_as", lambda x, others: x.expand_as(others[1])),
    ("ravel", lambda x, others: x.ravel()),
    ("ravel", lambda x, others: torch.ravel(x)),
    ("unflatten", lambda x, others: x.unflatten(1, (3, 1))),
    ("movedim", lambda x, others: x.movedim(0, 1)),
    ("moveaxis", lambda x, others: torch.moveaxis(x, 0, 1)),
    ("swapaxes", lambda x, others: x.swapaxes(0, 1)),
    ("swapdims", lambda x, others: torch.swapdims(x, 0, 1)),
    ("numpy_T", lambda x, others: x.T),
    ("mT", lambda x, others: x.mT),
    ("matrix_H", lambda x, others: x.H),
    ("mH", lambda x, others: x.mH),
)


def test_in_inference_mode_more_composites_come_whole_and_share_memory_without_a_view():
    for name, make in _MORE:
        x, others = _normal().requires_grad_(), (torch.empty(3, 2), torch.empty(4, 2, 3))
        with torch.inference_mode(), Names() as mode:
            out = make(x, others)
        assert mode.seen == [name], (name, mode.seen)
        assert not out._is_view() and out._base is None and _within(out, x), name
        assert not out.is_inference() and not out.requires_grad and out.grad_fn is None, name


def test_narrow_and_chunk_come_whole_yet_come_back_as_views():
    x = _normal().requires_grad_()
    with torch.inference_mode(), Names() as mode:
        n = x.narrow(1, 0, 2)
        pieces = torch.chunk(x, 2, 1)
    assert mode.seen == ["narrow", "chunk"] and len(pieces) == 2
    for out in (n, *pieces):
        assert out._is_view() and out._base is x and _within(out, x)
        assert out.requires_grad and out.grad_fn is None and not out.is_inference()


def test_inference_tensors_alone_hand_more_composites_over():
    with torch.inference_mode():
        z = torch.arange(6.0).reshape(2, 3)
        small = torch.empty(3, 2)
    normal, big = torch.empty(3, 2), torch.empty(4, 2, 3)
    with Names() as mode:
        outs = [z.ravel(), z.narrow(1, 1, 2), *z.chunk(3, 1), z.T, z.movedim(1, 0)]
        z.view_as(normal)  # a normal tensor brings autograd: taken apart
        z.view_as(small)
        z.expand_as(big)
    assert mode.seen == ["ravel", "narrow", "chunk", "numpy_T", "movedim", "view", "view_as",
                         "expand"]
    for out in outs:
        assert out.is_inference() and not out._is_view() and _within(out, z)


def test_with_autograd_on_the_mode_sees_the_pieces():
    x = _normal().requires_grad_()
    others = (torch.empty(3, 2), torch.empty(4, 2, 3))
    with Names() as mode:
        for _, make in _MORE:
            assert make(x, others)._base is x
        x.narrow(1, 0, 2)
        x.chunk(2, 1)
    assert mode.seen == ["view", "expand", "view", "view", "view", "permute", "permute",
                         "transpose", "transpose", "permute", "transpose", "transpose",
                         "transpose", "slice", "split"]


def test_a_ravel_that_copies_gives_its_copy():
    x = _normal()
    with torch.inference_mode(), Names() as mode:
        flat = x.t().ravel()
    assert mode.seen == ["t", "ravel"]
    assert flat.is_inference() and not flat._is_view() and not _within(flat, x)
    assert flat.tolist() == [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]


def test_detach_in_place_below_autograd_reaches_the_mode_as_a_write():
    x = _normal()
    with torch.inference_mode():
        z = torch.ones(2)
    with Names() as mode:
        x.detach_()  # autograd's own work: the mode does not see it
        z.detach_()
    assert mode.seen == ["detach_"]
    with torch.inference_mode(), Names() as mode:
        x.detach_()
        made = torch.tensor([1.0, 2.0], requires_grad=True)
    assert [n for n in mode.seen if n != "lift_fresh"] == ["detach_", "detach_"]
    assert made.requires_grad and made.is_inference()


_SHARING = (  # (what the mode is told, the call): results that share the 2 x 3 input's memory
    ("adjoint", lambda x: x.adjoint()),
    ("broadcast_to", lambda x: torch.broadcast_to(x, (4, 2, 3))),
    ("tensor_split", lambda x: x.tensor_split([1, 2], 1)),
    ("hsplit", lambda x: torch.hsplit(x, 3)),
    ("vsplit", lambda x: x.vsplit(2)),
    ("atleast_3d", lambda x: torch.atleast_3d(x)),
    ("atleast_2d", lambda x: torch.atleast_2d(x[0])),
    ("meshgrid", lambda x: torch.meshgrid(x[0], x[1], indexing="ij")),
    ("unsafe_chunk", lambda x: x.unsafe_chunk(2, 1)),
    ("unsafe_split", lambda x: torch.unsafe_split(x, 2, 1)),
    ("unsafe_split_with_sizes", lambda x: x.unsafe_split_with_sizes([1, 2], 1)),
)


def _pieces(out):
    return out if isinstance(out, tuple | list) else (out,)


def test_more_composites_share_memory_without_a_view_in_inference_mode():
    for name, make in _SHARING:
        x = _normal().requires_grad_()
        with torch.inference_mode(), Names() as mode:
            out = make(x)
        assert mode.seen[-1] == name and "slice" not in mode.seen, (name, mode.seen)
        for piece in _pieces(out):
            assert not piece._is_view() and piece._base is None and _within(piece, x), name
            assert not piece.is_inference() and not piece.requires_grad, name
            assert piece._version == 0, name


def test_more_composites_on_inference_tensors_give_inference_tensors():
    for name, make in _SHARING:
        with torch.inference_mode():
            z = _normal()
        with Names() as mode:
            out = make(z)
        assert mode.seen[-1] == name, (name, mode.seen)
        for piece in _pieces(out):
            assert piece.is_inference() and not piece._is_view() and _within(piece, z), name


def test_composites_that_hand_back_their_input_or_a_copy():
    x, index = _normal().requires_grad_(), torch.tensor([[0], [2]])
    with torch.inference_mode(), Names() as mode:
        same = (torch.atleast_1d(x), torch.atleast_2d(x), *torch.broadcast_tensors(x, x[0]))
        copies = (x.t().contiguous(), x.fliplr(), x.flipud(), x.tile(2), x.type_as(index),
                  torch.take_along_dim(x, index, 1), torch.hstack([x, x]),
                  torch.vstack([x, x]), torch.dstack([x, x]), torch.column_stack([x, x]),
                  x.sum_to_size(1, 3), torch.argwhere(x))
    assert mode.seen == ["atleast_1d", "atleast_2d", "select", "broadcast_tensors", "t",
                         "contiguous", "fliplr", "flipud", "tile", "type_as", "take_along_dim",
                         "hstack", "vstack", "dstack", "column_stack", "sum_to_size",
                         "argwhere"]
    assert same[0] is x and same[1] is x and same[2] is x
    assert not same[3]._is_view() and _within(same[3], x) and not same[3].requires_grad
    for out in copies:
        assert out.is_inference() and not _within(out, x)
    assert copies[0].tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
    assert copies[4].dtype == torch.int64 and copies[5].tolist() == [[0.0], [5.0]]


def test_composites_with_a_normal_tensor_beside_an_inference_one_are_taken_apart():
    with torch.inference_mode():
        z = _normal()
    index, normal = torch.tensor([[0], [2]]), torch.ones(3)
    with Names() as mode:
        torch.take_along_dim(z, index, 1)
        torch.broadcast_tensors(z, normal)
    assert mode.seen[-1] == "expand" and "take_along_dim" not in mode.seen
    assert "broadcast_tensors" not in mode.seen


def test_unsafe_pieces_in_inference_mode_are_views_as_split_gives():
    x = _normal().requires_grad_()
    with torch.inference_mode():
        pieces = x.unsafe_chunk(2, 1) + torch.unsafe_split(x, 2, 1)
        z = _normal()
    for piece in pieces:
        assert piece._is_view() and piece._base is x and not piece.is_inference()
        assert piece.requires_grad and piece.grad_fn is None
    for piece in z.unsafe_split_with_sizes([1, 2], 1):
        assert piece.is_inference() and not piece._is_view() and _within(piece, z)
    outside = x.unsafe_split(2, 1)
    assert not outside[0]._is_view() and outside[0].grad_fn is not None

