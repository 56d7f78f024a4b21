# SPDX-License-Identifier: GPL-3.0-or-later
"""java.util.Random against the test vectors of weka-cv-semantics.md §8 (values printed by Java)."""
from nbrepro.weka.random import JavaRandom, java_shuffle


def test_next_int_bounded():
    r = JavaRandom(42)
    assert [r.next_int(10) for _ in range(5)] == [0, 3, 8, 4, 0]


def test_next_int_power_of_two_branch():
    r = JavaRandom(42)
    assert [r.next_int(16) for _ in range(5)] == [11, 0, 10, 0, 4]


def test_next_int_rejection_loop():
    r = JavaRandom(0)
    assert [r.next_int(1500000001) for _ in range(3)] == [516548029, 1302116447, 1368843515]


def test_next_double():
    r = JavaRandom(42)
    assert [r.next_double() for _ in range(3)] == [0.7275636800328681, 0.6832234717598454, 0.30871945533265976]


def test_negative_seed_int_and_long():
    r = JavaRandom(-1)
    assert r.next_int() == 1155099827
    assert r.next_long() == 8108487875070533655


def test_shuffle_matches_instances_randomize():
    x = list(range(10))
    java_shuffle(x, JavaRandom(1))
    assert x == [6, 9, 7, 8, 4, 2, 0, 3, 1, 5]


def test_shuffle_inlined_lcg_equals_next_int():
    """The inlined generator in java_shuffle must consume the stream exactly like next_int."""
    a, b = JavaRandom(7), JavaRandom(7)
    items = list(range(1000))
    java_shuffle(items, a)
    ref = list(range(1000))
    for j in range(999, 0, -1):
        k = b.next_int(j + 1)
        ref[j], ref[k] = ref[k], ref[j]
    assert items == ref and a.next_int() == b.next_int()
