# SPDX-License-Identifier: GPL-3.0-or-later
"""Every check of a paper config, in one place, run once when a run is planned and never by a job:
``check_paper(paper, registry)`` raises one line naming the file and the key of the first thing wrong
(what it names against the registries, each section against the others, the plug-ins' entries, the
declared claims, the data sets against the data-set registry and their files, every reading).
``checked_paper(path)`` reads a config and checks it. It sits above the registries it reads."""
from ._data import after_preprocessing, check_attribute_kinds, check_positive_classes, check_registry
from ._names import named_schema, registry_names
from ._paper import check_paper, check_readings, checked_paper
from ._sections import check_sections, check_steps

__all__ = ["after_preprocessing", "check_attribute_kinds", "check_paper", "check_positive_classes",
           "check_readings", "check_registry", "check_sections", "check_steps", "checked_paper", "named_schema",
           "registry_names"]
