"""refgrad.autograd._run_backward: the door to the engine."""

import warnings

import pytest

import refgrad
from refgrad import _warn_once
from refgrad.autograd import _engine, _run_backward


def test_the_create_graph_warning_follows_the_engine_even_when_it_raises(monkeypatch):
    monkeypatch.setattr(_warn_once, "_given", set())
    events = []

    def broken(*args):
        events.append("engine")
        raise ValueError("broken")

    monkeypatch.setattr(_engine, "execute", broken)
    a = refgrad.ones(2, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught, pytest.raises(ValueError):
        warnings.simplefilter("always")
        _run_backward._run_backward([a.sum()], [refgrad.ones(())], True, True, (), True, True)
    assert events == ["engine"] and [str(w.message)[:16] for w in caught] == ["Using backward()"]
    assert "create_graph" in _warn_once._given


def test_an_error_filter_only_prints_the_warning_over_the_pass_error(monkeypatch, capsys):
    monkeypatch.setattr(_warn_once, "_given", set())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _run_backward._warn_create_graph(failed=True)
        with pytest.raises(UserWarning):
            monkeypatch.setattr(_warn_once, "_given", set())
            _run_backward._warn_create_graph(failed=False)
    assert capsys.readouterr().err == f"UserWarning: {_run_backward.CREATE_GRAPH_WARNING}\n"
