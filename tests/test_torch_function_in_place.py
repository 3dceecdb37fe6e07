"""Unit tests of refgrad._torch_function_install: functions ask first in place, keeping their
identity, their closures and what introspection reads off them."""

import inspect

import refgrad
from conformance._warned import caught_always
from refgrad import _torch_function_install as install
from refgrad._warn_once import PUBLIC_FILE


class Switches(refgrad.Tensor):
    pass


def test_the_code_is_swapped_and_the_old_code_runs_in_a_plain_copy():
    norm = refgrad.linalg.norm  # a wrapper made by a factory: a function with a closure
    copy = install.plain[norm]
    assert norm.__code__.co_filename == PUBLIC_FILE != copy.__code__.co_filename
    assert copy.__globals__ is norm.__globals__ and copy.__defaults__ == norm.__defaults__
    assert norm.__code__.co_freevars == copy.__code__.co_freevars != ()
    assert all(a is b for a, b in zip(copy.__closure__, norm.__closure__, strict=True))
    assert norm.__code__.co_name == copy.__code__.co_name
    assert refgrad.linalg.norm(refgrad.tensor([3.0, 4.0])).item() == 5.0


def test_introspection_sees_the_function_it_was():
    signature = inspect.signature(refgrad.add)
    assert "out" in signature.parameters and "asks_first" not in str(refgrad.add.__code__)
    assert signature == inspect.signature(install.plain[refgrad.add])
    assert refgrad.add.__wrapped__ is install.plain[refgrad.add]
    checked = refgrad.nn.functional.relu  # it wrapped a function already: it keeps it
    assert checked.__wrapped__ is not install.plain[checked]
    assert install.plain[checked].__wrapped__ is checked.__wrapped__


def test_keyword_defaults_and_aliases_survive():
    x = refgrad.tensor([1.0, 2.0])
    assert refgrad.add(x, x, alpha=2).tolist() == [3.0, 6.0]
    assert refgrad.sum(x, dim=0, keepdim=True).tolist() == [3.0]
    conv = refgrad.conv1d  # torch.nn.functional's too, under one name only
    assert conv is refgrad.nn.functional.conv1d and conv in install.plain
    assert install.names[conv] == "torch.conv1d"


def test_a_warning_still_names_the_caller_s_line():
    x = refgrad.ones(2, 3)
    with caught_always(refgrad) as caught:
        x.T  # noqa: B018 - a deprecated use of .T on a tensor of two dimensions is not
        refgrad.ones(3, 2, 2).T  # this one warns, through the trampoline of T's getter
    assert caught and all(w.filename == __file__ for w in caught)


def test_a_user_s_module_named_like_refgrad_is_the_user_s():
    def answer(cls, func, types, args=(), kwargs=None):
        return "asked"

    kind = type("Tool", (refgrad.Tensor,),
                {"__module__": "refgrad_tools", "__torch_function__": classmethod(answer)})
    assert refgrad.add(refgrad.ones(1).as_subclass(kind), 1) == "asked"
