"""torch._foreach_copy_ from a source that requires grad hangs its NotImplemented node on every
tensor of the list, integers and bools included: such a tensor then requires grad, and a
backward that reaches it stops in the engine's words. The same assertions run on torch."""

import pytest
import torch

from conformance._support import raises

INTEGER_GRADIENT = ('isDifferentiableType(grad.scalar_type()) INTERNAL ASSERT FAILED at '
                    '"/__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp":998, please report '
                    'a bug to PyTorch. ')


def _sources():
    return [torch.tensor([1.5, 2.5], requires_grad=True), torch.tensor([3.5], requires_grad=True)]


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.uint8, torch.bool])
def test_an_integer_tensor_gets_the_node(dtype):
    sources = _sources()
    written = [torch.zeros(2, dtype=dtype), torch.zeros(1)]
    torch._foreach_copy_(written, sources)
    d = written[0]
    assert d.dtype == dtype and d.requires_grad and not d.is_leaf and d._version == 1
    assert d.tolist() == torch.tensor([1.5, 2.5]).to(dtype).tolist()
    node = d.grad_fn
    assert node.name() == "torch::autograd::NotImplemented"
    assert node._sequence_nr() == 2**64 - 1
    assert [n for n, _ in node.next_functions][0] is None
    assert [n.variable for n, _ in node.next_functions[1:]] == sources
    assert repr(d).endswith("grad_fn=<NotImplemented>)")


def test_every_tensor_of_the_list_gets_one_when_any_source_requires_grad():
    written = [torch.zeros(2, dtype=torch.int64), torch.zeros(1)]
    torch._foreach_copy_(written, [torch.tensor([1, 2]), _sources()[1]])
    assert [w.grad_fn.name() for w in written] == ["torch::autograd::NotImplemented"] * 2


def test_nothing_is_recorded_without_grad():
    written = [torch.zeros(2, dtype=torch.int64)]
    torch._foreach_copy_(written, [torch.tensor([1, 2])])
    assert not written[0].requires_grad and written[0].grad_fn is None
    with torch.no_grad():
        torch._foreach_copy_(written, _sources()[:1])
    assert not written[0].requires_grad and written[0].grad_fn is None
    plain = torch.zeros(2, dtype=torch.int64)
    plain.copy_(_sources()[0])
    assert not plain.requires_grad


def test_a_float_tensor_floats_on_as_before():
    written = [torch.zeros(2)]
    torch._foreach_copy_(written, _sources()[:1])
    with raises(RuntimeError, "derivative for _foreach_copy_ is not implemented"):
        written[0].sum().backward()


@pytest.mark.parametrize("gradient", [torch.ones(2), torch.ones(2, dtype=torch.int64)])
def test_a_backward_from_it_stops_in_the_engine(gradient):
    written = [torch.zeros(2, dtype=torch.int64)]
    torch._foreach_copy_(written, _sources()[:1])
    seen = []
    written[0].register_hook(seen.append)
    with raises(RuntimeError, INTEGER_GRADIENT):
        written[0].backward(gradient)
    assert seen == []


def test_a_gradient_handed_on_to_it_stops_there_too():
    sources = _sources()
    written = [torch.zeros(2, dtype=torch.int64)]
    torch._foreach_copy_(written, sources[:1])
    as_float = written[0].float()
    assert as_float.grad_fn.name() == "ToCopyBackward0"
    with raises(RuntimeError, INTEGER_GRADIENT):
        torch.autograd.grad(as_float.sum(), sources[0])


def test_through_a_view_the_base_takes_the_history():
    base = torch.zeros(2, 2, dtype=torch.int64)
    view = base[0]
    torch._foreach_copy_([view], _sources()[:1])
    assert base.requires_grad and base.grad_fn.name() == "torch::autograd::CopySlices"
    assert view.grad_fn.name() == "AsStridedBackward0"
    assert base.tolist() == [[1, 2], [0, 0]]
    with raises(RuntimeError, INTEGER_GRADIENT):
        base.float().sum().backward()
    with raises(RuntimeError, INTEGER_GRADIENT):
        view.float().sum().backward()
