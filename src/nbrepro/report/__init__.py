# SPDX-License-Identifier: GPL-3.0-or-later
"""Figures and HTML reports: reproduced numbers beside the published ones."""
