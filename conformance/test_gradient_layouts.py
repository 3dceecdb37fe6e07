"""Black-box tests: the strides a leaf's .grad gets, by torch's gradient layout contract, on the
first backward and on later ones, with and without create_graph. The same assertions run on
torch.
"""

import warnings

import pytest
import torch
import torch.nn.functional as F

CL = (60, 1, 15, 3)  # channels_last strides of a (2, 3, 4, 5) tensor
ROWS = (60, 20, 5, 1)


def _leaf(name):
    made = {
        "channels_last": lambda: torch.randn(2, 3, 4, 5).contiguous(
            memory_format=torch.channels_last),
        "permuted": lambda: torch.randn(2, 3, 4, 5).permute(0, 2, 1, 3),
        "transposed": lambda: torch.randn(3, 4).t(),
        "sliced": lambda: torch.randn(2, 3, 4, 10)[..., ::2],  # not dense: row-major .grad
        "sliced_channels_last": lambda: torch.randn(2, 4, 10, 3).permute(0, 3, 1, 2)[..., ::2],
        "expanded": lambda: torch.randn(2, 3, 1, 1).expand(2, 3, 4, 5),
        # dense, with strides of its own for its dimensions of size 1
        "odd_ones": lambda: torch.randn(10).as_strided((2, 1, 1, 5), (5, 7, 1, 1)),
        "one_channel": lambda: torch.randn(40).as_strided((2, 1, 4, 5), (20, 1, 5, 1)),
    }[name]()
    return made.detach().requires_grad_()


GRADS = {
    "sum": lambda x: x.sum(),  # an expanded gradient: copied
    "mul": lambda x: (x * 2).sum(),  # a fresh row-major one: stolen if it fits
    "exp": lambda x: x.exp().sum(),  # under create_graph, a gradient with a graph
}

# leaf, loss, create_graph: .grad's strides after one backward, then after two
LAYOUTS = [
    ("channels_last", "sum", False, CL, CL),
    ("channels_last", "mul", False, CL, CL),
    ("channels_last", "mul", True, CL, CL),
    ("channels_last", "exp", True, CL, CL),
    ("permuted", "sum", True, (60, 5, 20, 1), (60, 5, 20, 1)),
    ("permuted", "mul", False, (60, 5, 20, 1), (60, 5, 20, 1)),
    ("permuted", "mul", True, (60, 5, 20, 1), (60, 5, 20, 1)),
    ("permuted", "exp", True, (60, 5, 20, 1), (60, 5, 20, 1)),
    ("transposed", "mul", True, (1, 4), (1, 4)),
    ("transposed", "exp", False, (1, 4), (1, 4)),
    ("sliced", "sum", False, ROWS, ROWS),
    ("sliced", "exp", True, ROWS, ROWS),
    ("sliced_channels_last", "mul", True, ROWS, ROWS),
    ("expanded", "sum", True, ROWS, ROWS),
    ("expanded", "exp", False, ROWS, ROWS),
    ("odd_ones", "sum", False, (5, 7, 1, 1), (5, 7, 1, 1)),
    ("odd_ones", "sum", True, (5, 7, 1, 1), (5, 10, 1, 1)),  # the sum's own order
    ("odd_ones", "mul", False, (5, 5, 5, 1), (5, 5, 5, 1)),  # stolen: fits but for the 1s
    ("odd_ones", "mul", True, (5, 7, 1, 1), (5, 5, 5, 1)),
    ("odd_ones", "exp", True, (5, 7, 1, 1), (5, 5, 5, 1)),
    ("one_channel", "sum", False, (20, 1, 5, 1), (20, 1, 5, 1)),
    ("one_channel", "mul", False, (20, 20, 5, 1), (20, 20, 5, 1)),
    ("one_channel", "exp", True, (20, 1, 5, 1), (20, 20, 5, 1)),
]


@pytest.mark.parametrize("leaf, loss, create_graph, first, second", LAYOUTS)
def test_the_gradient_layout_contract(leaf, loss, create_graph, first, second):
    x = _leaf(leaf)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # backward with create_graph warns
        GRADS[loss](x).backward(create_graph=create_graph)
        assert x.grad.stride() == first
        expected = x.grad.detach().clone()
        GRADS[loss](x).backward(create_graph=create_graph)
    assert x.grad.stride() == second
    assert torch.allclose(x.grad, 2 * expected)
    assert (x.grad.grad_fn is not None) is (create_graph and loss == "exp")


