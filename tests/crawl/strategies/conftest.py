"""Settings shared by the strategy tests: the tourism pipeline's defaults."""

from __future__ import annotations

import pytest

from kgcrawl.config import Settings, load_settings


@pytest.fixture(scope="session")
def settings() -> Settings:
    return load_settings("tourism")
