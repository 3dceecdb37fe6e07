"""White-box tests of the op table (refgrad._ops): one row per name, and rows that add up."""

import importlib
import inspect
import pkgutil
import re

import pytest

import refgrad._ops
from refgrad._ops.table import OPS, Op

ROWS = list(OPS.values())


def _module_level_names():
    """For each row bound at module level: the names it is bound to, in any module.

    A module may hand on another's rows under the same names (a re-export)."""
    names = {}
    for info in pkgutil.iter_modules(refgrad._ops.__path__, "refgrad._ops."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, Op) and not name.startswith("__"):
                names.setdefault(id(value), set()).add(name)
    return names


def test_every_row_is_one_distinct_module_level_op():
    names = _module_level_names()
    assert all(len(n) == 1 for n in names.values()), "one Op object bound to two names"
    assert len(names) == len(OPS), "two rows share a name, or a row is not in the table"
    assert {id(r) for r in OPS.values()} == set(names)


def test_table_keys_are_row_names():
    assert all(key == row.name for key, row in OPS.items())


def _params(op):
    try:
        parameters = inspect.signature(op.forward).parameters
    except ValueError:  # NumPy ufuncs: no parameters beyond the inputs
        return set()
    return set(list(parameters)[len(op.inputs):])


@pytest.mark.parametrize("op", ROWS, ids=[r.name for r in ROWS])
def test_node_name_is_torchs_form(op):
    # torch's hand-written nodes are the exceptions to the form: copy_'s CopyBackwards,
    # the CppFunction of unpack_dual's primal (named Identity), and NotImplemented, which
    # fails when run. The copying forms of views add "_copy" (diag's DiagonalBackward0_copy).
    assert op.node in (None, "CopyBackwards", "CppFunction", "NotImplemented") or re.fullmatch(
        r"[A-Z]\w*Backward\d+(_copy)?", op.node)
    assert (op.node is None) == (op.backward is None)


@pytest.mark.parametrize("op", ROWS, ids=[r.name for r in ROWS])
def test_saves_name_inputs_outputs_or_params(op):
    known = set(op.inputs) | set(op.outputs or ()) | _params(op)
    for value, users in op.saves:
        assert value in known, f"{op.name} saves unknown {value!r}"
        assert users and set(users) <= set(op.inputs), f"{op.name}: {value} for {users}"
    assert len({value for value, _ in op.saves}) == len(op.saves)


@pytest.mark.parametrize("op", ROWS, ids=[r.name for r in ROWS])
def test_keeps_describe_inputs(op):
    for key in op.keeps:
        if key.endswith("_info"):  # sizes and dtype together: NOTE [Zeros like an input]
            assert key[:-len("_info")] in op.inputs, key
            continue
        name, sep, what = key.partition("_sym_")
        assert sep and name in op.inputs and what in ("sizes", "strides", "numel"), key


@pytest.mark.parametrize("op", ROWS, ids=[r.name for r in ROWS])
def test_a_value_saved_for_some_gradients_may_be_absent(op):
    # A value saved for some inputs' gradients only is not saved when none of those is
    # wanted, and then the formula is called without it.
    import inspect

    if op.backward is None:
        return
    parameters = inspect.signature(op.backward).parameters
    for value, users in op.saves:
        if set(users) != set(op.inputs) and value in parameters:
            assert parameters[value].default is None, (op.name, value)


@pytest.mark.parametrize("op", ROWS, ids=[r.name for r in ROWS])
def test_results_and_backward_operands_are_kept_whenever_recorded(op):
    # NOTE [A result is always saved]: an output, and any value a *_backward op
    # keeps, is kept whichever input requires grad.
    for value, users in op.saves:
        if value in (op.outputs or ()) or op.name.endswith("backward"):
            assert set(users) == set(op.inputs), (op.name, value, users)


def test_view_rows_have_one_input():
    # but slice_inverse, a view of its first input that takes a second for its gradient
    for op in ROWS:
        if op.view:
            assert (len(op.inputs) == 1 or op.name == "slice_inverse") and not op.writes, op.name


def test_node_names_are_unique_per_row():
    # NotImplemented is one class for every row without a derivative, as in torch.
    # A row that writes may share the node of the row it writes with (index_put_
    # and index_put), and then runs the same backward.
    nodes = [op.node for op in ROWS if op.node not in (None, "NotImplemented") and not op.writes]
    assert len(nodes) == len(set(nodes))
    for op in ROWS:
        twins = [o for o in ROWS if o.node == op.node and o is not op and op.writes]
        assert all(o.backward is op.backward and o.saves == op.saves for o in twins)
    shared = [op for op in ROWS if op.node == "NotImplemented"]
    assert shared and all("operation" in op.hides for op in shared)


@pytest.mark.parametrize("op", ROWS, ids=lambda op: op.name)
def test_derived_fields_follow_the_declared_ones(op):
    assert op.many == (op.outputs is None or len(op.outputs) > 1)
    assert op.plain == (op.promote and not op.promote_with and not op.variadic)


def test_result_writes_name_rows_and_set_the_derived_fields():
    from refgrad._ops.table import RESULT_WRITES

    assert set(RESULT_WRITES) <= set(OPS)
    for name, writes in RESULT_WRITES.items():
        op = OPS[name]
        assert op.result_writes is writes and op.special
    assert OPS["exp"].result_writes == 0 and not OPS["exp"].special


# torch's outputs that a row works out apart, or leaves out of its outputs
_PASSED_OUTPUTS = {"linalg_lu": {"P"}, "multilabel_margin_loss_forward": {"is_target"},
                   "nll_loss": {"total_weight"}, "nll_loss2d": {"total_weight"}}


def test_rows_save_in_torchs_order():
    # NOTE [Saved by name]: inputs by name, then outputs by name
    _module_level_names()  # every module of rows imported, so every row is in the table
    unsorted = []
    for row in list(OPS.values()):
        names = [name for name, _ in row.saves]
        outputs = set(row.outputs or ("result",)) | _PASSED_OUTPUTS.get(row.name, set())
        ordered = sorted(n for n in names if n not in outputs) + sorted(
            n for n in names if n in outputs)
        if names != ordered:
            unsorted.append(row.name)
    assert unsorted == []
