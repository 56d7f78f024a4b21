# SPDX-License-Identifier: GPL-3.0-or-later
"""A paper config, read: the typed ``Paper`` (``spec``), its reader (``read_paper``: shape, defaults,
grids; no registry), its choices' readings as patches of the config as written (``readings``), and
the one shape of the plug-ins its entries name (``plugin``). The floor beneath everything that runs or
analyses an experiment: it imports nothing of nbrepro but its errors; ``nbrepro.checks`` checks a
paper against the registries."""
from .grids import expand_classifiers
from .plugin import Plugin, check_entry
from .reader import (
    SCHEMAS,
    apply_defaults,
    load_yaml,
    paper_of,
    read_paper,
    read_written,
    schema,
    schema_errors,
    validate,
)
from .spec import (
    Analysis,
    CaptionedFile,
    Choice,
    Classifier,
    Column,
    Combination,
    DatasetRows,
    DatasetTable,
    Gap,
    OutOfSample,
    Paper,
    Preprocessing,
    Protocol,
    Reading,
    Runs,
    Section,
    Significance,
    Table,
    Where,
    thawed,
)

__all__ = ["Analysis", "CaptionedFile", "Choice", "Classifier", "Column", "Combination", "DatasetRows",
           "DatasetTable", "Gap", "OutOfSample", "Paper", "Plugin", "Preprocessing", "Protocol", "Reading", "Runs",
           "SCHEMAS", "Section", "Significance", "Table", "Where", "apply_defaults", "check_entry",
           "expand_classifiers", "load_yaml", "paper_of", "read_paper", "read_written", "schema", "schema_errors",
           "thawed", "validate"]
