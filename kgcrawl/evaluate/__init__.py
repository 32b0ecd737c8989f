"""Evaluation of crawls: the paper's metrics (Eq. 10–12), Friedman ranks, and the report."""
