"""refgrad.autograd._saved: saved tensors and saved numbers."""

import pytest

import refgrad
from refgrad.autograd._saved import FREED, SavedTensor, saved_number, unpack


def test_a_saved_number_is_freed_like_a_tensor():
    saved = saved_number(2)
    assert type(saved) is SavedTensor and unpack(saved, None) == 2
    assert type(unpack(saved, None)) is int and saved.unpack().tolist() == 2
    saved.release()
    for read in (lambda: unpack(saved, None), saved.unpack):
        with pytest.raises(RuntimeError) as info:
            read()
        assert str(info.value) == FREED


def test_a_saved_tensor_is_freed():
    t = refgrad.tensor([1.0])
    saved = SavedTensor(t, False)
    assert unpack(saved, None) is t
    saved.release()
    assert saved._original is None
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        unpack(saved, None)


def test_a_saved_output_keeps_only_its_data():
    a = refgrad.tensor([1.0], requires_grad=True)
    e = a.exp()
    saved = e.grad_fn._saved[0]
    assert saved._original is None and saved._data is e._data
    assert unpack(saved, e.grad_fn).grad_fn is e.grad_fn


def test_a_number_scalar_graph_cannot_run_twice():
    a = refgrad.tensor([1.0], requires_grad=True)
    y = (a * 2).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()


@pytest.mark.parametrize("number", [2.5, 3, True])
def test_a_plain_number_is_kept_as_itself_until_released(number):
    import gc

    a = refgrad.tensor([1.0], requires_grad=True)
    node = (y := a * number).grad_fn
    assert node._saved == (number, None)  # other, kept as itself; self, not needed
    assert type(node._saved[0]) is type(number)
    gc.collect()
    assert not gc.is_tracked(node._saved)  # numbers and None: nothing to watch
    y.sum().backward(retain_graph=True)
    assert node._saved == (number, None) and a.grad.tolist() == [float(number)]
    raw = node._raw_saved_other  # read raw, the number is kept wrapped, for its hooks
    assert type(raw) is SavedTensor and unpack(raw, node) == number
    assert node._saved == (raw, None) and node._raw_saved_other is raw
    y.sum().backward()  # released: the number goes with the rest
    for read in (lambda: node._saved_other, lambda: unpack(node._raw_saved_other, node),
                 lambda: y.sum().backward()):
        with pytest.raises(RuntimeError) as info:
            read()
        assert str(info.value) == FREED


def test_the_modified_message_numbers_a_saved_input_0_and_an_output_by_its_own():
    from refgrad.autograd._modified_message import _modified_message

    a = refgrad.tensor([1.0, 2.0], requires_grad=True)
    low, high = refgrad.aminmax(a)
    as_input, as_output = SavedTensor(high, False), SavedTensor(high, True)
    assert high.output_nr == as_input._output_nr == 1
    high.mul_(2)
    assert "which is output 0 of Mul," in _modified_message(as_input, None)
    assert "which is output 1 of Aminmax," in _modified_message(as_output, low.grad_fn)
