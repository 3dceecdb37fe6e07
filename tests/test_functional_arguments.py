"""The table of torch.nn.functional's checks for arguments that are not tensors."""

import refgrad
import refgrad.nn.functional as F
from refgrad._flag_picked import line_of
from refgrad._functional_shared import SHARED
from refgrad.nn import _checked_functional
from refgrad.nn._functional_argument_tables import COMPARED, NUMBERS, PARSED, READ


def test_every_declared_function_is_wrapped_and_gathered():
    assert sorted(_checked_functional.__all__) == sorted({*PARSED, *READ})
    for name in _checked_functional.__all__:
        if name in SHARED:  # F holds torch's function: NOTE [One function, two names]
            assert getattr(F, name) is getattr(refgrad, name)
        else:
            assert getattr(F, name) is getattr(_checked_functional, name)
        wrapped = getattr(_checked_functional, name).__wrapped__.__name__
        assert wrapped in (name, f"_{name}", f"functional_{name}", "call")


def test_each_declared_index_names_the_functions_parameter():
    for name, (_, _, parsed) in PARSED.items():
        names = list(line_of(getattr(_checked_functional, name).__wrapped__).parameters)
        for spec, index, _ in parsed:
            key = spec.partition("=")[0].rstrip("?")
            assert names[index] == key, (name, names, spec)
    for name, (_, read) in READ.items():
        names = list(line_of(getattr(_checked_functional, name).__wrapped__).parameters)
        for spec, index in read:
            assert names[index] == spec.rstrip("?"), (name, names, spec)


def test_each_declared_number_is_a_parameter_of_a_wrapped_function():
    for name, numbers in NUMBERS.items():
        assert name in _checked_functional.__all__
        names = list(line_of(getattr(_checked_functional, name).__wrapped__).parameters)
        for spec, index, _ in numbers:
            key, _, kind = spec.partition(":")
            assert kind in ("Number", "float", "int", "str", "tuple of ints"), spec
            assert key.rstrip("?") in names, (name, names, spec)
            assert index is None or names[index] == key.rstrip("?"), (name, names, spec)
    for name, argument in COMPARED:
        assert any(spec.startswith(argument + ":") for spec, _, _ in NUMBERS[name])
