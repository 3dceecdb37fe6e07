"""Black-box tests of torch.autograd.functional: vjp, jvp, jacobian, hessian, vhp, hvp.

Written against torch's API; they pass on real torch 2.13 and on refgrad. Messages were
recorded from torch; values are worked out by hand from the functions' derivatives.
"""

import pytest
import torch
import torch.autograd.functional
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

from conformance._support import raises

OUTPUTS = "outputs of the user-provided function"
FWD = {"vectorize": True, "strategy": "forward-mode"}
NOT_TENSOR = ("The {0} given to {1} must be either a Tensor or a tuple of Tensors but the "
              "given {0} has type {2}.")
NOT_TENSOR_AT = ("The {0} given to {1} must be either a Tensor or a tuple of Tensors but the "
                 "value at index {2} has type {3}.")
OUTPUT_CONSTANT = ("Output {} of the user-provided function does not require gradients. The "
                   "outputs must be computed in a differentiable manner from the input when "
                   "running in strict mode.")
UNREACHED = ("The output of the user-provided function is independent of input {}. This is "
             "not allowed in strict mode.")
NO_GRAPH = ("The {} of the user-provided function is independent of input {}. This is not "
            "allowed in strict mode when create_graph=True.")
LINEAR = ("While computing the hessian, found that the jacobian of the user-provided function "
          "with respect to input {} is independent of the input. This is not allowed in strict "
          "mode. You should ensure that your function is twice differentiable and that the "
          "jacobian depends on the inputs (this would be violated by a linear function for "
          "example).")
V_OUT = ("The vector v can only be None if the user-provided function returns a single Tensor "
         "with a single element.")
V_IN = ("The vector v can only be None if the input to the user-provided function is a single "
        "Tensor with a single element.")
