"""Gradient clipping hands plain gradients to the foreach functions, unless foreach=False."""

import pytest
import torch

from conformance._support import raises, recording_mode

FOREACH_INF = ("_foreach_norm cannot compute the infinity norm on an empty tensor because the "
               "operation does not have an identity")
VECTOR_NORM = ("linalg.vector_norm cannot compute the {} norm on an empty tensor because the "
               "operation does not have an identity")


def _params():
    ps = [torch.zeros(3, requires_grad=True), torch.zeros(2, dtype=torch.float64,
                                                          requires_grad=True),
          torch.zeros(2, requires_grad=True)]
    for p, g in zip(ps, ([3.0, -4.0, 0.5], [2.0, -0.25], [-7.0, 1.0])):
        p.grad = torch.tensor(g, dtype=p.dtype)
    return ps


@pytest.mark.parametrize("foreach, bumps", [(None, 2), (True, 2), (False, 1)])
def test_clip_grad_value_clamps_below_then_above_on_the_foreach_path(foreach, bumps):
    ps = _params()
    before = [p.grad._version for p in ps]
    torch.nn.utils.clip_grad_value_(ps, 1.0, foreach=foreach)
    assert [p.grad._version - v for p, v in zip(ps, before)] == [bumps] * 3
    assert [p.grad.tolist() for p in ps] == [[1.0, -1.0, 0.5], [1.0, -0.25], [-1.0, 1.0]]


def test_a_gradient_of_a_subclass_takes_the_one_tensor_path_by_default():
    class Sub(torch.Tensor):
        pass

    p = torch.zeros(2, requires_grad=True)
    p.grad = torch.tensor([3.0, -4.0]).as_subclass(Sub)
    before = p.grad._version
    torch.nn.utils.clip_grad_value_([p], 1.0)
    assert p.grad._version - before == 1


@pytest.mark.parametrize("foreach, ord, message", [
    (None, "inf", FOREACH_INF), (True, "inf", FOREACH_INF),
    (False, "inf", VECTOR_NORM.format("inf")), (None, "-inf", VECTOR_NORM.format("-inf")),
])
def test_the_infinity_norm_of_an_empty_gradient_is_refused_by_the_path_taken(foreach, ord,
                                                                            message):
    p = torch.zeros(0, requires_grad=True)
    p.grad = torch.zeros(0)
    with raises(RuntimeError, message):
        torch.nn.utils.clip_grad_norm_([p], 1.0, norm_type=ord, foreach=foreach)


@pytest.mark.parametrize("ords", [[float("inf")], [float("inf"), 2.0]])
def test_foreach_norm_refuses_an_empty_tensor_for_the_infinity_norm(ords):
    for ord in ords:
        tensors = [torch.ones(2), torch.zeros(0)]
        if ord == 2.0:
            norms = torch._foreach_norm(tensors, ord)
            assert [t.item() for t in norms] == [torch.tensor(2.0).sqrt().item(), 0.0]
        else:
            with raises(RuntimeError, FOREACH_INF):
                torch._foreach_norm(tensors, ord)


@pytest.mark.parametrize("norm_type", [2.0, 1.0, "inf"])
def test_both_paths_give_the_same_norm_and_the_same_scaled_gradients(norm_type):
    results = []
    for foreach in (None, False):
        ps = _params()
        total = torch.nn.utils.clip_grad_norm_(ps, 1.0, norm_type=norm_type, foreach=foreach)
        results.append((total, [p.grad for p in ps], [p.grad._version for p in ps]))
    (t1, g1, v1), (t2, g2, v2) = results
    assert torch.equal(t1, t2) and v1 == v2 == [1, 1, 1]
    assert all(torch.equal(a, b) for a, b in zip(g1, g2))


def test_a_mode_sees_the_foreach_ops_for_plain_gradients():
    mode = recording_mode()
    with mode() as seen:
        torch.nn.utils.clip_grad_value_(_params(), 1.0)
    assert seen.seen.count("aten._foreach_clamp_min_.Scalar") == 2  # float32, then float64
    assert seen.seen.count("aten._foreach_clamp_max_.Scalar") == 2
    with mode() as seen:
        torch.nn.utils.clip_grad_norm_(_params(), 1.0)
    assert seen.seen.count("aten._foreach_norm.Scalar") == 2
    with mode() as seen:
        torch.nn.utils.clip_grad_norm_(_params(), 1.0, foreach=False)
    assert "aten._foreach_norm.Scalar" not in seen.seen
