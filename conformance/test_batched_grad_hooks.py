"""grad(is_grads_batched=True): what a hook on the way sees, and the result's kind."""

import torch


def test_a_hook_on_the_way_sees_gradients_shaped_as_one_row():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    seen = []
    y.register_hook(lambda g: seen.append((tuple(g.shape), g.dtype)))
    (g,) = torch.autograd.grad(y.sin(), x, torch.eye(3), is_grads_batched=True,
                               create_graph=True)
    # torch calls the hook once, refgrad once per row: only what each call sees agrees
    assert seen and all(s == ((3,), torch.float32) for s in seen)
    assert g.shape == (3, 3) and g.dtype == torch.float32 and g.requires_grad
    expected = torch.diag(2 * torch.cos(x.detach() * 2))
    assert torch.equal(g.detach(), expected)
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert torch.allclose(gg, -4 * torch.sin(x.detach() * 2))


def test_a_hook_that_changes_the_gradient_changes_every_row():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: g * 10)
    (g,) = torch.autograd.grad(y.sin(), x, torch.eye(3), is_grads_batched=True)
    assert torch.equal(g, torch.diag(20 * torch.cos(x.detach() * 2)))