def test_a_channels_last_weight_keeps_its_layout_through_training_steps():
    w = torch.randn(4, 3, 3, 3).contiguous(memory_format=torch.channels_last)
    w.requires_grad_()
    x = torch.randn(2, 3, 8, 8)
    for _ in range(2):
        F.conv2d(x, w).sum().backward()
        assert w.grad.is_contiguous(memory_format=torch.channels_last)
        assert w.grad.stride() == (27, 1, 9, 3)


def test_a_module_moved_to_channels_last():
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.Flatten(),
                                torch.nn.Linear(4 * 6 * 6, 2))
    weight, bias = model[0].weight, model[0].bias
    model(torch.randn(2, 3, 8, 8)).sum().backward()
    assert model.to(memory_format=torch.channels_last) is model
    assert model[0].weight is weight and weight.stride() == (27, 1, 9, 3)
    assert weight.grad.stride() == (27, 1, 9, 3)
    assert bias.stride() == (1,) and model[2].weight.stride() == (144, 1)  # not 4-d: as it was
    model(torch.randn(2, 3, 8, 8)).sum().backward()
    assert weight.grad.stride() == (27, 1, 9, 3)


def _contract_warning(grad, grad_strides, param_strides):
    return ("grad and param do not obey the gradient layout contract. This is not an error, "
            f"but may impair performance.\ngrad.sizes() = {grad}, strides() = {grad_strides}\n"
            f"param.sizes() = {grad}, strides() = {param_strides}")


# leaf, the .grad set before backward, and the strides the warning shows (None: no warning);
# under create_graph the sum is a new tensor, row-major where the .grad was not dense
EXISTING_GRADS = [
    (lambda: torch.randn(3, 4).t(), lambda: torch.zeros(4, 3), ([4, 3], [3, 1], [1, 4])),
    (lambda: torch.randn(3, 4), lambda: torch.zeros(4, 3).t(), ([3, 4], [1, 3], [4, 1])),
    (lambda: torch.randn(3, 4), lambda: torch.zeros(3, 8)[:, ::2], ([3, 4], [8, 2], [4, 1]),
     False),
    # not dense: a row-major .grad obeys, any other does not
    (lambda: torch.randn(4, 4)[:, ::2], lambda: torch.zeros(4, 2), None),
    (lambda: torch.randn(4, 4)[:, ::2], lambda: torch.zeros(2, 4).t(), ([4, 2], [1, 4], [4, 2])),
    (lambda: torch.randn(0, 3).t(), lambda: torch.zeros(3, 0), ([3, 0], [1, 1], [1, 3])),
    (lambda: torch.randn(3, 4), lambda: torch.zeros(3, 4), None),
    (lambda: torch.randn(1, 3), lambda: torch.zeros(3, 1).t(), None),  # only a size of 1 differs
    (lambda: torch.randn(2, 1, 3), lambda: torch.zeros(2, 3).unsqueeze(1), None),
]


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("leaf, grad, shown, summed_warns",
                         [case if len(case) == 4 else (*case, True) for case in EXISTING_GRADS])
def test_a_grad_breaking_the_layout_contract_is_warned_of(warn_always, leaf, grad, shown,
                                                          create_graph, summed_warns):
    x = leaf().detach().requires_grad_()
    x.grad = before = grad()
    strides = before.stride()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (x * 2).sum().backward(create_graph=create_graph)
    messages = [str(w.message).split(" (Triggered internally at ")[0] for w in caught
                if "reference cycle" not in str(w.message)]
    warns = shown is not None and (summed_warns or not create_graph)
    assert messages == ([_contract_warning(*shown)] if warns else [])
    assert all(w.category is UserWarning for w in caught)
    assert (x.grad is before) is not create_graph
    if not create_graph:
        assert x.grad.stride() == strides  # added in place, not relaid
    assert torch.equal(x.grad, torch.full_like(x, 2.0))


def test_the_layout_warning_comes_from_a_gradient_that_is_added(warn_always):
    x = torch.randn(3, 4).t().detach().requires_grad_()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (x * 2).sum().backward()  # the first gradient is laid out like x
        (x * 2).sum().backward()
        g = torch.ones(4, 3)
        torch.autograd.backward(x * 1, g)
    assert caught == [] and x.grad.stride() == (1, 4)
