"""Black-box tests: a dispatch mode that answers for an op, without calling func or by
calling it on other tensors. The op's node is made all the same, on the tensors the op was
called with: grad_fn is the op's, its saved operands are the originals, a saved output is
the mode's answer, and backward runs the op's formula into the originals. Without grad
mode there is no node. The same assertions run on torch."""

import pytest
import torch

from conformance._support import recording_mode

ANSWERS = {  # how the mode answers, given the op's tensors
    "own": lambda func, args: args[0] * 2,
    "fresh": lambda func, args: torch.full_like(args[0], 5.0),
    "other": lambda func, args: func(*[torch.ones_like(a) if isinstance(a, torch.Tensor) else a
                                       for a in args]),
}


def _answering(how):
    from torch.utils._python_dispatch import TorchDispatchMode

    class Answering(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if func == torch.ops.aten.detach.default:  # autograd's own, for a saved output
                return func(*args)
            with torch.no_grad():
                return ANSWERS[how](func, args)

    return Answering()


def _leaves():
    return (torch.tensor([1.5, 2.0], requires_grad=True),
            torch.tensor([3.0, 4.0], requires_grad=True))


@pytest.mark.parametrize("how", ANSWERS)
def test_a_product_keeps_its_operands_and_differentiates_into_them(how):
    x, y = _leaves()
    with _answering(how):
        z = x * y
    assert z.grad_fn.name() == "MulBackward0" and z.requires_grad
    assert z.grad_fn._saved_self is x and z.grad_fn._saved_other is y
    z.sum().backward()
    assert x.grad.tolist() == [3.0, 4.0] and y.grad.tolist() == [1.5, 2.0]


@pytest.mark.parametrize("how", ANSWERS)
def test_a_saved_output_is_the_modes_answer(how):
    x, _ = _leaves()
    with _answering(how):
        e = x.exp()
    assert e.grad_fn.name() == "ExpBackward0"
    assert e.grad_fn._saved_result.tolist() == e.tolist()
    e.sum().backward()
    assert x.grad.tolist() == e.tolist()  # exp's formula: the gradient times the result


@pytest.mark.parametrize("how", ANSWERS)
def test_a_saved_input_is_the_original(how):
    x, _ = _leaves()
    with _answering(how):
        s = x.sin()
    assert s.grad_fn.name() == "SinBackward0" and s.grad_fn._saved_self is x
    s.sum().backward()
    assert x.grad.tolist() == x.detach().cos().tolist()


@pytest.mark.parametrize("how", ANSWERS)
def test_a_sum_and_a_sum_of_two(how):
    x, y = _leaves()
    with _answering(how):
        total, both = x.sum(), x + y
    assert total.grad_fn.name() == "SumBackward0" and both.grad_fn.name() == "AddBackward0"
    (total.sum() + both.sum()).backward()
    assert x.grad.tolist() == [2.0, 2.0] and y.grad.tolist() == [1.0, 1.0]


def test_func_on_other_tensors_that_require_grad_leaves_them_out():
    x, _ = _leaves()
    other = torch.tensor([0.5, 0.25], requires_grad=True)

    from torch.utils._python_dispatch import TorchDispatchMode

    class Swapping(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(other, *args[1:], **(kwargs or {}))

    with Swapping():
        s = x.sin()
    assert s.grad_fn._saved_self is x and s.tolist() == other.detach().sin().tolist()
    s.sum().backward()
    assert x.grad.tolist() == x.detach().cos().tolist() and other.grad is None


def test_the_mode_sees_the_detach_of_its_saved_answer():
    x, _ = _leaves()
    Seen = recording_mode()

    class Both(Seen):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            self.seen.append(str(func))
            with torch.no_grad():
                return args[0] * 2 if "exp" in str(func) else func(*args, **(kwargs or {}))

    with Both() as mode:
        x.exp()
    assert mode.seen == ["aten.exp.default", "aten.detach.default"]


@pytest.mark.parametrize("how", ANSWERS)
def test_without_grad_mode_no_node_is_made(how):
    x, y = _leaves()
    with torch.no_grad(), _answering(how):
        z = x * y
    assert z.grad_fn is None and not z.requires_grad


VIEWS = {
    "view": (lambda m: m.view(4), "ViewBackward0"),
    "select": (lambda m: m[0], "SelectBackward0"),
    "transpose": (lambda m: m.t(), "TBackward0"),
}


@pytest.mark.parametrize(("call", "name"), VIEWS.values(), ids=VIEWS.keys())
def test_a_view_answered_with_a_copy_is_a_view_for_autograd(call, name):
    from torch.utils._python_dispatch import TorchDispatchMode

    class Cloning(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            with torch.no_grad():
                return func(*args, **(kwargs or {})).clone()

    m = torch.tensor([[1.5, 2.0], [3.0, 4.0]], requires_grad=True)
    with Cloning():
        view = call(m)
    assert view.grad_fn.name() == name and view._base is m and view._version == 0
    (view * torch.arange(1.0, view.numel() + 1).view(view.shape)).sum().backward()
    assert m.grad.count_nonzero().item() == view.numel()


class _AnsweringWrites(torch.utils._python_dispatch.TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if func.overloadpacket.__name__.endswith("_"):
            return args[0]  # the write is never made
        return func(*args, **(kwargs or {}))


@pytest.mark.parametrize("write, name, grad", [
    (lambda h, y: h.mul_(y), "MulBackward0", [2.0, 2.0, 2.0]),
    (lambda h, y: h.sin_(), "SinBackward0", [0.5403023058681398] * 3),
    (lambda h, y: h.add_(y), "AddBackward0", [1.0, 1.0, 1.0]),
    (lambda h, y: h.pow_(y), "PowBackward1", [2.0, 2.0, 2.0]),
    (lambda h, y: h.zero_(), "ZeroBackward0", [0.0, 0.0, 0.0]),
    (lambda h, y: h[:2].mul_(y[:2]), "CopySlices", [2.0, 2.0, 1.0]),
    (lambda h, y: h.__setitem__(torch.tensor([True, False, True]), y[0]), "IndexPutBackward0",
     [0.0, 1.0, 0.0]),
    (lambda h, y: h.index_put_((torch.tensor([0]),), y[0], accumulate=True),
     "IndexPutBackward0", [1.0, 1.0, 1.0]),
    (lambda h, y: h.fill_(y[0]), "FillBackward3", [0.0, 0.0, 0.0]),
    (lambda h, y: h.clamp_(0.5, 2.0), "ClampBackward1", [1.0, 1.0, 1.0]),
    (lambda h, y: h.__setitem__(slice(0, 2), y[0]), "CopySlices", [0.0, 0.0, 1.0]),
])
def test_a_write_the_mode_answers_for_is_counted_and_recorded(write, name, grad):
    x = torch.ones(3, dtype=torch.float64, requires_grad=True)
    y = torch.full((3,), 2.0, dtype=torch.float64, requires_grad=True)
    h = x * 1
    before = h.grad_fn
    with _AnsweringWrites():
        write(h, y)
    assert h.tolist() == [1.0, 1.0, 1.0] and h._version == 1
    assert h.grad_fn is not before and h.grad_fn.name().endswith(name)
    (g,) = torch.autograd.grad(h.sum(), x)
    assert g.tolist() == pytest.approx(grad)


def test_a_write_the_mode_answers_for_counts_on_a_tensor_without_grad():
    h = torch.ones(3)
    with _AnsweringWrites():
        h.mul_(2)
    assert h._version == 1 and h.tolist() == [1.0, 1.0, 1.0]
