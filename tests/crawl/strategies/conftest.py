"""Settings shared by the strategy tests: the tourism pipeline with the paper's α and β.

The hand-built worlds give every link its priority by hand, so the tests fix the
thresholds at the paper's numbers (SPEC §11) instead of calibrating them.
"""

from __future__ import annotations

import pytest

from kgcrawl.config import Settings, load_settings

PAPER_THRESHOLDS = {"relevance.alpha": "0.70", "relevance.beta": "0.19"}


@pytest.fixture(scope="session")
def settings() -> Settings:
    return load_settings("tourism", PAPER_THRESHOLDS)