FORWARD_STRICT = (
    'torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` are not '
    'supported together (yet). Please either set `strict=False` or `strategy="reverse-mode"`.'
)
FORWARD_GRAPH = (
    'torch.autograd.functional.jacobian: `create_graph=True` and `strategy="forward-mode"` are '
    'not supported together (yet). Please either set `create_graph=False` or '
    '`strategy="reverse-mode"`.'
)
FORWARD_LOOP = ("Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                "only implemented for `vectorize=True`.")
VECTORIZED_STRICT = (
    "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not supported "
    "together. Please either set `strict=False` or `vectorize=False`."
)


def x3():
    return torch.tensor([1.0, 2.0, 3.0])


def y2():
    return torch.tensor([0.5, -1.0])


def cube_sum(a):
    return (a**3).sum()


def mixed(a, b):
    """(a*sum(b), exp(b)): its Jacobian has every kind of entry."""
    return a * b.sum(), b.exp()


def assert_same(got, want):
    """Equal structure (tuple or list, nesting), dtypes, shapes and values."""
    pending = [(got, want)]
    while pending:
        g, w = pending.pop()
        assert type(g) is type(w)
        if isinstance(w, torch.Tensor):
            assert g.dtype == w.dtype and g.shape == w.shape
            assert torch.allclose(g, w), (g, w)
        else:
            assert len(g) == len(w)
            pending.extend(zip(g, w))


# ---- the module


def test_the_module_is_an_attribute_of_autograd():
    assert torch.autograd.functional.__all__ == ["vjp", "jvp", "jacobian", "hessian", "hvp",
                                                 "vhp"]
    assert torch.autograd.functional.jacobian is jacobian


# ---- jacobian's structure and values


def mixed_table(b):
    """The Jacobian of ``mixed`` at (x3(), b), worked out by hand, indexed [output][input]."""
    x = x3()
    return ((torch.eye(3) * b.sum(), x[:, None].expand(3, 2).clone()),
            (torch.zeros(2, 3), torch.diag(b.exp())))


@pytest.mark.parametrize("options", [{}, {"vectorize": True}])
def test_reverse_jacobian_of_tuples_is_a_tuple_of_tuples(options):
    b = y2()
    assert_same(jacobian(mixed, (x3(), b), **options), mixed_table(b))


def test_forward_jacobian_of_tuples_is_a_list_of_lists():
    b = y2()
    want = [list(row) for row in mixed_table(b)]
    assert_same(jacobian(mixed, (x3(), b), **FWD), want)


def test_forward_jacobian_structures_follow_the_arguments():
    x, b = x3(), y2()
    assert_same(jacobian(lambda a, c: a * c.sum(), (x, b), **FWD), list(mixed_table(b)[0]))
    assert_same(jacobian(lambda a: (a * 2, a.sum()), x, **FWD),
                (2 * torch.eye(3), torch.ones(3)))
    assert_same(jacobian(lambda a: (a * 2,), (x,), **FWD), [[2 * torch.eye(3)]])
    assert_same(jacobian(lambda a: a * 2, x, **FWD), 2 * torch.eye(3))


@pytest.mark.parametrize("options", [{}, {"vectorize": True}])
def test_one_element_tuples_stay_tuples(options):
    assert_same(jacobian(lambda a: (a * 2,), (x3(),), **options), ((2 * torch.eye(3),),))
    assert_same(jacobian(lambda a: (a * 2,), x3(), **options), (2 * torch.eye(3),))
    assert_same(jacobian(lambda a: a * 2, (x3(),), **options), (2 * torch.eye(3),))


@pytest.mark.parametrize("options", [{}, {"vectorize": True}, FWD])
def test_shapes_are_output_then_input(options):
    a, b = torch.ones(2, 3), torch.ones(3, 4)
    table = jacobian(lambda p, q: (p @ q, (p * 2).sum()), (a, b), **options)
    assert [tuple(t.shape) for row in table for t in row] == [
        (2, 4, 2, 3), (2, 4, 3, 4), (2, 3), (3, 4)]
    assert tuple(jacobian(lambda p: p.t(), torch.ones(2, 3), **options).shape) == (3, 2, 2, 3)


@pytest.mark.parametrize("options", [{}, {"vectorize": True}, FWD])
def test_scalars_in_and_out(options):
    x = x3()
    assert_same(jacobian(lambda a: a.sum(), x, **options), torch.ones(3))
    assert_same(jacobian(lambda a: a * x, torch.tensor(2.0), **options), x)
    assert_same(jacobian(lambda a: a * 2, torch.tensor(3.0), **options), torch.tensor(2.0))


@pytest.mark.parametrize("options", [{}, {"vectorize": True}, FWD])
def test_an_output_that_depends_on_no_input_has_zeros(options):
    assert_same(jacobian(lambda a: torch.ones(2), x3(), **options), torch.zeros(2, 3))


def test_the_jacobian_keeps_the_dtype():
    x = x3().double()
    assert jacobian(lambda a: a.exp(), x).dtype == torch.float64
    assert jacobian(lambda a: a.exp(), x, **FWD).dtype == torch.float64


def test_a_captured_input_is_held_constant():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    assert_same(jacobian(lambda a: a * x, x), torch.diag(x.detach()))
    assert_same(jacobian(lambda a: a * x, x, create_graph=True), torch.diag(x.detach()))


# ---- what may be passed


@pytest.mark.parametrize("name", ["vjp", "jvp", "jacobian", "hessian", "vhp", "hvp"])
def test_inputs_must_be_tensors(name):
    func = getattr(torch.autograd.functional, name)
    with raises(TypeError, NOT_TENSOR.format("inputs", name, "<class 'int'>")):
        func(cube_sum, 3)
    with raises(TypeError, NOT_TENSOR.format("inputs", name, "<class 'list'>")):
        func(cube_sum, [x3()])
    with raises(TypeError, NOT_TENSOR_AT.format("inputs", name, 1, "<class 'float'>")):
        func(cube_sum, (x3(), 2.0))


@pytest.mark.parametrize("name", ["vjp", "jvp", "jacobian", "hessian", "vhp", "hvp"])
def test_outputs_must_be_tensors(name):
    func = getattr(torch.autograd.functional, name)
    args = (x3(), torch.ones(3)) if name in ("jvp", "vhp", "hvp") else (x3(),)
    with raises(TypeError, NOT_TENSOR.format(OUTPUTS, name, "<class 'int'>")):
        func(lambda a: 3, *args)
    with raises(TypeError, NOT_TENSOR_AT.format(OUTPUTS, name, 1, "<class 'int'>")):
        func(lambda a: (a.sum(), 3), *args)
    with raises(TypeError, NOT_TENSOR.format(OUTPUTS, name, "<class 'list'>")):
        func(lambda a: [a.sum()], *args)


def test_forward_mode_checks_outputs_without_naming_the_function():
    with raises(TypeError, NOT_TENSOR.format("outputs", None, "<class 'int'>")):
        jacobian(lambda a: 3, x3(), **FWD)
    with raises(TypeError, NOT_TENSOR.format("inputs", "jacobian", "<class 'int'>")):
        jacobian(lambda a: a, 3, **FWD)


def test_integer_inputs_cannot_require_grad():
    with raises(RuntimeError, "only Tensors of floating point dtype can require gradients"):
        vjp(lambda a: a * 2, torch.tensor([1, 2]), torch.ones(2))
    with raises(RuntimeError, "only Tensors of floating point dtype can require gradients"):
        jacobian(lambda a: a * 2, torch.tensor([1, 2]))


# ---- the strategies and their combinations


def test_unknown_strategies():
    hint = (' Hint: If your function has more outputs than inputs, "forward-mode" tends to be '
            'more performant. Otherwise, prefer to use "reverse-mode".')
    wanted = 'Expected strategy to be either "forward-mode" or "reverse-mode".'
    with raises(AssertionError, wanted + hint):
        jacobian(cube_sum, x3(), strategy="forward")
    with raises(AssertionError, wanted):
        hessian(cube_sum, x3(), outer_jacobian_strategy="forward")


def test_forward_mode_refusals():
    with raises(NotImplementedError, FORWARD_LOOP):
        jacobian(cube_sum, x3(), strategy="forward-mode")
    with raises(NotImplementedError, FORWARD_LOOP):
        hessian(cube_sum, x3(), outer_jacobian_strategy="forward-mode")
    with raises(RuntimeError, FORWARD_STRICT):
        jacobian(cube_sum, 3, strict=True, strategy="forward-mode")  # checked first
    with raises(NotImplementedError, FORWARD_GRAPH):
        jacobian(cube_sum, x3(), create_graph=True, **FWD)
    with raises(NotImplementedError, FORWARD_GRAPH):
        hessian(cube_sum, x3(), create_graph=True, vectorize=True,
                outer_jacobian_strategy="forward-mode")
    with raises(RuntimeError, FORWARD_STRICT):
        hessian(cube_sum, x3(), strict=True, vectorize=True,
                outer_jacobian_strategy="forward-mode")


def test_strict_and_vectorize_are_refused_after_running_the_function():
    with raises(RuntimeError, VECTORIZED_STRICT):
        jacobian(lambda a: a * 2, x3(), strict=True, vectorize=True)
    with raises(RuntimeError, OUTPUT_CONSTANT.format(0)):
        jacobian(lambda a: torch.ones(2), x3(), strict=True, vectorize=True)
    with raises(RuntimeError, VECTORIZED_STRICT):
        hessian(cube_sum, x3(), strict=True, vectorize=True)


# ---- strict mode in jacobian and hessian


def test_strict_jacobian():
    with raises(RuntimeError, OUTPUT_CONSTANT.format(0)):
        jacobian(lambda a: torch.ones(2), x3(), strict=True)
    with raises(RuntimeError, "Output 0 of the user-provided function is independent of input "
                              "1. This is not allowed in strict mode."):
        jacobian(lambda a, b: (a * 2, b.exp()), (x3(), y2()), strict=True)
    assert_same(jacobian(lambda a: a * 2, x3(), strict=True), 2 * torch.eye(3))


def test_strict_jacobian_with_a_graph_names_the_output():
    with raises(RuntimeError, NO_GRAPH.format("jacobian", 0)):
        jacobian(lambda a: a * 2, x3(), create_graph=True, strict=True)
    # output 1 is linear in a: torch's message gives the output's number
    with raises(RuntimeError, NO_GRAPH.format("jacobian", 1)):
        jacobian(lambda a, b: (a * b, a * 2), (x3()[:2], y2()), create_graph=True, strict=True)


def test_strict_hessian():
    with raises(RuntimeError, LINEAR.format(0)):
        hessian(lambda a: a.sum(), x3(), strict=True)
    with raises(RuntimeError, LINEAR.format(1)):
        hessian(lambda a, b: cube_sum(a), (x3(), y2()), strict=True)
    with raises(RuntimeError, OUTPUT_CONSTANT.format(0)):
        hessian(lambda a: torch.tensor(1.0), x3(), strict=True)
    assert_same(hessian(lambda a: (a**2).sum(), x3(), strict=True), 2 * torch.eye(3))
    h = hessian(lambda a: (a**2).sum(), x3(), strict=True, create_graph=True)
    assert h.requires_grad


def test_hessian_wants_a_single_number():
    with raises(RuntimeError, "The Tensor returned by the function given to hessian should "
                              "contain a single element"):
        hessian(lambda a: a**2, x3())
    with raises(RuntimeError, "The function given to hessian should return a single Tensor"):
        hessian(lambda a: (a.sum(),), x3())
    one = hessian(lambda a: (a**3).sum(dim=0, keepdim=True), x3())
    assert_same(one, torch.diag(6 * x3()))


# ---- hessian's values and structure


def two_input_scalar(a, b):
    return (a**2).sum() * b.prod()


def two_input_hessian():
    """The Hessian of ``two_input_scalar`` at (x3(), y2()), worked out by hand."""
    a, b = x3(), y2()
    across = 2 * a[:, None] * torch.stack([b[1], b[0]])
    return ((2 * b.prod() * torch.eye(3), across),
            (across.t(), (a**2).sum() * torch.tensor([[0.0, 1.0], [1.0, 0.0]])))


@pytest.mark.parametrize("options", [
    {}, {"vectorize": True}, {"vectorize": True, "outer_jacobian_strategy": "forward-mode"}])
def test_hessian_of_one_input(options):
    assert_same(hessian(cube_sum, x3(), **options), torch.diag(6 * x3()))
    assert_same(hessian(lambda a: a**3, torch.tensor(2.0), **options), torch.tensor(12.0))


@pytest.mark.parametrize("options", [{}, {"vectorize": True}])
def test_reverse_hessian_of_two_inputs(options):
    assert_same(hessian(two_input_scalar, (x3(), y2()), **options), two_input_hessian())
    assert_same(hessian(cube_sum, (x3(),), **options), ((torch.diag(6 * x3()),),))


def test_forward_over_reverse_hessian_is_made_of_lists():
    got = hessian(two_input_scalar, (x3(), y2()), vectorize=True,
                  outer_jacobian_strategy="forward-mode")
    assert_same(got, [list(row) for row in two_input_hessian()])


def test_hessian_with_respect_to_an_unused_input_is_zeros():
    got = hessian(lambda a, b: cube_sum(a), (x3(), y2()))
    want = ((torch.diag(6 * x3()), torch.zeros(3, 2)), (torch.zeros(2, 3), torch.zeros(2, 2)))
    assert_same(got, want)
    assert_same(hessian(lambda a: a.sum(), x3()), torch.zeros(3, 3))
    assert_same(hessian(lambda a: torch.tensor(1.0), x3()), torch.zeros(3, 3))


# ---- the products


def test_vjp_and_jvp_values():
    x, v = x3(), torch.tensor([1.0, 0.0, -1.0])
    assert_same(vjp(lambda a: a**2, x, v), (x**2, 2 * x * v))
    assert_same(jvp(lambda a: a**2, x, v), (x**2, 2 * x * v))
    assert_same(vjp(lambda a: (a**2).sum(), x), ((x**2).sum(), 2 * x))
    assert_same(jvp(lambda a: a**2, torch.tensor(2.0)), (torch.tensor(4.0), torch.tensor(4.0)))


def test_vjp_and_jvp_of_tuples():
    x, b = x3(), y2()
    u, w = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 1.0])
    outs = mixed(x, b)
    assert_same(vjp(mixed, (x, b), (u, w)),
                (outs, (u * b.sum(), (u * x).sum() * torch.ones(2) + w * b.exp())))
    assert_same(jvp(mixed, (x, b), (u, w)), (outs, (u * b.sum() + x * w.sum(), w * b.exp())))
    assert_same(vjp(lambda a: (a**2, a.sum()), x, (u, torch.tensor(2.0))),
                ((x**2, x.sum()), 2 * x * u + 2))


