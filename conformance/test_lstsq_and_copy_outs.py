"""out= for linalg.lstsq and the view copies, and what a mode's answer to a step means."""

import warnings

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

DRIVERS = ("gels", "gelsy", "gelsd", "gelss")
GRAD = ("linalg_lstsq(): functions with out=... arguments don't support automatic "
        "differentiation, but one of the arguments requires grad.")


def system():
    A = torch.tensor([[4.0, 1.0], [1.0, 3.0], [2.0, 0.5]])
    return A, torch.tensor([[1.0, 0.0], [2.0, 1.0], [3.0, 2.0]])


def same(a, b):
    return torch.allclose(a.double(), b.double(), rtol=1e-6, atol=1e-6)


def empties(*dtypes):
    dtypes = dtypes or (torch.float32, torch.float32, torch.int64, torch.float32)
    return tuple(torch.empty(0, dtype=d) for d in dtypes)


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("batched", [False, True])
def test_lstsq_writes_each_field_into_its_out(driver, batched):
    A, B = system()
    if batched:
        A, B = A.expand(2, 3, 2), B.expand(2, 3, 2)
    outs = empties()
    result = torch.linalg.lstsq(A, B, driver=driver, out=outs)
    plain = torch.linalg.lstsq(A, B, driver=driver)
    assert type(result).__name__ == "linalg_lstsq_out"
    assert all(r is o for r, o in zip(result, outs))
    for o, p in zip(outs, plain):
        assert o.shape == p.shape and o.dtype == p.dtype and same(o, p)
        assert o._version == 1
    assert outs[0].stride() == plain.solution.stride()  # LAPACK's layout


def test_lstsq_out_of_a_vector_and_of_a_wide_matrix():
    A, B = system()
    # the wide matrix goes through gelsd: torch's default gelsy returns, for it, another
    # rank and solution in about one call in fifty on some processors, out= or not
    for a, b, driver in ((A, B[:, 0], None), (A.T.contiguous(), B[:2], "gelsd")):
        outs = empties()
        torch.linalg.lstsq(a, b, driver=driver, out=outs)
        plain = torch.linalg.lstsq(a, b, driver=driver)
        assert all(same(o, p) and o.stride() == p.stride() for o, p in zip(outs, plain))


def test_lstsq_out_of_elements_is_resized_with_a_warning():
    A, B = system()
    outs = (torch.empty(5), torch.empty(5), torch.empty(5, dtype=torch.int64), torch.empty(5))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.linalg.lstsq(A, B, driver="gelsd", out=outs)
    assert sum("was resized" in str(w.message) for w in caught) == 4
    assert outs[0].is_contiguous() and [o._version for o in outs] == [1] * 4


def test_lstsq_takes_outs_its_fields_cast_to():
    A, B = system()
    outs = empties(torch.float64, torch.float32, torch.int32, torch.float16)
    torch.linalg.lstsq(A, B, driver="gelsd", out=outs)
    plain = torch.linalg.lstsq(A, B, driver="gelsd")
    assert [o.dtype for o in outs] == [torch.float64, torch.float32, torch.int32, torch.float16]
    assert torch.allclose(outs[0], plain.solution.double())
    assert outs[2].item() == plain.rank.item() and outs[0].is_contiguous()


@pytest.mark.parametrize("out, error, message", [
    (lambda: empties()[:2], TypeError, "expected tuple of 4 elements but got 2"),
    (lambda: torch.empty(0), TypeError,
     "linalg_lstsq(): argument 'out' must be tuple of Tensors, not Tensor"),
    (lambda: (torch.empty(0), 1, torch.empty(0), torch.empty(0)), TypeError,
     "expected Tensor as element 1 in argument 4, but got int"),
])
def test_lstsq_out_read_as_torch_reads_it(out, error, message):
    A, B = system()
    with pytest.raises(error) as caught:
        torch.linalg.lstsq(A, B, out=out())
    assert str(caught.value) == message


@pytest.mark.parametrize("field, dtype, said, source", [
    (0, torch.int64, "solution", "Float"), (1, torch.int64, "solution", "Float"),
    (2, torch.bool, "rank", "Long"), (3, torch.int64, "singular_values", "Float"),
])
def test_lstsq_refuses_an_out_its_field_does_not_cast_to(field, dtype, said, source):
    A, B = system()
    dtypes = [torch.float32, torch.float32, torch.int64, torch.float32]
    dtypes[field] = dtype
    outs = empties(*dtypes)
    with pytest.raises(RuntimeError) as caught:
        torch.linalg.lstsq(A, B, driver="gelsd", out=outs)
    assert str(caught.value) == (f"torch.linalg.lstsq: Expected {said} to be safely castable "
                                 f"from {source} dtype, but got {said} with dtype "
                                 f"{str(dtype)[6:].capitalize().replace('Int64', 'Long')}")
    assert [o._version for o in outs] == [0] * 4 and all(o.numel() == 0 for o in outs)


