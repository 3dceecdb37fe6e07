"""Black-box tests: differences left by earlier rounds: an inference tensor a node keeps
refused before cdist's, householder_product's, cholesky_solve's and grid_sample's checks,
and before index_reduce's beta warning; unknown keywords of torch's functions of *tensors
refused before a handler is asked; F.sigmoid and F.tanh calling the method of what they
are given; and the names torch gives its flag-picking functions, F.threshold and the
functions of torch.functional. The same assertions run on torch.
"""

import pickle

import pytest
import torch
import torch.nn.functional as F

from conformance._support import printed_in_a_fresh_process, raises
from conformance.test_leftovers_five import INFERENCE, _frozen

Z, D = _frozen, torch.float64
CALLS = {
    "cdist dtype": lambda a: torch.cdist(a, Z(a[:2].detach().double())),
    "cdist p": lambda a: torch.cdist(a, Z(a[:2].detach()), p=-1),
    "cdist int": lambda a: torch.cdist(a, Z(torch.ones(2, 2, dtype=torch.int64))),
    "cdist batch": lambda a: torch.cdist(a.expand(2, 3, 2), Z(torch.ones(3, 4, 2)), p=1),
    "cdist empty": lambda a: torch.cdist(a[:0], Z(torch.ones(2, 2, dtype=D)), p=-1),
    "cdist product dtype": lambda a: torch.cdist(a.repeat(10, 1),
                                                 Z(torch.ones(30, 2, dtype=D))),
    "cdist product mode": lambda a: torch.cdist(
        a, Z(torch.ones(2, 2, dtype=D)), compute_mode="use_mm_for_euclid_dist"),
    "householder dtype": lambda a: torch.linalg.householder_product(a, Z(torch.ones(2, dtype=D))),
    "householder wide": lambda a: torch.linalg.householder_product(a.t(), Z(torch.ones(2))),
    "householder tau": lambda a: torch.linalg.householder_product(a, Z(torch.ones(2, 2))),
    "householder 1-d": lambda a: torch.linalg.householder_product(Z(torch.ones(3)), a[0]),
    "orgqr dtype": lambda a: torch.orgqr(a, Z(torch.ones(2, dtype=D))),
    "cholesky_solve dtype": lambda a: torch.cholesky_solve(a[:2], Z(torch.ones(2, 2, dtype=D))),
    "cholesky_solve 1-d": lambda a: torch.cholesky_solve(Z(torch.ones(3)), a),
    "cholesky_solve sizes": lambda a: torch.cholesky_solve(a, Z(torch.ones(5, 5))),
    "cholesky_solve int": lambda a: torch.cholesky_solve(
        a[:2], Z(torch.ones(2, 2, dtype=torch.int64))),
    "grid_sample dtype": lambda a: F.grid_sample(a[None, None], Z(torch.ones(1, 2, 2, 2, dtype=D)),
                                                 align_corners=False),
    "grid_sample last": lambda a: F.grid_sample(a[None, None], Z(torch.ones(1, 2, 2, 3)),
                                                align_corners=False),
    "grid_sample batch": lambda a: F.grid_sample(a[None, None], Z(torch.ones(2, 2, 2, 2)),
                                                 align_corners=False),
    "lstsq dims": lambda a: torch.linalg.lstsq(a[0], Z(torch.ones(3, 2))),
    "lstsq sizes": lambda a: torch.linalg.lstsq(a, Z(torch.ones(4, 2))),
    "lstsq dtype": lambda a: torch.linalg.lstsq(a, Z(torch.ones(3, 2, dtype=D))),
    "lstsq driver": lambda a: torch.linalg.lstsq(a, Z(torch.ones(3, 2)), driver="foo"),
    "ormqr sizes": lambda a: torch.ormqr(a, Z(torch.ones(5)), Z(torch.ones(3, 3))),
    "ormqr dtype": lambda a: torch.ormqr(a, Z(torch.ones(2, dtype=D)), torch.ones(3, 3)),
    "multi_margin_loss target": lambda a: F.multi_margin_loss(a, Z(torch.zeros(5).long())),
    "multi_margin_loss range": lambda a: F.multi_margin_loss(a, Z(torch.full((3,), 7))),
    "multi_margin_loss weight": lambda a: F.multi_margin_loss(
        a, torch.zeros(3).long(), weight=Z(torch.ones(2, dtype=D))),
    "multilabel_margin_loss": lambda a: F.multilabel_margin_loss(a, Z(torch.zeros(3, 5).long())),
    "multilabel_margin_loss range": lambda a: F.multilabel_margin_loss(
        a, Z(torch.full((3, 2), 7))),
    "max_unpool1d shape": lambda a: F.max_unpool1d(a[None], Z(torch.zeros(1, 3, 3).long()), 2),
    "max_unpool2d int32": lambda a: torch._C._nn.max_unpool2d(
        a[None], Z(torch.zeros(1, 3, 2, dtype=torch.int32)), [2, 2]),
    "max_unpool2d sizes": lambda a: torch._C._nn.max_unpool2d(
        a[None], Z(torch.zeros(1, 3, 2).long()), [2, 2, 2]),
    "max_unpool3d stride": lambda a: torch._C._nn.max_unpool3d(
        a[None, None], Z(torch.zeros(1, 1, 3, 2).long()), [2, 2, 2], [0, 1, 1], [0, 0, 0]),
    "nll_loss target": lambda a: F.nll_loss(a, Z(torch.tensor([0, 1, 9]))),
    "nll_loss weight": lambda a: F.nll_loss(a, Z(torch.zeros(3).long()), weight=torch.ones(7)),
    "nll_loss2d sizes": lambda a: F.nll_loss(a[None, :, :, None], Z(torch.zeros(1, 5, 1).long())),
    "cross_entropy weight": lambda a: F.cross_entropy(
        a, Z(torch.zeros(3).long()), weight=torch.ones(2, dtype=D)),
    "embedding range": lambda a: F.embedding(Z(torch.tensor([0, 9])), a),
    "embedding dtype": lambda a: F.embedding(Z(torch.tensor([0.0, 1.0])), a),
    "ctc_loss targets": lambda a: F.ctc_loss(a[:, None].log_softmax(2), Z(torch.ones(1, 1).long()),
                                             [3], [2]),
    "grid_sampler bicubic": lambda a: torch.grid_sampler(
        a[None, None, None], Z(torch.ones(1, 2, 2, 2, 3)), 2, 0, False),
    "grid_sampler dims": lambda a: torch.grid_sampler(a[None, None], Z(torch.ones(1, 2, 2, 2, 2)),
                                                      0, 0, False),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_an_inference_tensor_kept_is_refused_before_the_ops_checks(name):
    a = torch.rand(3, 2, requires_grad=True)
    with raises(RuntimeError, INFERENCE):
        CALLS[name](a)


@pytest.mark.parametrize("call, message", [
    (lambda a: torch.cdist(a, Z(torch.ones(2, 2, dtype=D))),
     "expected scalar type Float but found Double"),
    (lambda a: torch.cdist(a.repeat(10, 1), Z(torch.ones(30, 2, dtype=D))),
     "expected m1 and m2 to have the same dtype, but got: float != double"),
    (lambda a: torch.linalg.householder_product(a, Z(torch.ones(2, dtype=D))),
     "torch.linalg.householder_product: tau dtype Double does not match input dtype Float"),
    (lambda a: torch.cholesky_solve(a[:2], Z(torch.ones(2, 2, dtype=D))),
     "Expected b and A to have the same dtype, but found b of type Float and A of type Double "
     "instead."),
    (lambda a: F.grid_sample(a[None, None], Z(torch.ones(1, 2, 2, 3)), align_corners=False),
     "grid_sampler(): expected grid to have size 2 in last dimension, but got grid with sizes "
     "[1, 2, 2, 3]"),
])
def test_where_nothing_is_recorded_the_ops_own_refusal_stands(call, message):
    with torch.no_grad(), raises(RuntimeError, message):
        call(torch.rand(3, 2, requires_grad=True))


@pytest.mark.parametrize("call, message", [
    (lambda a, b: torch.cdist(a, b[:, :1]),
     "X1 and X2 must have the same number of columns. X1: 2 X2: 1"),
    (lambda a, b: torch.cdist(a, b[0]), "cdist only supports at least 2D tensors, X2 got: 1D"),
    (lambda a, b: torch.cdist(a.repeat(10, 1), b.long().repeat(15, 1)),
     "cdist only supports floating-point dtypes, X2 got: Long"),
])
def test_cdists_own_checks_come_before_any_node(call, message):
    with raises(RuntimeError, message):
        call(torch.rand(3, 2, requires_grad=True), Z(torch.ones(2, 2)))


INDEX_REDUCE = """
import warnings
import {module} as torch
a, i = torch.rand(3, 2, requires_grad=True), torch.tensor([0, 1])
with torch.inference_mode():
    frozen = torch.ones(2, 2)
for source in (frozen, torch.ones(2, 2)):
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        try:
            a.index_reduce(0, i, source, "mean")
            print("reduced")
        except RuntimeError as error:
            print(str(error)[:29])
    print([str(w.message)[:61] for w in said])
"""


def test_index_reduce_refuses_an_inference_source_before_it_warns():
    assert printed_in_a_fresh_process(INDEX_REDUCE).splitlines() == [
        "Inference tensors cannot be s", "[]", "reduced",
        "['index_reduce() is in beta and the API may change at any time.']"]


class Handled:
    """A tensor-like that is no Tensor: it answers every call offered with its name."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return ("handled", func.__name__)


class OwnTanh(Handled):
    def tanh(self):
        return "its own tanh"


class Seen(torch.Tensor):  # a subclass, which switches the protocol on in refgrad
    seen = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.seen.append((torch.overrides.resolve_name(func), kwargs))
        return super().__torch_function__(func, types, args, kwargs)


@pytest.mark.parametrize("name, call", [
    ("atleast_1d", lambda s: torch.atleast_1d(s, foo=1)),
    ("atleast_2d", lambda s: torch.atleast_2d(s, s, foo=1)),
    ("atleast_3d", lambda s: torch.atleast_3d(s, foo=1)),
    ("block_diag", lambda s: torch.block_diag(s, foo=1)),
    ("broadcast_tensors", lambda s: torch.broadcast_tensors(s, foo=1)),
    ("cartesian_prod", lambda s: torch.cartesian_prod(s, foo=1)),
    ("einsum", lambda s: torch.einsum("i->", s, foo=1)),
    ("meshgrid", lambda s: torch.meshgrid(s, foo=1)),
    ("chain_matmul", lambda s: torch.chain_matmul(s, s, foo=1)),
])
def test_an_unknown_keyword_of_a_function_of_tensors_is_refused_before_a_handler(name, call):
    for given in (Handled(), torch.ones(2).as_subclass(Seen)):
        Seen.seen.clear()
        with raises(TypeError, f"{name}() got an unexpected keyword argument 'foo'"):
            call(given)
        assert Seen.seen == []


def test_keywords_a_function_of_tensors_has_are_still_handed():
    assert torch.meshgrid(Handled(), indexing="ij") == ("handled", "meshgrid")
    assert torch.chain_matmul(Handled(), out=None) == ("handled", "chain_matmul")


@pytest.mark.parametrize("name", ["sigmoid", "tanh"])
def test_sigmoid_and_tanh_call_the_method_of_what_they_are_given(name):
    function = getattr(F, name)
    with raises(AttributeError, f"'Handled' object has no attribute '{name}'"):
        function(Handled())
    with raises(AttributeError, f"'Handled' object has no attribute '{name}'"):
        function(input=Handled())
    with raises(AttributeError, f"'int' object has no attribute '{name}'"):
        function(3)
    with raises(TypeError, f"{name}() got an unexpected keyword argument 'foo'"):
        function(Handled(), foo=1)
    with raises(TypeError, f"{name}() takes 1 positional argument but 2 were given"):
        function(Handled(), 2)
    Seen.seen.clear()
    result = function(torch.tensor([0.5, -1.0]).as_subclass(Seen))
    assert type(result) is Seen
    assert Seen.seen == [(f"torch.Tensor.{name}", None)]


def test_tanh_calls_a_tensor_likes_own_tanh():
    assert F.tanh(OwnTanh()) == "its own tanh"
    with raises(AttributeError, "'OwnTanh' object has no attribute 'sigmoid'"):
        F.sigmoid(OwnTanh())


FLAG_PICKED = ["max_pool1d", "max_pool2d", "max_pool3d", "adaptive_max_pool1d",
               "adaptive_max_pool2d", "adaptive_max_pool3d", "fractional_max_pool2d",
               "fractional_max_pool3d"]


@pytest.mark.parametrize("name", FLAG_PICKED)
def test_flag_picking_functions_have_the_names_torchs_factory_gives(name):
    function = getattr(F, name)
    assert (function.__name__, function.__qualname__) == (name, "boolean_dispatch.<locals>.fn")
    assert function.__module__ == F.__name__
    assert torch.overrides.resolve_name(function) == f"torch.nn.functional.{name}"
    with raises(AttributeError, "Can't pickle local object 'boolean_dispatch.<locals>.fn'"):
        pickle.dumps(function)
    with pytest.raises(TypeError, match=rf"\A_{name}\(\) missing 1 required positional"):
        function(torch.ones(1, 2, 2, 2))


def test_threshold_is_named_underscore_threshold_and_pickles():
    assert (F.threshold.__name__, F.threshold.__qualname__) == ("_threshold", "_threshold")
    assert pickle.loads(pickle.dumps(F.threshold)) is F.threshold
    assert torch.overrides.resolve_name(F.threshold) == "torch.nn.functional.threshold"
    with raises(TypeError, "_threshold() missing 2 required positional arguments: 'threshold' "
                           "and 'value'"):
        F.threshold(torch.ones(2))


FUNCTIONAL = ["atleast_1d", "atleast_2d", "atleast_3d", "block_diag", "broadcast_tensors",
              "cartesian_prod", "cdist", "chain_matmul", "einsum", "lu", "meshgrid", "norm",
              "pca_lowrank", "split", "svd_lowrank", "tensordot", "unique",
              "unique_consecutive", "unravel_index"]


@pytest.mark.parametrize("name", FUNCTIONAL)
def test_torch_functional_names_its_functions(name):
    function = getattr(torch, name)
    assert torch.overrides.resolve_name(function) == f"torch.functional.{name}"
    offered = torch.overrides.get_overridable_functions()
    assert function in offered[torch.functional]
    # torch's own __all__ leaves out a few, which only torch.functional offers
    assert (function in offered[torch]) is (name not in ("lu", "unique", "pca_lowrank",
                                                         "svd_lowrank"))


def test_lobpcg_keeps_its_name_in_torch():
    assert torch.overrides.resolve_name(torch.lobpcg) == "torch.lobpcg"


@pytest.mark.parametrize("name", ["chain_matmul", "unravel_index"])
def test_chain_matmul_and_unravel_index_live_in_torch_functional(name):
    function = getattr(torch, name)
    assert function.__module__ == torch.functional.__name__
    assert getattr(torch.functional, name) is function
    assert name in torch.functional.__all__
    assert pickle.loads(pickle.dumps(function)) is function
