"""Journeys through recurrent models and their packed sequences: lengths that run past the
padded input, and the graph torch records when it pads a packed sequence back."""

import copy
import pickle

import pytest
import torch
from torch.func import functional_call
from torch.nn.utils import rnn


def padded(batch=3, steps=5, requires_grad=False):
    return torch.arange(batch * steps * 2.0).reshape(batch, steps, 2).requires_grad_(requires_grad)


def test_lengths_past_the_end_pack_the_rows_there_are():
    pk = rnn.pack_padded_sequence(padded(), [2, 6, 3], batch_first=True, enforce_sorted=False)
    assert pk.batch_sizes.tolist() == [3, 3, 2, 1, 1, 1]
    assert pk.data.shape == (10, 2)
    assert pk.data[-3:].tolist() == [[24.0, 25.0], [16.0, 17.0], [18.0, 19.0]]
    assert pk.sorted_indices.tolist() == [1, 2, 0]


def test_lengths_past_the_end_time_major():
    x = padded(2).transpose(0, 1)
    pk = rnn.pack_padded_sequence(x, torch.tensor([9, 5]))
    assert pk.batch_sizes.tolist() == [2, 2, 2, 2, 2, 1, 1, 1, 1]
    assert pk.data[:2].tolist() == [[0.0, 1.0], [10.0, 11.0]]
    assert pk.data.shape == (10, 2)


def test_the_private_kernel_with_a_single_step():
    data, sizes = torch._pack_padded_sequence(torch.arange(4.0).reshape(1, 4),
                                              torch.tensor([3, 1, 1, 1]), False)
    assert data.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert sizes.tolist() == [4, 1, 1]


@pytest.mark.parametrize(("lengths", "message"), [
    ([6, 3, 2], "shape '[3, 1, 2]' is invalid for input of size 4"),
    ([7, 3, 2], "shape '[4, 1, 2]' is invalid for input of size 4"),
])
def test_padding_such_a_sequence_back_fails_in_the_view(lengths, message):
    pk = rnn.pack_padded_sequence(padded(), lengths, batch_first=True)
    with pytest.raises(RuntimeError) as info:
        rnn.pad_packed_sequence(pk, batch_first=True)
    assert str(info.value) == message


def test_backward_through_such_a_packing_fails_in_select():
    p = padded(requires_grad=True)
    pk = rnn.pack_padded_sequence(p, [6, 3, 2], batch_first=True)
    assert pk.data.grad_fn.name() == "PackPaddedSequenceBackward0"
    with pytest.raises(IndexError) as info:
        pk.data.sum().backward()
    assert str(info.value) == (
        "select(): index 5 out of range for tensor of size [5, 3, 2] at dimension 0")


@pytest.mark.parametrize("make", [lambda: torch.nn.LSTM(2, 3), lambda: torch.nn.GRU(2, 3),
                                  lambda: torch.nn.RNN(2, 3, bidirectional=True)])
def test_recurrent_layers_refuse_such_a_sequence(make):
    pk = rnn.pack_padded_sequence(padded(), [6, 3, 2], batch_first=True)
    with pytest.raises(RuntimeError) as info:
        make()(pk)
    assert str(info.value) == "start (10) + length (1) exceeds dimension size (10)."


def walk(fn, depth=0, out=None):
    out = [] if out is None else out
    if fn is not None:
        out.append((depth, fn.name()))
        for f, _ in fn.next_functions:
            walk(f, depth + 1, out)
    return out


def test_padding_back_copies_each_run_of_equal_batch_sizes():
    d = torch.arange(12.0).reshape(6, 2).requires_grad_()
    out, lengths = torch._pad_packed_sequence(d, torch.tensor([3, 2, 1]), False, 0.0, 3)
    assert lengths.tolist() == [3, 2, 1]
    nodes = [(depth, name.split("::")[-1]) for depth, name in walk(out.grad_fn)]
    assert nodes == [(0, "CopySlices"), (1, "CopySlices"), (2, "CopySlices"),
                     (3, "ViewBackward0"), (4, "SliceBackward0"), (5, "AccumulateGrad"),
                     (2, "ViewBackward0"), (3, "SliceBackward0"), (4, "AccumulateGrad"),
                     (1, "ViewBackward0"), (2, "SliceBackward0"), (3, "AccumulateGrad")]


def test_a_run_of_steps_is_one_copy():
    d = torch.arange(10.0).reshape(5, 2).requires_grad_()
    out, lengths = torch._pad_packed_sequence(d, torch.tensor([2, 2, 1]), True, -1.0, 4)
    assert lengths.tolist() == [3, 2]
    assert out.shape == (2, 4, 2)
    assert out[1].tolist() == [[2.0, 3.0], [6.0, 7.0], [-1.0, -1.0], [-1.0, -1.0]]
    assert [name.split("::")[-1] for _, name in walk(out.grad_fn)][:4] == [
        "TransposeBackward0", "CopySlices", "CopySlices", "ViewBackward0"]
    out.sum().backward()
    assert d.grad.tolist() == [[1.0, 1.0]] * 5


