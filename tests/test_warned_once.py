"""Warnings torch gives once per process, and set_warn_always, which gives them every time."""

import sys
import threading
import warnings

import numpy as np
import pytest

import refgrad as torch
from conformance._warned import caught_always
from refgrad import _warn_once
from refgrad._ops import grids, products
from refgrad._tensor_numbers import FLOAT_OF_GRAD


@pytest.fixture(autouse=True)
def fresh(monkeypatch):
    """Nothing given yet, and the switch off, whatever ran before."""
    monkeypatch.setattr(_warn_once, "_given", set())
    monkeypatch.setattr(_warn_once, "_always", False)


def _messages(call, times=1):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(times):
            call()
    return [str(w.message) for w in caught]


def _read_only():
    a = np.ones(3)
    a.flags.writeable = False
    return a


ONCE = {
    "meshgrid": lambda: torch.meshgrid(torch.ones(2), torch.ones(3)),
    "cross": lambda: torch.cross(torch.ones(3, 2), torch.ones(3, 2)),
    "float": lambda: float(torch.ones(1, requires_grad=True)),
    "from_numpy": lambda: torch.from_numpy(_read_only()),
    "T": lambda: torch.ones(2, 3, 4).T,
    "T of 0-d": lambda: torch.tensor(1.0).T,
    "create_graph": lambda: (torch.ones(2, requires_grad=True) * 2).sum().backward(
        create_graph=True),
}


@pytest.mark.parametrize("key", ONCE)
def test_each_warning_is_given_once_then_every_time_when_asked(key):
    assert len(_messages(ONCE[key], 3)) == 1
    assert key in _warn_once._given
    torch.set_warn_always(True)
    assert len(_messages(ONCE[key], 3)) == 3


def test_the_texts_are_torchs():
    assert _messages(ONCE["meshgrid"]) == [grids.MESHGRID_WITHOUT_INDEXING]
    assert _messages(ONCE["cross"]) == [products.CROSS_WITHOUT_DIM]
    assert _messages(ONCE["float"]) == [FLOAT_OF_GRAD]


def test_the_two_warnings_of_T_are_given_once_each():
    assert len(_messages(ONCE["T"], 2)) == 1
    assert len(_messages(ONCE["T of 0-d"], 2)) == 1
    assert _messages(lambda: torch.ones(2).T) == []  # one dimension: no warning at all


def test_what_is_given_while_always_does_not_use_the_once_up():
    torch.set_warn_always(True)
    assert len(_messages(ONCE["meshgrid"], 2)) == 2
    torch.set_warn_always(False)
    assert len(_messages(ONCE["meshgrid"], 2)) == 1


def test_the_calls_that_do_not_warn_leave_the_once_unused():
    assert _messages(lambda: torch.cross(torch.ones(3), torch.ones(3), dim=0)) == []
    assert _messages(lambda: torch.meshgrid(torch.ones(2), indexing="ij")) == []
    assert _warn_once._given == set()


def test_the_switch_is_one_for_the_whole_process():
    torch.set_warn_always(True)
    seen = []
    thread = threading.Thread(target=lambda: seen.append(torch.is_warn_always_enabled()))
    thread.start()
    thread.join()
    assert seen == [True]


@pytest.mark.parametrize("value, name", [(1, "int"), (None, "NoneType"),
                                         (np.bool_(True), "numpy.bool")])
def test_the_switch_takes_a_bool_only(value, name):
    with pytest.raises(RuntimeError) as caught:
        torch.set_warn_always(value)
    assert str(caught.value) == f"setWarnOnlyOnce expects a bool, but got {name}"
    assert torch.is_warn_always_enabled() is False


def _into_transposed_grad(create_graph):
    def call():
        x = torch.randn(3, 4).t().detach().requires_grad_()
        x.grad = torch.zeros(4, 3)
        (x * 2).sum().backward(create_graph=create_graph)
    return call


def test_the_layout_warning_is_given_once_for_each_kind_of_sum():
    contract = [m for m in _messages(_into_transposed_grad(False), 3) if "layout" in m]
    assert len(contract) == 1 and "layout contract added" in _warn_once._given
    summed = [m for m in _messages(_into_transposed_grad(True), 3) if "layout" in m]
    assert summed == contract  # the other sum, with a key of its own
    assert [m for m in _messages(_into_transposed_grad(True)) if "layout" in m] == []


def test_the_layout_warning_is_shown_at_the_line_that_ran_the_backward():
    x = torch.randn(3, 4).t().detach().requires_grad_()
    x.grad = torch.zeros(4, 3)
    with caught_always(torch) as caught:
        line = sys._getframe().f_lineno + 1
        (x * 2).sum().backward()
    shown = [w for w in caught if "layout contract" in str(w.message)]
    assert len(shown) == 1 and (shown[0].filename, shown[0].lineno) == (__file__, line)


def test_cross_with_out_does_not_spend_the_warning_given_once():
    a, out = torch.ones(3, 3), torch.empty(0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.cross(a, a, out=out)
        assert caught == []  # torch's out= form is another function: no deprecation
        torch.cross(a, a)
        torch.cross(a, a)
    assert [str(w.message).splitlines()[0] for w in caught] == [
        "Using torch.cross without specifying the dim arg is deprecated."]
    assert out.tolist() == [[0.0] * 3] * 3
