"""The uses torch.func's own documentation shows, run as written for torch: a Jacobian as a
vmap of vjp_fn over the identity, per-example gradients of a model, vmap with keywords,
jvp of a two-argument function, and a Hessian of a sum of sines."""

import pytest
import torch
from torch.func import functional_call, grad, hessian, jacrev, jvp, linearize, vjp, vmap


def test_a_jacobian_as_vmap_of_vjp_over_the_identity():
    torch.manual_seed(0)
    x = torch.randn(5)
    out, vjp_fn = vjp(torch.sin, x)
    (rows,) = vmap(vjp_fn)(torch.eye(5))
    torch.testing.assert_close(rows, torch.diag(torch.cos(x)), rtol=0, atol=0)
    torch.testing.assert_close(rows, jacrev(torch.sin)(x), rtol=0, atol=0)


def test_batched_dot_and_a_shared_argument():
    torch.manual_seed(0)
    x, y = torch.randn(2, 5), torch.randn(2, 5)
    torch.testing.assert_close(vmap(torch.dot)(x, y), (x * y).sum(-1))
    w = torch.randn(5)
    torch.testing.assert_close(vmap(torch.dot, in_dims=(0, None))(x, w), x @ w)


def test_keywords_go_to_every_slice_unbatched():
    def scaled(x, scale=1.0):
        return x * scale

    x = torch.arange(6.0).reshape(2, 3)
    assert vmap(scaled)(x, scale=4.0).tolist() == (x * 4).tolist()


def test_per_example_gradients_of_a_model_match_one_backward_each():
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 1)
    data, targets = torch.randn(4, 3), torch.randn(4, 1)
    params = {k: v.detach() for k, v in model.named_parameters()}

    def loss(p, x, t):
        y = functional_call(model, p, (x.unsqueeze(0),))
        return torch.nn.functional.mse_loss(y, t.unsqueeze(0))

    per = vmap(grad(loss), in_dims=(None, 0, 0))(params, data, targets)
    for i in range(4):
        model.zero_grad()
        loss(dict(model.named_parameters()), data[i], targets[i]).backward()
        for name, p in model.named_parameters():
            torch.testing.assert_close(per[name][i], p.grad)


def test_a_seeded_model_holds_the_draws_its_initialisation_makes():
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 2)
    torch.manual_seed(0)
    bound = 3 ** -0.5  # kaiming_uniform_ with a=sqrt(5), and the bias's 1/sqrt(fan_in)
    weight = torch.empty(2, 3).uniform_(-bound, bound)
    bias = torch.empty(2).uniform_(-bound, bound)
    torch.testing.assert_close(model.weight.detach(), weight)
    torch.testing.assert_close(model.bias.detach(), bias)
    x = torch.randn(4, 3)
    torch.testing.assert_close(functional_call(model, {"weight": weight, "bias": bias}, x),
                               model(x).detach())


# torch's linearize traces f with torch.fx, which warns about its own graph
@pytest.mark.filterwarnings("ignore:Attempted to insert a get_attr Node")
def test_jvp_of_mul_and_a_linearized_sin():
    torch.manual_seed(0)
    x, y = torch.randn(5), torch.randn(5)
    tx, ty = torch.ones(5), torch.ones(5)
    out, dot = jvp(torch.mul, (x, y), (tx, ty))
    torch.testing.assert_close(out, x * y, rtol=0, atol=0)
    torch.testing.assert_close(dot, y * tx + x * ty)
    value, jvp_fn = linearize(torch.sin, x)
    torch.testing.assert_close(jvp_fn(tx), jvp(torch.sin, (x,), (tx,))[1], rtol=0, atol=0)


def test_the_hessian_of_a_sum_of_sines_is_diagonal():
    torch.manual_seed(0)
    x = torch.randn(5)
    torch.testing.assert_close(hessian(lambda a: a.sin().sum())(x), torch.diag(-x.sin()))
