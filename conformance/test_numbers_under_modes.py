"""Black-box tests: a tensor's number read under a dispatch mode. Where autograd is on the
mode sees aten._local_scalar_dense; inside inference_mode, or for an inference tensor, it
sees aten.item whole, and a mode below it nothing more. resolve_conj and resolve_neg of a
real tensor are seen whole there too, and hand the tensor back. The same assertions run on
torch."""

import operator

import pytest
import torch

from conformance._support import recording_mode

Seen = recording_mode()
DENSE, ITEM = "aten._local_scalar_dense.default", "aten.item.default"

READS = {  # (id, read): each read of a 0-d float tensor s, or an int one n
    "item": lambda s, n: s.item(),
    "float": lambda s, n: float(s),
    "int": lambda s, n: int(s),
    "complex": lambda s, n: complex(s),
    "index": lambda s, n: operator.index(n),
}


def _numbers():
    return torch.tensor(3.0), torch.tensor(3)


@pytest.mark.parametrize("read", READS.values(), ids=READS.keys())
def test_a_read_with_autograd_on_is_local_scalar_dense(read):
    s, n = _numbers()
    with Seen() as mode:
        value = read(s, n)
    assert mode.seen == [DENSE] and value == 3


@pytest.mark.parametrize("read", READS.values(), ids=READS.keys())
def test_a_read_inside_inference_mode_is_item_whole(read):
    s, n = _numbers()
    with torch.inference_mode(), Seen() as mode:
        value = read(s, n)
    assert mode.seen == [ITEM] and value == 3


def test_an_inference_tensor_is_read_whole_outside_inference_mode():
    with torch.inference_mode():
        s = torch.tensor(2.0)
    with Seen() as mode:
        assert s.item() == 2.0 and float(s) == 2.0
    assert mode.seen == [ITEM, ITEM]


def test_item_whole_goes_to_each_mode_and_its_func_reads_the_number():
    def tagged(tag):
        return recording_mode(lambda func: (tag, str(func)))

    outer, inner, s = tagged("outer")(), tagged("inner")(), torch.tensor(4.0)
    with torch.inference_mode(), outer, inner:
        value = s.item()
    assert value == 4.0 and inner.seen == [("inner", ITEM)] and outer.seen == [("outer", ITEM)]


def test_a_format_reads_a_detached_tensor():
    half = torch.tensor(0.5)
    with torch.inference_mode(), Seen() as mode:
        text = f"{half:.2f}"
    assert text == "0.50" and mode.seen == ["aten.detach.default", ITEM]


def test_no_grad_reads_in_steps():
    s, _ = _numbers()
    with torch.no_grad(), Seen() as mode:
        s.item()
    assert mode.seen == [DENSE]


RESOLVES = {
    "method_conj": (lambda x: x.resolve_conj(), "aten.resolve_conj.default"),
    "method_neg": (lambda x: x.resolve_neg(), "aten.resolve_neg.default"),
    "function_conj": (lambda x: torch.resolve_conj(x), "aten.resolve_conj.default"),
    "function_neg": (lambda x: torch.resolve_neg(x), "aten.resolve_neg.default"),
}


@pytest.mark.parametrize(("call", "name"), RESOLVES.values(), ids=RESOLVES.keys())
def test_resolving_a_real_tensor_is_seen_whole_inside_inference_mode(call, name):
    x = torch.tensor([1.5, 2.0])
    with Seen() as mode:
        assert call(x) is x
    assert mode.seen == []
    with torch.inference_mode(), Seen() as mode:
        assert call(x) is x
    assert mode.seen == [name]


def test_conj_of_a_real_tensor_is_no_op_even_inside_inference_mode():
    x = torch.tensor([1.5, 2.0])
    with torch.inference_mode(), Seen() as mode:
        assert x.conj() is x and torch.conj(x) is x
    assert mode.seen == []


NONZERO = "aten.is_nonzero.default"


@pytest.mark.parametrize("value, truth", [(2.5, True), (0.0, False)])
def test_bool_is_is_nonzero_whole_inside_inference_mode(value, truth):
    t = torch.tensor([value])
    with Seen() as mode:
        assert bool(t) is truth
    assert mode.seen == [DENSE]
    with torch.inference_mode(), Seen() as mode:
        assert (1 if t else 0) == int(truth)
    assert mode.seen == [NONZERO]


@pytest.mark.parametrize("read, seen, message", [
    (lambda t: bool(t), NONZERO, "Boolean value of Tensor with more than one value is ambiguous"),
    (lambda t: t.item(), ITEM, "a Tensor with 2 elements cannot be converted to Scalar"),
])
def test_a_size_is_refused_after_the_mode_saw_the_composite_whole(read, seen, message):
    t = torch.tensor([1.0, 2.0])
    with Seen() as mode, pytest.raises(RuntimeError, match=message):
        read(t)
    assert mode.seen == []  # autograd on: checked before anything is read
    with torch.inference_mode(), Seen() as mode, pytest.raises(RuntimeError, match=message):
        read(t)
    assert mode.seen == [seen]


def test_tolist_resolves_both_bits_where_composites_go_whole():
    t = torch.tensor([[1.0, 2.0]])
    with Seen() as mode:
        assert t.tolist() == [[1.0, 2.0]]
    assert mode.seen == []
    with torch.inference_mode(), Seen() as mode:
        assert t.tolist() == [[1.0, 2.0]]
    assert mode.seen == ["aten.resolve_conj.default", "aten.resolve_neg.default"]


def test_a_mode_that_answers_is_nonzero_or_item_decides_the_value():
    class Answering(Seen):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if str(func) in (NONZERO, ITEM):
                return 7
            return func(*args, **(kwargs or {}))

    two = torch.tensor([1.0, 2.0])
    with torch.inference_mode(), Answering():
        assert bool(two) is True and two.item() == 7 and float(torch.tensor(0.5)) == 7.0


DETACH = "aten.detach.default"


@pytest.mark.parametrize("read, seen", [
    (lambda x, w: x.numpy(), [DETACH]),
    (lambda x, w: w.numpy(force=True), [DETACH]),
    (lambda x, w: __import__("numpy").asarray(x), [DETACH]),
    (lambda x, w: __import__("numpy").stack([x, x]), [DETACH, DETACH]),
    (lambda x, w: x.tolist(), []),
])
def test_an_array_is_read_through_a_detach_the_mode_sees(read, seen):
    x, w = torch.ones(3), torch.ones(3, requires_grad=True)
    with Seen() as mode:
        array = read(x, w)
    assert mode.seen == seen
    assert [float(v) for v in (array[-1] if len(seen) > 1 else array)] == [1.0] * 3


def test_an_array_refused_is_refused_before_any_detach():
    w = torch.ones(3, requires_grad=True)
    with Seen() as mode, pytest.raises(RuntimeError, match="Can't call numpy"):
        w.numpy()
    assert mode.seen == []


def test_a_generator_state_put_back_shows_a_mode_nothing():
    state = torch.get_rng_state()
    with Seen() as mode:
        torch.set_rng_state(state)
    assert mode.seen == []
