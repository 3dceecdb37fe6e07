"""torch.func.grad, grad_and_value, vjp, jvp and linearize: argnums, has_aux, nests of
inputs, composition with ordinary autograd, and refusals in torch's types and words."""

import pytest
import torch
from torch.func import grad, grad_and_value, jvp, linearize, vjp

from conformance._support import raises

PAIR = "output of function f should be a tuple: (output, aux) if has_aux is True"


def _x():
    return torch.tensor([1.0, 2.0, 3.0])


def cube_sum(a):
    return (a ** 3).sum()


def test_grad_is_the_gradient_without_a_graph_for_a_plain_input():
    g = grad(cube_sum)(_x())
    assert g.tolist() == [3.0, 12.0, 27.0] and g.grad_fn is None and not g.requires_grad


def test_grad_of_grad_is_the_second_derivative():
    x = torch.tensor(0.5)
    torch.testing.assert_close(grad(grad(torch.sin))(x), -torch.sin(x), rtol=0, atol=0)
    torch.testing.assert_close(grad(grad(grad(torch.sin)))(x), -torch.cos(x), rtol=0, atol=0)


def test_an_input_requiring_grad_keeps_the_gradient_differentiable():
    w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    g = grad(cube_sum)(w)
    assert g.requires_grad and g.grad_fn.name() == "MulBackward0"
    g.sum().backward()
    assert w.grad.tolist() == [6.0, 12.0, 18.0]


def test_a_captured_parameter_keeps_the_gradient_differentiable():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    g = grad(lambda x: (x * w).sum() ** 2)(torch.tensor([3.0, 4.0]))
    assert g.tolist() == [22.0, 44.0] and g.grad_fn is not None
    g.sum().backward()
    assert w.grad.tolist() == [40.0, 46.0]


def test_grad_ignores_an_outer_no_grad_and_returns_no_graph():
    w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with torch.no_grad():
        g, value = grad_and_value(lambda a: (a ** 2).sum())(w)
    assert g.tolist() == [2.0, 4.0, 6.0] and value.item() == 14.0
    assert g.grad_fn is None and value.grad_fn is None


def test_a_no_grad_inside_f_is_respected():
    def f(a):
        with torch.no_grad():
            return (a ** 2).sum()

    assert grad(f)(_x()).tolist() == [0.0, 0.0, 0.0]


def test_argnums_picks_one_argument_or_a_tuple_of_them():
    a, b = _x(), torch.tensor([4.0, 5.0, 6.0])

    def f(p, q):
        return (p * q).sum()

    assert grad(f)(a, b).tolist() == b.tolist()
    assert grad(f, argnums=1)(a, b).tolist() == a.tolist()
    assert grad(f, argnums=-1)(a, b).tolist() == a.tolist()
    ga, gb = grad(f, argnums=(0, 1))(a, b)
    assert ga.tolist() == b.tolist() and gb.tolist() == a.tolist()
    unused = grad(lambda p, q: p.sum(), argnums=(0, 1))(a, b)
    assert [t.tolist() for t in unused] == [[1.0] * 3, [0.0] * 3]


def test_nests_of_inputs_get_gradients_in_the_same_nest():
    g = grad(lambda d: (d["a"] * d["b"]).sum())({"a": _x(), "b": _x() * 2})
    assert list(g) == ["a", "b"] and g["a"].tolist() == [2.0, 4.0, 6.0]
    g = grad(lambda t: (t[0] * t[1][0]).sum())((_x(), [_x()]))
    assert isinstance(g, tuple) and isinstance(g[1], list)
    assert g[1][0].tolist() == [1.0, 2.0, 3.0]


def test_has_aux_returns_aux_without_a_graph():
    g, aux = grad(lambda a: (a.sum(), {"k": a * 2}), has_aux=True)(_x())
    assert g.tolist() == [1.0, 1.0, 1.0] and aux["k"].tolist() == [2.0, 4.0, 6.0]
    assert aux["k"].grad_fn is None
    (g, value), = [grad_and_value(cube_sum)(_x())]
    assert value.item() == 36.0 and value.grad_fn is None


def test_kwargs_are_passed_and_not_differentiated():
    assert grad(lambda a, k=1: a.sum() * k)(_x(), k=2).tolist() == [2.0, 2.0, 2.0]


