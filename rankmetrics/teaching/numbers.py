"""Numbers as a person writes them: rounding half up, exact values for reading, hand-rounded values.

Kept apart from the step tables (:mod:`rankmetrics.teaching.explain`) so that the
step formulas of the hit-based metrics (:mod:`rankmetrics.teaching.hit_formulas`),
which the metric modules name in their registrations, load without them.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Context, Decimal

_EXACT_PLACES = 4  # exact values are shown with 4 decimals, as the documents print them


def round_half_up(value: float | Decimal, places: int) -> Decimal:
    """Round half up (0.625 -> 0.63), as taught at school; not Python's round-half-even."""
    number = value if isinstance(value, Decimal) else Decimal(repr(float(value)))
    # Enough digits for the whole number plus `places` decimals (1e20 to 10 places needs 31).
    digits = max(28, number.adjusted() + places + 2)
    return number.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP, context=Context(prec=digits))


def exact_text(value: float) -> str:
    """An exact value for reading: whole numbers bare, otherwise 4 decimals without trailing zeros."""
    if value is None:
        return ""
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if float(value).is_integer():
        return str(int(value))
    text = f"{float(value):.{_EXACT_PLACES}f}".rstrip("0").rstrip(".")
    return text


def hand_text(value: Decimal | float, places: int) -> str:
    """A hand-rounded value: whole numbers bare (3, 0), otherwise exactly `places` decimals."""
    number = round_half_up(value, places)
    if number == number.to_integral_value():
        return str(int(number))
    return f"{number:.{places}f}"
