# SPDX-License-Identifier: GPL-3.0-or-later
"""Every exception of nbrepro, in one module that imports nothing, so that any layer can raise
or catch them without importing another layer.

``USER_ERRORS`` are the ones that mean bad input: the command line reports them as one clear
line naming the file, key or value, with no traceback.
"""


class ConfigError(ValueError):
    """A config file, key or value that cannot be used; the message names the file and the key."""


class ArffError(ValueError):
    """A malformed ARFF file; the message names the file, the line and what was expected."""


class DatasetUnavailable(RuntimeError):
    """No copy of a dataset could be found or fetched."""


class DatasetInvalid(ValueError):
    """A dataset file does not match its registry entry."""


class ProtocolError(ValueError):
    """A protocol that cannot be run on the data (e.g. more folds than rows)."""


class BandwidthError(ValueError):
    """A bandwidth rule has no answer for these values (R's error, or too few values)."""


class OptimizationError(ArithmeticError):
    """Weka's optimiser failed (a NaN objective, an ascent direction, an infeasible step)."""


class ResultChanged(RuntimeError):
    """A result file whose bytes are not those its job recorded when it wrote them (``nbrepro.io``)."""


USER_ERRORS = (ConfigError, ArffError, DatasetInvalid, DatasetUnavailable, ProtocolError, ResultChanged)


class TooFewDatasets(ValueError):
    """A test or figure over data sets given fewer than it needs (a cut to one data set): what it
    would compute is not computable, said so in its place, never a crash of the job."""
