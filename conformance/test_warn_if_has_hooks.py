"""torch.utils.hooks.warn_if_has_hooks: the warning a copy or a pickle gives for each backward
hook it leaves behind. The same assertions run on torch."""

import warnings

import torch
from torch.utils.hooks import unserializable_hook, warn_if_has_hooks


def test_warn_if_has_hooks_names_each_hook_a_pickle_leaves_behind():
    x = torch.ones(2, requires_grad=True)

    def hook(grad):
        return grad

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warn_if_has_hooks(x)
        x.register_hook(hook)
        x.register_hook(unserializable_hook(lambda grad: grad))
        warn_if_has_hooks(x)
    assert [(str(w.message), w.filename) for w in caught] == [
        (f"backward hook {hook!r} on tensor will not be serialized.  If this is expected, you "
         "can decorate the function with @torch.utils.hooks.unserializable_hook to suppress "
         "this warning", __file__)]
