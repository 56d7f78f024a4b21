"""Figures and HTML reports: reproduced numbers beside the published ones."""