def test_unused_inputs_and_outputs_get_zeros():
    x, b = x3(), y2()
    assert_same(vjp(lambda a, c: a**2, (x, b), torch.ones(3)), (x**2, (2 * x, torch.zeros(2))))
    assert_same(jvp(lambda a, c: (a**2, torch.ones(2)), (x, b), (torch.ones(3), torch.ones(2))),
                ((x**2, torch.ones(2)), (2 * x, torch.zeros(2))))


def test_vhp_and_hvp_values():
    x, v = x3(), torch.tensor([1.0, 0.0, -1.0])
    for product in (vhp, hvp):
        assert_same(product(cube_sum, x, v), (cube_sum(x), 6 * x * v))
        assert_same(product(lambda a: a**3, torch.tensor(2.0)),
                    (torch.tensor(8.0), torch.tensor(12.0)))
        assert_same(product(lambda a: a.sum(), x, v), (x.sum(), torch.zeros(3)))
        assert_same(product(lambda a: torch.tensor(1.0), x, v), (torch.tensor(1.0), torch.zeros(3)))
        u, w = torch.ones(3), torch.ones(2)
        (aa, ab), (ba, bb) = two_input_hessian()
        want = (aa @ u + ab @ w, ba @ u + bb @ w)
        assert_same(product(two_input_scalar, (x, y2()), (u, w)),
                    (two_input_scalar(x, y2()), want))
        assert_same(product(lambda a, c: cube_sum(a), (x, y2()), (u, w)),
                    (cube_sum(x), (6 * x, torch.zeros(2))))


