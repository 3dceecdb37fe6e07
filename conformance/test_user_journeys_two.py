"""More journeys through torch's own autograd documentation: the autograd mechanics notes,
extending autograd with Functions, the hooks notes, torch.autograd.functional, and a small
training script. Each test asserts what a user reading those pages relies on: which tensor
is saved, which errors say what, in which order hooks run, and what survives a round trip."""

import io
import threading

import numpy as np
import pytest
import torch
from torch.autograd import Function, gradcheck, gradgradcheck
from torch.autograd.function import once_differentiable
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

FREED = "Trying to backward through the graph a second time"
MODIFIED = "one of the variables needed for gradient computation has been modified by an inplace"


def numbers(*shape, seed=0):
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape))


def test_saved_tensors_are_the_input_or_a_copy_of_the_output():
    x = numbers(5).requires_grad_()
    y = x.pow(2)
    assert y.grad_fn._saved_self is x and y.grad_fn._saved_exponent == 2
    e = x.exp()
    assert e.grad_fn._saved_result.equal(e) and e.grad_fn._saved_result is not e
    y.sum().backward()
    with pytest.raises(RuntimeError, match=FREED):
        y.grad_fn._saved_self
    with pytest.raises(RuntimeError, match=FREED):
        y.sum().backward()


def test_in_place_checks_name_the_tensor_and_its_versions():
    a = numbers(4, seed=1).requires_grad_()
    b = a.sigmoid()
    b.mul_(2)
    with pytest.raises(RuntimeError, match=MODIFIED) as info:
        b.sum().backward()
    assert "[torch.DoubleTensor [4]], which is output 0 of Sigmoid, is at version 1; " \
           "expected version 0 instead." in str(info.value)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used"):
        a.add_(1)
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
        a[0].mul_(2)
    k = a.exp()
    k.detach().add_(1)  # the detached tensor shares the version counter
    assert k._version == 1
    with pytest.raises(RuntimeError, match="output 0 of Exp"):
        k.sum().backward()


def test_inference_mode_rules():
    x = numbers(3).requires_grad_()
    with torch.inference_mode():
        z = x * 2
        w = torch.ones(2)
        assert torch.is_inference_mode_enabled() and not z.requires_grad and z.is_inference()
    assert not x.is_inference() and not (w * 2).is_inference()
    with pytest.raises(RuntimeError, match="Inference tensors cannot be saved for backward"):
        x[:2].exp() * w
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor outside"):
        w.add_(1)
    with pytest.raises(RuntimeError, match="Setting requires_grad=True on inference tensor"):
        w.requires_grad_()
    with pytest.raises(RuntimeError, match="Inference tensors do not track version counter"):
        w._version
    with torch.inference_mode():
        assert not torch.is_grad_enabled()
        with torch.enable_grad():
            assert torch.is_grad_enabled() and not (x * 2).requires_grad


