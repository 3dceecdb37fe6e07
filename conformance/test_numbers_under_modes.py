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
