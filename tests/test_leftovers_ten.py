"""White-box tests: the tables the leftovers-ten chapter pruned name only what is read."""

import refgrad
import refgrad.nn.functional as F
from refgrad import _resolved_names, _tensor_names
from refgrad import _torch_function_install as install


def test_every_written_in_c_entry_is_a_function_of_f_alone():
    # an entry is read only for a function F holds that torch's namespace does not
    for name in install.WRITTEN_IN_C:
        assert getattr(refgrad, name, None) is not getattr(F, name), name


def test_resolve_name_keeps_no_list_of_functions_f_shares():
    assert not hasattr(_resolved_names, "TWO_HERE")
    for name in ("bilinear", "celu_", "hardshrink", "pdist", "selu_"):
        assert refgrad.overrides.resolve_name(getattr(refgrad, name)) == \
            f"torch.nn.functional.{name}"


def test_the_walk_of_tensor_leaves_out_what_object_gives():
    assert _tensor_names.tensor_name(object.__init_subclass__) is None
    assert _tensor_names.tensor_name(refgrad.Tensor.__str__) is None
    assert _tensor_names.tensor_name(refgrad.Tensor._is_view) == "torch.Tensor._is_view"
    assert _tensor_names.tensor_name([]) is None  # unhashable: named nowhere