class Logged(torch.Tensor):
    log = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.log.append(getattr(func, "__name__", str(func)))
        return super().__torch_function__(func, types, args, kwargs)


def logged(*shape):
    Logged.log.clear()
    return torch.zeros(shape).as_subclass(Logged)


@pytest.mark.parametrize("shape", [(4, 3), (2, 4, 3), (3,)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_asks_a_subclass_about_linear_alone(shape, bias):
    lin = torch.nn.Linear(3, 2, bias=bias)
    x = logged(*shape)
    y = lin(x)
    assert Logged.log == ["linear"]
    assert type(y) is Logged
    assert y.shape == (*shape[:-1], 2)


def test_a_sequential_of_linears_asks_linear_each_time():
    model = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))
    model(logged(2, 3))
    assert Logged.log == ["linear", "tanh", "linear"]


class TensorLike:
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return (func.__name__, [type(a).__name__ for a in args], types)


def test_linear_hands_a_tensor_like_to_its_torch_function():
    logged(1)  # a subclass in use, so that refgrad honours tensor-likes too
    name, kinds, types = torch.nn.Linear(3, 2)(TensorLike())
    assert (name, types) == ("linear", (TensorLike,))
    assert kinds == ["TensorLike", "Parameter", "Parameter"]
    name, kinds, _ = torch.nn.Linear(3, 2, bias=False)(TensorLike())
    assert kinds == ["TensorLike", "Parameter", "NoneType"]


def test_linear_without_its_weight_is_refused_by_linear():
    lin = torch.nn.Linear(3, 2)
    lin.weight = None
    with pytest.raises(TypeError) as info:
        lin(torch.zeros(3))
    assert str(info.value) == (
        "linear(): argument 'weight' (position 2) must be Tensor, not NoneType")
    with pytest.raises(TypeError) as info:
        torch.nn.Linear(3, 2)(None)
    assert str(info.value) == "linear(): argument 'input' (position 1) must be Tensor, not NoneType"


def test_a_parameter_of_a_subclass_keeps_the_subclass():
    data = torch.ones(2, 3).as_subclass(Logged)
    p = torch.nn.Parameter(data)
    assert type(p) is Logged and p is not data
    assert isinstance(p, torch.nn.Parameter) and p._is_param is True
    assert p.requires_grad and p.is_leaf and p.grad_fn is None
    assert repr(p) == "Parameter(Logged([[1., 1., 1.],\n        [1., 1., 1.]], requires_grad=True))"
    q = torch.nn.Parameter(torch.zeros(2).as_subclass(Logged), requires_grad=False)
    assert not q.requires_grad and repr(q) == "Parameter(Logged([0., 0.]))"
    assert not isinstance(torch.zeros(1).as_subclass(Logged), torch.nn.Parameter)
    assert not isinstance(torch.zeros(1), torch.nn.Parameter)


def test_a_subclass_weight_sees_the_forward_and_the_step():
    lin = torch.nn.Linear(3, 2)
    lin.weight = torch.nn.Parameter(torch.ones(2, 3).as_subclass(Logged))
    assert [n for n, _ in lin.named_parameters()] == ["weight", "bias"]
    Logged.log.clear()
    y = lin(torch.ones(1, 3))
    assert type(y) is Logged and Logged.log == ["linear"]
    y.sum().backward()
    Logged.log.clear()
    torch.optim.SGD(lin.parameters(), lr=0.5).step()
    assert "add_" in Logged.log
    assert lin.weight.sum().item() == 3.0
    state = lin.state_dict()
    assert type(state["weight"]) is Logged and not isinstance(state["weight"], torch.nn.Parameter)