@pytest.mark.parametrize("driver", DRIVERS)
def test_lstsq_residuals_computed_want_their_dtype(driver):
    A, B = system()
    outs = empties(torch.float32, torch.float64, torch.int64, torch.float32)
    if driver == "gelsy":  # computes no residuals: the out is resized to none
        torch.linalg.lstsq(A, B, driver=driver, out=outs)
        assert outs[1].shape == (0,) and outs[1].dtype == torch.float64
        return
    with pytest.raises(RuntimeError, match="^Expected out tensor to have dtype float, but got "
                                           "double instead$"):
        torch.linalg.lstsq(A, B, driver=driver, out=outs)
    assert outs[0]._version == 0


@pytest.mark.parametrize("which", ["input", "out"])
def test_lstsq_out_refuses_grad(which):
    A, B = system()
    outs = empties()
    if which == "input":
        A.requires_grad_()
    else:
        outs[1].requires_grad_()
    with pytest.raises(RuntimeError) as caught:
        torch.linalg.lstsq(A, B, out=outs)
    assert str(caught.value) == GRAD
    with torch.no_grad():
        torch.linalg.lstsq(A, B, out=outs)
    assert outs[0]._version == 1


class Seen(TorchDispatchMode):
    """Records each op but the outs' making; ``answers`` replaces what ``target`` gives."""

    def __init__(self, target=None, answers=lambda result: result):
        super().__init__()
        self.seen, self.target, self.answers = [], target, answers

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if "empty" not in str(func):
            shown = [a if not isinstance(a, torch.Tensor) else "T" for a in args]
            self.seen.append((str(func), shown, sorted(kwargs)))
        result = func(*args, **kwargs)
        return self.answers(result) if str(func) == self.target else result


def test_a_mode_sees_lstsq_out_whole():
    A, B = system()
    outs = empties()
    with Seen() as mode:
        torch.linalg.lstsq(A, B, out=outs)
        torch.linalg.lstsq(A, B, 0.5, driver="gelsd", out=outs)
    fields = ["rank", "residuals", "singular_values", "solution"]
    assert mode.seen == [("aten.linalg_lstsq.out", ["T", "T"], fields),
                         ("aten.linalg_lstsq.out", ["T", "T", 0.5], ["driver", *fields])]
    assert [o._version for o in outs] == [2] * 4  # one write each per call


def test_a_mode_that_answers_lstsq_out_itself_counts_one_write():
    A, B = system()
    outs = empties()

    class Answers(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if "lstsq" in str(func):
                return tuple(kwargs[name] for name in ("solution", "residuals", "rank",
                                                       "singular_values"))
            return func(*args, **(kwargs or {}))

    with Answers():
        result = torch.linalg.lstsq(A, B, out=outs)
    assert type(result).__name__ == "linalg_lstsq_out" and result[0] is outs[0]
    assert [o._version for o in outs] == [1] * 4 and outs[0].numel() == 0


def _inv(A):
    return torch.linalg.inv(A, out=torch.empty(0))


STEPS = [
    ("aten.linalg_inv_ex.inverse", _inv),
    ("aten._linalg_det.result", lambda A: torch.linalg.det(A, out=torch.empty(0))),
    ("aten._linalg_slogdet.sign",
     lambda A: torch.linalg.slogdet(A, out=(torch.empty(0), torch.empty(0)))),
    ("aten._linalg_solve_ex.result", lambda A: torch.linalg.solve(A, A, out=torch.empty(0))),
    ("aten._linalg_eigh.eigenvalues", lambda A: torch.linalg.eigvalsh(A, out=torch.empty(0))),
    ("aten._linalg_svd.U", lambda A: torch.linalg.svdvals(A, out=torch.empty(0))),
    ("aten.linalg_cholesky_ex.L", lambda A: torch.linalg.cholesky(A, out=torch.empty(0))),
    ("aten.linalg_lstsq.out", lambda A: torch.linalg.lstsq(A, A, out=empties())),
]


@pytest.mark.parametrize("target, call", STEPS)
def test_a_step_answered_none_is_refused_as_no_sequence(target, call):
    A = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
    with pytest.raises(RuntimeError) as caught, Seen(target, lambda result: None) as mode:
        call(A)
    assert str(caught.value) == "Object of type 'NoneType' is not an instance of 'sequence'"
    assert mode.seen[-1][0] == target


@pytest.mark.parametrize("target, call", STEPS)
def test_a_step_answered_with_a_shorter_tuple_is_taken(target, call):
    A = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
    with Seen(target, lambda result: result[:-1]):
        result = call(A)
    assert isinstance(result, torch.Tensor | tuple)


COPIES = {"alias_copy": (), "detach_copy": (), "diagonal_copy": (), "expand_copy": ([2, 2, 3],),
          "permute_copy": ([1, 0],), "select_copy": (0, 1), "slice_copy": (1, 0, 2),
          "squeeze_copy": (), "t_copy": (), "transpose_copy": (0, 1), "unsqueeze_copy": (1,),
          "view_copy": ([3, 2],), "as_strided_copy": ([2], [2]), "unfold_copy": (1, 2, 1)}
OVERLOADS = {"select_copy": "int_out", "slice_copy": "Tensor_out", "transpose_copy": "int_out"}


def matrix():
    return torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])


