"""The engine object: what refgrad says where torch fails an internal assertion."""

import pytest

import refgrad as torch


def test_neither_accumulating_nor_inputs_is_refused_in_plain_words():
    x = torch.ones(2, requires_grad=True)
    engine = torch.autograd.Variable._execution_engine
    with pytest.raises(RuntimeError, match=r"\Agrad requires non-empty inputs\.\Z"):
        engine.run_backward(((x * 2).sum(),), (torch.tensor(1.0),), False, False)
    assert x.grad is None
