# SPDX-License-Identifier: GPL-3.0-or-later
"""Metrics: each a function of (true classes, class probabilities, training class counts).

A metric declares its direction (``higher`` or ``lower`` is better), its unit (``UNITS``), the
level at which it is computed and the tolerances at which a reproduced cell counts as "near" a
published one, stated in that unit: a tolerance that does not fit the unit (0.5 on a fraction) is
refused when the paper is read. Ranks, significance symbols, win/tie/loss counts and "better/worse" all read
the direction from here, never assume it.

Fold-level metrics (one value per test fold, then mean ± sd over folds):

  accuracy   100 · mean(ŷ = y), ŷ the first class of maximum probability (Weka's classifyInstance)
  error      100 − accuracy
  mse        mean over rows of a squared error of the probability vector p against the one-hot y:
               half_brier: Σ_c (p_c − y_c)² / 2  (default)   brier: Σ_c (p_c − y_c)²
               true_class: (1 − p_y)²
  rrse       100 · sqrt(Σ_i Σ_c (p_ic − y_ic)²) / sqrt(Σ_i Σ_c (b_c − y_ic)²), b the baseline:
               weka: the training fold's class distribution with Laplace counts (n_c + 1)/(n + k),
                     as Weka's Evaluation (its Root_relative_squared_error)
               class_distribution: n_c / n          majority: one-hot on the most common class
  auc        100 · area under the ROC curve (Mann–Whitney, ties count ½, as Weka's ThresholdCurve
             groups equal scores): class index ``positive`` (default 0, Weka's Area_under_ROC), or
             ``average: weighted`` (per-class one-vs-rest areas weighted by test-fold prevalence)
  log_loss   mean of −ln p_y (p_y floored at 1e-300)

Dataset-level metrics (one value per dataset, from the predictions of every run):

  kw_bias2, kw_variance   Kohavi & Wolpert (1996) with no noise term: for a test row x with
      class y, P̂(c|x) = share of the runs in which x was predicted c;
      bias² = ½ Σ_c (1[c = y] − P̂(c|x))²,  variance = ½ (1 − Σ_c P̂(c|x)²),
      averaged over rows, in % (bias² + variance = the mean error rate).

Timings (recorded by the evaluation itself, not computed from predictions; ``level == "timing"``):

  fit_seconds, predict_seconds   CPU seconds of the (single-threaded) job during one fold's fit / predict
      (lower is better), usable in tables and rank figures like any fold column (e.g. Liu et al.'s training time)

Rows whose class is missing (code −1) are left out of every metric.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from . import libm
from .errors import ConfigError
from .paper import Plugin, check_entry


@dataclass(frozen=True)
class Metric:
    name: str
    direction: str  # "higher" or "lower" is better
    unit: str
    level: str  # "fold" or "dataset"
    function: Callable
    params: dict = field(default_factory=dict)
    tolerances: tuple = (0.5, 1.0)  # "near" thresholds for reproduced vs published, in the metric's unit

    @property
    def higher_is_better(self) -> bool:
        return self.direction == "higher"

    @property
    def reads_probabilities(self) -> bool:
        """False for a metric of the predicted labels alone (``LABELS_ONLY``)."""
        return self.function.__name__ not in LABELS_ONLY

    def __call__(self, *args):
        return self.function(*args, **self.params)


def _known(y: np.ndarray):
    return np.asarray(y) >= 0


def _onehot(y: np.ndarray, k: int) -> np.ndarray:
    out = np.zeros((len(y), k))
    out[np.arange(len(y)), y] = 1.0
    return out


def accuracy(y, proba, train_counts=None, scale: float = 100.0) -> float:
    keep = _known(y)
    if not keep.any():
        return math.nan
    pred = np.argmax(proba[keep], axis=1)
    return float(scale * np.sum(pred == y[keep]) / keep.sum())


def error(y, proba, train_counts=None, scale: float = 100.0) -> float:
    keep = _known(y)
    if not keep.any():
        return math.nan
    pred = np.argmax(proba[keep], axis=1)
    return float(scale * np.sum(pred != y[keep]) / keep.sum())


MSE_DEFINITIONS = ("half_brier", "brier", "true_class")


def mse(y, proba, train_counts=None, definition: str = "half_brier") -> float:
    keep = _known(y)
    if not keep.any():
        return math.nan
    p, t = proba[keep], y[keep]
    if definition == "true_class":
        return float(np.mean((1.0 - p[np.arange(len(t)), t]) ** 2))
    sq = np.sum((p - _onehot(t, p.shape[1])) ** 2, axis=1)
    return float(np.mean(sq / 2 if definition == "half_brier" else sq))


RRSE_BASELINES = ("weka", "class_distribution", "majority")


def rrse(y, proba, train_counts, baseline: str = "weka") -> float:
    keep = _known(y)
    if not keep.any():
        return math.nan
    p, t = proba[keep], y[keep]
    counts = np.asarray(train_counts, dtype=np.float64)
    if baseline == "weka":
        base = (counts + 1.0) / (counts.sum() + len(counts))
    elif baseline == "class_distribution":
        base = counts / counts.sum()
    else:
        base = _onehot(np.array([int(np.argmax(counts))]), len(counts))[0]
    truth = _onehot(t, p.shape[1])
    num = np.sum((p - truth) ** 2)
    den = np.sum((base[None, :] - truth) ** 2)
    return float(100.0 * math.sqrt(num) / math.sqrt(den)) if den > 0 else math.nan


def _binary_auc(scores: np.ndarray, positive: np.ndarray) -> float:
    n_pos = int(positive.sum())
    n_neg = len(positive) - n_pos
    if n_pos == 0 or n_neg == 0:
        return math.nan
    scores = np.ascontiguousarray(scores, dtype=np.float64)
    if np.isnan(scores).any():
        from scipy.stats import rankdata

        rank_sum = rankdata(scores, method="average")[positive].sum()
    else:  # the same exact sum of half-integers, compiled: the same bits
        from .stats._rank_kernel import positive_rank_sum

        rank_sum = positive_rank_sum(scores, np.ascontiguousarray(positive, dtype=np.bool_))
    return float((rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def auc(y, proba, train_counts=None, positive: int = 0, average: str | None = None) -> float:
    keep = _known(y)
    p, t = proba[keep], y[keep]
    if average == "weighted":
        total, weight = 0.0, 0
        for c in range(p.shape[1]):
            n_c = int(np.sum(t == c))
            a = _binary_auc(p[:, c], t == c)
            if n_c and not math.isnan(a):
                total, weight = total + n_c * a, weight + n_c
        return 100.0 * total / weight if weight else math.nan
    if positive >= p.shape[1]:
        raise ConfigError(
            f"metric auc: positive={positive} is a class index, but the data set has {p.shape[1]} "
            "classes (0 … {0})".format(p.shape[1] - 1)
        )
    return 100.0 * _binary_auc(p[:, positive], t == positive)


def log_loss(y, proba, train_counts=None) -> float:
    keep = _known(y)
    if not keep.any():
        return math.nan
    p = proba[keep][np.arange(int(keep.sum())), y[keep]]
    return float(np.mean(-libm.log(np.maximum(p, 1e-300))))


def _prediction_shares(predictions) -> tuple[np.ndarray, np.ndarray]:
    """Per test row: its class code and the share of runs predicting each class, (rows × classes),
    rows ascending. The classes are the frame's ``p:`` columns, or ``attrs["classes"]`` when the
    probabilities were not read. Computed once per frame (both Kohavi–Wolpert terms use it)."""
    cached = predictions.attrs.get("_prediction_shares")
    if cached is not None:
        return cached
    k = (
        len(predictions.attrs["classes"])
        if "classes" in predictions.attrs
        else sum(1 for c in predictions.columns if str(c).startswith("p:"))
    )
    d = predictions[predictions["y"] >= 0]
    row = d["row"].to_numpy().astype(np.int64)
    size = int(row.max()) + 1 if len(row) else 0
    # whole-number counts per (row, class): exact in any order, no sort needed
    counts = np.bincount(row * k + d["y_pred"].to_numpy(), minlength=size * k).reshape(size, k).astype(np.float64)
    seen = counts.sum(axis=1) > 0
    counts = counts[seen]
    shares = counts / counts.sum(axis=1, keepdims=True)
    truth = np.zeros(size, dtype=np.int64)
    truth[row] = d["y"].to_numpy()
    result = (truth[seen], shares)
    predictions.attrs["_prediction_shares"] = result
    return result


# metrics computed from the predicted labels alone: their readers may skip the probability columns
LABELS_ONLY = ("kw_bias2", "kw_variance")


def kw_bias2(predictions) -> float:
    truth, shares = _prediction_shares(predictions)
    if not len(truth):
        return math.nan
    return float(100.0 * np.mean(0.5 * np.sum((_onehot(truth, shares.shape[1]) - shares) ** 2, axis=1)))


def kw_variance(predictions) -> float:
    truth, shares = _prediction_shares(predictions)
    if not len(truth):
        return math.nan
    return float(100.0 * np.mean(0.5 * (1.0 - np.sum(shares**2, axis=1))))


def _recorded(*args, **kwargs) -> float:
    raise TypeError("a timing is recorded by the evaluation, not computed from predictions")


# The units a metric's values are printed in, each with the span of its values (None: unbounded).
# points: percentage points (accuracy × 100, an error rate, RRSE, AUC × 100); fraction: the same on 0–1.
UNITS = {"points": 100.0, "fraction": 1.0, "nats": None, "seconds": None, "count": None}
# A tolerance of "near" is at most this share of its unit's span: 10 points, or 0.1 of a fraction
# (the defaults are 0.5 and 1 points: a tolerance of a tenth of the scale is already a different result)
MAX_TOLERANCE_SHARE = 0.1


def unit_of_scale(scale: float) -> str:
    """The unit of an accuracy or error computed × ``scale``: points (100), a fraction (1), else "× scale"."""
    return "points" if scale == 100 else "fraction" if scale == 1 else f"× {scale:g}"


def check_tolerances(tolerances: tuple, unit: str) -> str | None:
    """Why ``tolerances`` do not fit ``unit`` (None if they do): two non-negative numbers, rising,
    each within ``MAX_TOLERANCE_SHARE`` of the unit's span."""
    if len(tolerances) != 2 or tolerances[0] > tolerances[1]:
        return f"tolerances must be two numbers, the first at most the second (e.g. [0.5, 1.0]), got {list(tolerances)}"
    span = UNITS.get(unit) if not unit.startswith("× ") else float(unit[2:])
    if span is not None and max(tolerances) > MAX_TOLERANCE_SHARE * span + 1e-12:
        return (f"tolerances {list(tolerances)} do not fit the unit {unit!r} (values span {span:g}): at most "
                f"{MAX_TOLERANCE_SHARE * span:g}, e.g. {[t * span / 100 for t in (0.5, 1.0)]}")
    return None


