"""Module's methods name Module in Python's own argument errors, as torch's do. The same
assertions run on torch."""

import pytest
import torch


@pytest.mark.parametrize("call, message", [
    (lambda m: m.register_buffer(), "Module.register_buffer() missing 2 required positional "
                                    "arguments: 'name' and 'tensor'"),
    (lambda m: m.add_module("a"), "Module.add_module() missing 1 required positional argument: "
                                  "'module'"),
    (lambda m: m.named_parameters(1, 2, 3, 4), "Module.named_parameters() takes from 1 to 4 "
                                               "positional arguments but 5 were given"),
    (lambda m: m.train(1, 2), "Module.train() takes from 1 to 2 positional arguments but 3 were "
                              "given"),
    (lambda m: m.register_forward_hook(), "Module.register_forward_hook() missing 1 required "
                                          "positional argument: 'hook'"),
    (lambda m: m.__setstate__(), "Module.__setstate__() missing 1 required positional argument: "
                                 "'state'"),
])
def test_argument_errors_name_module(call, message):
    with pytest.raises(TypeError) as caught:
        call(torch.nn.Linear(2, 2))
    assert str(caught.value) == message
