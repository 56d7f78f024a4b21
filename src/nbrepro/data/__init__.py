# SPDX-License-Identifier: GPL-3.0-or-later
"""Datasets: ARFF reading, the registry, checksums, fetching (cache → shipped files → mirror → OpenML), validation."""
from ..errors import ArffError, DatasetUnavailable
from .arff import read_arff
from .fetch import load_dataset
from .registry import DatasetSpec, load_registry

__all__ = ["ArffError", "read_arff", "DatasetSpec", "load_registry", "DatasetUnavailable", "load_dataset"]