@pytest.mark.parametrize("name", ["vhp", "hvp"])
def test_vhp_and_hvp_want_a_single_number(name):
    func = getattr(torch.autograd.functional, name)
    with raises(RuntimeError, f"The Tensor returned by the function given to {name} should "
                              "contain a single element"):
        func(lambda a: a**2, x3(), torch.ones(3))
    with raises(RuntimeError, f"The function given to {name} should return a single Tensor"):
        func(lambda a: (a.sum(),), x3(), torch.ones(3))


# ---- v


@pytest.mark.parametrize("name", ["vjp", "jvp", "vhp", "hvp"])
def test_v_must_match(name):
    func = getattr(torch.autograd.functional, name)
    with raises(RuntimeError, "v has invalid size: should be torch.Size([3]) but got "
                              "torch.Size([2])."):
        func(cube_sum if name in ("vhp", "hvp") else (lambda a: a**2), x3(), torch.ones(2))
    with raises(TypeError, NOT_TENSOR.format("v", name, "<class 'int'>")):
        func(lambda a: (a**2).sum(), x3(), 3)
    with raises(TypeError, NOT_TENSOR.format("v", name, "<class 'list'>")):
        func(lambda a: (a**2).sum(), x3(), [torch.ones(3)])


def test_v_for_tuples():
    with raises(RuntimeError, "v is a tuple of invalid length: should be 2 but got 1."):
        vjp(lambda a: (a**2, a), x3(), torch.ones(3))
    with raises(RuntimeError, "The given v should contain a single Tensor."):
        vjp(lambda a: a**2, x3(), (torch.ones(3), torch.ones(3)))
    with raises(RuntimeError, "Entry 1 in v has invalid size: should be torch.Size([3]) but "
                              "got torch.Size([2])."):
        vjp(lambda a: (a**2, a), x3(), (torch.ones(3), torch.ones(2)))
    with raises(RuntimeError, "v is a tuple of invalid length: should be 2 but got 3."):
        jvp(mixed, (x3(), y2()), (torch.ones(3), torch.ones(2), torch.ones(1)))
    with raises(RuntimeError, "Entry 0 in v has invalid size: should be torch.Size([3]) but "
                              "got torch.Size([2])."):
        hvp(two_input_scalar, (x3(), y2()), (torch.ones(2), torch.ones(2)))


