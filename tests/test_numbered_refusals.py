"""White-box tests of refgrad._numbered_refusals."""

import refgrad as torch
from refgrad._numbered_refusals import numbered


def test_a_numbered_error_takes_one_number_however_often_it_is_handed_on():
    x = torch.randn(2, 3, 4, requires_grad=True)
    error = RuntimeError("refused")
    before = torch.autograd._get_sequence_nr()
    assert numbered("t", (x,), error) is error
    assert numbered("t", (x,), error) is error
    assert torch.autograd._get_sequence_nr() == before + 1
