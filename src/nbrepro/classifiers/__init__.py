"""Classifiers, each a scikit-learn estimator taking nominal (Categorical) data."""
from .aode import AODE
from .awnb import AttributeWeightedNB, GainRatioWeightedNB, ReliefFWeightedNB, SelectiveBayesTrees
from .bagging import Bagging
from .gaussian_nb import LSLWNB, FrequencyGaussianNB
from .hnb import HNB
from .lcwnb import LCWNB
from .logistic import Logistic
from .lwnb import LocallyWeightedNB
from .meta import Calibrated, InnerCVSelection
from .iclnb import InstanceCloningNB
from .j48 import J48
from .kernel_nb import KernelNB
from .knn import LocalDistributionKNN, LocalMeanKNN, VotingKNN
from .lpmbc import LPMBC
from .naive_bayes import NaiveBayes
from .cfs import CorrelationSelectedNB
from .selective_nb import SelectiveNB
from .nbtree import NBTree
from .nnbc import NonNaiveBayes
from .tan import TAN
from .waode import WAODE

REGISTRY = {"NaiveBayes": NaiveBayes, "AttributeWeightedNB": AttributeWeightedNB, "GainRatioWeightedNB": GainRatioWeightedNB, "ReliefFWeightedNB": ReliefFWeightedNB, "SelectiveBayesTrees": SelectiveBayesTrees, "SelectiveNB": SelectiveNB, "CorrelationSelectedNB": CorrelationSelectedNB, "TAN": TAN, "AODE": AODE, "WAODE": WAODE, "HNB": HNB,
            "FrequencyGaussianNB": FrequencyGaussianNB, "LSLWNB": LSLWNB,
            "LCWNB": LCWNB, "LocallyWeightedNB": LocallyWeightedNB,
            "InstanceCloningNB": InstanceCloningNB, "J48": J48, "Bagging": Bagging, "NBTree": NBTree, "Logistic": Logistic, "KernelNB": KernelNB, "InnerCVSelection": InnerCVSelection, "Calibrated": Calibrated,
            "LPMBC": LPMBC, "VotingKNN": VotingKNN, "LocalMeanKNN": LocalMeanKNN,
            "LocalDistributionKNN": LocalDistributionKNN, "NonNaiveBayes": NonNaiveBayes}

__all__ = ["NaiveBayes", "AttributeWeightedNB", "GainRatioWeightedNB", "ReliefFWeightedNB", "SelectiveBayesTrees", "SelectiveNB", "CorrelationSelectedNB", "TAN", "AODE", "WAODE", "HNB", "FrequencyGaussianNB", "LSLWNB", "LCWNB", "LocallyWeightedNB", "InstanceCloningNB", "J48", "Bagging", "NBTree", "Logistic", "KernelNB", "InnerCVSelection", "Calibrated",
           "LPMBC", "VotingKNN", "LocalMeanKNN", "LocalDistributionKNN", "NonNaiveBayes", "REGISTRY"]
