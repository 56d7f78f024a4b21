# SPDX-License-Identifier: GPL-3.0-or-later
"""One conformance test over every plug-in registry of a paper config (benchopt's shape): claim
kinds, statistics, figure kinds, protocols and metrics are ``nbrepro.paper.plugin.Plugin`` instances,
registered under their own name, whose declared keys are consistent. Estimators and preprocessing
steps declare theirs as scikit-learn does (``_parameter_constraints``: their own common tests)."""
import pytest

from nbrepro.analysis.claim_kinds import CLAIM_KINDS
from nbrepro.analysis.figures import FIGURE_KINDS
from nbrepro.analysis.statistics import STATISTICS
from nbrepro.metrics import METRICS
from nbrepro.paper import Plugin
from nbrepro.protocols import PROTOCOLS

REGISTRIES = {"claim kinds": CLAIM_KINDS, "statistics": STATISTICS, "figure kinds": FIGURE_KINDS,
              "protocols": PROTOCOLS, "metrics": METRICS}
PLUGINS = [(section, name, plugin) for section, registry in REGISTRIES.items() for name, plugin in registry.items()]


@pytest.mark.parametrize("section, name, plugin", PLUGINS, ids=[f"{s}:{n}" for s, n, _ in PLUGINS])
def test_every_plugin_declares_its_keys_one_way(section, name, plugin):
    assert isinstance(plugin, Plugin) and plugin.name == name
    keys = plugin.known_keys()
    assert len(keys) == len(set(keys)), f"{name}: a key declared twice"
    assert set(plugin.required) <= set(keys)
    # a typed key is one some plug-in of the section reads (a stale type would hide a removed key)
    section_keys = {k for p in REGISTRIES[section].values() for k in p.known_keys()}
    assert set(plugin.types) <= section_keys, sorted(set(plugin.types) - section_keys)
