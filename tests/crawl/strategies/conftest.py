"""Settings shared by the strategy tests: the tourism pipeline with the paper's numbers.

The hand-built worlds give every link its priority by hand, so the tests fix the
thresholds and the host rule at the paper's numbers (SPEC §11, §5.7) instead of
the calibrated and "auto" ones.
"""

from __future__ import annotations

import pytest

from kgcrawl.config import Settings, load_settings

PAPER = {
    "relevance.alpha": "0.70",
    "relevance.beta": "0.19",
    "tabu.host_min_ratio": "0.8",
    "tabu.host_tick_pages": "0",
}


@pytest.fixture(scope="session")
def settings() -> Settings:
    return load_settings("tourism", PAPER)