class MetricKind(Plugin):
    """One metric a paper's ``metrics:`` may name: its function, direction, unit, level and the
    tolerances of "near", and the keys of an entry ``{column: {metric: name, ...}}``: the
    overrides every metric takes (``common``) and the function's own parameters (``optional``,
    with the values a text parameter may take in ``choices``)."""

    common = ("metric", "direction", "unit", "tolerances")
    types = {"metric": str, "direction": str, "unit": str, "tolerances": list, "scale": float, "positive": int,
             "definition": str, "baseline": str, "average": str}
    _OWN = {"y", "proba", "train_counts", "predictions"}   # what every call passes, not a config key

    def __init__(self, name: str, function: Callable, direction: str, unit: str, level: str,
                 tolerances: tuple, choices: dict | None = None):
        self.name, self.function, self.direction, self.unit = name, function, direction, unit
        self.level, self.tolerances, self.choices = level, tolerances, choices or {}
        self.optional = tuple(p for p in inspect.signature(function).parameters if p not in self._OWN)

    def check(self, entry, paper=None):
        tolerances = entry.get("tolerances", [0.0])
        if not tolerances or not all(isinstance(t, (int, float)) and not isinstance(t, bool) and t >= 0
                                     for t in tolerances):
            return f"tolerances must be a list of non-negative numbers (e.g. [0.005, 0.5]), got {tolerances!r}"
        if "positive" in entry and entry["positive"] < 0:
            return f"positive must be a class index (0, 1, …), got {entry['positive']!r}"
        for key, choices in self.choices.items():
            if key in entry and entry[key] not in choices:
                return f"{key} must be one of {list(choices)}, got {entry[key]!r}"
        if entry.get("direction", self.direction) not in ("higher", "lower"):
            return "direction must be 'higher' or 'lower'"
        if "unit" in entry and entry["unit"] not in UNITS:
            return f"unit must be one of {list(UNITS)}, got {entry['unit']!r}"
        return None


