"""The shape of the code, checked from its source: what imports what.

Why: the game logic is pure Python so it can be tested, benchmarked and reused without a
web stack, and the apps are layered so a change low down never has to know about the pages
above it. Both erode one innocent import at a time; these tests name the import that did.

- The pure modules import without Django or Celery (in a fresh interpreter, clean env).
- The first-party import graph, read with `ast` (lazy imports inside functions included,
  migrations and tests left out), has no cycle, points down the layers
  common -> cards -> rules -> armybuilder -> events -> exports -> site, and no module of exports or
  armybuilder imports another app's views.

No database, no Django setup: fast.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PURE_MODULES = (
    "armybuilder.tmg.validator",
    "armybuilder.tactics.validator",
    "armybuilder.tmg.from_text",
    "armybuilder.tactics.text",
    "armybuilder.findings",
    "armybuilder.listtext.resolve",
    "cards.requirements",
    "cards.versions",
    "common.i18n",
    "events.intake",
    "events.fingerprint",
)

# Lowest first: a module may import its own layer and the layers before it.
LAYERS = ("common", "cards", "rules", "armybuilder", "events", "exports", "site")
PACKAGES = LAYERS[:-1]
# The project package's own wiring sits above every app and may import anything. Its
# AppConfig is where Django starts, and loads the Celery app.
SITE_MODULES = frozenset(
    {
        "armybuilder.settings",
        "armybuilder.urls",
        "armybuilder.api_urls",
        "armybuilder.views",
        "armybuilder.health",
        "armybuilder.wsgi",
        "armybuilder.celery",
        "armybuilder.apps",
    }
)
# Packages whose modules may not import another app's views.
NO_FOREIGN_VIEWS = ("exports", "events", "armybuilder")


# --- pure modules -------------------------------------------------------------------------------

# Runs in the fresh interpreter: imports the module and, if Django or Celery came with it,
# prints the import chain that first asked for them.
PROBE = """
import sys, traceback

class Witness:
    chain = None

    def find_spec(self, name, path=None, target=None):
        if Witness.chain is None and name.split(".")[0] in ("django", "celery"):
            Witness.chain = "".join(traceback.format_stack(limit=25)[:-1])
        return None

sys.meta_path.insert(0, Witness())
import {module}
loaded = [name for name in ("django", "celery") if name in sys.modules]
if loaded:
    sys.exit(f"{module} imports {{loaded}}, first here:\\n{{Witness.chain}}")
