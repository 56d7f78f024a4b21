"""Classifiers, each a scikit-learn estimator taking nominal (Categorical) data."""
from .naive_bayes import NaiveBayes

REGISTRY = {"NaiveBayes": NaiveBayes}

__all__ = ["NaiveBayes", "REGISTRY"]
