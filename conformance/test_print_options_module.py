"""torch._tensor_str: PRINT_OPTS, get/set_printoptions, and the printoptions context manager."""

import pytest
import torch

from conformance._support import raises

ts = torch._tensor_str


@pytest.fixture(autouse=True)
def default_options():
    yield
    torch.set_printoptions(profile="default")


def test_print_opts_is_what_the_printer_reads():
    opts = ts.PRINT_OPTS
    assert (opts.precision, opts.threshold, opts.edgeitems, opts.linewidth, opts.sci_mode) == (
        4, 1000, 3, 80, None)
    assert repr(opts) == ("__PrinterOptions(precision=4, threshold=1000, edgeitems=3, "
                          "linewidth=80, sci_mode=None)")
    torch.set_printoptions(precision=2)
    assert ts.PRINT_OPTS.precision == 2 and ts.get_printoptions()["precision"] == 2
    assert ts.set_printoptions is torch.set_printoptions


def test_printoptions_sets_options_for_a_block_only():
    third = torch.tensor([1 / 3])
    before = repr(third)
    with ts.printoptions(precision=2, sci_mode=True):
        assert ts.PRINT_OPTS.precision == 2 and ts.PRINT_OPTS.sci_mode is True
        assert repr(third) == "tensor([3.33e-01])"
    assert repr(third) == before and ts.get_printoptions() == {
        "precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80, "sci_mode": None}


def test_printoptions_restores_after_an_exception_and_decorates():
    with pytest.raises(KeyError):
        with ts.printoptions(threshold=3, edgeitems=1):
            assert repr(torch.arange(10.0)) == "tensor([0.,  ..., 9.])"
            raise KeyError("x")
    assert ts.PRINT_OPTS.threshold == 1000 and ts.PRINT_OPTS.edgeitems == 3

    @ts.printoptions(precision=1)
    def shown():
        return repr(torch.tensor([1 / 3]))

    assert shown() == "tensor([0.3])" and ts.PRINT_OPTS.precision == 4


def test_printoptions_refuses_an_unknown_option_on_entry():
    with raises(TypeError, "set_printoptions() got an unexpected keyword argument 'foo'"):
        with ts.printoptions(foo=1):
            pass
