"""The type stubs describe the native module as it is: the same functions, classes and
public members, and every public item has a docstring for help()."""

import ast
from pathlib import Path

import knightnet as kn
from knightnet import _knightnet

STUB = Path(kn.__file__).with_name("_knightnet.pyi")


def stub_items():
    tree = ast.parse(STUB.read_text())
    classes, functions, constants = {}, set(), set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign):
                    members.add(item.target.id)
            classes[node.name] = {m for m in members if not m.startswith("_")}
        elif isinstance(node, ast.FunctionDef):
            functions.add(node.name)
        elif isinstance(node, ast.AnnAssign) and not node.target.id.startswith("_"):
            constants.add(node.target.id)
    return classes, functions, constants


def test_stubs_match_the_native_module():
    classes, functions, constants = stub_items()
    public = {n for n in dir(_knightnet) if not n.startswith("_")}
    native_classes = {n for n in public if isinstance(getattr(_knightnet, n), type)} - {"Steps"}
    assert set(classes) == native_classes
    assert functions | constants == public - native_classes - {"Steps"}
    for name, members in classes.items():
        runtime = {m for m in dir(getattr(_knightnet, name)) if not m.startswith("_")}
        assert members == runtime, name


def test_public_items_are_documented():
    assert kn.__doc__ and "solve" in kn.__doc__
    for name in kn.__all__:
        item = getattr(kn, name)
        if callable(item):
            assert item.__doc__, name
        if isinstance(item, type):
            for member in dir(item):
                if not member.startswith("_"):
                    assert getattr(item, member).__doc__, f"{name}.{member}"