class DetachesToPlain(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        result = super().__torch_function__(func, types, args, kwargs)
        return result.as_subclass(torch.Tensor) if func.__name__ == "detach" else result


def test_a_subclass_whose_detach_changes_type_is_refused():
    with pytest.raises(RuntimeError) as info:
        torch.nn.Parameter(torch.zeros(1).as_subclass(DetachesToPlain))
    assert str(info.value) == (
        "Creating a Parameter from an instance of type DetachesToPlain requires that detach() "
        "returns an instance of the same type, but return type Tensor was found instead. To use "
        "the type as a Parameter, please correct the detach() semantics defined by its "
        "__torch_dispatch__() implementation.")


def property_name(func):
    owner = func.__self__  # a property's or a descriptor's getter
    name = getattr(owner, "__name__", None)
    return name or next(k for c in torch.Tensor.__mro__ for k, v in vars(c).items() if v is owner)


class Asked(torch.Tensor):
    log = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        name = func.__name__
        cls.log.append("." + property_name(func) if name == "__get__" else name)
        return super().__torch_function__(func, types, args, kwargs)


def asked(*shape):
    steps = int(torch.tensor(shape).prod())
    return torch.linspace(-1.0, 1.0, steps=steps).reshape(shape).as_subclass(Asked)


@pytest.mark.parametrize("train", [True, False])
def test_self_attention_asks_a_subclass_what_torch_asks(train):
    mha = torch.nn.MultiheadAttention(4, 2, batch_first=True).train(train)
    x = asked(2, 3, 4)
    with torch.no_grad():
        Asked.log.clear()
        out, weights = mha(x, x, x, key_padding_mask=torch.zeros(2, 3, dtype=torch.bool))
    nested = [".is_nested"] * (3 if train else 4)
    assert Asked.log == ["dim", ".dtype", ".dtype", ".dtype", ".dtype", *nested, "transpose",
                         "multi_head_attention_forward", "transpose"]
    assert type(out) is Asked and weights is not None


def test_attention_asks_about_a_subclass_mask_first():
    mha = torch.nn.MultiheadAttention(4, 2, batch_first=True, bias=False)
    x = asked(2, 3, 4)
    Asked.log.clear()
    mha(x, x, x, attn_mask=torch.zeros(3, 3).as_subclass(Asked))
    assert Asked.log == ["is_floating_point", "dim", ".dtype", ".dtype", ".dtype", ".dtype",
                         "is_floating_point", ".dtype", ".is_nested", ".is_nested", ".is_nested",
                         "transpose", "multi_head_attention_forward", "transpose"]


def test_cross_attention_asks_fewer_questions():
    mha = torch.nn.MultiheadAttention(4, 2)
    x, k, v = asked(2, 1, 4), asked(2, 1, 4), asked(2, 1, 4)
    Asked.log.clear()
    mha(x, k, v)
    assert Asked.log == ["dim", ".dtype", ".dtype", ".is_nested", ".is_nested", ".is_nested",
                         "multi_head_attention_forward"]


def test_a_refused_then_deleted_weight_leaves_the_refused_one_in_the_list():
    lstm = torch.nn.LSTM(3, 4).double()
    with pytest.raises(TypeError):
        lstm.weight_ih_l0 = torch.zeros(16, 3)
    del lstm.weight_ih_l0
    with pytest.raises(ValueError) as info:
        lstm(torch.zeros(5, 2, 3, dtype=torch.float64))
    assert str(info.value) == (
        "RNN input dtype (torch.float64) does not match weight dtype (torch.float32). Convert "
        "input: input.to(torch.float32), or convert model: model.to(torch.float64)")


def test_the_weights_last_read_are_kept_weakly_and_not_pickled():
    lstm = torch.nn.LSTM(2, 3, num_layers=2)
    assert lstm._flat_weight_refs[1]() is lstm.weight_hh_l0
    assert "_flat_weight_refs" not in lstm.__getstate__()
    for twin in (copy.deepcopy(lstm), pickle.loads(pickle.dumps(lstm))):
        assert twin._flat_weight_refs[0]() is twin.weight_ih_l0
        assert twin._flat_weights[0] is twin.weight_ih_l0


def test_a_functional_call_then_a_plain_call_reads_the_weights_again():
    lstm = torch.nn.LSTM(2, 3)
    given = {k: torch.ones_like(v, requires_grad=True) for k, v in lstm.named_parameters()}
    functional_call(lstm, given, (torch.zeros(4, 1, 2),))[0].sum().backward()
    assert given["weight_hh_l0"].grad.shape == (12, 3)
    assert lstm.weight_hh_l0.grad is None
    lstm(torch.zeros(4, 1, 2))
    assert lstm._flat_weights[1] is lstm.weight_hh_l0


@pytest.mark.parametrize(("hx", "error", "message"), [
    (torch.zeros(1, 1, 4), IndexError, "index 1 is out of bounds for dimension 0 with size 1"),
    (torch.zeros(2, 1, 4), RuntimeError,
     "For batched 3-D input, hx and cx should also be 3-D but got (2-D, 2-D) tensors"),
    ((torch.zeros(1, 1, 4),), IndexError, "tuple index out of range"),
])
def test_an_lstm_state_that_is_not_a_pair_fails_where_torch_indexes_it(hx, error, message):
    with pytest.raises(error) as info:
        torch.nn.LSTM(3, 4)(torch.zeros(5, 1, 3), hx)
    assert str(info.value) == message
