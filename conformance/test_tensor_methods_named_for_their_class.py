"""A tensor's Python-level methods are named for torch's classes: Python's own refusal of
their arguments says Tensor.__repr__() (or Parameter.__deepcopy__()), and their
__qualname__ is torch's. The same assertions run on torch."""

import traceback

import pytest
import torch

from conformance._support import raises

_CALLS = {
    "__repr__": (lambda t: t.__repr__(1, 2, 3),
                 "Tensor.__repr__() takes 1 positional argument but 4 were given"),
    "__repr__ keyword": (lambda t: t.__repr__(x=1),
                         "Tensor.__repr__() got an unexpected keyword argument 'x'"),
    "__len__": (lambda t: t.__len__(1),
                "Tensor.__len__() takes 1 positional argument but 2 were given"),
    "__format__": (lambda t: t.__format__(),
                   "Tensor.__format__() missing 1 required positional argument: 'format_spec'"),
    "__format__ two": (lambda t: t.__format__(1, 2),
                       "Tensor.__format__() takes 2 positional arguments but 3 were given"),
    "__deepcopy__": (lambda t: t.__deepcopy__(),
                     "Tensor.__deepcopy__() missing 1 required positional argument: 'memo'"),
    "__reduce_ex__": (lambda t: t.__reduce_ex__(),
                      "Tensor.__reduce_ex__() missing 1 required positional argument: 'proto'"),
    "__setstate__": (lambda t: t.__setstate__(),
                     "Tensor.__setstate__() missing 1 required positional argument: 'state'"),
    "__array_wrap__": (lambda t: t.__array_wrap__(),
                       "Tensor.__array_wrap__() missing 1 required positional argument: "
                       "'array'"),
}


@pytest.mark.parametrize("call, message", _CALLS.values(), ids=_CALLS.keys())
def test_pythons_refusal_names_tensor(call, message):
    with raises(TypeError, message):
        call(torch.ones(2))


def test_a_parameters_own_methods_name_parameter():
    p = torch.nn.Parameter(torch.ones(2))
    with raises(TypeError, "Parameter.__deepcopy__() missing 1 required positional argument: "
                           "'memo'"):
        p.__deepcopy__()
    with raises(TypeError, "Parameter.__reduce_ex__() missing 1 required positional argument: "
                           "'proto'"):
        p.__reduce_ex__()
    with raises(TypeError, "Tensor.__setstate__() missing 1 required positional argument: "
                           "'state'"):
        p.__setstate__()


@pytest.mark.parametrize("name", ["__repr__", "__len__", "__format__", "__deepcopy__",
                                  "__reduce_ex__", "__setstate__", "__array_wrap__",
                                  "__array__"])
def test_the_qualified_names_are_torchs(name):
    method = getattr(torch.Tensor, name)
    assert method.__qualname__ == f"Tensor.{name}" and method.__name__ == name


@pytest.mark.parametrize("name", ["__bool__", "__float__", "__int__", "__index__", "dim",
                                  "numel", "item", "tolist", "detach", "requires_grad_",
                                  "data_ptr", "element_size", "storage_offset",
                                  "is_floating_point", "is_inference", "_is_view"])
def test_methods_of_the_c_class_are_named_for_it(name):
    assert getattr(torch.Tensor, name).__qualname__ == f"TensorBase.{name}"


def test_the_methods_still_work_and_a_traceback_names_the_method():
    t = torch.ones(2)
    assert len(t) == 2 and format(torch.tensor(1.5), ".2f") == "1.50"
    assert repr(t) == "tensor([1., 1.])"
    with pytest.raises(TypeError) as caught:
        t.__len__(1)
    assert traceback.format_exception(caught.value)[-1].startswith("TypeError: Tensor.__len__")


@pytest.mark.parametrize("name", ["__bool__", "__float__", "__int__", "__index__",
                                  "__complex__"])
def test_the_conversions_refuse_arguments_as_c_methods_do(name):
    # called as a method, t.__bool__(1), which Python words by the C method's descriptor
    names = {"t": torch.tensor(1)}
    with raises(TypeError, f"TensorBase.{name}() takes no arguments (1 given)"):
        eval(f"t.{name}(1)", names)
    with raises(TypeError, f"TensorBase.{name}() takes no arguments (2 given)"):
        eval(f"t.{name}(1, 2)", names)
    assert eval(f"t.{name}()", names) == 1
