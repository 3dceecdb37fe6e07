"""The least a Python autograd on NumPy can do for W1, W3 and W5: a yardstick.

It records a node per op, with the nodes its gradient goes to and what it saved,
and its backward counts each node's dependencies, runs nodes as they become
ready and adds into the leaves' ``.grad``. Nothing else: no grad modes, hooks,
version counters, views, dtype promotion, argument checks or errors. It speaks
just enough of torch's API for the workloads (``ones``, ``tensor``, ``sum``,
``+``, ``*`` by a number, ``sin``, ``exp``, ``backward``), so that
``instructions.py --workload W5 minigrad`` counts it beside refgrad and torch.
"""

import numpy as np

_new = object.__new__
_asarray, _reduce, _broadcast_to = np.asarray, np.add.reduce, np.broadcast_to
_add, _mul, _sin, _cos, _exp = np.add, np.multiply, np.sin, np.cos, np.exp


class Accumulate:
    __slots__ = ("leaf",)


class Node:
    __slots__ = ("next", "saved")


class SumBackward(Node):
    __slots__ = ()

    def apply(self, g):
        return (_broadcast_to(g, self.saved),)


class AddBackward(Node):
    __slots__ = ()

    def apply(self, g):
        return (g, g)


class PassBackward(Node):  # + a number
    __slots__ = ()

    def apply(self, g):
        return (g,)


class ScaleBackward(Node):  # * a number, and exp (which saves its output)
    __slots__ = ()

    def apply(self, g):
        return (_mul(g, self.saved),)


class SinBackward(Node):
    __slots__ = ()

    def apply(self, g):
        return (_mul(g, _cos(self.saved)),)


def _edge(t):
    """The node a gradient for ``t`` goes to: its grad_fn, or its leaf's accumulator."""
    if t.grad_fn is not None:
        return t.grad_fn
    node = t.accumulator
    if node is None:
        node = t.accumulator = _new(Accumulate)
        node.leaf = t
    return node


def _recorded(data, cls, edges, saved=None):
    node = _new(cls)
    node.next, node.saved = edges, saved
    return _tensor(data, node)


def _tensor(data, grad_fn=None):
    t = _new(Tensor)
    t.data, t.grad_fn, t.grad, t.accumulator = data, grad_fn, None, None
    return t


class Tensor:
    __slots__ = ("data", "grad_fn", "grad", "accumulator")

    def sum(self):
        d = self.data
        return _recorded(_asarray(_reduce(d, None, d.dtype)), SumBackward, (_edge(self),),
                         d.shape)

    def __add__(self, other):
        if type(other) is Tensor:
            return _recorded(_add(self.data, other.data), AddBackward,
                             (_edge(self), _edge(other)))
        return _recorded(_add(self.data, self.data.dtype.type(other)), PassBackward,
                         (_edge(self),))

    def __mul__(self, other):
        c = self.data.dtype.type(other)
        return _recorded(_mul(self.data, c), ScaleBackward, (_edge(self),), c)

    def sin(self):
        return _recorded(_sin(self.data), SinBackward, (_edge(self),), self.data)

    def exp(self):
        out = _exp(self.data)
        return _recorded(out, ScaleBackward, (_edge(self),), out)

    def backward(self, gradient=None):
        root = self.grad_fn
        seed = np.ones_like(self.data) if gradient is None else gradient.data
        backward(root, seed, _dependencies(root))


def _dependencies(root) -> dict:
    """How many edges lead into each node reachable from ``root``."""
    counts, stack = {}, [root]
    while stack:
        node = stack.pop()
        if type(node) is Accumulate:
            continue
        for child in node.next:
            count = counts.get(child)
            if count is None:
                stack.append(child)
            counts[child] = 1 if count is None else count + 1
    return counts


def backward(root, seed, counts: dict) -> None:
    """Run each node once all its gradients have arrived, summing those that meet."""
    waiting, ready = {}, [(root, seed)]
    while ready:
        node, grad = ready.pop()
        if type(node) is Accumulate:
            leaf = node.leaf
            leaf.grad = np.array(grad) if leaf.grad is None else leaf.grad + grad
            continue
        for child, g in zip(node.next, node.apply(grad)):
            if child in waiting:
                g = waiting.pop(child) + g
            counts[child] -= 1
            if counts[child]:
                waiting[child] = g
            else:
                ready.append((child, g))


def ones(size, requires_grad=False):
    return _tensor(np.ones(size, np.float32))


def tensor(data, requires_grad=False):
    return _tensor(np.array(data, np.float32))
