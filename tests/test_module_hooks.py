"""refgrad's nn.Module: re-exports and the backward hook plumbing."""

import refgrad
from refgrad.nn.modules._walk import walk_modules


def test_reexports():
    assert refgrad.nn.modules.module.Module is refgrad.nn.Module
    assert refgrad.utils.hooks.BackwardHook.__name__ == "BackwardHook"


def test_shared_module_walked_once():
    relu = refgrad.nn.ReLU()
    seq = refgrad.nn.Sequential(relu, refgrad.nn.Sequential(relu))
    assert [n for n, _ in walk_modules(seq)] == ["", "0", "1"]


def test_no_hooks_no_identity_node():
    relu = refgrad.nn.ReLU()
    y = relu(refgrad.ones(2, requires_grad=True))
    assert type(y.grad_fn).__name__ == "ReluBackward0"
