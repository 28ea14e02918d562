"""Small statistics shared by the simulators: confidence intervals of sampled means."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

_T_95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
"""Two-sided 95% Student t quantiles for 1–30 degrees of freedom."""
_Z_95 = 1.959964


def confidence_interval(values: Sequence[float]) -> tuple[float, float]:
    """The 95% confidence interval of the mean of ``values``: ``mean ± q · s / √n``, ``q``
    Student's t quantile for ``n - 1 ≤ 30`` degrees of freedom, else the normal 1.96.

    >>> [round(bound, 2) for bound in confidence_interval([10, 12, 14, 16])]  # t(3) = 3.182
    [8.89, 17.11]
    """
    n = len(values)
    mean = statistics.fmean(values)
    if n < 2:
        return (mean, mean)
    q = _T_95[n - 2] if n - 1 <= len(_T_95) else _Z_95
    half = q * statistics.stdev(values) / math.sqrt(n)
    return (mean - half, mean + half)
