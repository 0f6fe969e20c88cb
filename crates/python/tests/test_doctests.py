"""The examples in the docstrings run and say what they print."""

import doctest

import pytest

import tessera
import tessera.gym
import tessera.shisen
import tessera.slide


@pytest.mark.parametrize(
    "module", [tessera, tessera.slide, tessera.slide.tables, tessera.shisen, tessera.gym], ids=lambda m: m.__name__
)
def test_docstring_examples(module):
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted > 0, "the module has examples"
    assert failed == 0
