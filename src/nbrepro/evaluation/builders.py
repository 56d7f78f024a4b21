# SPDX-License-Identifier: GPL-3.0-or-later
"""Estimators from a paper's classifier entries: ``build_estimator`` makes the scikit-learn
estimator an entry (``{estimator: Name, params: {...}, steps: [...]}``) names, ``make_classifier``
a paper's labelled one, as every evaluation job does and as ``nbrepro.checks`` does before any job."""
from __future__ import annotations

from collections.abc import Mapping

from ..errors import ConfigError
from ..paper import Classifier, Paper


def imported_classifier(path: str, where: str) -> type:
    """The class an import path names (``sklearn.naive_bayes.GaussianNB``), if it is a scikit-learn
    estimator class (``build_estimator`` checks that an instance is a classifier)."""
    import importlib

    module_name, _, class_name = path.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except ImportError as exc:
        raise ConfigError(f"{where}: estimator {path!r}: module {module_name!r} cannot be imported ({exc})") from None
    except AttributeError:
        raise ConfigError(f"{where}: estimator {path!r}: module {module_name!r} has no {class_name!r}") from None
    if not isinstance(cls, type) or not hasattr(cls, "get_params") or not hasattr(cls, "fit"):
        raise ConfigError(f"{where}: estimator {path!r} is not a scikit-learn estimator class")
    return cls


def _random_state_unset(estimator) -> list[str]:
    """The ``random_state`` parameters (nested ones by their ``__`` path) left None: such an
    estimator draws from fresh entropy, and the same config would not give the same results."""
    return [k for k, v in estimator.get_params(deep=True).items()
            if (k == "random_state" or k.endswith("__random_state")) and v is None]


def build_estimator(spec: dict, where: str, foreign_ok: bool = True):
    """An estimator from ``{estimator: Name, params: {...}}``; a param that is itself such a mapping
    (e.g. the ``estimator`` of a ``Bagging`` or ``Calibrated``) is built the same way, recursively.
    A name with a dot is an import path of any scikit-learn classifier (``sklearn.svm.SVC``): it is
    wrapped in ``OneHotClassifier``, which gives it the paper's attributes as numbers, unless it is
    the base of another such classifier (``foreign_ok`` False: the outer one's input is encoded).
    A classifier's ``steps:`` (preprocessing fitted on each training fold, with the class) put it
    at the end of a scikit-learn Pipeline."""
    import inspect

    from ..classifiers import REGISTRY, OneHotClassifier

    if isinstance(spec, Mapping) and not isinstance(spec, Classifier) and "estimator" in spec:
        spec = Classifier.build(spec)   # a nested estimator, written as a mapping in the params
    if not isinstance(spec, Classifier):
        raise ConfigError(f"{where}: expected a mapping with an 'estimator' key, got {spec!r}")
    name = spec.estimator
    imported = "." in name
    if imported:
        cls = imported_classifier(name, where)
    elif name not in REGISTRY:
        raise ConfigError(f"{where}: unknown estimator {name!r} (known: {sorted(REGISTRY)}, or a scikit-learn "
                          "classifier's import path such as sklearn.naive_bayes.GaussianNB)")
    else:
        cls = REGISTRY[name]
    params = dict(spec.params or {})
    accepted = inspect.signature(cls).parameters
    unknown = sorted(set(params) - set(accepted))
    if unknown:
        raise ConfigError(f"{where}: {name} has no parameter(s) {unknown} (it takes {sorted(accepted)})")
    for key, value in params.items():
        if isinstance(value, dict) and "estimator" in value:
            params[key] = build_estimator(value, f"{where} → {key}", foreign_ok=not imported)
        elif key == "estimator" and isinstance(value, str) and value in REGISTRY:
            # a meta-estimator's base written as a bare name would be kept as a string and fail at fit
            raise ConfigError(f"{where}: {name}'s estimator is the string {value!r}; write it as a mapping, "
                              f"estimator: {{estimator: {value}, params: {{...}}}}")
    try:
        estimator = cls(**params)
        if hasattr(estimator, "_parameter_constraints"):
            # scikit-learn's own check of the declared constraints, as fit would run it, but now
            estimator._validate_params()
    except (TypeError, ValueError) as exc:  # InvalidParameterError is a ValueError
        raise ConfigError(f"{where}: {exc}") from None
    if imported and foreign_ok:
        from sklearn.base import is_classifier

        if not is_classifier(estimator):
            raise ConfigError(f"{where}: estimator {name!r} is not a classifier (scikit-learn's is_classifier)")
        if not hasattr(estimator, "predict_proba"):
            raise ConfigError(f"{where}: {name} gives no class probabilities with these parameters (no predict_proba; "
                              "nbrepro's metrics read them): e.g. SVC needs probability: true")
        unset = _random_state_unset(estimator)
        if unset:
            raise ConfigError(f"{where}: {name} has {', '.join(unset)} = None, so the same config would not give the "
                              "same results: give each a number (random_state: 0) in its estimator's params")
        estimator = OneHotClassifier(estimator)
    if spec.steps:
        from sklearn.pipeline import Pipeline

        from ..preprocess.pipeline import build_steps

        try:
            steps = build_steps(spec.steps)
        except ValueError as exc:
            raise ConfigError(f"{where}: {exc}") from None
        estimator = Pipeline([*steps, ("classifier", estimator)])
    return estimator


def make_classifier(label: str, paper: Paper):
    if label not in paper.classifiers:
        raise ConfigError(f"paper {paper.name!r}: no classifier labelled {label!r} (have: {sorted(paper.classifiers)})")
    return build_estimator(paper.classifiers[label], f"paper {paper.name!r}, classifier {label!r}")
