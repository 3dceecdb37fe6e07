"""Variable._execution_engine: queue_callback, run_backward and is_checkpoint_valid."""

import threading
import warnings

import pytest
import torch
from torch.autograd import Variable

from conformance._support import raises

ENGINE = Variable._execution_engine
OUTSIDE = "Final callbacks can only be installed during backward pass."


def test_callbacks_run_after_the_last_node_in_the_order_queued():
    log = []
    x = torch.ones(2, requires_grad=True)

    def callback():
        log.append(("callback", torch.is_grad_enabled(), x.grad.tolist(),
                    threading.current_thread() is threading.main_thread(),
                    torch._C._current_autograd_node()))
        ENGINE.queue_callback(lambda: log.append("queued by a callback"))

    def hook(grad):
        log.append("hook")
        ENGINE.queue_callback(callback)
        ENGINE.queue_callback(lambda: log.append("second"))

    y = x * 2
    y.register_hook(hook)
    x.register_post_accumulate_grad_hook(lambda p: log.append("post-accumulate"))
    y.sum().backward()
    assert log == ["hook", "post-accumulate", ("callback", False, [2.0, 2.0], True, None),
                   "second", "queued by a callback"]


def test_callbacks_belong_to_their_own_backward_and_see_its_grad_mode():
    log = []
    x = torch.ones(2, requires_grad=True)

    def inner_hook(grad):
        ENGINE.queue_callback(lambda: log.append(("inner", torch._C._current_graph_task_id())))

    def outer_hook(grad):
        with torch.enable_grad():
            z = x * 3
            z.register_hook(inner_hook)
            z.sum().backward()
        log.append("inner backward returned")
        ENGINE.queue_callback(lambda: log.append(("outer", torch.is_grad_enabled())))

    y = x * 2
    y.register_hook(outer_hook)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # create_graph with backward(): torch's leak warning
        y.sum().backward(create_graph=True)
    assert [entry if isinstance(entry, str) else entry[0] for entry in log] == [
        "inner", "inner backward returned", "outer"]
    assert log[-1] == ("outer", True) and log[0][1] >= 0


def test_no_callback_outside_a_backward_nor_after_a_failed_one():
    with raises(RuntimeError, OUTSIDE):
        ENGINE.queue_callback(lambda: None)
    ran = []
    x = torch.ones(2, requires_grad=True)

    def failing(grad):
        ENGINE.queue_callback(lambda: ran.append(1))
        raise ValueError("boom")

    y = x * 2
    y.register_hook(failing)
    with pytest.raises(ValueError, match="boom"):
        y.sum().backward()
    (x * 2).sum().backward()
    assert ran == []


def test_a_failing_callback_fails_the_backward():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: ENGINE.queue_callback(3))
    with raises(TypeError, "'int' object is not callable"):
        y.sum().backward()


def test_run_backward_and_is_checkpoint_valid():
    x = torch.ones(2, requires_grad=True)
    assert ENGINE.run_backward(((x * 2).sum(),), (torch.tensor(1.0),), False, False, (), True,
                               True) is None
    assert x.grad.tolist() == [2.0, 2.0]
    (grad,) = ENGINE.run_backward(((x * 3).sum(),), (torch.tensor(1.0),), False, False, (x,))
    assert grad.tolist() == [3.0, 3.0] and ENGINE.is_checkpoint_valid()  # returned by default
    assert x.grad.tolist() == [2.0, 2.0]
    with raises(RuntimeError, "element 0 of gradients tuple is None, but the corresponding "
                              "Tensor requires grad"):
        ENGINE.run_backward(((x * 2).sum(),), (None,), False, False, (), True, True)
    with raises(RuntimeError, "element 0 of tensors does not require grad and does not have "
                              "a grad_fn"):
        ENGINE.run_backward((torch.ones(2),), (None,), False, False, (), True, True)


def test_the_engine_lives_on_variable_and_autograd_variable_only_refuses():
    assert type(Variable._execution_engine).__name__ == "_EngineBase"
    with raises(RuntimeError, "torch.autograd.variable(...) is deprecated, use torch.tensor(...) "
                              "instead"):
        torch.autograd.variable(torch.ones(2))


@pytest.mark.parametrize("call, message", [
    ("ENGINE.run_backward([y], (one,), False, False)",
     "tensors argument is expected to be a tuple, but got list"),
    ("ENGINE.run_backward((y,), [one], False, False)",
     "grad_tensors argument is expected to be a tuple, but got list"),
    ("ENGINE.run_backward((y,), (one,), False, False, [x])",
     "inputs to run_backward must be a tuple"),
    ("ENGINE.run_backward((1,), (one,), False, False, (x,))",
     "element 0 of tensors tuple is neither a Tensor nor a GradientEdge"),
    ("ENGINE.run_backward((y,), (None, None), False, False, (x,))",
     "got 1 tensors and 2 gradients"),
    ("ENGINE.run_backward((get_gradient_edge(y),), (None,), False, False, (x,))",
     "element 0 of gradients tuple is None, but the corresponding output is a GradientEdge."
     "This is not supported."),
])
def test_run_backward_reads_its_arguments_as_torchs_binding(call, message):
    from torch.autograd.graph import get_gradient_edge

    x = torch.ones(2, requires_grad=True)
    y = (x * 2).sum()
    names = {"ENGINE": ENGINE, "x": x, "y": y, "one": torch.tensor(1.0),
             "get_gradient_edge": get_gradient_edge}
    with raises(RuntimeError, message):
        eval(call, names)
    assert x.grad is None


def test_callbacks_from_a_worker_thread_from_grad_and_once_per_backward():
    x = torch.ones(2, requires_grad=True)
    log = []

    def hook(grad):
        ENGINE.queue_callback(lambda: log.append(threading.current_thread().name))
        return grad

    y = x * 2
    y.register_hook(hook)
    worker = threading.Thread(target=lambda: y.sum().backward(retain_graph=True), name="w")
    worker.start()
    worker.join()
    y.sum().backward()  # the same graph again: the first run's callbacks ran once, and left
    assert log == ["w", threading.current_thread().name]
    log.clear()
    z = x * 3
    z.register_hook(hook)
    (grad,) = torch.autograd.grad(z.sum(), (x,))
    assert grad.tolist() == [3.0, 3.0] and len(log) == 1
