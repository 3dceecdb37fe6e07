"""Anomaly detection in refgrad: nothing kept when off, every kind of node when on."""

import threading
import warnings

import pytest

import refgrad as torch


@pytest.fixture(autouse=True)
def _mode_off_again():
    yield
    torch.autograd.set_detect_anomaly(False)


def test_nothing_is_kept_while_the_mode_is_off():
    x = torch.ones(2, requires_grad=True)
    y = (x * 2).sum()
    assert y.grad_fn._metadata is None
    assert y.grad_fn.next_functions[0][0]._metadata is None


def test_every_kind_of_node_remembers_its_stack():
    with torch.autograd.set_detect_anomaly(True):
        x = torch.ones(2, 3, requires_grad=True)
        y = x * 2
        y[0].mul_(3)  # CopySlices, made by hand rather than from a row
    copy_slices = y.grad_fn
    mul = copy_slices.next_functions[0][0]
    accumulate = mul.next_functions[0][0]
    assert [type(n).__name__ for n in (copy_slices, mul, accumulate)] == [
        "CopySlices", "MulBackward0", "AccumulateGrad"]
    for node, line in ((copy_slices, "y[0].mul_(3)"), (mul, "y = x * 2"),
                       (accumulate, "y = x * 2")):
        stack = node.metadata["traceback_"]
        assert line in stack[-1]
        assert not any("/refgrad/" in entry.split("\n")[0] for entry in stack)


def test_a_backward_in_another_thread_reports_too():
    with torch.autograd.set_detect_anomaly(True):
        x = torch.tensor([-1.0, 4.0], requires_grad=True)
        y = x.sqrt().sum()
    errors = []

    def run():
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            try:
                y.backward()
            except RuntimeError as error:
                errors.append(str(error))

    with torch.autograd.set_detect_anomaly(True):  # switched on here, seen there
        worker = threading.Thread(target=run)
        worker.start()
        worker.join()
    assert errors == ["Function 'SqrtBackward0' returned nan values in its 0th output."]


def test_the_engine_keeps_its_one_pass_delivery_while_the_mode_is_off():
    seen = []
    x = torch.ones(2, requires_grad=True)
    loss = (x * 2).sum()
    cls = type(loss.grad_fn)
    real = cls._engine_step  # the engine's step, the class's own copy

    def spy(node, task, grads):
        seen.append(task.checks_nan)
        return real(node, task, grads)

    cls._engine_step = spy
    try:
        loss.backward()
    finally:
        cls._engine_step = real
    assert seen == [False]