@pytest.mark.parametrize("f, kwargs, kind, message", [
    (lambda a: a, {}, RuntimeError, "grad_and_value(f)(*args): Expected f(*args) to return a "
     "scalar Tensor, got tensor with 1 dims. Maybe you wanted to use the vjp or jacrev APIs "
     "instead?"),
    (lambda a: 1.0, {}, RuntimeError, "grad_and_value(f)(*args): Expected f(*args) to return a"
     " Tensor, got <class 'float'>"),
    (lambda a: (a.sum(), 1), {}, RuntimeError, "grad_and_value(f)(*args): Expected f(*args) "
     "to return a Tensor, got <class 'tuple'>"),
    (lambda a: a.sum(), {"has_aux": True}, RuntimeError, f"grad_and_value(f)(*args): {PAIR}"),
    (lambda a: (a.sum(),), {"has_aux": True}, RuntimeError, f"grad_and_value(f)(*args): {PAIR}"),
    (lambda a: (a.sum(), 1), {"has_aux": True}, RuntimeError,
     "Expected tensors, got unsupported type <class 'int'>"),
])
def test_what_f_returns_is_checked(f, kwargs, kind, message):
    with raises(kind, message):
        grad(f, **kwargs)(_x())


@pytest.mark.parametrize("argnums, message", [
    (2, "Got argnum=2, but only 2 positional inputs"),
    (-3, "Got argnum=-3, but only 2 positional inputs"),
    ((0, 0), "argnums elements must be unique, got (0, 0)"),
    ((), "argnums must be non-empty"),
    (1.0, "argnums must be int or Tuple[int, ...], got: <class 'float'>"),
    ((0, 1.0), "argnum must be int, got: <class 'float'>"),
    ((0, 5), "Got argnum=5, but only 2 positional inputs"),
])
def test_argnums_refusals(argnums, message):
    with raises(RuntimeError, message):
        grad(lambda a, b: a.sum(), argnums=argnums)(_x(), _x())


def test_inputs_to_differentiate_must_be_tensors():
    with raises(ValueError, "Thing passed to transform API must be Tensor, got <class 'float'>"):
        grad(lambda a, b: a.sum())(1.0, _x())
    with raises(ValueError, "Thing passed to transform API must be Tensor, got <class 'float'>"):
        grad(lambda t, b: t[0].sum())((_x(), 1.0), _x())
    with raises(RuntimeError, "only Tensors of floating point dtype can require gradients"):
        grad(lambda a: a.sum())(torch.tensor([1, 2]))


def test_vjp_pulls_cotangents_back_as_a_tuple_and_may_be_called_again():
    x = _x()
    out, vjp_fn = vjp(torch.sin, x)
    torch.testing.assert_close(out, torch.sin(x), rtol=0, atol=0)
    assert out.grad_fn is None
    (g,) = vjp_fn(torch.ones(3))
    torch.testing.assert_close(g, torch.cos(x), rtol=0, atol=0)
    (g2,) = vjp_fn(torch.full((3,), 2.0))
    torch.testing.assert_close(g2, 2 * torch.cos(x), rtol=0, atol=0)


def test_vjp_of_several_outputs_and_primals():
    a, b = _x(), torch.tensor([4.0, 5.0, 6.0])
    (prod, same), vjp_fn = vjp(lambda p, q: (p * q, p), a, b)
    ga, gb = vjp_fn((torch.ones(3), torch.ones(3)))
    assert ga.tolist() == [5.0, 6.0, 7.0] and gb.tolist() == [1.0, 2.0, 3.0]
    (gd,) = vjp(lambda d: d["a"] * 2, {"a": a})[1](torch.ones(3))
    assert list(gd) == ["a"] and gd["a"].tolist() == [2.0, 2.0, 2.0]
    assert vjp(lambda p, q: p * 2, a, b)[1](torch.ones(3))[1].tolist() == [0.0, 0.0, 0.0]
    assert vjp(lambda p: torch.ones(3), a)[1](torch.ones(3))[0].tolist() == [0.0, 0.0, 0.0]


def test_vjp_has_aux_and_a_graph_kept_for_an_input_requiring_grad():
    out, vjp_fn, aux = vjp(lambda p: (p * p, p + 1), _x(), has_aux=True)
    assert aux.tolist() == [2.0, 3.0, 4.0] and aux.grad_fn is None
    w = torch.ones(3, requires_grad=True)
    (g,) = vjp(lambda p: p * p, w)[1](torch.ones(3))
    assert g.tolist() == [2.0, 2.0, 2.0] and g.grad_fn is not None


