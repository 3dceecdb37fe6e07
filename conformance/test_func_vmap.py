"""torch.vmap (the same object as torch.func.vmap): in_dims and out_dims as nests, None for
inputs passed whole, negative dims, nested vmap, outputs as tuples and dicts, randomness,
and the refusals torch makes, in its words."""

import pytest
import torch
from torch.func import grad, vmap

from conformance._support import raises


def _batch():
    return torch.arange(6.0).reshape(2, 3)


def test_torch_vmap_is_torch_func_vmap():
    assert torch.vmap is torch.func.vmap


def test_in_dims_pick_the_mapped_dimension():
    x = _batch()
    assert vmap(torch.sum)(x).tolist() == [3.0, 12.0]
    assert vmap(torch.sum, in_dims=1)(x).tolist() == [3.0, 5.0, 7.0]
    assert vmap(torch.sum, in_dims=-1)(x).tolist() == [3.0, 5.0, 7.0]
    assert vmap(torch.dot, in_dims=(0, None))(x, torch.ones(3)).tolist() == [3.0, 12.0]
    both = vmap(lambda a, b: a + b, in_dims=(0, -1))(torch.ones(2, 3), torch.ones(3, 2))
    assert both.shape == (2, 3)


def test_in_dims_as_a_nest_matching_the_arguments():
    got = vmap(lambda d: d["a"] + d["b"], in_dims=({"a": 0, "b": None},))(
        {"a": _batch(), "b": torch.ones(3)})
    assert got.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert vmap(lambda t: t[0] * t[1])((_batch(), _batch())).tolist() == (_batch() ** 2).tolist()


def test_out_dims_place_the_batch_dimension():
    x = _batch()
    assert vmap(lambda a: a * 2, out_dims=1)(x).tolist() == (x * 2).t().tolist()
    assert vmap(lambda a: a * 2, out_dims=-1)(x).tolist() == (x * 2).t().tolist()
    first, second = vmap(lambda a: (a, a), out_dims=(0, 1))(x)
    assert first.tolist() == x.tolist() and second.tolist() == x.t().tolist()
    assert vmap(lambda a: torch.ones(2), out_dims=None)(x).tolist() == [1.0, 1.0]
    same, one = vmap(lambda a: (a, 1), out_dims=(0, None))(x)
    assert one == 1 and same.tolist() == x.tolist()


def test_outputs_as_tuples_and_dicts():
    x = _batch()
    rows, sums = vmap(lambda a: (a, a.sum()))(x)
    assert rows.tolist() == x.tolist() and sums.tolist() == [3.0, 12.0]
    d = vmap(lambda a: {"s": a.sum(), "m": a * 2})(x)
    assert list(d) == ["s", "m"] and d["m"].shape == (2, 3)


def test_nested_vmap_maps_two_dimensions():
    a, b = torch.arange(24.0).reshape(2, 3, 4), torch.ones(2, 3, 4)
    assert vmap(vmap(torch.dot))(a, b).tolist() == a.sum(-1).tolist()


def test_kwargs_pass_through_and_chunk_size_changes_nothing():
    assert vmap(lambda a, k=1: a * k)(_batch(), k=3).tolist() == (_batch() * 3).tolist()
    got = vmap(torch.sum, in_dims=1, chunk_size=2)(torch.arange(12.0).reshape(3, 4))
    assert got.tolist() == [12.0, 15.0, 18.0, 21.0]


def test_an_empty_batch_gives_empty_outputs():
    assert vmap(lambda a: a * 2)(torch.ones(0, 3)).shape == (0, 3)
    assert vmap(torch.sum)(torch.ones(0, 3)).shape == (0,)


def test_per_example_gradients():
    w = torch.tensor([1.0, -1.0, 2.0])
    x = _batch()
    got = vmap(grad(lambda v, xi: (v * xi).sum() ** 2), in_dims=(None, 0))(w, x)
    assert got.tolist() == [(2 * (w * xi).sum() * xi).tolist() for xi in x]


def test_the_result_is_differentiable():
    x = _batch().requires_grad_()
    vmap(lambda a: (a ** 2).sum())(x).sum().backward()
    assert x.grad.tolist() == (2 * _batch()).tolist()


def test_randomness_error_refuses_a_draw_and_leaves_the_generator():
    torch.manual_seed(1)
    with raises(RuntimeError, "vmap: called random operation while in randomness error mode. "
                "Please either use the 'same' or 'different' randomness flags on vmap or "
                "perform the randomness operation out of vmap"):
        vmap(lambda r: r + torch.rand(()))(torch.zeros(3))
    after = torch.rand(2)
    torch.manual_seed(1)
    assert torch.equal(after, torch.rand(2))


def test_randomness_same_gives_every_slice_the_same_draws():
    torch.manual_seed(2)
    got = vmap(lambda r: r + torch.rand(2), randomness="same")(torch.zeros(3, 2))
    torch.manual_seed(2)
    drawn = torch.rand(2)
    assert all(torch.equal(row, drawn) for row in got)
    torch.manual_seed(3)
    got = vmap(lambda r: r + torch.rand(2), randomness="different")(torch.zeros(3, 2))
    assert got.shape == (3, 2) and not torch.equal(got[0], got[1])