def test_v_may_be_left_out_only_for_single_numbers():
    with raises(RuntimeError, V_OUT):
        vjp(lambda a: a**2, x3())
    with raises(RuntimeError, V_OUT):
        vjp(lambda a: (a.sum(), a.sum()), x3())
    for product in (jvp, vhp, hvp):
        with raises(RuntimeError, V_IN):
            product(cube_sum, x3())
        with raises(RuntimeError, V_IN):
            product(lambda a, b: a * b, (torch.tensor(1.0), torch.tensor(2.0)))


def test_jvp_checks_v_before_running_the_function():
    ran = []
    with raises(RuntimeError, V_IN):
        jvp(lambda a: ran.append(a) or a, x3())
    assert ran == []


# ---- strict mode in the products


def test_strict_vjp_and_jvp():
    for product in (vjp, jvp):
        with raises(RuntimeError, OUTPUT_CONSTANT.format(0)):
            product(lambda a: torch.ones(3), x3(), torch.ones(3), strict=True)
        with raises(RuntimeError, UNREACHED.format(1)):
            product(lambda a, b: a**2, (x3(), y2()),
                    (torch.ones(3), torch.ones(2)) if product is jvp else torch.ones(3),
                    strict=True)
        with raises(RuntimeError, NO_GRAPH.format("jacobian", 0)):
            product(lambda a: a * 2, x3(), torch.ones(3), strict=True, create_graph=True)
    with raises(RuntimeError, OUTPUT_CONSTANT.format(1)):
        jvp(lambda a: (a**2, torch.ones(2)), x3(), torch.ones(3), strict=True)


