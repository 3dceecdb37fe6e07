"""refgrad's side of the factories' argument reading: what torch cannot show."""

import inspect

import refgrad as torch
from refgrad import _creation, _factories, _from_data
from refgrad._arguments import Arguments


def test_refgrads_own_calls_skip_the_reading():
    for function, name in ((_creation.zeros_like, "zeros_like"), (_from_data.constructed, "tensor"),
                           (_factories.eye, "eye")):
        wrapped = getattr(torch, name)
        assert wrapped is not function
        assert inspect.unwrap(wrapped) is function and wrapped.__name__ == name


def test_the_new_kinds_of_parameter():
    options = Arguments("f(Tensor input, *, torch.device? device = None, "
                        "torch.layout? layout = None, torch.memory_format? memory_format = None)")
    x = torch.ones(1)
    for fitting in ({"device": "cpu"}, {"device": torch.device("cpu")}, {"layout": torch.strided},
                    {"memory_format": None}, {"device": None}):
        assert options.error((x,), fitting) is None
    assert str(options.error((x,), {"memory_format": object()})) == (
        "f(): argument 'memory_format' must be torch.memory_format, not object")
    assert str(options.error((x,), {"device": 1.5})) == (
        "f(): argument 'device' must be torch.device, not float")


def test_a_zero_dim_tensor_is_read_as_its_number():
    numbers = Arguments("g(Number value, float scale)")
    args, _ = numbers.read((torch.tensor(2.5), torch.tensor(3)), {})
    assert args == (2.5, 3) and all(type(a) in (int, float) for a in args)
    assert numbers.error((torch.tensor([2.5]), 1.0), {}) is not None
    assert numbers.error((torch.tensor(2.5, requires_grad=True), 1.0), {}) is not None