METRICS: dict[str, MetricKind] = {
    kind.name: kind
    for kind in (
        MetricKind("accuracy", accuracy, "higher", "points", "fold", (0.5, 1.0)),
        MetricKind("error", error, "lower", "points", "fold", (0.5, 1.0)),
        MetricKind("mse", mse, "lower", "fraction", "fold", (0.005, 0.01), {"definition": MSE_DEFINITIONS}),
        MetricKind("rrse", rrse, "lower", "points", "fold", (0.5, 2.0), {"baseline": RRSE_BASELINES}),
        MetricKind("auc", auc, "higher", "points", "fold", (0.5, 2.0), {"average": (None, "weighted")}),
        MetricKind("log_loss", log_loss, "lower", "nats", "fold", (0.01, 0.05)),
        MetricKind("kw_bias2", kw_bias2, "lower", "points", "dataset", (0.5, 1.0)),
        MetricKind("kw_variance", kw_variance, "lower", "points", "dataset", (0.5, 1.0)),
        MetricKind("fit_seconds", _recorded, "lower", "seconds", "timing", (math.inf, math.inf)),
        MetricKind("predict_seconds", _recorded, "lower", "seconds", "timing", (math.inf, math.inf)),
    )
}


def _metric_entries(spec) -> list[tuple[str, str, dict]]:
    """A paper's ``metrics:`` list: each entry a name, or {column: {metric: name, ...params}}."""
    out = []
    for i, item in enumerate(spec or []):
        if isinstance(item, str):
            out.append((item, item, {}))
        elif isinstance(item, dict) and len(item) == 1:
            ((column, params),) = item.items()
            params = dict(params or {})
            out.append((column, params.pop("metric", column), params))
        else:
            raise ConfigError(f"metrics[{i}]: expected a name or a one-key mapping, got {item!r}")
    return out


