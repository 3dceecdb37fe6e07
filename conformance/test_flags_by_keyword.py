"""Flags by keyword, flags of functions read after a failure, and bools or floats for ints."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from conformance._support import raises

x = torch.rand(4, 4)
m = torch.eye(3) * 2 + 0.1
v = torch.tensor([3.0, 1.0, 2.0])
SEARCH = "bool out_int32 = False, bool right = False"


@pytest.mark.parametrize("value, shown", [(1, "int"), (None, "NoneType"),
                                          (np.True_, "numpy.bool")])
@pytest.mark.parametrize("call, message", [
    (lambda b: torch.linalg.cholesky(m, upper=b),
     "linalg_cholesky(): argument 'upper' must be bool, not {}"),
    (lambda b: torch.linalg.svd(m, full_matrices=b),
     "linalg_svd(): argument 'full_matrices' must be bool, not {}"),
    (lambda b: torch.linalg.vector_norm(x, keepdim=b),
     "linalg_vector_norm(): argument 'keepdim' must be bool, not {}"),
    (lambda b: torch.index_put(v, (torch.tensor([0]),), torch.tensor(1.0), b),
     "index_put(): argument 'accumulate' (position 4) must be bool, not {}"),
    (lambda b: v.clone().index_put_((torch.tensor([0]),), torch.tensor(1.0), accumulate=b),
     "index_put_(): argument 'accumulate' must be bool, not {}"),
    (lambda b: F.pairwise_distance(x, x, keepdim=b),
     "pairwise_distance(): argument 'keepdim' must be bool, not {}"),
    (lambda b: F.batch_norm(x, torch.zeros(4), torch.ones(4), training=b),
     "batch_norm(): argument 'training' (position 6) must be bool, not {}"),
    (lambda b: F.embedding(torch.tensor([0, 1]), x, scale_grad_by_freq=b),
     "embedding(): argument 'scale_grad_by_freq' (position 4) must be bool, not {}"),
    (lambda b: F.embedding(torch.tensor([0, 1]), x, sparse=b),
     "embedding(): argument 'sparse' (position 5) must be bool, not {}"),
    (lambda b: F.affine_grid(torch.rand(1, 2, 3), [1, 1, 2, 2], align_corners=b),
     "affine_grid_generator(): argument 'align_corners' (position 3) must be bool, not {}"),
    (lambda b: v.nonzero(as_tuple=b), "nonzero(): argument 'as_tuple' must be bool, not {}"),
    (lambda b: torch.nonzero(v, as_tuple=b),
     "nonzero(): argument 'as_tuple' must be bool, not {}"),
])
def test_a_flag_must_be_a_bool(call, message, value, shown):
    if value is None and "affine_grid" in message:  # its default: False, with a warning
        with pytest.warns(UserWarning, match="align_corners=False since 1.3.0"):
            assert call(value).shape == (1, 2, 2, 2)
        return
    with raises(TypeError, message.format(shown)):
        call(value)


@pytest.mark.parametrize("name, call, got, forms", [
    ("searchsorted", lambda: torch.searchsorted(v, v, right=1), "(Tensor, Tensor, right=int)",
     [f"(Tensor sorted_sequence, {kind}, *, {SEARCH}, str side = None, Tensor sorter = None, "
      "Tensor out = None)" for kind in ("Tensor input", "Number self")]),
    ("bucketize", lambda: torch.bucketize(v, v, right=1), "(Tensor, Tensor, right=int)",
     [f"(Tensor input, Tensor boundaries, *, {SEARCH}, Tensor out = None)",
      f"(Number self, Tensor boundaries, *, {SEARCH})"]),
    ("linalg_pinv", lambda: torch.linalg.pinv(m, hermitian=1), "(Tensor, hermitian=int)",
     [*(f"(Tensor input, *, {kind} atol = None, {kind} rtol = None, bool hermitian = False, "
        "Tensor out = None)" for kind in ("Tensor", "float")),
      *(f"(Tensor input, {kind} rcond, bool hermitian = False, *, Tensor out = None)"
        for kind in ("Tensor", "float"))]),
    ("linalg_norm", lambda: torch.linalg.norm(x, keepdim=1), "(Tensor, keepdim=int)",
     [f"(Tensor input, {ord}, tuple of ints dim = None, bool keepdim = False, *, torch.dtype "
      "dtype = None, Tensor out = None)" for ord in ("Number ord = None", "str ord")]),
    ("var_mean", lambda: torch.var_mean(x, 0, 1), "(Tensor, int, int)",
     ["(Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False)",
      "(Tensor input, tuple of ints dim = None, *, Number correction = None, "
      "bool keepdim = False)", "(Tensor input, bool unbiased = True)"]),
])
def test_a_flag_that_is_not_a_bool_fits_no_form(name, call, got, forms):
    with raises(TypeError, f"{name}() received an invalid combination of arguments - got {got}, "
                           "but expected one of:\n" + "".join(f" * {f}\n" for f in forms)):
        call()


def test_a_flag_by_position_is_read_when_the_function_refuses_it():
    with raises(TypeError, "linalg_svd(): argument 'full_matrices' (position 2) must be bool, "
                           "not int"):
        torch.linalg.svd(m, 1)
    assert torch.linalg.svd(m, False).S.shape == (3,)


def test_flags_by_keyword_still_run():
    assert torch.searchsorted(torch.tensor([1.0, 2.0]), v, right=True).tolist() == [2, 1, 2]
    assert torch.linalg.vector_norm(x, keepdim=True).shape == (1, 1)
    assert torch.linalg.cross(torch.eye(3), torch.eye(3), dim=1).abs().sum().item() == 0
    upper = torch.linalg.cholesky(m, upper=True)
    assert torch.allclose(upper.mT @ upper, m)


@pytest.mark.parametrize("value, shown", [(2.0, "float"), (True, "bool"),
                                          (np.float64(2.0), "numpy.float64")])
@pytest.mark.parametrize("call, message", [
    (lambda k: torch.rot90(x, k), "rot90(): argument 'k' (position 2) must be int, not {}"),
    (lambda k: torch.diag(x, k), "diag(): argument 'diagonal' (position 2) must be int, not {}"),
    (lambda k: torch.diff(v, k), "diff(): argument 'n' (position 2) must be int, not {}"),
    (lambda k: torch.diag_embed(x, k),
     "diag_embed(): argument 'offset' (position 2) must be int, not {}"),
    (lambda k: torch.renorm(x, 2, k, 1.0),
     "renorm(): argument 'dim' (position 3) must be int, not {}"),
    (lambda k: F.embedding(torch.tensor([0, 1]), x, padding_idx=k),
     "embedding(): argument 'padding_idx' (position 3) must be int, not {}"),
    (lambda k: torch.linalg.cross(torch.eye(3), torch.eye(3), dim=k),
     "linalg_cross(): argument 'dim' must be int, not {}"),
])
def test_a_bool_or_a_float_is_not_an_int(call, message, value, shown):
    with raises(TypeError, message.format(shown)):
        call(value)


def test_tensor_split_takes_no_bool():
    with raises(TypeError, "tensor_split() received an invalid combination of arguments - got "
                           "(Tensor, bool), but expected one of:\n"
                           " * (Tensor input, tuple of ints indices, int dim = 0)\n"
                           " * (Tensor input, Tensor tensor_indices_or_sections, int dim = 0)\n"
                           " * (Tensor input, int sections, int dim = 0)\n"):
        torch.tensor_split(x, True)


def test_use_deterministic_algorithms_names_numpy_bool():
    with raises(TypeError, "_set_deterministic_algorithms(): argument 'mode' (position 1) must "
                           "be bool, not numpy.bool"):
        torch.use_deterministic_algorithms(np.True_)
    with raises(TypeError, "_set_deterministic_algorithms(): argument 'warn_only' must be bool, "
                           "not int"):
        torch.use_deterministic_algorithms(True, warn_only=1)
    assert not torch.are_deterministic_algorithms_enabled()


FACTORIES = [("ones", lambda **k: torch.ones(2, **k)), ("zeros", lambda **k: torch.zeros(2, **k)),
             ("empty", lambda **k: torch.empty(2, **k)),
             ("new_zeros", lambda **k: x.new_zeros(2, **k)),
             ("new_ones", lambda **k: x.new_ones(2, **k)),
             ("new_empty", lambda **k: x.new_empty(2, **k)),
             ("new_full", lambda **k: x.new_full((2,), 1.0, **k)),
             ("new_tensor", lambda **k: x.new_tensor([1.0], **k))]


# torch's new_tensor has no pin_memory
FACTORY_FLAGS = [(name, factory, flag) for name, factory in FACTORIES
                 for flag in ("requires_grad", "pin_memory") if (name, flag) != ("new_tensor",
                                                                                 "pin_memory")]


@pytest.mark.parametrize("name, factory, flag", FACTORY_FLAGS)
@pytest.mark.parametrize("value, shown", [(1, "int"), (0, "int"), (1.0, "float"),
                                          (np.True_, "numpy.bool")])
def test_a_factory_takes_only_bools_for_its_flags(name, factory, flag, value, shown):
    with raises(TypeError, f"{name}(): argument '{flag}' must be bool, not {shown}"):
        factory(**{flag: value})


@pytest.mark.parametrize("name, factory", FACTORIES[:-1])
def test_a_factory_takes_none_for_its_flags(name, factory):
    assert not factory(requires_grad=None, pin_memory=None).requires_grad
    assert factory(requires_grad=True).requires_grad


@pytest.mark.parametrize("draw", [lambda **k: torch.rand(2, **k),
                                  lambda **k: torch.randn(2, **k),
                                  lambda **k: torch.randint(3, (2,), **k),
                                  lambda **k: torch.rand(2, generator=None, **k)])
def test_a_random_factory_takes_none_for_its_options(draw):
    drawn = draw(requires_grad=None, pin_memory=None, dtype=None, layout=None, device=None)
    assert (drawn.shape, drawn.requires_grad) == ((2,), False)


def test_new_tensor_refuses_none():
    with raises(TypeError, "new_tensor(): argument 'requires_grad' must be bool, not NoneType"):
        x.new_tensor([1.0], requires_grad=None)
