"""What the switches leave behind: guards left out of order, refused arguments, other threads."""

import threading

import pytest
import torch

from conformance._support import raises

C = torch._C
BAD_GUARD = (
    "__init__(): incompatible constructor arguments. The following argument types are "
    "supported:\n    1. torch._C._InferenceMode(arg0: bool)\n\nInvoked with: "
)


def in_thread(body):
    """Run ``body`` in a fresh thread, whose switches die with it; return what it returned."""
    result = {}

    def run():
        try:
            result["value"] = body()
        except BaseException as error:  # re-raised in the caller's thread
            result["error"] = error

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if "error" in result:
        raise result["error"]
    return result["value"]


def records():
    """Whether an operation on a leaf that requires grad is recorded, with grad mode on."""
    with torch.enable_grad():
        y = torch.ones(2, requires_grad=True) * 2
    return y.requires_grad, y.is_inference()


def modes():
    return torch.is_grad_enabled(), torch.is_inference_mode_enabled()


def test_inference_guards_left_out_of_order():
    def body():
        outer, inner = torch.inference_mode(), torch.inference_mode(False)
        outer.__enter__()
        inner.__enter__()
        outer.__exit__(None, None, None)
        seen = [modes(), records()]
        inner.__exit__(None, None, None)  # restores what it found: inference mode on
        seen += [modes(), records()]
        return seen

    assert in_thread(body) == [(True, False), (True, False), (False, True), (False, True)]
    assert modes() == (True, False) and records() == (True, False)


def test_reentered_inference_mode_object_leaves_inference_on():
    def body():
        mode = torch.inference_mode()
        with mode:
            with mode:  # the second guard replaces the first, which restores as it goes
                pass
            inside = [modes(), records()]
        return inside + [modes(), records()]

    assert in_thread(body) == [(False, True), (False, True)] * 2
    assert modes() == (True, False) and records() == (True, False)


@pytest.mark.parametrize("mode, on", [(1, True), (0, False), (None, False), (0.5, True)])
def test_inference_guard_converts_what_has_a_truth_value(mode, on):
    def body():
        guard = C._InferenceMode(mode)
        inside = modes()
        guard.__exit__(None, None, None)
        return inside, modes()

    assert in_thread(body) == ((not on, on), (True, False))


def test_inference_guard_converts_a_one_element_tensor():
    guard = C._InferenceMode(torch.tensor(1.0))
    assert modes() == (False, True)
    guard.__exit__(None, None, None)
    assert modes() == (True, False)


@pytest.mark.parametrize("args, kwargs, shown", [
    (("x",), {}, "'x'"),
    (([],), {}, "[]"),
    ((), {}, ""),
    ((True, True), {}, "True, True"),
    ((), {"mode": True}, "kwargs: mode=True"),
])
def test_inference_guard_refuses_before_changing_anything(args, kwargs, shown):
    def body():
        with torch.no_grad():
            with raises(TypeError, BAD_GUARD + shown):
                C._InferenceMode(*args, **kwargs)
            return modes(), C._is_multithreading_enabled()

    assert in_thread(body) == ((False, False), True)
    assert modes() == (True, False)


class PassThrough(torch.utils._python_dispatch.TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def switches():
    return (torch.is_grad_enabled(), torch.is_inference_mode_enabled(),
            C._is_multithreading_enabled(), C._is_view_replay_enabled(),
            C._is_grad_layout_enforcement_enabled(),
            torch.utils._python_dispatch._get_current_dispatch_mode())


LEAKS = {
    "grad mode": lambda kept: C._set_grad_enabled(False),
    "inference mode": lambda kept: kept.append(C._InferenceMode(True)),
    "multithreading": lambda kept: C._set_multithreading_enabled(False),
    "view replay": lambda kept: C._set_view_replay_enabled(True),
    "layout policy": lambda kept: C._set_grad_layout_enforcement_enabled(False),
    "dispatch mode": lambda kept: kept.append(PassThrough().__enter__()),
}
DEFAULTS = (True, False, True, False, True, None)


@pytest.mark.parametrize("fails", [False, True], ids=["returns", "raises"])
@pytest.mark.parametrize("leak", list(LEAKS))
def test_backward_puts_back_what_a_hook_switched(leak, fails):
    def body():
        kept = []
        x = torch.ones(3, requires_grad=True)
        y = x * 2

        def hook(grad):
            LEAKS[leak](kept)
            if fails:
                raise ValueError("hook failed")

        y.register_hook(hook)
        try:
            (y * y).sum().backward()
        except ValueError:
            assert fails
        return switches(), records(), C._current_graph_task_id(), x.grad is None

    assert in_thread(body) == (DEFAULTS, (True, False), -1, fails)
    assert switches() == DEFAULTS


@pytest.mark.parametrize("fails", [False, True], ids=["returns", "raises"])
def test_backward_puts_back_saved_tensor_hooks_a_hook_pushed(fails):
    def body():
        packed = []
        x = torch.ones(3, requires_grad=True)
        y = x * 2

        def hook(grad):
            torch.autograd.graph.saved_tensors_hooks(packed.append, lambda t: t).__enter__()
            if fails:
                raise ValueError("hook failed")

        y.register_hook(hook)
        try:
            (y * y).sum().backward()
        except ValueError:
            pass
        z = x * x  # saves x: packed only by a hook left on the stack
        return len(packed), z.requires_grad

    assert in_thread(body) == (0, True)


def test_backward_puts_back_saved_tensor_hooks_a_hook_popped():
    def body():
        packed = []
        x = torch.ones(3, requires_grad=True)
        y = x * 2
        outer = torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t,
                                                         lambda t: t)
        y.register_hook(lambda grad: outer.__exit__(None, None, None))
        with outer:
            (y * y).sum().backward()  # the hook pops the outer hooks; backward puts them back
            x * x
        x * x
        return len(packed)

    # y * y saved y twice; x * x inside the block saved x twice; none after it
    assert in_thread(body) == 4
