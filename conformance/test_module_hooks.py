"""nn.Module: registration, forward hooks and full backward hooks."""

import sys

import pytest
import torch

from conformance._support import raises


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 2)
        self.act = torch.nn.ReLU()

    def forward(self, x):
        return self.act(self.lin(x))


def test_registration_and_names():
    net = Net()
    assert [n for n, _ in net.named_parameters()] == ["lin.weight", "lin.bias"]
    assert [n for n, _ in net.named_modules()] == ["", "lin", "act"]
    assert [n for n, _ in net.named_children()] == ["lin", "act"]
    del net.act
    assert [n for n, _ in net.named_children()] == ["lin"]


def test_parameter_before_init():
    class Bad(torch.nn.Module):
        def __init__(self):
            self.w = torch.nn.Parameter(torch.zeros(2))

    with raises(AttributeError, "cannot assign parameters before Module.__init__() call"):
        Bad()


def test_missing_forward():
    with raises(NotImplementedError,
                'Module [Module] is missing the required "forward" function'):
        torch.nn.Module()(torch.zeros(1))


def test_repr():
    seq = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(),
                              torch.nn.Sequential(torch.nn.Linear(3, 4, bias=False)))
    assert repr(seq) == (
        "Sequential(\n  (0): Linear(in_features=3, out_features=4, bias=True)\n"
        "  (1): ReLU()\n  (2): Sequential(\n"
        "    (0): Linear(in_features=3, out_features=4, bias=False)\n  )\n)"
    )
    assert len(seq) == 3 and isinstance(seq[1], torch.nn.ReLU)


def test_linear_graph_and_init():
    lin = torch.nn.Linear(100, 50)
    y = lin(torch.randn(4, 100))
    assert type(y.grad_fn).__name__ == "AddmmBackward0"
    assert type(y.grad_fn.next_functions[2][0]).__name__ == "TBackward0"
    assert lin.weight.abs().max().item() <= 0.1
    assert lin.weight.abs().max().item() > 0.09


def test_forward_hooks_order_and_replacement():
    calls = []
    relu = torch.nn.ReLU()
    relu.register_forward_pre_hook(lambda m, a: calls.append("pre") or (a[0] * 2,))
    relu.register_forward_hook(lambda m, a, o: calls.append("post"))
    h = relu.register_forward_hook(lambda m, a, o: o + 1, prepend=True)
    out = relu(torch.tensor([1.0, -1.0]))
    assert out.tolist() == [3.0, 1.0] and calls == ["pre", "post"]
    h.remove()
    assert relu(torch.tensor([1.0])).tolist() == [2.0]


def test_forward_hooks_with_kwargs():
    seen = []
    relu = torch.nn.ReLU()
    relu.register_forward_pre_hook(lambda m, a, k: (a, k), with_kwargs=True)
    relu.register_forward_hook(lambda m, a, k, o: seen.append(k), with_kwargs=True)
    relu(torch.tensor([1.0]))
    assert seen == [{}]


def test_full_backward_hooks_order_and_grads():
    order = []
    relu = torch.nn.ReLU()
    relu.register_full_backward_pre_hook(lambda m, go: order.append(("pre", go[0].tolist())))
    relu.register_full_backward_hook(
        lambda m, gi, go: order.append(("hook", gi[0].tolist())) or (gi[0] * 10,)
    )
    x = torch.tensor([1.0, -1.0], requires_grad=True)
    x.register_hook(lambda g: order.append(("x", g.tolist())))
    y = relu(x)
    assert type(y.grad_fn).__name__ == "BackwardHookFunctionBackward"
    y.register_hook(lambda g: order.append(("y", g.tolist())))
    y.sum().backward()
    assert order == [("y", [1.0, 1.0]), ("pre", [1.0, 1.0]), ("hook", [1.0, 0.0]),
                     ("x", [10.0, 0.0])]
    assert x.grad.tolist() == [10.0, 0.0]


def test_backward_pre_hook_replaces_and_none_inputs():
    class Two(torch.nn.Module):
        def forward(self, a, b):
            return a * b

    seen = []
    m = Two()
    m.register_full_backward_pre_hook(lambda m, go: (go[0] * 3,))
    m.register_full_backward_hook(lambda m, gi, go: seen.append((gi[1], go[0].tolist())))
    a = torch.tensor([2.0], requires_grad=True)
    m(a, 5.0).sum().backward()
    assert seen == [(None, [3.0])] and a.grad.tolist() == [15.0]


