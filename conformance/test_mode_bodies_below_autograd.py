"""Black-box tests: a dispatch mode's own ops run below autograd. An op the mode calls for
itself records no node, makes no view autograd knows of, bumps no version, is not refused for
writing a leaf that requires grad and gets no forward-mode tangent, whatever the grad mode
says; the op handed to the mode is recorded above it as before. The same assertions run on
torch."""

import threading

import pytest
import torch


def _mode(body):
    """A mode that runs ``body(func, args)`` for the first op handed to it, then calls func."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class Body(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.ran = False

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if not self.ran:
                self.ran = True
                body(func, args)
            return func(*args, **(kwargs or {}))

    return Body()


def _leaves():
    return (torch.tensor([1.5, 2.0], requires_grad=True),
            torch.tensor([3.0, 4.0], requires_grad=True))


def _plain(t):
    return t.grad_fn is None and not t.requires_grad


@pytest.mark.parametrize("switch", ["none", "enable_grad", "set_grad_enabled"])
def test_a_product_in_the_body_records_nothing_whatever_the_grad_mode(switch):
    seen = {}

    def body(func, args):
        seen["grad mode"] = torch.is_grad_enabled()
        if switch == "enable_grad":
            with torch.enable_grad():
                seen["out"] = args[0] * 2
        elif switch == "set_grad_enabled":
            with torch.set_grad_enabled(True):
                seen["out"] = args[0] * 2
        else:
            seen["out"] = args[0] * 2

    x, y = _leaves()
    with _mode(body):
        z = x * y
    assert seen["grad mode"] is True and _plain(seen["out"])
    assert seen["out"].tolist() == [3.0, 4.0]
    assert z.grad_fn.name() == "MulBackward0"
    z.sum().backward()
    assert x.grad.tolist() == [3.0, 4.0]


def test_no_grad_and_inference_mode_in_the_body():
    seen = {}

    def body(func, args):
        with torch.no_grad():
            seen["no_grad"] = (torch.is_grad_enabled(), args[0] * 2)
        with torch.inference_mode():
            seen["inference"] = (args[0] * 2).is_inference()
        seen["after"] = torch.is_grad_enabled()

    x, _ = _leaves()
    with _mode(body):
        s = x.sin()
    assert seen["no_grad"][0] is False and _plain(seen["no_grad"][1])
    assert seen["inference"] is True and seen["after"] is True
    assert s.grad_fn.name() == "SinBackward0"


@pytest.mark.parametrize("make", ["view", "select", "transpose", "expand"])
def test_a_view_in_the_body_is_no_view_to_autograd(make):
    seen = {}
    views = {"view": lambda a: a.view(-1), "select": lambda a: a[0],
             "transpose": lambda a: a.t(), "expand": lambda a: a.expand(2, 2)}

    def body(func, args):
        v = views[make](args[0])
        seen["v"] = (v._base, v._is_view(), v.grad_fn, v.requires_grad, v._version)

    m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    with _mode(body):
        c = m.cos()
    assert seen["v"] == (None, False, None, False, 0)
    assert c.grad_fn.name() == "CosBackward0"


def test_writes_in_the_body_bump_no_version_and_leave_a_leaf_alone():
    seen = {}

    def body(func, args):
        x = args[0]
        x.add_(1)  # a leaf that requires grad: below autograd, no refusal
        x.sub_(1)
        h = x * 1
        h.mul_(2)
        v = h.view(-1)
        v[0] = 7.0
        seen["x"] = (x._version, x.grad_fn)
        seen["h"] = (h._version, v._version, h.tolist(), _plain(h))

    x, y = _leaves()
    with _mode(body):
        z = x * y
    assert seen["x"] == (0, None)
    assert seen["h"] == (0, 0, [7.0, 4.0], True)
    assert x._version == 0 and z.grad_fn.name() == "MulBackward0"


def test_a_write_in_the_body_into_a_tensor_with_history_keeps_its_history():
    seen = {}

    def body(func, args):
        args[0].mul_(1)
        seen["before"] = (args[0]._version, args[0].grad_fn.name())

    x, _ = _leaves()
    h = x * 1
    with _mode(body):
        t = h.tan()
    assert seen["before"] == (0, "MulBackward0")
    assert h._version == 0 and h.grad_fn.name() == "MulBackward0"
    assert t.grad_fn.name() == "TanBackward0"


def test_returning_the_bodys_own_result():
    from torch.utils._python_dispatch import TorchDispatchMode

    class Returning(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if func == torch.ops.aten.mul.Tensor:
                return args[0] * 2  # func is never called
            return func(*args, **(kwargs or {}))

    x, y = _leaves()
    with Returning():
        z = x * y
    assert z.tolist() == [3.0, 4.0] and z.grad_fn.name() == "MulBackward0"
    assert z.grad_fn._saved_self is x and z.grad_fn._saved_other is y
    z.sum().backward()
    assert x.grad.tolist() == [3.0, 4.0] and y.grad.tolist() == [1.5, 2.0]


def test_an_inner_modes_ops_reach_the_outer_mode_below_autograd():
    from torch.utils._python_dispatch import TorchDispatchMode

    outer_seen = []

    class Outer(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            if func != torch.ops.aten.sin.default:
                outer_seen.append((str(func), _plain(out), torch.is_grad_enabled()))
            return out

    inner_seen = []

    class Inner(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if func == torch.ops.aten.sin.default:
                d, v = args[0] * 3, args[0].view(-1)
                inner_seen.append((_plain(d), v._base is None, v._is_view()))
            return func(*args, **(kwargs or {}))

    x, _ = _leaves()
    with Outer(), Inner():
        s = x.sin()
    assert inner_seen == [(True, True, False)]
    assert outer_seen == [("aten.mul.Tensor", True, True), ("aten.view.default", True, True)]
    assert s.grad_fn.name() == "SinBackward0"
    s.sum().backward()
    assert x.grad.tolist() == x.detach().cos().tolist()


def test_a_failing_body_leaves_recording_as_it_was():
    def body(func, args):
        raise ValueError("refused")

    x, y = _leaves()
    with pytest.raises(ValueError, match="refused"):
        with _mode(body):
            x * y
    z = x * y
    v = x.view(-1)
    assert z.grad_fn.name() == "MulBackward0" and v._base is x


def test_another_thread_records_while_a_body_runs():
    started, done, seen = threading.Event(), threading.Event(), {}

    def worker():
        started.wait()
        x, _ = _leaves()
        q = x * 5
        seen["other"] = (q.grad_fn.name(), x.view(-1)._base is x)
        done.set()

    def body(func, args):
        started.set()
        done.wait(10)
        seen["body"] = _plain(args[0] * 5)

    thread = threading.Thread(target=worker)
    thread.start()
    x, _ = _leaves()
    with _mode(body):
        n = x.neg()
    thread.join()
    assert seen == {"other": ("MulBackward0", True), "body": True}
    assert n.grad_fn.name() == "NegBackward0"


def test_no_tangent_in_the_body():
    import torch.autograd.forward_ad as fwAD

    kept = []

    def body(func, args):
        kept.append(args[0] * 2)

    with fwAD.dual_level():
        p = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        with _mode(body):
            e = p.exp()
        assert fwAD.unpack_dual(kept[0]).tangent is None
        assert fwAD.unpack_dual(e).tangent.tolist() == e.tolist()


WRITES = {
    "copy_": lambda t: t.copy_(torch.ones(2)),
    "zero_": lambda t: t.zero_(),
    "fill_": lambda t: t.fill_(3.0),
    "setitem": lambda t: t.__setitem__(0, 5.0),
    "index_put_": lambda t: t.index_put_((torch.tensor([0]),), torch.tensor([9.0])),
    "masked_fill_": lambda t: t.masked_fill_(torch.tensor([True, False]), 0.0),
    "addcmul_": lambda t: t.addcmul_(torch.ones(2), torch.ones(2)),
    "exp_": lambda t: t.exp_(),
    "resize_": lambda t: t.resize_(2),
    "t_": lambda t: t.t_(),
    "unsqueeze_": lambda t: t.unsqueeze_(0),
    "detach_": lambda t: t.detach_(),
    "out=": lambda t: torch.mul(torch.ones(2, requires_grad=True), 2, out=t),
}


@pytest.mark.parametrize("leaf", [True, False], ids=["leaf", "made in the body"])
@pytest.mark.parametrize("write", WRITES)
def test_each_write_in_the_body_is_uncounted_and_unrefused(write, leaf):
    seen = {}

    def body(func, args):
        t = torch.tensor([1.0, 2.0], requires_grad=True)
        t = t if leaf else t * 1
        WRITES[write](t)
        seen["t"] = (t._version, t.grad_fn, t.requires_grad)

    with _mode(body):
        torch.tensor([1.0]).sin()
    assert seen["t"] == (0, None, leaf)


def test_an_inner_modes_writes_reach_the_outer_mode():
    from torch.utils._python_dispatch import TorchDispatchMode

    seen = []

    class Outer(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            seen.append(str(func))
            return out

    def body(func, args):
        x = args[0]
        x.add_(1)
        x.t_()
        x.detach_()
        torch.mul(x, 2, out=torch.empty(2))
        seen.append((x._version, x.requires_grad, x.grad_fn))

    leaf, _ = _leaves()
    with Outer(), _mode(body):
        s = leaf.sin()
    assert seen == ["aten.add_.Tensor", "aten.t_.default", "aten.detach_.default",
                    "aten.empty.memory_format", "aten.mul.out", (0, True, None),
                    "aten.sin.default"]
    assert s.grad_fn.name() == "SinBackward0" and leaf._version == 0


@pytest.mark.parametrize("call,name", [
    (lambda a: a.reshape(2, 1), "aten.reshape.default"),
    (lambda a: a.matmul(torch.ones(2)), "aten.matmul.default"),
    (lambda a: a.flatten(), "aten.flatten.using_ints"),
])
def test_an_inner_modes_composite_reaches_the_outer_mode_whole(call, name):
    from torch.utils._python_dispatch import TorchDispatchMode

    seen = []

    class Outer(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(str(func))
            return func(*args, **(kwargs or {}))

    def body(func, args):
        seen.append("body")
        call(args[0])

    leaf, _ = _leaves()
    with Outer(), _mode(body):
        leaf.sin()
    assert seen[seen.index("body") + 1:] == [*([] if "matmul" not in name else
                                                ["aten.ones.default"]), name, "aten.sin.default"]


def test_the_body_may_write_an_inference_tensor_outside_inference_mode():
    with torch.inference_mode():
        kept = torch.ones(3)
    seen = []
    with _mode(lambda func, args: seen.append(kept.add_(1).tolist())):
        torch.neg(torch.ones(2))
    assert seen == [[2.0, 2.0, 2.0]] and kept.tolist() == [2.0, 2.0, 2.0]
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor outside"):
        kept.add_(1)  # outside a mode's own code, refused as ever


def test_an_out_call_in_the_body_on_a_dual_tensor_is_not_refused():
    fwAD = torch.autograd.forward_ad
    seen = []
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.ones(3), torch.full((3,), 5.0))
        out = torch.empty(3)
        with _mode(lambda func, args: seen.append(torch.mul(d, 2, out=out).tolist())):
            torch.neg(torch.ones(2))
        assert seen == [[2.0, 2.0, 2.0]]
        assert fwAD.unpack_dual(d).tangent.tolist() == [5.0, 5.0, 5.0]
        with pytest.raises(NotImplementedError, match="mul_out that does not support it"):
            torch.mul(d, 2, out=torch.empty(3))