def test_strict_vhp_and_hvp():
    for product in (vhp, hvp):
        with raises(RuntimeError, LINEAR.format(0)):
            product(lambda a: a.sum(), x3(), torch.ones(3), strict=True)
        with raises(RuntimeError, UNREACHED.format(1)):
            product(lambda a, b: cube_sum(a), (x3(), y2()), (torch.ones(3), torch.ones(2)),
                    strict=True)
        with raises(RuntimeError, OUTPUT_CONSTANT.format(0)):
            product(lambda a: torch.tensor(1.0), x3(), torch.ones(3), strict=True)
        quadratic = lambda a: (a**2).sum()  # noqa: E731
        assert_same(product(quadratic, x3(), torch.ones(3), strict=True),
                    (torch.tensor(14.0), 2 * torch.ones(3)))
        out, got = product(quadratic, x3(), torch.ones(3), strict=True, create_graph=True)
        assert out.requires_grad and got.requires_grad


def test_strict_messages_of_the_second_backward_passes():
    k = torch.tensor([2.0, 3.0], requires_grad=True)  # a captured leaf: reaches no input
    with raises(RuntimeError, "The gradient with respect to the input is independent of entry 1 "
                              "in the grad_outputs when using the double backward trick to "
                              "compute forward mode gradients. This is not allowed in strict "
                              "mode."):
        jvp(lambda a: (a**2, k * 1), x3(), torch.ones(3), strict=True)
    assert_same(jvp(lambda a: (a**2, k * 1), x3(), torch.ones(3))[1],
                (2 * x3(), torch.zeros(2)))

    def func(a, b):
        return cube_sum(a) + (b * k).sum()

    v = (torch.ones(3), torch.ones(2))
    with raises(RuntimeError, "The jacobian of the user-provided function is independent of "
                              "input 1. This is not allowed in strict mode."):
        vhp(func, (x3(), y2()), v, strict=True)
    with raises(RuntimeError, "The hessian of the user-provided function is independent of "
                              "entry 1 in the grad_jacobian. This is not allowed in strict mode "
                              "as it prevents from using the double backward trick to replace "
                              "forward mode AD."):
        hvp(func, (x3(), y2()), v, strict=True)
    for product in (vhp, hvp):
        assert_same(product(func, (x3(), y2()), v)[1], (6 * x3(), torch.zeros(2)))


# ---- graphs: detached results, or differentiable ones


def leaf3():
    return torch.tensor([1.0, 2.0, 3.0], requires_grad=True)


def every_result(x):
    v = torch.ones(3)
    return {
        "vjp": vjp(lambda a: a**3, x, v),
        "jvp": jvp(lambda a: a**3, x, v),
        "vhp": vhp(cube_sum, x, v),
        "hvp": hvp(cube_sum, x, v),
        "jacobian": (jacobian(lambda a: a**3, x),),
        "jacobian_vectorized": (jacobian(lambda a: a**3, x, vectorize=True),),
        "hessian": (hessian(cube_sum, x),),
    }


def test_results_are_detached_without_create_graph():
    for name, results in every_result(leaf3()).items():
        for r in results:
            assert not r.requires_grad and r.grad_fn is None, name