def test_hook_returns_wrong_count():
    relu = torch.nn.ReLU()
    relu.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0]))
    x = torch.ones(2, requires_grad=True)
    with raises(RuntimeError,
                "Backward hook returned an invalid number of grad_input, got 2, but expected 1"):
        relu(x).sum().backward()


def test_zero_grad_and_modes():
    net = Net()
    net(torch.ones(1, 3)).sum().backward()
    assert net.lin.weight.grad is not None
    net.zero_grad()
    assert net.lin.weight.grad is None
    assert net.eval().lin.training is False and net.train().act.training is True
    net.requires_grad_(False)
    assert not any(p.requires_grad for p in net.parameters())


def test_backward_hooks_prepend_and_pre_hook_count():
    order = []
    relu = torch.nn.ReLU()
    relu.register_full_backward_hook(lambda m, gi, go: order.append("a"))
    relu.register_full_backward_hook(lambda m, gi, go: order.append("b"), prepend=True)
    relu(torch.ones(2, requires_grad=True)).sum().backward()
    assert order == ["b", "a"]
    relu.register_full_backward_pre_hook(lambda m, go: (go[0], go[0]))
    with raises(RuntimeError,
                "Backward pre hook returned an invalid number of grad_output, "
                "got 2, but expected 1"):
        relu(torch.ones(2, requires_grad=True)).sum().backward()


def test_always_call_hook_runs_when_forward_fails():
    class Fails(torch.nn.Module):
        def forward(self, x):
            raise ValueError("boom")

    seen = []
    m = Fails()
    m.register_forward_hook(lambda m, a, o: seen.append(o), always_call=True)
    with raises(ValueError, "boom"):
        m(torch.ones(1))
    assert seen == [None]


def test_assigning_wrong_type_to_parameter_name():
    lin = torch.nn.Linear(2, 2)
    with raises(TypeError,
                "cannot assign 'torch.FloatTensor' as parameter 'weight' "
                "(torch.nn.Parameter or None expected)"):
        lin.weight = torch.zeros(2, 2)


def test_identity_hands_its_input_back_whatever_it_was_given():
    m = torch.nn.Identity(3, x=1)
    x = torch.ones(2, requires_grad=True)
    assert m(x) is x and repr(m) == "Identity()"
    assert torch.nn.modules.linear.Identity is torch.nn.Identity


def test_a_hooked_modules_output_refuses_in_place_writes():
    m = torch.nn.Linear(3, 2)
    m.register_full_backward_hook(lambda mod, grad_input, grad_output: None)
    out = m(torch.ones(4, 3, requires_grad=True))
    with pytest.raises(RuntimeError, match="Output 0 of BackwardHookFunction is a view and is "
                                           "being modified inplace. This view was created "
                                           "inside a custom Function"):
        out.add_(1)
    out.clone().add_(1)  # a copy may be written