F = "vmap(<lambda>, in_dims={}, ...)(<inputs>)"


@pytest.mark.parametrize("in_dims, args, message", [
    (2, (_batch(),), F.format(2) + ": Got in_dim=2 for some input, but that input is a Tensor "
     "of dimensionality 2 so expected in_dim to satisfy -2 <= in_dim < 2."),
    (-3, (_batch(),), F.format(-3) + ": Got in_dim=-3 for some input, but that input is a "
     "Tensor of dimensionality 2 so expected in_dim to satisfy -2 <= in_dim < 2."),
    (1.0, (_batch(),), F.format(1.0) + ": expected `in_dims` to be int or a (potentially "
     "nested) tuple matching the structure of inputs, got: <class 'float'>."),
    ([0], (_batch(),), F.format([0]) + ": expected `in_dims` to be int or a (potentially "
     "nested) tuple matching the structure of inputs, got: <class 'list'>."),
    (None, (_batch(),), F.format(None) + ": expected `in_dims` to be int or a (potentially "
     "nested) tuple matching the structure of inputs, got: <class 'NoneType'>."),
    ((0, 0), (_batch(),), F.format((0, 0)) + ": in_dims is not compatible with the structure "
     "of `inputs`. in_dims has structure TreeSpec(tuple, None, [*,\n  *]) but inputs has "
     "structure TreeSpec(tuple, None, [*])."),
    (({"a": 0},), ({"a": _batch(), "b": _batch()},), F.format(({"a": 0},)) + ": in_dims is "
     "not compatible with the structure of `inputs`. in_dims has structure TreeSpec(tuple, "
     "None, [TreeSpec(dict, ['a'], [*])]) but inputs has structure TreeSpec(tuple, None, "
     "[TreeSpec(dict, ['a', 'b'], [*,\n    *])])."),
    ((1.5,), (_batch(),), F.format((1.5,)) + ": Got in_dim=1.5 for an input but in_dim must be"
     " either an integer dimension or None."),
    (0, (1.0,), F.format(0) + ": Got in_dim=0 for an input but the input is of type <class "
     "'float'>. We cannot vmap over non-Tensor arguments, please use None as the respective "
     "in_dim"),
    (0, (torch.tensor(1.0),), F.format(0) + ": Got in_dim=0 for some input, but that input is "
     "a Tensor of dimensionality 0 so expected in_dim to satisfy -0 <= in_dim < 0."),
    ((None,), (_batch(),), "vmap: Expected at least one Tensor to vmap over"),
    (0, (_batch(), torch.ones(3)), "vmap: Expected all tensors to have the same size in the "
     "mapped dimension, got sizes [2, 3] for the mapped dimension"),
])
def test_in_dims_refusals(in_dims, args, message):
    with raises(ValueError, message):
        vmap(lambda *a: a[0], in_dims=in_dims)(*args)


def test_output_refusals():
    x = _batch()
    with raises(ValueError, "vmap(<lambda>)(<inputs>): got no inputs. Maybe you forgot to add "
                "inputs, or you are trying to vmap over a function with no inputs. The latter "
                "is unsupported."):
        vmap(lambda: x)()
    with raises(ValueError, "vmap(<lambda>, ...): `<lambda>` must only return Tensors, got type"
                " <class 'float'>. Did you mean to set out_dims= to None for output?"):
        vmap(lambda a: 1.0)(x)
    with raises(ValueError, "vmap(<lambda>, ...): `<lambda>` must only return Tensors, got type"
                " <class 'NoneType'>. Did you mean to set out_dims= to None for output?"):
        vmap(lambda a: None)(x)
    with raises(ValueError, "vmap(<lambda>, ..., out_dims=(0,))(<inputs>): out_dims is not "
                "compatible with the structure of `outputs`. out_dims has structure "
                "TreeSpec(tuple, None, [*]) but outputs has structure TreeSpec(tuple, None, "
                "[*,\n  *])."):
        vmap(lambda a: (a, a), out_dims=(0,))(x)
    with raises(ValueError, "vmap(<lambda>, ...): `<lambda>` can not return a BatchedTensor "
                "when out_dim is None"):
        vmap(lambda a: a, out_dims=None)(x)
    with raises(ValueError, "vmap(<lambda>, ..., out_dims=1.0): `out_dims` must be an int, None "
                "or a python collection of ints representing where in the outputs the vmapped "
                "dimension should appear."):
        vmap(lambda a: a.sum(), out_dims=1.0)(x)
    with raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but "
                "got 2)"):
        vmap(lambda a: a * 2, out_dims=2)(x)
    with raises(ValueError, "vmap(sum, in_dims=2, ...)(<inputs>): Got in_dim=2 for some input, "
                "but that input is a Tensor of dimensionality 2 so expected in_dim to satisfy "
                "-2 <= in_dim < 2."):
        vmap(torch.sum, in_dims=2)(x)


def test_options_are_checked_when_vmap_is_called():
    with raises(RuntimeError, "Only allowed values for randomness are 'error', 'different', or "
                "'same'. Got bad"):
        vmap(torch.sum, randomness="bad")
    with raises(ValueError, "vmap: chunk_size should be None or greater than 0. (got 0)"):
        vmap(torch.sum, chunk_size=0)
