"""Black-box tests: torch.set_warn_always gives every warning torch gives once, each time.

Without the switch, each of these warnings comes once per process, so which test sees it
depends on the order the tests run in; with it, every call warns, on any order.
"""

import warnings

import numpy as np
import pytest
import torch

from conformance._support import raises


def _read_only():
    a = np.ones(3)
    a.flags.writeable = False
    return a


CALLS = {
    "meshgrid": (lambda: torch.meshgrid(torch.ones(2), torch.ones(3)),
                 "torch.meshgrid: in an upcoming release, it will be required to pass the "
                 "indexing argument."),
    "cross": (lambda: torch.cross(torch.ones(3, 2), torch.ones(3, 2)),
              "Using torch.cross without specifying the dim arg is deprecated.\nPlease either "
              "pass the dim explicitly or simply use torch.linalg.cross.\nThe default value of "
              "dim will change to agree with that of linalg.cross in a future release."),
    "float": (lambda: float(torch.ones(1, requires_grad=True)),
              "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
              "behavior.\nConsider using tensor.detach() first."),
    "from_numpy": (lambda: torch.from_numpy(_read_only()), "The given NumPy array is not "
                   "writable, and PyTorch does not support non-writable tensors."),
    "T": (lambda: torch.ones(2, 3, 4).T,
          "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
          "deprecated"),
    "T of 0-d": (lambda: torch.tensor(1.0).T,
                 "Tensor.T is deprecated on 0-D tensors. This function is the identity in "
                 "these cases."),
    "qr": (lambda: torch.qr(torch.ones(2, 2)),
           "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future "
           "PyTorch release.\nThe boolean parameter 'some' has been replaced with a string "
           "parameter 'mode'."),
    "triangular_solve": (lambda: torch.triangular_solve(torch.ones(2, 1), torch.eye(2)),
                         "torch.triangular_solve is deprecated in favor of "
                         "torch.linalg.solve_triangularand will be removed"),
    "lu": (lambda: torch.lu(torch.eye(2)), "torch.lu is deprecated in favor of "
           "torch.linalg.lu_factor"),
    "lu_solve": (lambda: torch.lu_solve(torch.ones(2, 1), *torch.linalg.lu_factor(torch.eye(2))),
                 "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be "
                 "removed"),
    "create_graph": (lambda: (torch.ones(2, requires_grad=True) * 2).sum().backward(
        create_graph=True), "Using backward() with create_graph=True will create a reference "
        "cycle between the parameter and its gradient which can cause a memory leak."),
}


@pytest.mark.parametrize("name", CALLS)
def test_every_call_warns_with_the_switch_on(warn_always, name):
    call, start = CALLS[name]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            call()
    assert [w.category for w in caught] == [UserWarning] * 3
    assert all(str(w.message).startswith(start) for w in caught)


def test_the_switch_reads_back(warn_always):
    assert torch.is_warn_always_enabled() is True
    torch.set_warn_always(False)
    assert torch.is_warn_always_enabled() is False


@pytest.mark.parametrize("value, name", [(1, "int"), (1.0, "float"), (None, "NoneType"),
                                         ("a", "str"), (np.bool_(True), "numpy.bool")])
def test_the_switch_takes_a_bool_only(value, name):
    before = torch.is_warn_always_enabled()
    with raises(RuntimeError, f"setWarnOnlyOnce expects a bool, but got {name}"):
        torch.set_warn_always(value)
    assert torch.is_warn_always_enabled() is before


def test_the_switch_is_positional_only():
    with raises(TypeError, "set_warn_always() got some positional-only arguments passed as "
                "keyword arguments: 'b'"):
        torch.set_warn_always(b=True)
    with raises(TypeError, "set_warn_always() missing 1 required positional argument: 'b'"):
        torch.set_warn_always()


def _hooked_leaf(events, hook=None):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    a.register_hook(hook or (lambda g: events.append("hook")))
    a.register_post_accumulate_grad_hook(lambda t: events.append("post hook"))
    return a


def _events_of(call, events):
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = lambda message, *rest: events.append(str(message)[:30])
        call()
    return events


def test_the_create_graph_warning_comes_after_the_pass_and_its_hooks(warn_always):
    events = []
    a = _hooked_leaf(events)
    _events_of(lambda: a.sum().backward(create_graph=True), events)
    assert events == ["hook", "post hook", "Using backward() with create_g"]


def test_a_call_refused_before_the_pass_gives_no_create_graph_warning(warn_always):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    events = []
    with torch.no_grad():
        y = a.sum()
    with raises(RuntimeError, "element 0 of tensors does not require grad and does not have "
                "a grad_fn"):
        _events_of(lambda: y.backward(create_graph=True), events)
    with pytest.raises(RuntimeError, match=r"\AMismatch in shape: grad_output\[0\] has"):
        _events_of(lambda: a.sum().backward(torch.ones(3), create_graph=True), events)
    _events_of(lambda: torch.autograd.grad(a.sum(), a, create_graph=True), events)
    assert events == []


def test_a_pass_a_hook_breaks_off_still_gives_the_create_graph_warning(warn_always, capsys):
    events = []
    a = _hooked_leaf(events, lambda g: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        _events_of(lambda: a.sum().backward(create_graph=True), events)
    assert events == ["Using backward() with create_g"] and a.grad is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the pass's error is raised, the warning printed
        with pytest.raises(ZeroDivisionError):
            a.sum().backward(create_graph=True)
    err = capsys.readouterr().err
    assert err.startswith("UserWarning: Using backward() with create_graph=True will create")
