"""Write conformance/_saved_tensors_expected.json from torch: each answer, with its cases.

Run from the repository's root with real torch: ``python3 -m conformance._saved_tensors_generate``.
"""

import json
import pathlib
import warnings

from conformance._gradient_graph_cases import CASES
from conformance._saved_tensors_observe import observe


def keys():
    """Each case with all its leaves requiring grad, and ``name@i`` with leaf i alone."""
    return set(CASES) | {f"{name}@{i}" for name, (shapes, _, _) in CASES.items()
                         if len(shapes) > 1 for i in range(len(shapes))}


def main():
    grouped = {}
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "index_reduce\\(\\) is in beta")
        for key in sorted(keys()):
            grouped.setdefault(json.dumps(observe(key)), []).append(key)
    lines = [json.dumps({"answer": json.loads(answer), "cases": cases})
             for answer, cases in sorted(grouped.items(), key=lambda item: item[1][0])]
    path = pathlib.Path(__file__).with_name("_saved_tensors_expected.json")
    path.write_text("[\n" + ",\n".join(lines) + "\n]\n")


if __name__ == "__main__":
    main()
