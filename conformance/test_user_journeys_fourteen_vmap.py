"""Per-graph and per-sample gradients by vmap over the journeys' message passing, and the
writes in place that vmap refuses: a batched value written into a tensor the batch does not
reach, which a loop over the slices would overwrite slice after slice."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

RNG = np.random.default_rng(141)
X = torch.tensor(RNG.standard_normal((2, 3))).float()
I3 = torch.tensor([0, 2, 1])


def write(kind, where, name):
    return (f"vmap: {kind}(self, *extra_args) is not possible because there exists a Tensor "
            "`other` in extra_args that has more elements than `self`. This happened due to "
            f"`other` being vmapped over but `self` not being vmapped over {where}. Please try "
            f"to use out-of-place operators instead of {name}. If said operator is being "
            "called inside the PyTorch framework, please file a bug report instead.")


ARITHMETIC = write("inplace arithmetic", "in a vmap", "inplace arithmetic")


def own(name):
    return write(name, "in a vmap", name)


def fallback(name, level=1):
    return write(f"aten::{name}", f"at level {level}", f"aten::{name}")


def test_vmap_of_grad_over_a_message_passing_step_is_the_loop():
    dst, src = torch.tensor([1, 2, 0, 0, 2]), torch.tensor([0, 1, 2, 1, 0])

    def loss(W, x):
        h = x @ W
        return torch.zeros(3, 2, dtype=h.dtype).index_add(0, dst, h[src]).pow(2).sum()

    W, xs = torch.tensor(RNG.standard_normal((4, 2))), torch.tensor(RNG.standard_normal((6, 3, 4)))
    batched = torch.func.vmap(torch.func.grad(loss), in_dims=(None, 0))(W, xs)
    assert torch.allclose(batched, torch.stack([torch.func.grad(loss)(W, x) for x in xs]))


@pytest.mark.parametrize("name, call, message", [
    ("mul_", lambda s, o: s.mul_(o), ARITHMETIC),
    ("sub_ alpha", lambda s, o: s.sub_(o, alpha=2), ARITHMETIC),
    ("copy_", lambda s, o: s.copy_(o), ARITHMETIC),
    ("setitem", lambda s, o: s.__setitem__(0, o[0]), ARITHMETIC),
    ("imul", lambda s, o: s.__imul__(o), ARITHMETIC),
    ("masked_fill_ by a batched mask", lambda s, o: s.masked_fill_(o > 0, 1.0), ARITHMETIC),
    ("clamp_min_", lambda s, o: s.clamp_min_(o), ARITHMETIC),
    ("fill_", lambda s, o: s.fill_(o.sum()), own("fill_")),
    ("index_add_", lambda s, o: s.index_add_(0, I3, o), own("index_add_")),
    ("scatter_add_", lambda s, o: s.scatter_add_(0, I3, o), own("scatter_add_")),
    ("scatter_reduce_", lambda s, o: s.scatter_reduce_(0, I3, o, "sum"), own("scatter_reduce_")),
    ("index_put_", lambda s, o: s.index_put_((I3,), o, accumulate=True), own("index_put_")),
    ("index_fill_", lambda s, o: s.index_fill_(0, I3, o.sum()), own("index_fill_")),
    ("pow_", lambda s, o: s.pow_(o), fallback("pow_")),
    ("lerp_", lambda s, o: s.lerp_(o, 0.5), fallback("lerp_")),
    ("addcmul_", lambda s, o: s.addcmul_(o, o), fallback("addcmul_")),
    ("index_copy_", lambda s, o: s.index_copy_(0, I3, o), fallback("index_copy_")),
    ("masked_fill_ by a batched value",
     lambda s, o: s.masked_fill_(torch.tensor([True, False, True]), o.sum()),
     fallback("masked_fill_")),
    ("add_", lambda s, o: s.add_(o), "output with shape [3] doesn't match the broadcast shape "
                                     "[2, 3]"),
    ("atan2_", lambda s, o: s.atan2_(o), "output with shape [3] doesn't match the broadcast "
                                         "shape [2, 3]"),
    ("add_ wider", lambda s, o: torch.zeros(4, 3).add_(o), "output with shape [4, 3] doesn't "
                                                           "match the broadcast shape [2, 4, 3]"),
    ("bitwise_or_", lambda s, o: s.bool().bitwise_or_(o > 0), "output with shape [3] doesn't "
                                                              "match the broadcast shape [2, 3]"),
    ("gcd_", lambda s, o: s.long().gcd_(o.long()), "output with shape [3] doesn't match the "
                                                   "broadcast shape [2, 3]"),
    ("ldexp_", lambda s, o: s.ldexp_(o), fallback("ldexp_")),
    ("before the leaf check", lambda s, o: torch.zeros(3, requires_grad=True).mul_(o),
     ARITHMETIC),
    ("before the shape check", lambda s, o: torch.zeros(2).mul_(o), ARITHMETIC),
])
def test_a_batched_value_written_into_an_unbatched_tensor(name, call, message):
    with pytest.raises(RuntimeError) as info:
        torch.func.vmap(lambda o: call(torch.zeros(3), o))(X)
    assert str(info.value) == message


def test_a_tensor_from_outside_is_left_as_it_was():
    total = torch.zeros(3)
    with pytest.raises(RuntimeError, match="inplace arithmetic"):
        torch.func.vmap(lambda o: total.copy_(o))(X)
    assert torch.equal(total, torch.zeros(3))
    summed = torch.func.vmap(lambda o: torch.zeros(3).index_add(0, I3, o))(X)  # out of place
    assert torch.equal(summed, torch.zeros(2, 3).index_add(1, I3, X))
    assert torch.equal(torch.func.vmap(lambda o: o.clone().mul_(o))(X), X * X)


@pytest.mark.parametrize("call, message", [
    (lambda: torch.func.vmap(torch.func.grad(lambda o: torch.zeros(3).mul_(o).sum()))(X),
     ARITHMETIC),
    (lambda: torch.func.vmap(torch.func.grad(lambda o: torch.zeros(3).pow_(o).sum()))(X),
     fallback("pow_", 1)),
    (lambda: torch.func.vmap(torch.func.vmap(lambda o: torch.zeros(3).pow_(o).sum()))(X[None]),
     fallback("pow_", 2)),
    (lambda: torch.func.vmap(lambda z: torch.func.vmap(lambda o: z.mul_(o))(X))(X), ARITHMETIC),
])
def test_the_refusal_names_the_level_that_batches(call, message):
    with pytest.raises(RuntimeError) as info:
        call()
    assert str(info.value) == message


def test_functions_that_write_in_place_on_their_own_batched_input_still_run():
    out = torch.func.vmap(lambda o: F.relu(o, inplace=True))(X.clone())
    assert torch.equal(out, X.clamp(min=0))
    jac = torch.func.vmap(torch.func.jacrev(lambda o: torch.zeros(3).index_add(0, I3, o)))(X)
    assert jac.shape == (2, 3, 3)


W3 = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
LOGITS = torch.tensor(RNG.standard_normal((2, 4, 3)))
TARGETS = torch.tensor([[0, 1, 2, 1], [2, 2, 0, 1]])
SELECTED = ("vmap: Attempted to vmap over `mask` in torch.masked_select(self, mask) We cannot "
            "support this because for each batch this would return a differently shaped "
            "Tensor. Please file an issue at https://github.com/pytorch/pytorch/issues if you "
            "need this feature.")


@pytest.mark.parametrize("call, message", [
    (lambda: torch.func.vmap(lambda t: F.cross_entropy(LOGITS[0], t, label_smoothing=0.1))(
        TARGETS), ARITHMETIC),
    (lambda: torch.func.vmap(lambda a, t: F.cross_entropy(a, t, W3, label_smoothing=0.1))(
        LOGITS, TARGETS), SELECTED),
    (lambda: torch.func.vmap(torch.func.grad(lambda a, t: F.cross_entropy(
        a, t, W3, label_smoothing=0.1)), in_dims=(None, 0))(LOGITS[0], TARGETS), ARITHMETIC),
])
def test_smoothed_cross_entropy_over_a_batch_of_targets_is_refused(call, message):
    with pytest.raises(RuntimeError) as info:
        call()
    assert str(info.value) == message


def test_smoothed_cross_entropy_per_sample_and_unweighted_batches_run():
    def loss(a, t, **kw):
        return F.cross_entropy(a, t, label_smoothing=0.1, **kw)

    per_sample = torch.func.vmap(torch.func.grad(lambda a, t: loss(a, t, weight=W3)))(
        LOGITS, TARGETS)
    assert torch.allclose(per_sample[1], torch.func.grad(lambda a: loss(a, TARGETS[1],
                                                                       weight=W3))(LOGITS[1]))
    summed = torch.func.vmap(lambda a, t: loss(a, t, weight=W3, reduction="sum"))(LOGITS, TARGETS)
    assert torch.allclose(summed[0], loss(LOGITS[0], TARGETS[0], weight=W3, reduction="sum"))
    assert torch.func.vmap(lambda a, t: loss(a, t))(LOGITS, TARGETS).shape == (2,)
