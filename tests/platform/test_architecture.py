"""Dependencies point inward and the domain does no I/O (docs/architecture.md, "Layers").

The contract is import-linter's (``[tool.importlinter]`` in pyproject.toml, run as ``lint-imports`` in
.ci/run): the layers domain <- application <- infrastructure <- api, workers, and the third-party
packages each inner layer may not import. Import-linter cannot see a module name built at run time, so
an AST check here refuses dynamic imports in the domain, and calls that do I/O. The verdict of both is
tested: each violation below is planted in a copy of the tree and must be caught.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("domain", "application", "infrastructure", "api", "workers")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

DYNAMIC_IMPORTS = {"import_module", "__import__", "exec", "eval"}  # names built at run time
IO_CALLS = (r"(?<![\w.])open\(", r"(?<![\w.])print\(", r"\.now\(", r"\btime\.time\(")


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    """Run import-linter over the tree at ``root`` with that tree's pyproject.toml."""
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=root, capture_output=True, text=True, timeout=120
    )


def domain_violations(root: Path) -> list[str]:
    """What import-linter cannot see: imports by a run-time name, and I/O calls, in ``root/domain``."""
    violations = []
    for path in sorted((root / "domain").rglob("*.py")):
        where = path.relative_to(root)
        source = path.read_text()
        for node in ast.walk(ast.parse(source, filename=str(path))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name in DYNAMIC_IMPORTS:
                    violations.append(f"{where}:{node.lineno} calls {name}()")
        for call in IO_CALLS:
            if re.search(call, source):
                violations.append(f"{where} calls {call}")
    return violations


def test_the_tree_keeps_the_layer_contract():
    outcome = lint_imports(ROOT)
    assert outcome.returncode == 0, outcome.stdout + outcome.stderr
    assert "0 broken" in outcome.stdout


def test_the_domain_imports_nothing_by_a_run_time_name_and_does_no_io():
    assert domain_violations(ROOT) == []


# Each planted violation: the file it adds, its text, and what the verdict must name.
PLANTED = {
    "flask in application": ("application/planted.py", "import flask\n", "application.planted -> flask"),
    "celery in application": ("application/planted.py", "from celery import Celery\n",
                              "application.planted -> celery"),
    "psycopg in application": ("application/planted.py", "import psycopg\n", "application.planted -> psycopg"),
    "eventsourcing.postgres in domain": ("domain/planted.py", "from eventsourcing.postgres import PostgresDatastore\n",
                                         "domain.planted -> eventsourcing.postgres"),
    "psycopg_pool in domain": ("domain/planted.py", "import psycopg_pool\n", "domain.planted -> psycopg_pool"),
    "sqlite3 in domain": ("domain/planted.py", "import sqlite3\n", "domain.planted -> sqlite3"),
    "requests in domain": ("domain/planted.py", "import requests\n", "domain.planted -> requests"),
    "os in domain": ("domain/planted.py", "import os\n", "domain.planted -> os"),
    "importlib in domain": ("domain/planted.py", "import importlib\n", "domain.planted -> importlib"),
    "application in domain": ("domain/planted.py", "from application.service import Motley\n",
                              "domain.planted -> application.service"),
    "infrastructure in application": ("application/planted.py", "from infrastructure import settings\n",
                                      "application.planted -> infrastructure"),
    "api in infrastructure": ("infrastructure/planted.py", "import api.problems\n",
                              "infrastructure.planted -> api.problems"),
    "workers in api": ("api/planted.py", "from workers import celery_app\n", "api.planted -> workers"),
}


@pytest.fixture(scope="module")
def tree_copy(tmp_path_factory):
    """A copy of the layers and pyproject.toml, for planting violations."""
    root = tmp_path_factory.mktemp("tree")
    for layer in LAYERS:
        shutil.copytree(ROOT / layer, root / layer, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


@pytest.mark.parametrize("violation", sorted(PLANTED))
def test_the_contract_catches_a_planted_violation(tree_copy, violation):
    path, text, named = PLANTED[violation]
    planted = tree_copy / path
    planted.write_text(text)
    try:
        outcome = lint_imports(tree_copy)
    finally:
        planted.unlink()
    assert outcome.returncode != 0, outcome.stdout
    assert named in outcome.stdout, outcome.stdout


@pytest.mark.parametrize("text", [
    'import importlib\nNAME = "psy" + "copg"\ndriver = importlib.import_module(NAME)\n',
    'from importlib import import_module\nimport_module(".".join(["eventsourcing", "postgres"]))\n',
    'driver = __import__("sql" + "ite3")\n',
    'exec("import os")\n',
    'print("side effect")\n',
    'from datetime import datetime\nstamp = datetime.now()\n',
])
def test_the_ast_check_catches_what_import_linter_cannot_see(tree_copy, text):
    planted = tree_copy / "domain" / "planted.py"
    planted.write_text(text)
    try:
        violations = domain_violations(tree_copy)
    finally:
        planted.unlink()
    assert violations and all(v.startswith("domain/planted.py") for v in violations), violations


def test_the_copy_itself_is_clean(tree_copy):
    """The planted violations above are the only ones: the copy passes both checks as it is."""
    assert lint_imports(tree_copy).returncode == 0
    assert domain_violations(tree_copy) == []
