"""Black-box tests: the forms of the products that add to a tensor with the factors first,
which torch still takes, run after torch's warning that they are deprecated (given once per
process, so here with warnings given always). The same assertions run on torch.
"""

import re
import warnings

import pytest
import torch

m, v, b = torch.ones(2, 2), torch.ones(2), torch.ones(2, 2, 2)
x = torch.tensor([[-1.0, 0.5], [2.0, -3.0]])
_AB = "*, Number beta = 1, Number alpha = 1"
_OUT = "*, Tensor out = None"
_FORMS = [
    ("torch.addmm(0.5, m, 2, m, m)", 4.5, "addmm(Number beta, Tensor input, Number alpha, "
     f"Tensor mat1, Tensor mat2, {_OUT})", (f"addmm(Tensor input, Tensor mat1, Tensor mat2, "
                                            f"{_AB}, Tensor out = None)", "addmm(Tensor input, "
                                            "Tensor mat1, Tensor mat2, torch.dtype out_dtype, "
                                            f"{_AB}, Tensor out = None)")),
    ("torch.addmm(0.5, m, m, m)", 2.5, f"addmm(Number beta, Tensor input, Tensor mat1, "
     f"Tensor mat2, {_OUT})", None),
    ("m.addmm(0.5, 2, m, m)", 4.5, "addmm(Number beta, Number alpha, Tensor mat1, Tensor mat2)",
     (f"addmm(Tensor mat1, Tensor mat2, {_AB})",)),
    ("m.clone().addmm_(0.5, m, m)", 2.5, "addmm_(Number beta, Tensor mat1, Tensor mat2)",
     (f"addmm_(Tensor mat1, Tensor mat2, {_AB})",)),
    ("torch.addmv(1, v, 2, m, v)", 5.0, "addmv(Number beta, Tensor input, Number alpha, "
     f"Tensor mat, Tensor vec, {_OUT})", (f"addmv(Tensor input, Tensor mat, Tensor vec, {_AB}, "
                                          "Tensor out = None)",)),
    ("v.clone().addmv_(1, 1, m, v)", 3.0, "addmv_(Number beta, Number alpha, Tensor mat, "
     "Tensor vec)", (f"addmv_(Tensor mat, Tensor vec, {_AB})",)),
    ("v.addmv(2, m, v)", 4.0, "addmv(Number beta, Tensor mat, Tensor vec)", None),
    ("torch.addr(0.5, m, 2, v, v)", 2.5, "addr(Number beta, Tensor input, Number alpha, "
     f"Tensor vec1, Tensor vec2, {_OUT})", None),
    ("m.addr(0.5, v, v)", 1.5, "addr(Number beta, Tensor vec1, Tensor vec2)",
     (f"addr(Tensor vec1, Tensor vec2, {_AB})",)),
    ("torch.addbmm(0.5, m, 2, b, b)", 8.5, "addbmm(Number beta, Tensor input, Number alpha, "
     f"Tensor batch1, Tensor batch2, {_OUT})", None),
    ("m.clone().addbmm_(0.5, 2, b, b)", 8.5, "addbmm_(Number beta, Number alpha, "
     "Tensor batch1, Tensor batch2)", (f"addbmm_(Tensor batch1, Tensor batch2, {_AB})",)),
    ("torch.baddbmm(0.5, b, 2, b, b)", 4.5, "baddbmm(Number beta, Tensor input, Number alpha, "
     f"Tensor batch1, Tensor batch2, {_OUT})", None),
    ("b.baddbmm(0.5, 2, b, b)", 4.5, "baddbmm(Number beta, Number alpha, Tensor batch1, "
     "Tensor batch2)", (f"baddbmm(Tensor batch1, Tensor batch2, {_AB})",)),
    ("b.clone().baddbmm_(0.5, b, b)", 2.5, "baddbmm_(Number beta, Tensor batch1, "
     "Tensor batch2)", None),
    ("torch.addcmul(m, 2, m, m)", 3.0, "addcmul(Tensor input, Number value, Tensor tensor1, "
     f"Tensor tensor2, {_OUT})", ("addcmul(Tensor input, Tensor tensor1, Tensor tensor2, *, "
                                  "Number value = 1, Tensor out = None)",)),
    ("m.clone().addcdiv_(2, m, m)", 3.0, "addcdiv_(Number value, Tensor tensor1, "
     "Tensor tensor2)", ("addcdiv_(Tensor tensor1, Tensor tensor2, *, Number value = 1)",)),
]


@pytest.mark.parametrize("call, value, form, instead", _FORMS)
def test_a_deprecated_form_runs_after_torchs_warning(call, value, form, instead, warn_always):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = eval(call)
    assert result.flatten().tolist() == [value] * result.numel()
    (warning,) = [w for w in caught if "overload" in str(w.message)]
    assert warning.category is UserWarning
    name = form.partition("(")[0]
    head = f"This overload of {name} is deprecated:\n\t{form}\nConsider using one of the " \
        "following signatures instead:\n\t"
    assert str(warning.message).startswith(head)
    if instead is not None:  # the rest, up to torch's "(Triggered internally at ...)"
        assert re.fullmatch(re.escape("\n\t".join(instead)) + r"( \(Triggered internally .*)?",
                            str(warning.message)[len(head):], re.DOTALL)


def test_a_deprecated_form_records_the_products_node_and_fails_as_the_product():
    a = torch.ones(2, 2, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert type(a.addmm(0.5, 2, m, m).grad_fn).__name__ == "AddmmBackward0"
        with pytest.raises(RuntimeError, match=r"\Avector \+ matrix @ vector expected, got 2, "
                           r"2, 1\Z"):
            x.clone().addmv_(1, 1, m, v)
        out = torch.empty(2, 2)
        assert torch.addmm(0.5, m, 2, m, m, out=out) is out
        assert out.tolist() == [[4.5, 4.5], [4.5, 4.5]]
