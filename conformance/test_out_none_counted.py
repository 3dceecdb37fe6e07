"""out=None counts when torch's parser picks a form, as out=<tensor> does: against torch's API."""

import pytest
import torch

x = torch.tensor([3.0, 1.0, 2.0])


SUM_FORMS = (
    "sum() received an invalid combination of arguments - got (Tensor, out=NoneType), but "
    "expected one of:\n * (Tensor input, *, torch.dtype dtype = None)\n * (Tensor input, tuple "
    "of ints dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)\n")


ARGSORT_FORMS = (
    "argsort() received an invalid combination of arguments - got (Tensor, int, out=NoneType), "
    "but expected one of:\n * (Tensor input, *, bool stable, int dim = -1, bool descending = "
    "False, Tensor out = None)\n * (Tensor input, int dim = -1, bool descending = False)\n"
    "      didn't match because some of the keywords were incorrect: out\n")


@pytest.mark.parametrize("call, message", [
    (lambda: torch.argsort(x, 0, out=None), ARGSORT_FORMS),
    (lambda: torch.argsort(x, 0, out=torch.empty(3, dtype=torch.long)),
     ARGSORT_FORMS.replace("out=NoneType", "out=Tensor")),
    (lambda: torch.argsort(x, 0, stable=False, out=None),
     "argsort() takes from 2 to 1 positional arguments but 2 were given"),
    (lambda: torch.argsort(x, 0, False, out=None),
     "argsort() takes from 2 to 1 positional arguments but 3 were given"),
    (lambda: torch.sort(x, 0, False, stable=False, out=None),
     "sort() takes from 2 to 1 positional arguments but 3 were given"),
])
def test_a_call_that_fits_no_form_with_out_is_refused(call, message):
    with pytest.raises(TypeError) as caught:
        call()
    assert str(caught.value) == message


def test_sum_prod_and_where_count_out_none():
    for call, name in ((lambda: torch.sum(x, out=None), "sum("),
                       (lambda: torch.prod(x, out=None), "prod("),
                       (lambda: torch.where(x > 1, out=None), "where(")):
        with pytest.raises(TypeError) as caught:
            call()
        assert str(caught.value).startswith(name[:-1] + "() received an invalid combination")
        assert "got (Tensor, out=NoneType)" in str(caught.value)
    with pytest.raises(TypeError) as caught:
        torch.sum(x, out=None)
    assert str(caught.value) == SUM_FORMS


def test_forms_that_take_out_accept_none():
    assert torch.sort(x, out=None).values.tolist() == [1.0, 2.0, 3.0]
    assert torch.sort(x, dim=0, out=None).indices.tolist() == [1, 2, 0]
    assert torch.argsort(x, stable=True, out=None).tolist() == [1, 2, 0]
    assert torch.sum(x, 0, out=None).item() == 6.0
    assert torch.cumsum(x, 0, out=None).tolist() == [3.0, 4.0, 6.0]
    assert torch.where(x > 1, x, torch.zeros(3), out=None).tolist() == [3.0, 0.0, 2.0]


@pytest.mark.parametrize("call, message", [
    (lambda: torch.where(x > 1, x, 0.0, out=None),
     "where(): argument 'other' (position 3) must be Tensor, not float"),
    (lambda: torch.where(x > 1, 1.0, x, out=None),
     "where(): argument 'input' (position 2) must be Tensor, not float"),
])
def test_wheres_form_with_out_takes_tensors_even_for_out_none(call, message):
    with pytest.raises(TypeError) as caught:
        call()
    assert str(caught.value) == message