COMPARISON_ONLY = ("tolerances", "unit")   # keys only the comparison with the printed cells reads


def computed_entries(spec) -> list:
    """A paper's ``metrics:`` as they decide the fold results: each entry without the keys only the
    comparison with the printed cells reads (``COMPARISON_ONLY``), so that editing a tolerance reruns
    the tables and reports, not the evaluations."""
    out = []
    for item in spec or []:
        if isinstance(item, Mapping) and len(item) == 1:
            ((column, params),) = item.items()
            item = {column: {k: v for k, v in dict(params or {}).items() if k not in COMPARISON_ONLY}}
        out.append(item)
    return out


def make_metric(column: str, name: str, params: dict | None = None, where: str = "metrics") -> Metric:
    """The metric ``name`` as a paper's column ``column``, with an entry's ``params`` (checked
    against its ``MetricKind``: one line naming ``where``, the column and the key)."""
    if name not in METRICS:
        raise ConfigError(f"{where}: unknown metric {name!r} (known: {sorted(METRICS)})")
    kind = METRICS[name]
    params = dict(params or {})
    check_entry(kind, {"metric": name, **params}, None, where if column == name else f"{where}, column {column!r}")
    direction = params.pop("direction", kind.direction)
    unit = params.pop("unit", kind.unit)
    tolerances = kind.tolerances
    if "scale" in params and name in ("accuracy", "error"):   # the defaults, in points, scaled to the unit
        unit = unit_of_scale(params["scale"])
        tolerances = tuple(t * params["scale"] / 100 for t in tolerances)
    tolerances = tuple(params.pop("tolerances", tolerances))
    why = check_tolerances(tolerances, unit)
    if why:
        raise ConfigError(f"{where if column == name else f'{where}, column {column!r}'}: {why}")
    return Metric(column, direction, unit, kind.level, kind.function, params, tolerances)


def paper_metrics(paper, where: str | None = None) -> dict[str, Metric]:
    """The metrics a paper (``nbrepro.paper.Paper``) asks for, by column name, in its order (accuracy
    when it asks for none); ``where`` names the config in an error."""
    where = f"{where or f'paper {paper.name!r}'}, metrics"
    return {
        col: make_metric(col, name, params, where) for col, name, params in _metric_entries(list(paper.metrics))
    } or {"accuracy": make_metric("accuracy", "accuracy")}


def metric_for(paper, column: str, declared: dict[str, Metric] | None = None) -> Metric:
    """The metric behind a fold-result column (``declared``: the paper's metrics, if already built);
    a column the paper does not declare uses the metric of that name with its defaults."""
    declared = paper_metrics(paper) if declared is None else declared
    return declared[column] if column in declared else make_metric(column, column)
