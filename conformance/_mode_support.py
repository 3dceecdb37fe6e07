"""Checks that several dispatch-mode test files share: a stack of tagged modes, and the
graph that a call made under a mode builds, compared with the graph it builds alone."""

from conformance._support import mode_inputs


def tagged_mode(seen, describe=str):
    """A dispatch mode class made with a tag: each op handed to it appends (tag, describe(func))
    to ``seen``, one list for the whole stack, so that the order of the modes shows."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class Tagged(TorchDispatchMode):
        def __init__(self, tag):
            super().__init__()
            self.tag = tag

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append((self.tag, describe(func)))
            return func(*args, **(kwargs or {}))

    return Tagged


def call_recorder():
    """A dispatch mode class whose instances write down, in ``calls``, each op handed to
    them: its name, its tensor arguments' shapes (other arguments as given) and its
    keywords, sorted."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    class Calls(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.calls = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            shown = [list(a.shape) if isinstance(a, torch.Tensor) else a for a in args]
            self.calls.append((str(func), shown, sorted((kwargs or {}).items(), key=str)))
            return func(*args, **(kwargs or {}))

    return Calls


def graph_under_mode_is_the_ops(calls, call, *, inside=False):
    """``call`` on ``mode_inputs()`` (x requiring grad) under a mode of the class ``calls``
    builds the graph it builds alone: the same grad_fn and the same gradient of its square's
    sum, taken after the mode (and, with ``inside``, under the mode first, keeping the graph).
    A call with no gradient has none under the mode either."""
    import torch

    x, y, i = mode_inputs()
    x.requires_grad_()
    alone = call(x, y, i)
    if not alone.requires_grad:
        with calls():
            made = call(x, y, i)
        assert not made.requires_grad and made.grad_fn is None
        return
    (expected,) = torch.autograd.grad((alone * alone).sum(), x)
    with calls():
        made = call(x, y, i)
        if inside:
            (under,) = torch.autograd.grad((made * made).sum(), x, retain_graph=True)
            assert torch.equal(under, expected)
    (after,) = torch.autograd.grad((made * made).sum(), x)
    assert made.grad_fn.name() == alone.grad_fn.name()
    assert torch.equal(after, expected)
