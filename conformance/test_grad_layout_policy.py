"""The gradient layout contract and enforce_grad_layout_policy (F197), against torch's API."""

import threading

import pytest
import torch

from conformance._support import raises


def _first_grad(leaf, make_out=lambda p: p * 2, grad=None):
    out = make_out(leaf)
    out.backward(torch.ones_like(out) if grad is None else grad)
    return leaf.grad


def test_a_first_gradient_takes_the_layout_of_a_dense_leaf():
    permuted = torch.empty(2, 3, 4).permute(2, 0, 1).requires_grad_()
    assert _first_grad(permuted).stride() == (1, 12, 4)
    transposed = torch.ones(3, 4).t().requires_grad_()
    assert _first_grad(transposed, lambda p: p * 1, torch.ones(4, 3)).stride() == (1, 4)
    contiguous = torch.ones(4, 3, requires_grad=True)
    assert _first_grad(contiguous, lambda p: p.view(4, 3), torch.ones(3, 4).t()).stride() == (
        3, 1)
    gaps = torch.ones(4, 6)[:, ::2].detach().requires_grad_()
    assert _first_grad(gaps).stride() == (3, 1)  # not dense: row by row
    transposed = torch.ones(3, 4).t().requires_grad_()
    transposed.backward(torch.ones(4, 3))
    transposed.backward(torch.ones(3, 4).t())  # added in place: the layout stays
    assert transposed.grad.stride() == (1, 4) and transposed.grad.sum().item() == 24.0


def test_relaxing_the_contract_lets_a_gradient_nobody_holds_be_stolen():
    transposed = torch.ones(3, 4).t().requires_grad_()
    with torch.autograd.enforce_grad_layout_policy(False):
        assert _first_grad(transposed, lambda p: p * 1, torch.ones(4, 3)).stride() == (3, 1)
    assert torch._C._is_grad_layout_enforcement_enabled()


def test_enforce_grad_layout_policy_acts_at_construction_per_thread():
    assert torch._C._is_grad_layout_enforcement_enabled()
    torch.autograd.enforce_grad_layout_policy(False)
    assert not torch._C._is_grad_layout_enforcement_enabled()
    seen = []
    worker = threading.Thread(
        target=lambda: seen.append(torch._C._is_grad_layout_enforcement_enabled()))
    worker.start()
    worker.join()
    torch.autograd.enforce_grad_layout_policy(True)
    assert seen == [True]

    @torch.autograd.enforce_grad_layout_policy(False)
    def inside():
        return torch._C._is_grad_layout_enforcement_enabled()

    assert (inside(), torch._C._is_grad_layout_enforcement_enabled()) == (False, True)
    assert torch.autograd.grad_mode.enforce_grad_layout_policy is (
        torch.autograd.enforce_grad_layout_policy)
    with raises(TypeError, "set_grad_layout_enforcement_enabled(): argument 'enabled' "
                           "(position 1) must be bool, not int"):
        torch.autograd.enforce_grad_layout_policy(1)
    assert torch._C._is_grad_layout_enforcement_enabled()


def test_the_questions_torch_autograd_answers():
    assert torch.autograd.is_multithreading_enabled is torch._C._is_multithreading_enabled
    assert torch.autograd.is_view_replay_enabled is torch._C._is_view_replay_enabled
    assert (torch.autograd.is_multithreading_enabled(),
            torch.autograd.is_view_replay_enabled()) == (True, False)
    x = torch.ones(2, requires_grad=True)
    assert type(x.exp().grad_fn._raw_saved_result) is torch.autograd.SavedTensor


def test_an_inference_grad_is_added_into_then_refused_outside_inference_mode():
    with torch.inference_mode():
        inference_grad = torch.ones(2)
    a = torch.ones(2, requires_grad=True)
    a.grad = inference_grad
    with pytest.raises(RuntimeError, match=r"\AInplace update to inference tensor outside "
                       r"InferenceMode is not allowed\."):
        (a * 2).sum().backward()
    assert a.grad is inference_grad and a.grad.tolist() == [3.0, 3.0]
    b = (a * 2).sum()
    with torch.inference_mode():
        b.backward()
    assert a.grad is inference_grad and a.grad.tolist() == [5.0, 5.0]


def test_the_policy_is_set_when_made_and_entering_sets_nothing():
    policy = torch.autograd.enforce_grad_layout_policy(False)
    with policy:
        assert not torch._C._is_grad_layout_enforcement_enabled()
    assert torch._C._is_grad_layout_enforcement_enabled()
    with policy:  # made once: the second block keeps what the first restored
        assert torch._C._is_grad_layout_enforcement_enabled()
    policy = torch.autograd.enforce_grad_layout_policy(False)
    torch._C._set_grad_layout_enforcement_enabled(True)
    with policy:
        assert torch._C._is_grad_layout_enforcement_enabled()
    assert torch._C._is_grad_layout_enforcement_enabled()
