# SPDX-License-Identifier: GPL-3.0-or-later
"""The one shape of a paper config's plug-ins: claim kinds, statistics, figure kinds, protocols
and metrics (the estimators and preprocessing steps, scikit-learn objects, declare their
parameters as scikit-learn does: ``_parameter_constraints``).

A plug-in has a ``name`` (what an entry's ``kind:`` or ``test:`` gives), the keys its entry may
have (``required`` and ``optional``, with a type where the key has one fixed type: ``types``),
and ``check(entry, paper)``, which sees the whole paper config (e.g. a statistic's methods must
be labels of the paper's tables) and says what is wrong, or None. ``check_entry`` applies all of
it and raises one line naming the file, the section, the entry and the key, so every entry is
checked when the paper is loaded, before any job.
"""
from __future__ import annotations

from typing import ClassVar

from ..errors import ConfigError

# a key's type as YAML gives it: a number may be written as an int
_TYPE_WORDS = {str: "a string", bool: "true or false", int: "an integer", float: "a number", list: "a list",
               dict: "a mapping"}


class Plugin:
    """One plug-in: its ``name``, the keys of its entry (``common`` to every plug-in of its section,
    ``required``, ``optional``), their ``types`` where fixed, and a ``check`` that sees the paper."""

    name: ClassVar[str]
    common: ClassVar[tuple[str, ...]] = ()
    required: ClassVar[tuple[str, ...]] = ()
    optional: ClassVar[tuple[str, ...]] = ()
    types: ClassVar[dict[str, type | tuple[type, ...]]] = {}

    def check(self, entry: dict, paper: dict) -> str | None:
        """What is wrong with the entry beyond its keys' names and types (None: nothing)."""
        return None

    def known_keys(self) -> tuple[str, ...]:
        return self.common + self.required + self.optional


def _type_ok(value, expected) -> bool:
    expected = expected if isinstance(expected, tuple) else (expected,)
    if isinstance(value, bool):   # YAML's true is not a number
        return bool in expected
    if isinstance(value, int) and float in expected:
        return True
    return isinstance(value, expected)


def _type_words(expected) -> str:
    expected = expected if isinstance(expected, tuple) else (expected,)
    return " or ".join(_TYPE_WORDS.get(t, t.__name__) for t in expected)


def check_entry(plugin: Plugin, entry: dict, paper: dict, at: str) -> None:
    """``entry``'s keys against ``plugin``'s declaration, then its own ``check``; ``at`` names the
    file, section and entry. Raises ``ConfigError`` with one line."""
    what = f"{at}: {plugin.name!r}"
    missing = [k for k in plugin.required if k not in entry]
    if missing:
        raise ConfigError(f"{what} needs {missing[0]!r}" + (f" (and {missing[1:]})" if missing[1:] else ""))
    unknown = [k for k in entry if k not in plugin.known_keys()]
    if unknown:
        raise ConfigError(f"{what} has no key {unknown[0]!r} (its keys: {', '.join(sorted(plugin.known_keys()))})")
    for key, expected in plugin.types.items():
        if key in entry and entry[key] is not None and not _type_ok(entry[key], expected):
            raise ConfigError(f"{what}: {key} must be {_type_words(expected)}, got {entry[key]!r}")
    problem = plugin.check(entry, paper)
    if problem:
        raise ConfigError(f"{what}: {problem}")