def _node_names(out) -> list:
    found, stack = [], [out.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or type(node).__name__ == "AccumulateGrad":
            continue
        found.append(node.name())
        stack.extend(child for child, _ in reversed(node.next_functions))
    return found


@pytest.mark.parametrize(("bias", "make", "names"), [
    (True, lambda: torch.ones(4, 3), ["AddmmBackward0", "TBackward0"]),
    (True, lambda: torch.ones(5, 4, 3), ["ViewBackward0", "AddmmBackward0", "ViewBackward0",
                                         "TBackward0"]),
    (True, lambda: torch.ones(3), ["ViewBackward0", "AddmmBackward0", "ViewBackward0",
                                   "TBackward0"]),
    (True, lambda: torch.ones(5, 3, 4).transpose(1, 2), [
        "AddBackward0", "UnsafeViewBackward0", "MmBackward0", "UnsafeViewBackward0",
        "CloneBackward0", "TBackward0"]),
    (False, lambda: torch.ones(5, 4, 3), ["UnsafeViewBackward0", "MmBackward0",
                                          "ViewBackward0", "TBackward0"]),
    (False, lambda: torch.ones(3), ["SqueezeBackward4", "MmBackward0", "UnsqueezeBackward0",
                                    "TBackward0"]),
])
def test_linear_records_the_graph_torchs_takes_for_each_input(bias, make, names):
    lin = torch.nn.Linear(3, 2, bias=bias)
    x = make().requires_grad_()
    out = lin(x)
    assert _node_names(out) == names
    out.sum().backward()
    assert x.grad.shape == x.shape and lin.weight.grad.shape == (2, 3)


def _described(grads):
    return [None if g is None else (g.dtype, g.tolist()) for g in grads]


class _Mixed(torch.nn.Module):
    def forward(self, a, b, k, c):
        return a * b * k + c, (a * 2).detach(), a + 1


def test_full_hooks_see_zeros_for_inputs_that_do_not_require_grad():
    seen = []
    module = _Mixed()
    module.register_full_backward_pre_hook(lambda m, go: seen.append(("pre", _described(go))))
    module.register_full_backward_hook(
        lambda m, gi, go: seen.append(("full", _described(gi), _described(go))))
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b, c = torch.tensor([3.0, 4.0]), torch.tensor([5.0, 6.0])
    y, plain, w = module(a, b, 3.0, c)
    assert not plain.requires_grad and plain.grad_fn is None and w.requires_grad
    y.sum().backward()
    ones, zeros = (torch.float32, [1.0, 1.0]), (torch.float32, [0.0, 0.0])
    assert seen == [("pre", [ones, None, None]),
                    ("full", [(torch.float32, [9.0, 12.0]), zeros, None, zeros],
                     [ones, None, None])]
    assert a.grad.tolist() == [9.0, 12.0]


def test_an_index_tensor_gets_integer_zeros_in_grad_input():
    seen = []

    class Pick(torch.nn.Module):
        def forward(self, a, idx):
            return a[idx]

    module = Pick()
    module.register_full_backward_hook(lambda m, gi, go: seen.append(_described(gi)))
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    module(a, torch.tensor([1, 1])).sum().backward()
    assert seen == [[(torch.float32, [0.0, 2.0]), (torch.int64, [0, 0])]]


def test_global_module_hooks_run_before_each_modules_own():
    from torch.nn.modules.module import (
        register_module_forward_hook,
        register_module_forward_pre_hook,
        register_module_full_backward_hook,
        register_module_full_backward_pre_hook,
    )

    log = []
    m = torch.nn.ReLU()
    m.register_forward_pre_hook(lambda mod, args: log.append("own pre"), prepend=True)
    m.register_forward_hook(lambda mod, args, out: log.append("own post"), prepend=True)
    m.register_full_backward_pre_hook(lambda mod, go: log.append("own backward pre"))
    m.register_full_backward_hook(lambda mod, gi, go: log.append("own backward"))
    handles = [
        register_module_forward_pre_hook(lambda mod, args: (log.append("pre"), args[0] * 2)[1]),
        register_module_forward_hook(
            lambda mod, args, kwargs, out: (log.append(kwargs), out + 1)[1], with_kwargs=True),
        register_module_full_backward_pre_hook(lambda mod, go: log.append("backward pre")),
        register_module_full_backward_hook(
            lambda mod, gi, go: log.append(("backward", gi[0].tolist()))),
    ]
    try:
        x = torch.ones(2, requires_grad=True)
        y = m(x)
        y.sum().backward()
    finally:
        for h in handles:
            h.remove()
    assert y.tolist() == [3.0, 3.0] and x.grad.tolist() == [2.0, 2.0]
    assert log == ["pre", "own pre", {}, "own post", "backward pre", "own backward pre",
                   ("backward", [1.0, 1.0]), "own backward"]
    log.clear()
    assert m(torch.ones(2)).tolist() == [1.0, 1.0] and log == ["own pre", "own post"]


def test_a_global_always_called_forward_hook_runs_when_forward_fails():
    from torch.nn.modules.module import register_module_forward_hook

    class Failing(torch.nn.Module):
        def forward(self, x):
            raise ValueError("forward")

    log = []
    handle = register_module_forward_hook(lambda mod, args, out: log.append(out),
                                          always_call=True)
    try:
        with pytest.raises(ValueError):
            Failing()(torch.ones(1))
    finally:
        handle.remove()
    assert log == [None]


def test_hooks_without_inputs_that_require_grad_warn_at_the_backward_call():
    lin = torch.nn.Linear(2, 2)
    seen = []
    lin.register_full_backward_hook(lambda m, gi, go: seen.append((gi, go[0].shape)))
    out = lin(torch.ones(1, 2)).sum()
    with pytest.warns(UserWarning) as caught:
        line = sys._getframe().f_lineno + 1
        out.backward()
    [w] = caught
    assert str(w.message) == (
        "Full backward hook is firing when gradients are computed with respect to module "
        "outputs since no inputs require gradients. See https://docs.pytorch.org/docs/main/"
        "generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for "
        "more details."
    )
    assert (w.filename, w.lineno) == (__file__, line)
    assert seen == [((None,), (1, 2))]