def test_grad_mode_decorates_generators_and_is_thread_local():
    x = numbers(3).requires_grad_()

    @torch.no_grad()
    def gen():
        for i in range(2):
            yield torch.is_grad_enabled(), (x * i).requires_grad

    assert list(gen()) == [(False, False), (False, False)] and torch.is_grad_enabled()
    seen = []
    with torch.no_grad():
        thread = threading.Thread(target=lambda: seen.append(torch.is_grad_enabled()))
        thread.start()
        thread.join()
    assert seen == [True]
    w = torch.zeros(4, dtype=torch.double, requires_grad=True)

    def job():
        for _ in range(10):
            (w * 2 + 1).sum().backward()

    threads = [threading.Thread(target=job) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert torch.equal(w.grad, torch.full((4,), 80.0, dtype=torch.double))


class MulInPlace(Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 2


class Sort(Function):
    @staticmethod
    def forward(x):
        return x.sort()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.mark_non_differentiable(output[1])
        ctx.save_for_backward(output[1])

    @staticmethod
    def backward(ctx, g, g_index):
        index, = ctx.saved_tensors
        ctx.seen = g_index
        return torch.zeros_like(g).index_add_(0, index, g)


def test_mark_dirty_and_mark_non_differentiable():
    q = numbers(3, seed=2).requires_grad_()
    c = q.clone()
    r = MulInPlace.apply(c)
    assert r is c and type(r.grad_fn).__name__ == "MulInPlaceBackward" and c._version == 2
    r.sum().backward()
    assert torch.equal(q.grad, torch.full((3,), 2.0, dtype=torch.double))
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad has been used"):
        MulInPlace.apply(q)
    s, index = Sort.apply(q)
    assert s.requires_grad and not index.requires_grad and index.dtype == torch.int64
    s.sum().backward()  # an index's gradient comes as zeros of its own dtype
    assert torch.equal(s.grad_fn.seen, torch.zeros(3, dtype=torch.int64))


class TwoCopies(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x.clone()

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):
        ctx.nones = (g1 is None, g2 is None)
        return g1 if g2 is None else g2


def test_set_materialize_grads_and_once_differentiable():
    x = numbers(3, seed=3).requires_grad_()
    first, _ = TwoCopies.apply(x)
    first.sum().backward()
    assert first.grad_fn.nones == (False, True)
    g, = torch.autograd.grad(TwoCopies.apply(x)[0].sum(), x, create_graph=True)
    assert not g.requires_grad and g.grad_fn is None


class Square(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * 2 * x


class SinhSavedOnCtx(Function):  # saves intermediates on ctx: no double backward
    @staticmethod
    def forward(ctx, x):
        ctx.expx, ctx.expnegx = torch.exp(x), torch.exp(-x)
        return (ctx.expx - ctx.expnegx) / 2

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out * (ctx.expx + ctx.expnegx) / 2


def test_double_backward_of_a_custom_function():
    x = torch.tensor(np.random.default_rng(4).random((3, 3)), requires_grad=True)
    assert gradcheck(Square.apply, x) and gradgradcheck(Square.apply, x)
    g, = torch.autograd.grad(Square.apply(x).sum(), x, create_graph=True)
    gg, = torch.autograd.grad(g.sum(), x)
    assert torch.equal(gg, torch.full((3, 3), 2.0, dtype=torch.double))
    assert gradcheck(SinhSavedOnCtx.apply, x)
    assert not gradgradcheck(SinhSavedOnCtx.apply, x, raise_exception=False)


class WrongSquare(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x


def test_fast_gradcheck_reports_torchs_numerical_number():
    data = np.random.default_rng(5).random(13)[4:].reshape(3, 3)
    x = torch.tensor(data, requires_grad=True)
    with pytest.raises(RuntimeError, match="Jacobian mismatch") as info:
        gradcheck(WrongSquare.apply, x, fast_mode=True)
    # torch's number: v^T (J u) summed as torch sums, u and v normalized as torch does
    assert "\nnumerical:0.5440301020602043\n" in str(info.value)


def test_hooks_run_in_the_documented_order():
    order = []
    a = numbers(3, seed=5).requires_grad_()
    b = a.mul(2)
    b.register_hook(lambda g: order.append("tensor"))
    b.register_hook(lambda g: g * 10)
    b.grad_fn.register_hook(lambda gi, go: order.append("node"))
    b.grad_fn.register_prehook(lambda go: order.append("node_pre"))
    a.register_post_accumulate_grad_hook(lambda t: order.append("post_accumulate"))
    a.register_hook(lambda g: order.append("leaf"))
    b.retain_grad()  # its hook runs after the tensor's other hooks
    b.sum().backward()
    assert order == ["tensor", "node_pre", "node", "leaf", "post_accumulate"]
    assert torch.equal(b.grad, torch.full((3,), 10.0, dtype=torch.double))
    assert torch.equal(a.grad, torch.full((3,), 20.0, dtype=torch.double))


def test_removing_hooks_inside_hooks_and_hooks_around_in_place():
    order = []
    c = numbers(3, seed=6).requires_grad_()
    d = c * 3
    handles = []

    def remove_itself(g):
        order.append("self")
        handles[0].remove()

    handles.append(d.register_hook(remove_itself))
    handles.append(d.register_hook(lambda g: order.append("other")))
    d.sum().backward(retain_graph=True)
    d.sum().backward()
    assert order == ["self", "other", "other"]
    order.clear()
    y = c.clone()
    y.register_hook(lambda g: order.append(("before", g.tolist())))
    y.mul_(2)
    y.register_hook(lambda g: order.append(("after", g.tolist())))
    y.sum().backward()
    assert order == [("after", [1.0] * 3), ("before", [2.0] * 3)]


def test_hooks_fire_only_where_inputs_ask():
    order = []
    x, y = numbers(3, seed=7).requires_grad_(), numbers(3, seed=8).requires_grad_()
    m = x * y
    x.register_hook(lambda g: order.append("x"))
    y.register_hook(lambda g: order.append("y"))
    m.grad_fn.register_hook(lambda gi, go: order.append([g is None for g in gi]))
    m.sum().backward(inputs=[x], retain_graph=True)
    assert order == [[False, True], "x"] and y.grad is None
    order.clear()
    torch.autograd.grad(m.sum(), [y])
    assert order == [[True, False], "y"]


def test_autograd_functional_on_the_documented_functions():
    inputs = torch.tensor(np.random.default_rng(9).random((2, 2)))
    j = jacobian(lambda x: x.exp().sum(dim=1), inputs)
    assert j.shape == (2, 2, 2) and torch.allclose(j[0, 0], inputs[0].exp())
    assert torch.equal(j[0, 1], torch.zeros(2, dtype=torch.double))
    assert type(jacobian(lambda x: x.exp().sum(1), inputs, create_graph=True).grad_fn).__name__ \
        == "ViewBackward0"
    with pytest.raises(NotImplementedError, match="only implemented for `vectorize=True`"):
        jacobian(lambda x: x * 2, inputs, strategy="forward-mode")
    with pytest.raises(RuntimeError, match="Output 0 of the user-provided function does not"):
        jacobian(lambda x: torch.ones(2, dtype=torch.double), inputs, strict=True)
    h = hessian(lambda x: x.pow(3).sum(), inputs)
    assert torch.allclose(h.reshape(4, 4), torch.diag(6 * inputs.reshape(-1)))
    v = torch.ones(2, 2, dtype=torch.double)
    assert torch.allclose(vhp(lambda x: x.pow(3).sum(), inputs, v)[1], 6 * inputs)
    assert torch.allclose(hvp(lambda x: x.pow(3).sum(), inputs, v)[1], 6 * inputs)
    with pytest.raises(RuntimeError, match="found that the jacobian of the user-provided"):
        hvp(lambda x: x.sum(), inputs, v, strict=True)
    with pytest.raises(RuntimeError, match="v has invalid size: should be torch.Size"):
        vjp(lambda x: x.sum(1), inputs, torch.ones(3, dtype=torch.double))
    out, tangent = jvp(lambda x: x.exp().sum(1), inputs, v)
    assert torch.allclose(out, tangent)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(8, 16)
        self.fc2 = torch.nn.Linear(16, 3)
        self.register_buffer("steps", torch.zeros((), dtype=torch.long))

    def forward(self, x):
        self.steps += 1
        return self.fc2(torch.relu(self.fc1(x)))


def test_training_checkpointing_and_evaluation():
    torch.manual_seed(0)
    model = Net()
    rng = np.random.default_rng(10)
    data = torch.tensor(rng.standard_normal((32, 8)).astype(np.float32))
    labels = torch.tensor(rng.integers(0, 3, 32))
    opt = torch.optim.AdamW(model.parameters(), lr=0.01)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
    losses = []
    for _ in range(6):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(data), labels)
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)
        opt.step()
        sched.step()
        losses.append(loss.item())
    assert losses[-1] < losses[0] and norm.shape == () and sched.get_last_lr() == [0.0025]
    buffer = io.BytesIO()
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(),
                "sched": sched.state_dict()}, buffer)
    buffer.seek(0)
    saved = torch.load(buffer, weights_only=True)
    assert saved["opt"]["state"][0]["step"] == 6 and saved["sched"]["last_epoch"] == 6
    restored = Net()
    assert str(restored.load_state_dict(saved["model"])) == "<All keys matched successfully>"
    assert restored.steps.item() == 6
    with torch.no_grad():
        assert torch.equal(restored(data), model(data))
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "steps", "fc1.bias"'):
        restored.load_state_dict({"fc1.weight": torch.zeros(16, 8)})
