"""refgrad's engine against a naive one, on random graphs built step by step.

The machine grows a pool of tensors from float64 leaves with ops from the table,
reusing intermediate tensors, detaching, and computing islands under no_grad(); at any
point it may run backward(retain_graph=True) from a tensor of the pool. Every leaf's
.grad must then equal what the naive engine (tests/naive_engine.py) accumulates.
"""

import numpy as np
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, invariant, rule

import refgrad as torch
from refgrad._tensor import make_tensor
from tests.naive_engine import leaf_grads

# Every shape broadcasts to (2, 3), and so does every result.
SHAPES = [(), (3,), (1, 3), (2, 1), (2, 3)]
UNARY = {
    "neg": torch.neg, "exp": lambda t: torch.exp(t * 0.5), "sin": torch.sin,
    "cos": torch.cos, "clone": torch.clone, "square": lambda t: t ** 2,
    "sum": torch.sum, "sum_keep": lambda t: t.sum(-1, keepdim=True) if t.ndim else t,
    "expand": lambda t: t.expand(2, 3), "unsqueeze_squeeze": lambda t: t.unsqueeze(0).squeeze(0),
    "softmax": lambda t: torch.softmax(t, -1) if t.ndim else t, "relu": torch.relu,
    "max_keep": lambda t: torch.max(t, -1, keepdim=True)[0] if t.ndim else t,
}
BINARY = {
    "add": torch.add, "sub": lambda a, b: torch.sub(a, b, alpha=2), "mul": torch.mul,
    "div": lambda a, b: a / (b * b + 1), "where": lambda a, b: torch.where(a > b, a, b),
    # a multi-output node whose first output gets no gradient
    "stack_unbind": lambda a, b: torch.stack([a, a * 2]).unbind(0)[1] + b,
}


class EngineAgainstNaive(RuleBasedStateMachine):
    tensors = Bundle("tensors")

    def __init__(self):
        super().__init__()
        self.rng = np.random.default_rng(0)
        self.leaves = []
        self.expected = {}  # leaf -> accumulated gradient the naive engine predicts

    def _array(self, shape):
        return np.asarray(self.rng.uniform(-1.5, 1.5, shape), dtype=np.float64)

    @initialize(target=tensors, shape=st.sampled_from(SHAPES))
    def first_leaf(self, shape):
        return self.leaf(shape)

    @rule(target=tensors, shape=st.sampled_from(SHAPES))
    def leaf(self, shape):
        t = make_tensor(self._array(shape), requires_grad=True)
        self.leaves.append(t)
        return t

    @rule(target=tensors, shape=st.sampled_from(SHAPES))
    def constant(self, shape):
        return make_tensor(self._array(shape))

    @rule(target=tensors, t=tensors, op=st.sampled_from(sorted(UNARY)))
    def unary(self, t, op):
        return UNARY[op](t)

    @rule(target=tensors, a=tensors, b=tensors, op=st.sampled_from(sorted(BINARY)))
    def binary(self, a, b, op):
        return BINARY[op](a, b)

    @rule(target=tensors, a=tensors, b=tensors, op=st.sampled_from(sorted(BINARY)))
    def no_grad_island(self, a, b, op):
        with torch.no_grad():
            out = BINARY[op](a, b)
        assert out.grad_fn is None
        return out

    @rule(target=tensors, t=tensors, new_leaf=st.booleans())
    def detach(self, t, new_leaf):
        out = t.detach()
        if new_leaf:
            out.requires_grad_()
            self.leaves.append(out)
        return out

    @rule(t=tensors)
    def backward(self, t):
        if not t.requires_grad:
            return
        grad = self._array(tuple(t.shape))
        predicted = leaf_grads(t, grad)
        t.backward(make_tensor(grad.copy()), retain_graph=True)
        for leaf, g in predicted.items():
            self.expected[leaf] = self.expected.get(leaf, 0) + g

    @invariant()
    def leaf_grads_agree(self):
        for leaf in self.leaves:
            want = self.expected.get(leaf)
            if want is None:
                assert leaf.grad is None
            else:
                np.testing.assert_allclose(leaf.grad._data, want, rtol=1e-10, atol=1e-12)


EngineAgainstNaive.TestCase.settings = settings(
    max_examples=150, stateful_step_count=40, deadline=None
)
TestEngineAgainstNaive = EngineAgainstNaive.TestCase
