"""A deliberately naive backward engine, to check refgrad's engine against.

It knows nothing of sequence numbers, ready queues, hooks or execution plans: it
orders the graph once (an explicit-stack post-order, no recursion), then runs every
node in reverse of that order with the sum of the gradients that reached it, and
sums whatever reaches an AccumulateGrad into a dictionary. Gradients travel as NumPy
arrays, so the only refgrad code it trusts is each node's own formula.
"""

import numpy as np

from refgrad import no_grad
from refgrad._tensor import make_tensor
from refgrad.autograd.graph import get_gradient_edge

ACCUMULATE = "torch::autograd::AccumulateGrad"


def _post_order(roots) -> list:
    order, seen, stack = [], set(), [(node, False) for node in roots]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            order.append(node)
            continue
        if node in seen:
            continue
        seen.add(node)
        stack.append((node, True))
        stack.extend((c, False) for c, _ in node.next_functions if c is not None)
    return order


def _sum_to(grad: np.ndarray, shape) -> np.ndarray:
    shape = tuple(shape)
    while grad.ndim > len(shape):
        grad = grad.sum(axis=0)
    for axis, n in enumerate(shape):
        if n == 1 and grad.shape[axis] != 1:
            grad = grad.sum(axis=axis, keepdims=True)
    return grad


def leaf_grads(tensor, grad: np.ndarray) -> dict:
    """{leaf: gradient array} for backward from ``tensor`` seeded with ``grad``."""
    root, slot = get_gradient_edge(tensor)[:2]
    buffers = {root: {slot: np.array(grad, dtype=np.float64)}}
    result = {}
    for node in reversed(_post_order([root])):
        arrived = buffers.pop(node, {})
        if node.name() == ACCUMULATE:
            leaf = node.variable
            if 0 in arrived:
                result[leaf] = result.get(leaf, 0) + arrived[0]
            continue
        metas = node._input_metadata
        grads = [make_tensor(arrived[i]) if i in arrived else None for i in range(len(metas))]
        with no_grad():
            outputs = node(*grads)
        if not isinstance(outputs, tuple):
            outputs = (outputs,)  # like torch, a node with one input edge returns a bare tensor
        for (child, child_slot), out in zip(node.next_functions, outputs):
            if child is None or out is None:
                continue
            shape = child._input_metadata[child_slot].shape
            value = _sum_to(np.asarray(out._data, dtype=np.float64), shape)
            into = buffers.setdefault(child, {})
            into[child_slot] = into[child_slot] + value if child_slot in into else value
    return result
