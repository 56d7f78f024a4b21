# SPDX-License-Identifier: GPL-3.0-or-later
"""Weka 3.6's ``Utils`` comparisons and number formats, which its learners' decisions and printed
models depend on. Comparisons take Weka's tolerance ``SMALL = 1e-6``."""
from __future__ import annotations

import math
from decimal import Decimal

SMALL = 1e-6


def eq(a: float, b: float) -> bool:
    return a == b or (a - b < SMALL and b - a < SMALL)


def gr(a: float, b: float) -> bool:
    return a - b > SMALL


def gr_or_eq(a: float, b: float) -> bool:
    return b - a < SMALL


def sm(a: float, b: float) -> bool:
    return b - a > SMALL


def sm_or_eq(a: float, b: float) -> bool:
    return a - b < SMALL


def log2(a: float) -> float:
    return math.log(a) / math.log(2.0)


def java_double(value: float) -> str:
    """Java's ``Double.toString``: plain between 1e-3 and 1e7, otherwise ``d.dddE±n``, with the
    shortest digits that read back as the value."""
    if value != value:
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    if 1e-3 <= abs(value) < 1e7:
        text = repr(float(value))
        if "e" in text:  # Python writes 1e-3..1e-4 in scientific notation only below 1e-4
            text = format(Decimal(text), "f")
        return text if "." in text else text + ".0"
    sign, digits, exponent = Decimal(repr(float(value))).normalize().as_tuple()
    text = "".join(map(str, digits))
    return f"{'-' if sign else ''}{text[0]}.{text[1:] or '0'}E{exponent + len(text) - 1}"


def round_double(value: float, decimals: int) -> float:
    """``Utils.roundDouble``: Math.round(value·10^d) / 10^d."""
    mask = math.pow(10.0, decimals)
    return float(math.floor(value * mask + 0.5)) / mask


def double_to_string(value: float, decimals: int) -> str:
    """``Utils.doubleToString(value, decimals)``: rounded half up to ``decimals`` places, trailing
    zeros (and a bare point) dropped."""
    temp = value * math.pow(10.0, decimals)
    if not abs(temp) < 9.223372036854776e18:
        return java_double(value)
    precision = int(temp + 0.5) if temp > 0 else -int(abs(temp) + 0.5)
    digits = "0" if precision == 0 else str(precision)
    if decimals == 0:
        return digits
    buf = list(digits)
    dot = len(buf) - decimals
    while (precision < 0 and dot < 1) or dot < 0:
        buf.insert(1 if precision < 0 else 0, "0")
        dot += 1
    buf.insert(dot, ".")
    if precision < 0 and buf[1] == ".":
        buf.insert(1, "0")
    elif buf[0] == ".":
        buf.insert(0, "0")
    text = "".join(buf)
    pos = len(text) - 1
    chars = list(text)
    while pos > dot and chars[pos] == "0":
        chars[pos] = " "
        pos -= 1
    if chars[pos] == ".":
        chars[pos] = " "
    return "".join(chars).strip()
