"""Anomaly detection: the switches, the forward stacks, the NaN check, the changed hint."""

import threading
import warnings

import pytest
import torch

from conformance._support import raises

ENABLED = ("Anomaly Detection has been enabled. This mode will increase the runtime and should "
           "only be enabled for debugging.")
NO_INFO = ("Error detected in {}. No forward pass information available. Enable detect anomaly "
           "during forward pass for more information.")
CAUSED = "Error detected in {}. Traceback of forward call that caused the error:\n"
INDUCED = ("\n\nPrevious calculation was induced by {}. Traceback of forward call that induced "
           "the previous calculation:\n")


def _text(warning) -> str:
    # torch's C++ warnings end with the place in torch's C++ sources; refgrad's do not
    return str(warning.message).split(" (Triggered internally at ")[0]


def _run(body):
    """The error ``body()`` ends with, and the texts of the warnings it raised."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        error = None
        try:
            body()
        except Exception as e:  # noqa: BLE001 - every kind is reported the same way
            error = e
    return error, [_text(w) for w in seen if _text(w) != ENABLED]


@pytest.fixture(autouse=True)
def _mode_off_again():
    yield
    torch.autograd.set_detect_anomaly(False)


def test_off_by_default_and_the_two_switches():
    assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (False, True)
    with pytest.warns(UserWarning, match="Anomaly Detection has been enabled"):
        mode = torch.autograd.detect_anomaly(check_nan=False)
    assert not torch.is_anomaly_enabled()  # only the block turns it on
    with mode as entered:
        assert entered is None
        assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (True, False)
    assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (False, True)


def test_set_detect_anomaly_is_a_function_and_a_context_manager():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning from this one
        torch.autograd.set_detect_anomaly(True)
        assert torch.is_anomaly_enabled()
        with torch.autograd.set_detect_anomaly(False, check_nan=False):
            assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (
                False, False)
        assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (True, True)
    assert torch.autograd.anomaly_mode.set_detect_anomaly is torch.autograd.set_detect_anomaly


def test_restored_after_an_exception_and_not_a_decorator():
    with pytest.raises(KeyError), pytest.warns(UserWarning):  # noqa: PT012
        with torch.autograd.detect_anomaly():
            raise KeyError("k")
    assert not torch.is_anomaly_enabled()
    with pytest.warns(UserWarning), raises(TypeError, "'detect_anomaly' object is not callable"):
        torch.autograd.detect_anomaly()(lambda: None)


def test_only_bools_are_taken():
    with raises(TypeError, "set_anomaly_enabled(): argument 'enabled' (position 1) must be "
                           "bool, not str"):
        torch.autograd.set_detect_anomaly("yes")
    with raises(TypeError, "set_anomaly_enabled(): argument 'check_nan' (position 2) must be "
                           "bool, not int"):
        torch.autograd.set_detect_anomaly(True, check_nan=3)
    assert (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()) == (False, True)


def test_the_switch_is_shared_by_every_thread():
    worker = threading.Thread(target=lambda: torch.autograd.set_detect_anomaly(True))
    worker.start()
    worker.join()
    assert torch.is_anomaly_enabled()


def test_a_node_remembers_the_stack_that_made_it():
    with torch.autograd.set_detect_anomaly(True):
        x = torch.ones(2, requires_grad=True)
        y = x * 2  # the line the stack ends at
    stack = y.grad_fn.metadata["traceback_"]
    assert sorted(y.grad_fn.metadata) == ["traceback_"]
    assert isinstance(stack, list) and "y = x * 2  # the line the stack ends at" in stack[-1]
    assert "test_a_node_remembers_the_stack_that_made_it" in stack[-1]
    assert "traceback_" not in (x * 2).grad_fn.metadata  # made with the mode off


def test_a_nan_stops_the_backward_at_the_node_that_made_it():
    def body():
        with torch.autograd.set_detect_anomaly(True):
            x = torch.tensor([-1.0, 4.0], requires_grad=True)
            y = x.sqrt()  # NaN gradient at -1
            y.sum().backward()

    error, texts = _run(body)
    assert isinstance(error, RuntimeError)
    assert str(error) == "Function 'SqrtBackward0' returned nan values in its 0th output."
    assert len(texts) == 1 and texts[0].startswith(CAUSED.format("SqrtBackward0"))
    assert texts[0].endswith("    y = x.sqrt()  # NaN gradient at -1\n")


def test_the_nan_check_names_the_output_and_can_be_switched_off():
    def body():
        with torch.autograd.set_detect_anomaly(True):
            x = torch.tensor([0.0, 1.0], requires_grad=True)
            (x / x).sum().backward()

    error, _ = _run(body)
    assert str(error) == "Function 'DivBackward0' returned nan values in its 1th output."
    with torch.autograd.set_detect_anomaly(True, check_nan=False):
        x = torch.tensor([-1.0, 4.0], requires_grad=True)
        x.sqrt().sum().backward()
    assert x.grad.isnan().tolist() == [True, False]


def test_an_infinity_is_no_anomaly():
    with torch.autograd.set_detect_anomaly(True):
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        (1 / x).sum().backward()
    assert x.grad.tolist() == [float("-inf"), -1.0]


def test_any_failure_of_a_node_warns_with_its_stack():
    class Fails(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, grad):
            raise ValueError("boom")

    def in_a_function():
        with torch.autograd.set_detect_anomaly(True):
            x = torch.ones(2, requires_grad=True)
            Fails.apply(x).sum().backward()

    def in_a_hook():
        with torch.autograd.set_detect_anomaly(True):
            x = torch.ones(2, requires_grad=True)
            y = x * 2
            y.register_hook(lambda g: 1 / 0)
            y.sum().backward()

    error, texts = _run(in_a_function)
    assert isinstance(error, ValueError) and texts[0].startswith(CAUSED.format("FailsBackward"))
    assert "Fails.apply(x).sum().backward()" in texts[0]
    error, texts = _run(in_a_hook)
    assert isinstance(error, ZeroDivisionError)
    assert texts[0].startswith(CAUSED.format("MulBackward0")) and "y = x * 2" in texts[0]


def test_the_version_checks_hint_changes():
    def body(mode):
        with torch.autograd.set_detect_anomaly(mode):
            x = torch.ones(2, requires_grad=True)
            y = x.exp()
            y.add_(1)
            y.sum().backward()

    error, texts = _run(lambda: body(True))
    assert str(error).endswith(
        "expected version 0 instead. Hint: the backtrace further above shows the operation that "
        "failed to compute its gradient. The variable in question was changed in there or "
        "anywhere later. Good luck!")
    assert texts[0].startswith(CAUSED.format("ExpBackward0")) and "y = x.exp()" in texts[0]
    error, texts = _run(lambda: body(False))
    assert str(error).endswith("Hint: enable anomaly detection to find the operation that failed "
                               "to compute its gradient, with "
                               "torch.autograd.set_detect_anomaly(True, check_nan=False).")
    assert texts == []


def test_a_node_made_in_the_forward_with_the_mode_off_has_nothing_to_show():
    def body():
        x = torch.tensor([-1.0, 4.0], requires_grad=True)
        y = x.sqrt().sum()
        with torch.autograd.set_detect_anomaly(True):
            y.backward()

    error, texts = _run(body)
    assert isinstance(error, RuntimeError) and texts == [NO_INFO.format("SqrtBackward0")]


def test_a_node_made_in_a_backward_remembers_its_parent():
    def body():
        with torch.autograd.set_detect_anomaly(True):
            x = torch.tensor([2.0, 3.0], requires_grad=True)
            y = x.exp()
            (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
            assert sorted(g.grad_fn.metadata) == ["parent_", "traceback_"]
            assert type(g.grad_fn.metadata["parent_"]).__name__ == "ExpBackward0"
            g.backward(torch.tensor([float("nan"), 1.0]))

    error, texts = _run(body)
    assert str(error) == "Function 'MulBackward0' returned nan values in its 1th output."
    assert len(texts) == 2
    assert texts[0].startswith(CAUSED.format("MulBackward0"))
    assert "(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)" in texts[0]
    assert texts[1].startswith(INDUCED.format("ExpBackward0"))
    assert texts[1].endswith("    y = x.exp()\n")


def test_grad_reports_as_backward_does():
    def body():
        with torch.autograd.set_detect_anomaly(True):
            x = torch.tensor([-1.0, 1.0], requires_grad=True)
            torch.autograd.grad(x.sqrt().sum(), x)

    error, texts = _run(body)
    assert str(error) == "Function 'SqrtBackward0' returned nan values in its 0th output."
    assert texts[0].startswith(CAUSED.format("SqrtBackward0"))