@pytest.mark.parametrize("name", sorted(COPIES))
def test_a_view_copy_writes_into_out(name):
    function, args = getattr(torch, name), COPIES[name]
    out = torch.empty(0)
    assert function(matrix(), *args, out=out) is out
    assert torch.equal(out, function(matrix(), *args)) and out._version == 1
    with pytest.raises(RuntimeError, match="^Expected out tensor to have dtype float, but got "
                                           "double instead$"):
        function(matrix(), *args, out=torch.empty(0, dtype=torch.float64))


@pytest.mark.parametrize("name", sorted(COPIES))
def test_a_view_copy_refuses_only_an_out_that_requires_grad(name):
    function, args = getattr(torch, name), COPIES[name]
    with pytest.raises(RuntimeError) as caught:
        function(matrix(), *args, out=torch.empty(0, requires_grad=True))
    assert str(caught.value) == (f"aten::{name}(): functions with out=... arguments don't "
                                 "support automatic differentiation, but one of the "
                                 "arguments requires grad.")
    out = torch.empty(0)
    function(matrix().requires_grad_(), *args, out=out)
    assert out.requires_grad and out.grad_fn.name() == "torch::autograd::NotImplemented"
    with pytest.raises(RuntimeError, match=f"^derivative for aten::{name} is not implemented$"):
        out.sum().backward()


@pytest.mark.parametrize("name", sorted(COPIES))
def test_a_mode_sees_a_view_copy_out_overload(name):
    function, args, x = getattr(torch, name), COPIES[name], matrix()
    with Seen() as mode:
        function(x, *args, out=torch.empty(0))
    assert mode.seen == [(f"aten.{name}.{OVERLOADS.get(name, 'out')}", ["T", *args], ["out"])]


SEVERAL = [
    ("max", lambda x: torch.max(x, 0)), ("sort", lambda x: torch.sort(x)),
    ("aminmax", lambda x: torch.aminmax(x)), ("slogdet", lambda x: torch.linalg.slogdet(x)),
    ("eigh", lambda x: torch.linalg.eigh(x)), ("svd", lambda x: torch.linalg.svd(x)),
    ("qr", lambda x: torch.linalg.qr(x)), ("lstsq", lambda x: torch.linalg.lstsq(x, x)),
    ("inv", lambda x: torch.linalg.inv(x)), ("lu_factor", lambda x: torch.linalg.lu_factor(x)),
    ("frexp", lambda x: torch.frexp(x)), ("topk", lambda x: torch.topk(x, 1)),
    ("max of a leaf", lambda x: torch.max(x.requires_grad_(), 0)),
]


class TuplesAnsweredNone(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        result = func(*args, **(kwargs or {}))
        return None if isinstance(result, tuple) else result


@pytest.mark.parametrize("name, call", SEVERAL)
def test_an_op_of_several_results_answered_none_is_refused(name, call):
    x = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
    with pytest.raises(RuntimeError) as caught, TuplesAnsweredNone():
        call(x)
    assert str(caught.value) == "Object of type 'NoneType' is not an instance of 'sequence'"


@pytest.mark.parametrize("target, call", [
    ("aten.linalg_inv_ex.default", lambda x: torch.linalg.inv(x)),
    ("aten.linalg_cholesky_ex.default", lambda x: torch.linalg.cholesky(x)),
    ("aten.linalg_lu_factor_ex.default", lambda x: torch.linalg.lu_factor(x)),
])
def test_a_factorization_answered_without_info_is_refused_before_its_check(target, call):
    x = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
    with pytest.raises(RuntimeError) as caught, Seen(target, lambda r: (*r[:-1], None)) as mode:
        call(x)
    assert str(caught.value) == ("Expected a proper Tensor but got None (or an undefined "
                                 "Tensor in C++) for argument #0 'info'")
    assert mode.seen[-1][0] == target  # the check itself never reached the mode
