"""The type stubs match the native module, and every public thing has a docstring."""

import ast
import inspect
import pathlib
import re

import robotscan
import robotscan._robotscan as native
from robotscan import crawl, pytest_plugin, regexguard, robotparser

STUB = pathlib.Path(native.__file__).with_name("_robotscan.pyi")


def stub_names():
    """{top-level name: set of member names (empty for functions/variables)}."""
    tree = ast.parse(STUB.read_text())
    names = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names[node.name] = {
                item.name for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
            }
        elif isinstance(node, ast.FunctionDef):
            names[node.name] = set()
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = set()
    return {k: v for k, v in names.items() if not k.startswith("_Text") and k not in ("_Body", "_Compat")}


def runtime_names():
    names = {}
    for name, value in vars(native).items():
        if name.startswith("__") and name != "__version__":
            continue
        if inspect.isclass(value):
            names[name] = {
                member
                for member in vars(value)
                if not (member.startswith("__") and member not in ("__init__", "__call__", "__eq__", "__hash__", "__copy__", "__deepcopy__"))
                and not member.startswith("_pybind11")
            }
            if "__init__" not in vars(value) or value.__init__ is object.__init__:
                names[name].discard("__init__")
        elif callable(value) or name == "__version__":
            names[name] = set()
    return names


def test_stub_declares_exactly_what_the_module_has():
    stub, runtime = stub_names(), runtime_names()
    assert sorted(stub) == sorted(runtime)
    for name, members in runtime.items():
        # pybind11 gives every class an __init__ (raising for non-constructible ones).
        assert stub[name] - {"__init__"} == members - {"__init__"}, name


def public_objects():
    for module in (native, robotscan, crawl, regexguard, robotparser, pytest_plugin):
        yield module.__name__, module
        for name, value in vars(module).items():
            if name.startswith("_") or getattr(value, "__module__", module.__name__) not in (module.__name__,):
                continue
            if inspect.isclass(value) or callable(value):
                yield f"{module.__name__}.{name}", value
                if inspect.isclass(value):
                    for member_name, member in vars(value).items():
                        if member_name.startswith("_") or not (callable(member) or isinstance(member, property)):
                            continue
                        yield f"{module.__name__}.{name}.{member_name}", member


def test_everything_public_has_a_docstring():
    missing = [name for name, value in public_objects() if not (inspect.getdoc(value) or "").strip()]
    assert missing == []


def test_package_exports():
    for name in robotscan.__all__:
        assert hasattr(robotscan, name), name
    assert robotscan.__version__ == native.__version__
    assert (pathlib.Path(robotscan.__file__).parent / "py.typed").exists()


def stub_literal(expression):
    """The values of a Literal[...] annotation (an ast node), or None."""
    if (isinstance(expression, ast.Subscript) and isinstance(expression.value, ast.Name)
            and expression.value.id == "Literal"):
        elements = expression.slice.elts if isinstance(expression.slice, ast.Tuple) else [expression.slice]
        return {element.value for element in elements}
    return None


def stub_aliases():
    tree = ast.parse(STUB.read_text())
    return {node.targets[0].id: node.value for node in tree.body
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)}


def stub_property_literal(class_name, property_name):
    tree = ast.parse(STUB.read_text())
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == property_name:
                    return stub_literal(item.returns)
    raise AssertionError(f"{class_name}.{property_name} not in the stub")


def test_compat_literals_are_what_the_module_accepts_and_answers():
    """The stub's _Compat once lacked "urllib" (issue 25): every name the
    module names in its refusal is in _Compat and parses, and what
    RobotsTxt.compat answers for each is in that property's Literal."""
    compat_names = stub_literal(stub_aliases()["_Compat"])
    try:
        native.RobotsTxt.parse(b"", "no-such-mode")
        raise AssertionError("an unknown compat mode was accepted")
    except ValueError as error:
        accepted = set(re.findall(r"'([a-z0-9]+)'", str(error))) - {"no-such-mode"}
    assert accepted == compat_names
    answers = {native.RobotsTxt.parse(b"", name).compat for name in compat_names}
    assert answers == stub_property_literal("RobotsTxt", "compat")
    for name in compat_names:
        assert native.policy_for_http(200, b"", compat=name).robots.compat in answers


def test_parameter_literals_are_accepted():
    """Each value a Literal parameter of the stub allows is taken by the module."""
    tree = ast.parse(STUB.read_text())
    policy = next(node for node in tree.body
                  if isinstance(node, ast.FunctionDef) and node.name == "policy_for_http")
    values = stub_literal(next(arg.annotation for arg in policy.args.kwonlyargs
                               if arg.arg == "too_many_requests"))
    assert values == {"unavailable", "unreachable"}
    answers = {native.policy_for_http(429, too_many_requests=value).access for value in values}
    assert answers <= stub_property_literal("AccessPolicy", "access")
    assert answers == values
