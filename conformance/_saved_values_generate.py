"""Write conformance/_saved_values_expected.json from torch: each case's saved values.

Run from the repository's root with real torch: ``python3 -m conformance._saved_values_generate``.
"""

import json
import pathlib
import warnings

from conformance._saved_tensors_generate import keys
from conformance._saved_values_cases import MORE
from conformance._saved_values_observe import observe


def all_keys():
    """The swept graphs' keys (conformance/_saved_tensors_generate.py), then MORE's cases."""
    return keys() | set(MORE)


def main():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "index_reduce\\(\\) is in beta")
        warnings.filterwarnings("ignore", "torch.triangular_solve is deprecated")
        lines = [json.dumps([key, observe(key)], separators=(",", ":"))
                 for key in sorted(all_keys())]
    path = pathlib.Path(__file__).with_name("_saved_values_expected.json")
    path.write_text("[\n" + ",\n".join(lines) + "\n]\n")


if __name__ == "__main__":
    main()