def test_vjp_refusals():
    _, vjp_fn = vjp(torch.sin, _x())
    with raises(RuntimeError, "Mismatch in shape: grad_output[0] has a shape of "
                "torch.Size([2]) and output[0] has a shape of torch.Size([3])."):
        vjp_fn(torch.ones(2))
    with raises(RuntimeError, "Expected pytree structure of cotangents to be the same as pytree"
                " structure of outputs to the function. cotangents: (*,), primal output: *"):
        vjp_fn((torch.ones(3),))
    _, two_fn = vjp(lambda p: (p, p), _x())
    with raises(RuntimeError, "Expected pytree structure of cotangents to be the same as pytree"
                " structure of outputs to the function. cotangents: [*, *], primal output: "
                "(*, *)"):
        two_fn([torch.ones(3), torch.ones(3)])
    with raises(RuntimeError, "vjp(f, *primals): expected f(*primals) to return only tensors, "
                "got unsupported type <class 'float'>"):
        vjp(lambda a: 1.0, _x())
    with raises(ValueError, "Thing passed to transform API must be Tensor, got <class 'float'>"):
        vjp(lambda a: a, 1.0)
    with raises(RuntimeError, f"vjp(f, *primals): {PAIR}"):
        vjp(lambda a: a, _x(), has_aux=True)
    with raises(RuntimeError, "Expected tensors, got unsupported type <class 'float'>"):
        vjp(lambda a: (a, 1.0), _x(), has_aux=True)


def test_jvp_pushes_tangents_forward():
    x = _x()
    out, dot = jvp(torch.sin, (x,), (torch.ones(3),))
    torch.testing.assert_close(out, torch.sin(x), rtol=0, atol=0)
    torch.testing.assert_close(dot, torch.cos(x), rtol=0, atol=0)
    (prod, total), (dprod, dtotal) = jvp(lambda a, b: (a * b, a + b), (x, x),
                                         (torch.ones(3), torch.ones(3)))
    assert dprod.tolist() == [2.0, 4.0, 6.0] and dtotal.tolist() == [2.0, 2.0, 2.0]
    assert jvp(lambda a: torch.ones(2), (x,), (x,))[1].tolist() == [0.0, 0.0]


def test_jvp_has_aux():
    out, dot, aux = jvp(lambda a: (a * 2, {"y": a}), (_x(),), (torch.ones(3),), has_aux=True)
    assert dot.tolist() == [2.0, 2.0, 2.0] and aux["y"].tolist() == [1.0, 2.0, 3.0]


def test_jvp_refusals():
    x, t = _x(), torch.ones(3)
    where = "jvp(f, primals, tangents)"
    with raises(RuntimeError, f"{where}: Expected primals to be a tuple. E.g. it should be "
                "valid to call f(*primals)."):
        jvp(torch.sin, x, (t,))
    with raises(RuntimeError, f"{where}: Expected primals and tangents to have the same python "
                "structure. For example, if primals is a tuple of 3 tensors, tangents also must"
                " be. Got primals with structure TreeSpec(tuple, None, [*]) and tangents with "
                "structure TreeSpec(tuple, None, [*,\n  *])"):
        jvp(torch.sin, (x,), (t, t))
    with raises(RuntimeError, f"{where}: Expected primals to contain at least one Tensor."):
        jvp(lambda: x, (), ())
    with raises(RuntimeError, f"{where}: Expected primals to only contain Tensors, got "
                "<class 'float'>"):
        jvp(lambda a: a, (1.0,), (1.0,))
    with raises(RuntimeError, f"{where}: Expected tangents to only contain Tensors, got "
                "<class 'float'>"):
        jvp(lambda a: a, (x,), (1.0,))
    with raises(RuntimeError, f"{where}: expected f(*primals) to return only tensors, got "
                "unsupported type <class 'float'>"):
        jvp(lambda a: 1.0, (x,), (t,))
    with raises(RuntimeError, f"{where}: {PAIR}"):
        jvp(lambda a: a, (x,), (t,), has_aux=True)


# torch's linearize traces f with torch.fx, which warns about its own graph
@pytest.mark.filterwarnings("ignore:Attempted to insert a get_attr Node")
def test_linearize_gives_the_value_and_a_reusable_jvp():
    x = _x()
    out, jvp_fn = linearize(torch.sin, x)
    torch.testing.assert_close(out, torch.sin(x), rtol=0, atol=0)
    torch.testing.assert_close(jvp_fn(torch.ones(3)), torch.cos(x), rtol=0, atol=0)
    torch.testing.assert_close(jvp_fn(torch.full((3,), 2.0)), 2 * torch.cos(x), rtol=0, atol=0)


def test_jvp_outputs_stay_joined_to_an_input_requiring_grad():
    w = torch.ones(2, requires_grad=True)
    out, dot = jvp(lambda a: a * 2, (w,), (torch.ones(2),))
    assert out.grad_fn.name() == "AliasBackward0" and out._base is not None
    assert out.grad_fn.next_functions[0][0].name() == "MulBackward0"
    out.sum().backward()
    assert w.grad.tolist() == [2.0, 2.0]
    plain, _ = jvp(lambda a: a * 2, (torch.ones(2),), (torch.ones(2),))
    assert plain.grad_fn is None
