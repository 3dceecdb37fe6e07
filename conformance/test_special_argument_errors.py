"""Black-box tests: torch.special's functions refuse bad calls in the names of torch's
special_* operators, reading the arguments in torch's order before the function runs."""

import pytest
import torch

from conformance._support import raises

UNARY = ("digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1",
         "gammaln", "i0", "i0e", "i1", "i1e", "log1p", "log_ndtr", "ndtr", "ndtri", "psi",
         "sinc")
_FORMS = ("\n * (Tensor input, Tensor other, *, Tensor out = None)\n * (Number self, Tensor other, "
          "*, Tensor out = None)\n * (Tensor input, Number other, *, Tensor out = None)\n")


@pytest.mark.parametrize("name", UNARY)
def test_a_unary_function_names_its_operator(name):
    function = getattr(torch.special, name)
    with raises(TypeError, f"special_{name}(): argument 'input' (position 1) must be Tensor, "
                           "not str"):
        function("x")
    with raises(TypeError, f"special_{name}(): argument 'input' (position 1) must be Tensor, "
                           "not float"):
        function(1.5)  # torch.exp2 takes a number; special_exp2 does not
    with raises(TypeError, f'special_{name}() missing 1 required positional arguments: "input"'):
        function()
    with raises(TypeError, f"special_{name}() got an unexpected keyword argument 'bogus'"):
        function(torch.ones(2), bogus=1)
    assert function.__name__ == f"special_{name}"


CALLS = [
    ('S.gammainc("x")', "special_gammainc(): argument 'input' (position 1) must be Tensor, "
     "not str"),
    ("S.gammaincc(t, bogus=1)", 'special_gammaincc() missing 1 required positional arguments: '
     '"other"'),
    ("S.gammainc(t, out=3)", 'special_gammainc() missing 1 required positional arguments: '
     '"other"'),
    ('S.xlogy("x")', "special_xlogy() received an invalid combination of arguments - got (str), "
     "but expected one of:" + _FORMS),
    ("S.xlog1py(2, 3)", "special_xlog1py() received an invalid combination of arguments - got "
     "(int, int), but expected one of:" + _FORMS),
    ("S.logit(t, 'a')", "special_logit(): argument 'eps' (position 2) must be float, not str"),
    ("S.logit(t, 1, 2, 3)", "special_logit() takes from 1 to 2 positional arguments but 4 were "
     "given"),
    ("S.polygamma(1.0, t)", "special_polygamma(): argument 'n' (position 1) must be int, not "
     "float"),
    ("S.polygamma(t, t)", "special_polygamma(): argument 'n' (position 1) must be int, not "
     "Tensor"),
    ("S.multigammaln('x')", "special_multigammaln(): argument 'input' (position 1) must be "
     "Tensor, not str"),
    ("S.multigammaln(t, 'p')", "special_multigammaln(): argument 'p' (position 2) must be int, "
     "not str"),
    ("S.round(1.5)", "special_round(): argument 'input' (position 1) must be Tensor, not float"),
    ("S.round(t, decimals='a')", "special_round(): argument 'decimals' must be int, not str"),
    ("S.round(t, 1)", "special_round() takes 1 positional argument but 2 were given"),
    ("S.softmax(t, 0, out=None)", "special_softmax() got an unexpected keyword argument 'out'"),
    ("S.softmax()", 'special_softmax() missing 2 required positional argument: "input", "dim"'),
    ("S.softmax(t, None)", "special_softmax(): argument 'dim' (position 2) must be int, not "
     "NoneType"),
    ("S.softmax(t, 0, dtype='a')", "special_softmax(): argument 'dtype' must be torch.dtype, "
     "not str"),
    ("S.log_softmax(t, 0, torch.float32)", "special_log_softmax() takes 2 positional arguments "
     "but 3 were given"),
    ("S.log_softmax(t, bogus=1)", 'special_log_softmax() missing 1 required positional '
     'arguments: "dim"'),
]


@pytest.mark.parametrize(("call", "message"), CALLS, ids=[c for c, _ in CALLS])
def test_a_call_is_refused_in_torchs_words(call, message):
    with raises(TypeError, message):
        eval(call, {"S": torch.special, "t": torch.ones(3), "torch": torch})


def test_calls_that_fit_still_run():
    t = torch.tensor([0.2, 0.5, 0.7], dtype=torch.float64)
    assert torch.special.softmax(t, 0, torch.float32).dtype == torch.float32
    assert torch.special.log_softmax(t, 0, dtype=torch.float32).dtype == torch.float32
    assert torch.special.polygamma(torch.tensor(1), t).shape == (3,)  # an int tensor for n
    assert torch.special.multigammaln(t + 3, torch.tensor(2)).dtype == torch.float64
    assert torch.special.softmax(t, torch.tensor(0)).shape == (3,)
    assert torch.special.xlogy(2.0, t).dtype == torch.float64
    out = torch.empty(3, dtype=torch.float64)
    assert torch.special.erf(t, out=out) is out
    assert torch.special.round(t, decimals=1).tolist() == [0.2, 0.5, 0.7]
    assert torch.special.softmax.__name__ == "special_softmax"
