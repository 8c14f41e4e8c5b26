"""The repository's layers and which may import which (docs/architecture.md): every import of
every module, at module level or inside a function, runs downward or within its layer."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# Lowest first: each layer and its top-level folders; a module is in the layer of its folder.
LAYERS = [
    ("contract", ("reference", "machine")),
    ("toolchain", ("toolchain",)),
    ("engines", ("engines",)),
    ("kernels", ("kernels",)),
    ("predictor", ("predictor",)),
    ("harness", ("eval",)),
    ("reports", ("reports",)),
]
RANK = {name: rank for rank, (name, _) in enumerate(LAYERS)}
PACKAGES = {package: name for name, packages in LAYERS for package in packages}
# Beside "the same layer or a lower one": the engines stand side by side behind one interface
# (compared by the first two parts of a module's name), and the harness reaches our kernels only
# through a submission file.
ENGINES = ("engines.source", "engines.isa")
FORBIDDEN_PACKAGES = {(a, b) for a in ENGINES for b in ENGINES if a != b}
FORBIDDEN_LAYERS = {("harness", "kernels")}
NOT_IMPORTED = ("tests",)  # nothing outside the tests imports them


def layer_of(module: str) -> str | None:
    return PACKAGES.get(module.split(".")[0])


def package_of(module: str) -> str:
    """The first two parts of a module's name: engines.isa for engines.isa.build."""
    return ".".join(module.split(".")[:2])


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(name: str) -> bool:
    path = REPO.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """(line, imported module) for every import statement anywhere in the source, relative ones
    resolved, `from package import submodule` naming the submodule, and importlib.import_module /
    __import__ calls with a literal name."""
    found = []
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                found.append((node.lineno, f"{base}.{alias.name}" if is_module(f"{base}.{alias.name}") else base))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            called = ast.unparse(node.func)
            literal = node.args[0].value
            if called in ("importlib.import_module", "import_module", "__import__") and isinstance(literal, str):
                found.append((node.lineno, literal))
    return found


def violation(module: str, target: str) -> str | None:
    """Why `module` may not import `target`, or None when it may."""
    if target.split(".")[0] in NOT_IMPORTED:
        return f"{target} is test code"
    source, destination = layer_of(module), layer_of(target)
    if source is None or destination is None:
        return None  # not ours (the standard library, torch, ...)
    if RANK[destination] > RANK[source]:
        return f"{destination} sits above {source}"
    if (package_of(module), package_of(target)) in FORBIDDEN_PACKAGES:
        return "the engines never import each other"
    if (source, destination) in FORBIDDEN_LAYERS:
        return "the harness reaches our kernels only through a submission file"
    return None


def project_modules() -> list[Path]:
    return sorted(path for root in PACKAGES for path in (REPO / root).rglob("*.py") if "__pycache__" not in path.parts)


def top_level_packages() -> list[str]:
    """The repository's top-level Python packages: its folders with an __init__.py."""
    return sorted(path.name for path in REPO.iterdir() if (path / "__init__.py").is_file())


def test_every_top_level_package_is_in_exactly_one_layer():
    listed = [package for _, packages in LAYERS for package in packages]
    assert all("." not in package for package in listed), "a layer lists whole top-level folders"
    assert sorted(listed) == top_level_packages(), "each top-level package in exactly one layer"


def test_every_module_is_in_a_layer():
    assert all(layer_of(module_name(path)) for path in project_modules())
    assert layer_of("reports.offline.asm") == "reports" and layer_of("predictor.sweep") == "predictor"
    assert layer_of("eval.worker") == "harness" and layer_of("eval.predicted_bench") == "harness"
    assert layer_of("engines.isa.core") == "engines" and layer_of("reference.runner_env.utils") == "contract"


def test_imports_run_down_the_layers():
    wrong = []
    for path in project_modules():
        module = module_name(path)
        for line, target in imports(path.read_text(), module, path.name == "__init__.py"):
            why = violation(module, target)
            if why:
                wrong.append(f"{path.relative_to(REPO)}:{line} imports {target}: {why}")
    assert not wrong, "imports against the layers (docs/architecture.md):\n" + "\n".join(wrong)


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """module -> the project modules it imports (anywhere in its source), from {module: (source,
    is_package)}."""
    return {module: {target for _, target in imports(source, module, is_package) if target in sources and target != module}
            for module, (source, is_package) in sources.items()}


def circle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle of the graph (its modules in order, the first repeated at the end), or []."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str]:
        state[module] = 1
        path.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state and (found := visit(target)):
                return found
        path.pop()
        state[module] = 2
        return []

    for module in sorted(graph):
        if module not in state and (found := visit(module)):
            return found
    return []


def test_no_module_imports_one_that_imports_it_back():
    # Two modules that need each other are one module in two files, held together by an import
    # inside a function: the docs' drawing would show them as a circle.
    sources = {module_name(path): (path.read_text(), path.name == "__init__.py") for path in project_modules()}
    found = circle(import_graph(sources))
    assert not found, "an import circle: " + " -> ".join(found)


def test_a_circle_through_an_import_inside_a_function_is_found():
    graph = import_graph({"engines.isa.build": ("def f():\n    from engines.isa import loader\n", False),
                          "engines.isa.loader": ("from engines.isa.build import build\n", False),
                          "engines.isa.bundle": ("from engines.isa import build\n", False)})
    assert circle(graph) == ["engines.isa.build", "engines.isa.loader", "engines.isa.build"]
    del graph["engines.isa.loader"]
    graph["engines.isa.build"].clear()
    assert circle(graph) == []


def test_the_engines_package_imports_no_engine_at_its_top():
    # Importing engines.isa runs engines/__init__.py first: were it to import the source engine,
    # one engine would load the other.
    source = (REPO / "engines" / "__init__.py").read_text()
    assert not [target for _, target in imports(source, "engines", True) if package_of(target) in ENGINES]


@pytest.mark.parametrize("module, source, allowed", [
    ("toolchain.capture", "def f():\n    from eval import simulated_host\n", False),
    ("toolchain.capture", "import importlib\nimportlib.import_module('eval.worker')\n", False),
    ("engines.isa.loader", "from engines.source.schedules import tensors_of\n", False),
    ("engines.source.build", "from engines import isa\n", False),
    ("eval.run", "from kernels import pack\n", False),
    ("predictor.tune", "from eval import worker\n", False),
    ("predictor.calibrate", "from reports import validation\n", False),
    ("kernels.pack", "from tests.engines.isa import harness\n", False),
    ("engines.isa.build", "from toolchain import hipcc\nfrom . import bundle\n", True),
    ("eval.worker", "from predictor import predict\nfrom toolchain import simulated_host\n", True),
    ("reports.offline", "from kernels import instances\nfrom eval import report\n", True),
    ("reports.compare", "from eval.comparison import side_by_side\nfrom reports import plots\n", True),
    ("eval.predicted_bench", "from eval.run import main\nfrom predictor import calibration\n", True),
    ("kernels.emulate", "import engines.source\n", True),
])
def test_the_rules_tell_an_upward_import_from_a_downward_one(module, source, allowed):
    found = [violation(module, target) for _, target in imports(source, module, False)]
    assert (not any(found)) == allowed, found
