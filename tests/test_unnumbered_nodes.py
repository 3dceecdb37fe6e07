"""White-box tests of the nodes made without a sequence number (NOTE [A refusing node is
unnumbered]): the number they take is given back without nesting the counter."""

import itertools

import refgrad as torch
from refgrad.autograd._state import state


def test_a_refusing_node_gives_its_number_back():
    a = torch.tensor([1.5, 2.5], requires_grad=True)
    first = (a * 2).grad_fn._sequence_nr()
    node = torch._sample_dirichlet(a.abs()).grad_fn
    assert node._sequence_nr() == 2**64 - 1
    assert (a * 3).grad_fn._sequence_nr() == first + 2  # the abs took first + 1


def test_many_refusing_nodes_leave_a_plain_counter():
    a = torch.tensor([1.5, 2.5], requires_grad=True)
    for _ in range(50):
        torch._sample_dirichlet(a.abs())
    assert type(state.sequence_numbers) is itertools.count


def test_a_number_set_aside_before_a_refusing_node_is_kept():
    # a counter holding one number set aside and a counter from a later one, as a view
    # regenerated between an op's number and its edges leaves it
    a = torch.tensor([1.5, 2.5], requires_grad=True)
    now = torch.autograd._get_sequence_nr()
    state.sequence_numbers = itertools.chain((now,), itertools.count(now + 5))
    node = torch._sample_dirichlet(a).grad_fn
    assert node._sequence_nr() == 2**64 - 1
    assert [torch.autograd._get_sequence_nr(), (a * 2).grad_fn._sequence_nr()] == [now, now]
    assert (a * 3).grad_fn._sequence_nr() == now + 5
