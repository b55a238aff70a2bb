"""The installed package: typed (py.typed, stubs naming every public object of the extension,
with the parameters it really takes) and documented (a docstring on every public function,
class and method)."""

import ast
import inspect
from pathlib import Path

import pytest

import pddlc
from pddlc import _pddlc

PACKAGE = Path(pddlc.__file__).parent
STUBS = ast.parse((PACKAGE / "_pddlc.pyi").read_text())
STUBBED = {node.name: node for node in STUBS.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
EXTENSION = [name for name in dir(_pddlc) if not name.startswith("_") and callable(getattr(_pddlc, name))]


def test_the_package_is_marked_typed():
    assert (PACKAGE / "py.typed").exists()


@pytest.mark.parametrize("name", EXTENSION)
def test_every_extension_object_has_a_stub_and_a_docstring(name):
    assert name in STUBBED, f"{name} is missing from _pddlc.pyi"
    obj = getattr(_pddlc, name)
    assert (obj.__doc__ or "").strip(), f"{name} has no docstring"


@pytest.mark.parametrize("name", [n for n in EXTENSION if inspect.isbuiltin(getattr(_pddlc, n))])
def test_stub_parameters_are_the_real_ones(name):
    real = list(inspect.signature(getattr(_pddlc, name)).parameters)
    stub = STUBBED[name].args
    assert [a.arg for a in stub.args + stub.kwonlyargs] == real


@pytest.mark.parametrize("name", [n for n in EXTENSION if inspect.isclass(getattr(_pddlc, n))])
def test_every_public_member_of_a_class_is_stubbed_and_documented(name):
    cls = getattr(_pddlc, name)
    if issubclass(cls, BaseException):
        return
    members = {n for n in vars(cls) if not n.startswith("_")}
    stubbed = {
        node.name
        for node in STUBBED[name].body
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
    }
    assert members == stubbed
    for member in members:
        assert (getattr(cls, member).__doc__ or "").strip(), f"{name}.{member} has no docstring"


@pytest.mark.parametrize("name", ["run", "describe", "compile", "solve", "tasks", "eval"])
def test_kitchen_functions_are_annotated_and_documented(name):
    function = getattr(pddlc.kitchen, name)
    assert function.__doc__.strip()
    assert "return" in function.__annotations__
