# SPDX-License-Identifier: GPL-3.0-or-later
"""The oracles the tests compare with, in one place: Weka 3.6.14 (Debian's jar, driven through
WekaOracle.java beside this file, and its filters) and R (``Rscript``). Tests skip where one is
missing; .ci/run installs both."""
import shutil
import subprocess
from pathlib import Path

import pytest

WEKA_JAR = Path("/usr/share/java/weka.jar")
WEKA_EXAMPLES = Path("/usr/share/doc/weka/examples")


def have_weka() -> bool:
    return WEKA_JAR.exists() and shutil.which("java") is not None and shutil.which("javac") is not None


needs_weka = pytest.mark.skipif(not have_weka(), reason="Weka 3.6 (java + /usr/share/java/weka.jar) not installed")
needs_r = pytest.mark.skipif(shutil.which("Rscript") is None, reason="R (Rscript) not installed")


def run_r(script: Path, *args) -> str:
    """``Rscript script args…``'s standard output."""
    return subprocess.run(["Rscript", str(script), *map(str, args)], check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="session")
def weka_oracle(tmp_path_factory):
    """Compile the oracle once; returns a function (classifier, train, test, *opts) → list of rows of floats."""
    if not have_weka():
        pytest.skip("Weka not installed")
    out = tmp_path_factory.mktemp("weka")
    subprocess.run(["javac", "-cp", str(WEKA_JAR), "-d", str(out), str(Path(__file__).with_name("WekaOracle.java"))],
                   check=True, capture_output=True)

    def run(classifier, train, test, *opts):
        res = subprocess.run(
            ["java", "-cp", f"{WEKA_JAR}:{out}", "WekaOracle", classifier, str(train), str(test), *opts],
            check=True,
            capture_output=True,
            text=True,
        )
        return [[float(v) for v in line.split()] for line in res.stdout.splitlines()]

    def model_text(classifier, train, *opts):
        return subprocess.run(
            ["java", "-cp", f"{WEKA_JAR}:{out}", "WekaOracle", "--model", classifier, str(train), *opts],
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    def attribute_eval(evaluator, train, *opts):
        res = subprocess.run(
            ["java", "-cp", f"{WEKA_JAR}:{out}", "WekaOracle", "--attribute-eval", evaluator, str(train), *opts],
            check=True,
            capture_output=True,
            text=True,
        )
        return [float(v) for v in res.stdout.split()]

    run.model_text = model_text
    run.attribute_eval = attribute_eval
    return run


def weka_filter(in_path, out_path, *filter_args):
    subprocess.run(
        ["java", "-cp", str(WEKA_JAR), *filter_args, "-i", str(in_path), "-o", str(out_path)],
        check=True,
        capture_output=True,
    )


def weka_fold_arff(tmp_path, X, y, k=3):
    """The first training/test split of Weka's k-fold CV (seed 1, Weka's row order), written as
    train.arff and test.arff for the oracle; returns the fold."""
    from nbrepro.data.arff import write_arff
    from nbrepro.protocols.weka_cv import weka_cv_folds

    fold = next(iter(weka_cv_folds(y.cat.codes.to_numpy(), k, [1])))
    frame = X.copy()
    frame["class"] = y
    write_arff(frame.iloc[fold.train], tmp_path / "train.arff")
    write_arff(frame.iloc[fold.test], tmp_path / "test.arff")
    return fold
