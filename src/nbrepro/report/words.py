# SPDX-License-Identifier: GPL-3.0-or-later
"""A paper's experiment in words, generated from its config: the protocol, the preprocessing and
each classifier in constructor notation. What the report prints instead of the config's mappings."""
from __future__ import annotations

from ..paper import Classifier, Preprocessing, Protocol

# Said beside every Wilcoxon p-value a page prints (issue 64): which convention computed it
WILCOXON_CONVENTION = (
    "Wilcoxon p-values are scipy's with its defaults, as Demšar (2006) uses the test: zero differences "
    "dropped, the exact null distribution up to 50 data sets, the normal approximation without a continuity "
    "correction above; R's wilcox.test takes the normal approximation where differences tie, so its p-values "
    "can differ there."
)


def _names(columns) -> str:
    columns = [str(c) for c in columns]
    return ", ".join(f"'{c}'" for c in columns)


def _list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def protocol_in_words(spec: Protocol) -> str:
    """E.g. "5 runs of stratified 10-fold cross-validation with Weka 3.6's fold assignment (runs
    seeded 1–5, training rows in Weka's order)"."""
    seed = 1 if spec.seed is None else spec.seed
    if spec.name == "weka_cv":
        first, last = int(spec.runs.first), int(spec.runs.last)
        runs = last - first + 1
        order = ("training rows in Weka's order" if (spec.train_order or "weka") == "weka"
                 else "training rows in block order")
        return (f"{runs} run{'s' if runs != 1 else ''} of stratified {spec.folds}-fold cross-validation with "
                f"Weka 3.6's fold assignment (runs seeded {first}–{last}, {order})")
    if spec.name == "stratified_cv":
        repeats = int(spec.repeats or 1)
        return (f"{repeats} repetition{'s' if repeats != 1 else ''} of stratified {spec.folds}-fold "
                f"cross-validation (scikit-learn's RepeatedStratifiedKFold, seed {seed})")
    if spec.name == "two_fold_trials":
        return (f"{spec.trials} trials of stratified 2-fold cross-validation (scikit-learn's "
                f"RepeatedStratifiedKFold, seed {seed})")
    if spec.name == "resubstitution":
        return "training and testing on every row (resubstitution)"
    return str(spec.as_written())


_STEPS = {
    "remove_id_like": lambda p: "attributes that identify rows removed (ID-like: "
                                f"≥ {p.get('min_distinct_fraction', 0.9):.0%} distinct values)",
    "replace_missing": lambda p: "missing values replaced (modes of nominal, means of numeric attributes)",
    "discretize_equal_width": lambda p: f"numeric attributes cut into {p.get('n_bins', 10)} equal-width bins",
    "remove_constant": lambda p: "constant attributes removed",
    "to_numeric": lambda p: f"{_names(p.get('columns', []))} read as numeric",
    "remove_columns": lambda p: f"{_names(p.get('columns', []))} removed",
    "standardize": lambda p: "numeric attributes standardised",
    "discretize_mdl": lambda p: "numeric attributes cut by MDL (Fayyad & Irani" + (", Kononenko's criterion"
                                if p.get("criterion") == "kononenko" else "") + ")",
}


def step_in_words(step: dict) -> str:
    (name, params), = step.items()
    words = _STEPS.get(name)
    return words(params or {}) if words else f"{name}({params or ''})"


def preprocessing_in_words(pre: Preprocessing) -> str:
    """The steps, where they are fitted, and each dataset's own steps with the reason given."""
    where = {"dataset": "on the whole data set", "fold": "fitted on each training fold"}.get(pre.scope, "")
    steps = [step_in_words(s) for s in pre.steps]
    text = (_list(steps) + f" {where}") if steps else "none: the classifiers take the raw attributes"
    extra = []
    for dataset, own in pre.per_dataset.items():
        words = _list([step_in_words(s) for s in own.steps]) if own.steps else ""
        if words:
            extra.append(f"{dataset}: {words}" + (f" ({own.why})" if own.why else ""))
    if pre.complete_cases:
        text += "; rows with a missing value left out"
    return text + ("; " + "; ".join(extra) if extra else "")


def _value(v) -> str:
    if isinstance(v, dict) and "estimator" in v:
        return estimator_in_words(v)
    if isinstance(v, str):
        return repr(v)
    return str(v)


def estimator_in_words(spec: Classifier | dict) -> str:
    """``{estimator: Calibrated, params: {estimator: {estimator: NaiveBayes}}}`` → ``Calibrated(NaiveBayes())``;
    a nested estimator named ``estimator`` is written without its keyword, as scikit-learn's repr does
    (any other value keeps its keyword)."""
    if not isinstance(spec, Classifier):
        spec = Classifier.build(spec)   # a nested estimator, written as a mapping in the params
    args = [(_value(v) if k == "estimator" and isinstance(v, dict) else f"{k}={_value(v)}")
            for k, v in spec.params.items()]
    steps = spec.steps
    text = f"{spec.estimator}({', '.join(args)})"
    if steps:
        text += " after " + _list([step_in_words(s) for s in steps]) + " fitted on each training fold"
    return text


def subjects(claims: list[str]) -> list[str]:
    """Each claim's subject for a continuation ("… and lose on 4" says what it continues): the nearest
    earlier claim that does not begin with "…", or "" where the claim begins no such row."""
    out, last = [], ""
    for text in claims:
        text = "" if text is None or text != text else str(text)   # NaN: no text
        if text.startswith("…"):
            out.append(last)
        else:
            out.append("")
            last = text
    return out


def verdict_class(verdict: str) -> str:
    """The CSS class a verdict's cell takes: "ok" (holds), "off" (does not), none otherwise."""
    return {"yes": "ok", "no": "off"}.get(verdict, "")
