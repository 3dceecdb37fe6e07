"""White-box tests: the line a picking function is read against, and the names kept for
what the protocol ignores."""

import inspect

import refgrad
import refgrad.nn.functional as F
from refgrad import _torch_function_install as install
from refgrad._flag_picked import flag_picked, line_of


def _plain(input, kernel_size, return_indices=False):  # noqa: A002 - torch's name
    return "plain"


def _indexed(input, kernel_size, return_indices=False):  # noqa: A002 - torch's name
    return "indexed"


def test_a_picking_function_takes_anything_and_is_read_against_the_one_it_picks():
    fn = flag_picked(_plain, _indexed, "refgrad.nn.functional")
    assert str(inspect.signature(fn)) == "(*args, **kwargs)"
    assert line_of(fn) == inspect.signature(_plain)
    assert line_of(_plain) == inspect.signature(_plain)
    assert (fn(1, 2), fn(1, 2, True), fn(1, 2, return_indices=True)) == (
        "plain", "indexed", "indexed")


def test_the_public_picking_functions_keep_their_lines():
    assert list(line_of(F.max_pool2d).parameters)[-1] == "return_indices"
    assert list(line_of(refgrad.unique).parameters) == [
        "input", "sorted", "return_inverse", "return_counts", "dim"]
    assert list(line_of(refgrad.lu).parameters) == ["A", "pivot", "get_infos", "out"]


def test_ignored_names_are_kept_apart_from_the_offered():
    refgrad.overrides.resolve_name(refgrad.add)  # switches the protocol on
    assert install.ignored_names[refgrad.is_grad_enabled] == "torch.is_grad_enabled"
    assert refgrad.is_grad_enabled not in install.names
    assert refgrad.set_default_dtype not in install.ignored_names
