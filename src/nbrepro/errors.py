"""The errors that mean bad input (reported as one clear line, no traceback)."""
from .config import ConfigError
from .data.arff import ArffError
from .data.fetch import DatasetInvalid, DatasetUnavailable
from .protocols import ProtocolError

USER_ERRORS = (ConfigError, ArffError, DatasetInvalid, DatasetUnavailable, ProtocolError)
