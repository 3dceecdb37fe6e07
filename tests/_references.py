"""Plain-Python references shared by the white-box tests and the conformance suite.

Neither imports refgrad or torch, so a conformance file may use them against either.
"""

import ctypes
import ctypes.util


def c_powf():
    """The C library's powf, float32 in and out."""
    powf = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6").powf
    powf.restype, powf.argtypes = ctypes.c_float, [ctypes.c_float, ctypes.c_float]
    return powf


def running(values):
    """Welford's update element by element in Python floats: (mean, m2, count)."""
    mean = m2 = 0.0
    for i, x in enumerate(values, 1):
        delta = x - mean
        mean = mean + delta / i
        m2 = m2 + delta * (x - mean)
    return mean, m2, float(len(values))