@pytest.mark.parametrize("name", ["vjp", "jvp", "vhp", "hvp"])
def test_products_with_create_graph_can_be_differentiated(name):
    func = getattr(torch.autograd.functional, name)
    x = leaf3()
    scalar = name in ("vhp", "hvp")
    out, got = func(cube_sum if scalar else (lambda a: a**3), x, torch.ones(3),
                    create_graph=True)
    assert out.requires_grad and got.requires_grad
    (again,) = torch.autograd.grad(got.sum(), x)
    # d/dx of sum(6x) for the Hessian products, of sum(3x^2) for the others
    assert_same(again, 6 * torch.ones(3) if scalar else 6 * x.detach())


@pytest.mark.parametrize("vectorize", [False, True])
def test_jacobian_and_hessian_with_create_graph(vectorize):
    x = leaf3()
    j = jacobian(lambda a: a**3, x, create_graph=True, vectorize=vectorize)
    h = hessian(cube_sum, x, create_graph=True, vectorize=vectorize)
    assert j.requires_grad and h.requires_grad
    (dj,) = torch.autograd.grad(j.diagonal().sum(), x)
    (dh,) = torch.autograd.grad(h.diagonal().sum(), x)
    assert_same(dj, 6 * x.detach())
    assert_same(dh, 6 * torch.ones(3))


def test_create_graph_on_inputs_that_do_not_require_grad():
    out, got = vjp(lambda a: a**2, x3(), torch.ones(3), create_graph=True)
    assert out.requires_grad and got.requires_grad
    assert jacobian(lambda a: a**2, x3(), create_graph=True).requires_grad


def test_forward_mode_jacobian_of_an_input_that_requires_grad():
    j = jacobian(lambda a: a.exp(), leaf3(), **FWD)
    assert j.requires_grad
    assert_same(j.detach(), torch.diag(x3().exp()))


# ---- grad mode


def test_derivatives_are_computed_under_no_grad():
    x = x3()
    with torch.no_grad():
        assert_same(jacobian(lambda a: a**2, x), torch.diag(2 * x))
        assert_same(jvp(lambda a: a**2, x, torch.ones(3)), (x**2, 2 * x))
        assert_same(hvp(cube_sum, x, torch.ones(3)), (cube_sum(x), 6 * x))
        out, got = vjp(lambda a: a**2, x, torch.ones(3), create_graph=True)
        assert got.requires_grad
        assert not torch.is_grad_enabled()


@pytest.mark.parametrize("name", ["vjp", "jvp", "jacobian", "hessian", "vhp", "hvp"])
def test_grad_mode_is_restored_after_an_exception(name):
    func = getattr(torch.autograd.functional, name)

    def failing(a):
        raise ValueError("failing")

    for enabled in (False, True):
        with torch.set_grad_enabled(enabled):
            with pytest.raises(ValueError, match="^failing$"):
                func(failing, torch.tensor(1.0))
            assert torch.is_grad_enabled() is enabled


# ---- edges


@pytest.mark.parametrize("options", [{}, {"vectorize": True}, FWD])
def test_identity_and_detached_functions(options):
    assert_same(jacobian(lambda a: a, x3(), **options), torch.eye(3))
    assert_same(jacobian(lambda a: a.detach(), x3(), **options), torch.zeros(3, 3))
    assert_same(jacobian(lambda a: (a * 2, torch.ones(2)), x3(), **options),
                (2 * torch.eye(3), torch.zeros(2, 3)))


@pytest.mark.parametrize("options", [{}, {"vectorize": True}])
def test_empty_inputs(options):
    assert_same(jacobian(lambda a: a.sum(), torch.ones(0), **options), torch.zeros(0))


def test_empty_outputs():
    with raises(RuntimeError, "stack expects a non-empty TensorList"):
        jacobian(lambda a: a[:0], x3())
    assert_same(jacobian(lambda a: a[:0], x3(), **FWD), torch.zeros(0, 3))


def test_products_of_the_identity():
    for product in (vjp, jvp):
        assert_same(product(lambda a: a, x3(), torch.ones(3)), (x3(), torch.ones(3)))
    assert_same(vjp(lambda a: (a.sum(),), x3()), ((torch.tensor(6.0),), torch.ones(3)))
    assert_same(jvp(lambda a: a * 2, x3(), (torch.ones(3),)), (2 * x3(), 2 * torch.ones(3)))
