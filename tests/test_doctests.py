"""Every docstring example in kgcrawl runs (the way networkx runs its algorithm examples)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import kgcrawl

MODULES = sorted(
    name
    for _, name, _ in pkgutil.walk_packages(kgcrawl.__path__, "kgcrawl.")
    if not name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert failed == 0, f"{name}: {failed} docstring example(s) failed"
