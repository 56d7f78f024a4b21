"""Liu et al.'s claims module on synthetic tables: each sentence becomes a test that can fail."""
import numpy as np
import pandas as pd

from nbrepro.claims import kdebw
from nbrepro.analysis import Context, claims_frame

SCHEMES = kdebw.SCHEMES


def long_table(values: np.ndarray, metric: str) -> pd.DataFrame:
    rows = [{"dataset": f"d{i}", "method": m, "metric": metric, "mean": values[i, j]}
            for i in range(values.shape[0]) for j, m in enumerate(SCHEMES)]
    return pd.DataFrame(rows)


def context(error_rank_order):
    """52 data sets where the error ranks follow ``error_rank_order`` (best first) with noise."""
    rng = np.random.default_rng(0)
    base = np.array([error_rank_order.index(m) for m in SCHEMES], dtype=float)
    err = base[None, :] + rng.normal(scale=0.8, size=(52, len(SCHEMES))) + 10
    bias = err.copy()
    bias[:, SCHEMES.index("UCV")] -= 4  # UCV: low bias, high variance
    bias[:, SCHEMES.index("BCV")] += 8  # BCV: high bias, low variance
    var = rng.normal(scale=0.5, size=(52, len(SCHEMES))) + 5
    var[:, SCHEMES.index("UCV")] += 5
    var[:, SCHEMES.index("BCV")] -= 3
    tables = {"error": long_table(err, "error"), "bias": long_table(bias, "kw_bias2"),
              "variance": long_table(var, "kw_variance"),
              "table2": pd.DataFrame([{"measure": "ERROR", "row_method": "BCV", "col_method": "SP", "wins": 10,
                                       "ties": 0, "losses": 42}])}
    times = {m: (8.0 if m in kdebw.SOPHISTICATED else 2.0) + i * 0.01 for i, m in enumerate(SCHEMES)}
    frames = {"figure1": pd.DataFrame([{"panel": "training time", "method": m, "mean_rank": r} for m, r in times.items()]),
              "figure2": pd.DataFrame({"classifier": ["NRD", "NRD0", "SP", "UCV", "BCV", "STE", "DPI", "WEKA"],
                                       "median": [0.9, 0.7, 0.6, 0.5, 1.07, 0.5, 0.6, 1.4]})}
    ctx = Context(paper={}, table=tables["error"], wide=pd.DataFrame(), table1=None, higher_is_better=False,
                  frames=frames, tables=tables)
    return ctx


def test_claims_hold_on_tables_built_to_satisfy_them():
    order = ["SP", "WEKA", "NRD-I", "NRD", "NRD0", "DPI", "STE", "DIS", "UCV", "BCV"]
    out = claims_frame(kdebw.claims(context(order))).set_index("claim")
    assert (out.verdict != "not yet computable").all()
    failed = out[out.verdict != "yes"]
    # every claim but "SP is the only scheme better than DIS" (WEKA and others beat DIS here too)
    assert list(failed.index) == ["SP is the only scheme statistically significantly better than DIS on error"]
    assert "ours 10/0/42" in out.loc[[c for c in out.index if c.startswith("BCV is statistically significantly "
                                                                         "worse than SP")][0], "evidence"]


def test_claims_fail_when_the_order_is_reversed():
    order = ["BCV", "UCV", "DIS", "STE", "DPI", "NRD0", "NRD", "NRD-I", "WEKA", "SP"]
    out = claims_frame(kdebw.claims(context(order))).set_index("claim")
    significance = [c for c in out.index if "significantly" in c]
    assert (out.loc[significance, "verdict"] == "no").all()
