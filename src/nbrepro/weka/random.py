# SPDX-License-Identifier: GPL-3.0-or-later
"""java.util.Random, bit for bit.

Weka draws every fold from one ``java.util.Random``; reproducing its folds means
reproducing this 48-bit linear congruential generator exactly, including the
rejection loop of ``nextInt(bound)`` (a single rejection shifts the whole stream).
"""
from __future__ import annotations

_MULT = 0x5DEECE66D
_ADD = 0xB
_MASK = (1 << 48) - 1


class JavaRandom:
    """A Python twin of ``java.util.Random`` (seeding, next, nextInt, nextDouble, nextLong)."""

    __slots__ = ("_state",)

    def __init__(self, seed: int):
        self.set_seed(seed)

    def set_seed(self, seed: int) -> None:
        self._state = (seed ^ _MULT) & _MASK

    def _next(self, bits: int) -> int:
        self._state = (self._state * _MULT + _ADD) & _MASK
        r = self._state >> (48 - bits)
        if bits == 32 and r >= 1 << 31:  # read as a signed int
            r -= 1 << 32
        return r

    def next_int(self, bound: int | None = None) -> int:
        if bound is None:
            return self._next(32)
        if bound <= 0:
            raise ValueError("bound must be positive")
        if bound & (bound - 1) == 0:
            return (bound * self._next(31)) >> 31
        while True:
            r = self._next(31)
            v = r % bound
            if r - v + (bound - 1) < (1 << 31):
                return v

    def next_double(self) -> float:
        return ((self._next(26) << 27) + self._next(27)) / float(1 << 53)

    def next_long(self) -> int:
        v = (self._next(32) << 32) + self._next(32)
        v &= (1 << 64) - 1
        return v - (1 << 64) if v >= 1 << 63 else v


def java_shuffled(rows, rnd: JavaRandom):
    """``java_shuffle`` of a numpy array, as a new array (the same draws, the same order).

    Compiled (``_random_kernel.shuffled_indices``): this runs for every training set of every
    fold, every bag and every NBTree branch."""
    from ._random_kernel import shuffled_indices  # numba: imported where first needed

    order, state = shuffled_indices(len(rows), rnd._state)
    rnd._state = int(state)
    return rows[order]


def java_shuffle(items: list, rnd: JavaRandom) -> None:
    """Weka's ``Instances.randomize``: backward Fisher–Yates, in place, drawing from ``rnd``."""
    import numpy as np

    items[:] = [items[i] for i in java_shuffled(np.arange(len(items)), rnd)]