"""


@pytest.mark.parametrize("module", PURE_MODULES)
def test_pure_module_imports_without_django_or_celery(module):
    env = {"PATH": os.environ.get("PATH", os.defpath), "PYTHONDONTWRITEBYTECODE": "1"}
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(module=module)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr


# --- the import graph ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Import:
    source: str
    target: str
    line: int
    lazy: bool  # inside a function: runs when called, not when the module loads
    typing_only: bool  # under `if TYPE_CHECKING:`: never runs
    implied: bool = False  # a package whose submodule is the import's target

    def __str__(self) -> str:
        how = " (lazy)" if self.lazy else " (typing only)" if self.typing_only else ""
        return f"{self.source}:{self.line} imports {self.target}{how}"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def first_party_files() -> dict[str, Path]:
    files = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts or "tests" in path.parts:
                continue
            files[module_name(path)] = path
    return files


def ancestors(module: str) -> list[str]:
    parts = module.split(".")
    return [".".join(parts[:n]) for n in range(1, len(parts))]


class ImportReader(ast.NodeVisitor):
    """The first-party modules one file imports, with where and how."""

    def __init__(self, source: str, is_package: bool, modules: frozenset[str]):
        self.source = source
        self.package = source if is_package else source.rpartition(".")[0]
        self.modules = modules
        self.imports: list[Import] = []
        self._seen: set[tuple[str, int]] = set()  # (module, line) already recorded
        self._functions = 0
        self._typing_blocks = 0

    def _absolute(self, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        base = self.package.split(".")
        base = base[: len(base) - (node.level - 1)]
        return ".".join([*base, node.module] if node.module else base)

    def _add(self, target: str, line: int) -> None:
        # Importing a.b.c runs a, a.b and a.b.c; the importer's own packages already ran.
        already = {self.source, *ancestors(self.source)}
        for name in (*ancestors(target), target):
            if name in self.modules and name not in already and (name, line) not in self._seen:
                self._seen.add((name, line))
                lazy, typing_only = self._functions > 0, self._typing_blocks > 0
                implied = name != target
                self.imports.append(Import(self.source, name, line, lazy, typing_only, implied))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = self._absolute(node)
        self._add(base, node.lineno)
        for alias in node.names:
            # `from pkg import mod` imports the submodule pkg.mod when there is one.
            if f"{base}.{alias.name}" in self.modules:
                self._add(f"{base}.{alias.name}", node.lineno)

    def _inside_function(self, node: ast.AST) -> None:
        self._functions += 1
        self.generic_visit(node)
        self._functions -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _inside_function

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
        if name != "TYPE_CHECKING":
            self.generic_visit(node)
            return
        self._typing_blocks += 1
        for child in node.body:
            self.visit(child)
        self._typing_blocks -= 1
        for child in node.orelse:
            self.visit(child)


def read_imports() -> list[Import]:
    files = first_party_files()
    modules = frozenset(files)
    imports = []
    for name, path in files.items():
        reader = ImportReader(name, path.name == "__init__.py", modules)
        reader.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        imports.extend(reader.imports)
    return imports


@pytest.fixture(scope="module")
def imports() -> list[Import]:
    return read_imports()


def layer(module: str) -> str:
    return "site" if module in SITE_MODULES else module.split(".")[0]


def app(module: str) -> str:
    return module.split(".")[0]


def is_views(module: str) -> bool:
    return any(part == "views" or part.endswith("_views") for part in module.split("."))


def cycles(imports: list[Import]) -> list[list[Import]]:
    """One cycle through each group of modules that import each other (Tarjan's strongly
    connected components), as the imports that close it."""
    graph: dict[str, dict[str, Import]] = {}
    for imp in imports:
        if not imp.typing_only:
            graph.setdefault(imp.source, {}).setdefault(imp.target, imp)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, {}):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_cycle_in(group, graph) for group in groups]


def _cycle_in(group: set[str], graph: dict[str, dict[str, Import]]) -> list[Import]:
    """The shortest way from the group's first module back to itself (breadth first)."""
    start = min(group)
    paths: dict[str, list[Import]] = {start: []}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt, imp in sorted(graph.get(node, {}).items()):
            if nxt == start:
                return [*paths[node], imp]
            if nxt in group and nxt not in paths:
                paths[nxt] = [*paths[node], imp]
                queue.append(nxt)
    raise AssertionError(f"no cycle in {group}")


def test_no_import_cycles(imports):
    found = cycles(imports)
    report = "\n\n".join(
        " -> ".join([path[0].source, *(imp.target for imp in path)])
        + "".join(f"\n    {imp}" for imp in path)
        for path in found
    )
    assert not found, f"{len(found)} import cycle(s):\n{report}"


def test_layers_point_down(imports):
    upward = [
        imp
        for imp in imports
        if not imp.implied and LAYERS.index(layer(imp.target)) > LAYERS.index(layer(imp.source))
    ]
    report = "\n".join(f"    {imp}  [{layer(imp.source)} -> {layer(imp.target)}]" for imp in upward)
    assert not upward, f"{len(upward)} import(s) up the layers {' -> '.join(LAYERS)}:\n{report}"


def test_no_module_imports_another_apps_views(imports):
    foreign = [
        imp
        for imp in imports
        if not imp.implied
        and app(imp.source) in NO_FOREIGN_VIEWS
        and is_views(imp.target)
        and app(imp.target) != app(imp.source)
    ]
    report = "\n".join(f"    {imp}" for imp in foreign)
    assert not foreign, f"{len(foreign)} import(s) of another app's views:\n{report}"


def test_the_import_reader_sees_lazy_and_relative_imports():
    """The checks above are only as good as the reader: a lazy relative import is found."""
    modules = frozenset({"exports", "exports.services", "exports.tasks"})
    reader = ImportReader("exports.services", False, modules)
    reader.visit(ast.parse("def send():\n    from .tasks import run\n"))
    assert reader.imports == [Import("exports.services", "exports.tasks", 2, True, False)]
