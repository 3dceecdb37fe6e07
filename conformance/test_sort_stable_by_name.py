"""Black-box tests: sort and argsort take stable, dim and descending by name only when stable
is given, as torch's parser does; a stable of another type is refused. The same assertions
run on torch."""

import pytest
import torch

SORT = (
    "sort() received an invalid combination of arguments - got ({got}), but expected one of:\n"
    " * (Tensor input, *, bool stable, int dim = -1, bool descending = False, tuple of Tensors "
    "out = None)\n * (Tensor input, int dim = -1, bool descending = False, *, tuple of Tensors "
    "out = None)\n")
ARGSORT_KEYWORDS = (
    "argsort() received an invalid combination of arguments - got ({got}), but expected one "
    "of:\n * (Tensor input, *, bool stable, int dim = -1, bool descending = False, Tensor out = "
    "None)\n * (Tensor input, int dim = -1, bool descending = False)\n      didn't match "
    "because some of the keywords were incorrect: stable\n")
METHOD_KEYWORDS = (
    "{name}() received an invalid combination of arguments - got (int, stable=bool), but "
    "expected one of:\n * (*, bool stable, int dim = -1, bool descending = False)\n * (int dim "
    "= -1, bool descending = False)\n      didn't match because some of the keywords were "
    "incorrect: stable\n")

REFUSED = [
    ("torch.sort(x, 0, False, stable=False)", SORT.format(got="Tensor, int, bool, stable=bool")),
    ("torch.sort(x, 0, stable=True)", SORT.format(got="Tensor, int, stable=bool")),
    ("torch.sort(x, 0, False, False)", SORT.format(got="Tensor, int, bool, bool")),
    ("torch.sort(x, 0, False, stable=None)",
     SORT.format(got="Tensor, int, bool, stable=NoneType")),
    ("torch.sort(x, stable=1)", SORT.format(got="Tensor, stable=int")),
    ("x.sort(0, False, stable=False)", "sort() takes from 1 to 0 positional arguments but 2 "
     "were given"),
    ("x.sort(0, stable=True)", METHOD_KEYWORDS.format(name="sort")),
    ("torch.argsort(x, 0, False, stable=True)", "argsort() takes from 2 to 1 positional "
     "arguments but 3 were given"),
    ("torch.argsort(x, 0, stable=True)", ARGSORT_KEYWORDS.format(got="Tensor, int, stable=bool")),
    ("x.argsort(0, stable=True)", METHOD_KEYWORDS.format(name="argsort")),
    ("x.argsort(0, True, True)", "argsort() takes from 1 to 0 positional arguments but 3 were "
     "given"),
    ("torch.msort(x, 0)", "msort() takes 1 positional argument but 2 were given"),
]


@pytest.mark.parametrize(("call", "message"), REFUSED)
def test_a_stable_with_positions_is_refused(call, message):
    x = torch.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    with pytest.raises(TypeError) as caught:
        eval(call, {"torch": torch, "x": x})
    assert str(caught.value) == message


def test_argsort_refuses_a_stable_of_none_that_sort_takes():
    x = torch.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    assert torch.sort(x, stable=None).indices.tolist() == [[1, 2, 0], [0, 2, 1]]
    with pytest.raises(TypeError, match=r"got \(Tensor, stable=NoneType\)"):
        torch.argsort(x, stable=None)


@pytest.mark.parametrize("call", [
    "torch.sort(x, stable=False, dim=0, descending=True)", "torch.sort(x, 0, True)",
    "x.sort(stable=True, dim=0)", "torch.argsort(x, stable=True, dim=0)",
    "x.argsort(0, True)", "torch.msort(input=x)", "x.msort()"])
def test_the_forms_torch_takes_still_sort(call):
    x = torch.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    out = eval(call, {"torch": torch, "x": x})
    values = out if isinstance(out, torch.Tensor) else out.values
    assert values.shape == (2, 3)
