"""unbind's pieces, and so a tensor's rows when iterated or unpacked, are views: writes reach
both ways, even for a 1-D tensor, whose pieces are 0-d. The same assertions run on torch."""

import torch


def test_the_pieces_of_a_1d_tensor_share_its_memory():
    b = torch.zeros(3)
    pieces = b.unbind()
    assert [p.storage_offset() for p in pieces] == [0, 1, 2]
    assert all(p._base is b and p.shape == () for p in pieces)
    assert pieces[1].data_ptr() == b.data_ptr() + 4
    b.add_(5)
    assert [p.item() for p in pieces] == [5.0, 5.0, 5.0]
    assert pieces[1]._version == 1
    pieces[1].add_(1)
    torch.unbind(b)[2].fill_(9)
    assert b.tolist() == [5.0, 6.0, 9.0]


def test_iterating_or_unpacking_a_1d_tensor_gives_views():
    b = torch.zeros(3)
    for t in b:
        t.add_(1)
    x, y, z = b
    y.fill_(4)
    first = list(b)[0]
    assert b.tolist() == [1.0, 4.0, 1.0] and y._base is b
    b.fill_(2)
    assert first.item() == 2.0


def test_the_pieces_along_a_later_dimension_are_views_too():
    b = torch.zeros(2, 3)
    b.unbind(1)[0].fill_(9)
    b.unbind(-1)[2][1] = 7
    assert b.tolist() == [[9.0, 0.0, 0.0], [9.0, 0.0, 7.0]]


def test_a_write_under_no_grad_reaches_the_base_of_a_recorded_piece():
    a = torch.ones(3, requires_grad=True)
    b = a * 1
    x, y, z = b.unbind()
    with torch.no_grad():
        y.mul_(10)
        b[2] = 3
    assert b.tolist() == [1.0, 10.0, 3.0]
    assert z.detach().item() == 3.0


def test_the_pieces_of_a_split_1d_tensor_are_views():
    b = torch.zeros(4)
    b.split(1)[1].fill_(1)
    b.chunk(2)[1][1] = 2
    b.tensor_split(4)[0].fill_(3)
    torch.hsplit(b, 2)[0][1] = 5
    assert b.tolist() == [3.0, 5.0, 0.0, 2.0]
