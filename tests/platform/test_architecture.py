"""Dependencies point inward: domain imports nothing of ours outside domain and does no I/O;
application uses only domain; infrastructure, api and workers never import each other upward."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OURS = {"domain", "application", "infrastructure", "api", "workers"}
ALLOWED = {
    "domain": {"domain"},
    "application": {"domain", "application"},
    "infrastructure": {"domain", "application", "infrastructure"},
    "api": {"domain", "application", "infrastructure", "api"},
    "workers": {"domain", "application", "infrastructure", "workers"},
}
IO_MODULES = {"os", "io", "socket", "subprocess", "sqlite3", "psycopg", "requests", "flask", "celery",
              "pathlib", "shutil", "time", "datetime.datetime.now", "urllib", "http"}


def imports_of(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
        elif isinstance(node, ast.ImportFrom) and node.level > 0:
            yield ".".join(path.relative_to(ROOT).parts[: -node.level]) + (f".{node.module}" if node.module else "")
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module":
            if node.args and isinstance(node.args[0], ast.Constant):
                yield node.args[0].value


def test_every_layer_imports_only_inward():
    violations = []
    for layer, allowed in ALLOWED.items():
        for path in (ROOT / layer).rglob("*.py"):
            for name in imports_of(path):
                top = name.split(".")[0]
                if top in OURS and top not in allowed:
                    violations.append(f"{path.relative_to(ROOT)} imports {name}")
    assert violations == []


def test_the_domain_does_no_io():
    violations = []
    for path in (ROOT / "domain").rglob("*.py"):
        for name in imports_of(path):
            if name.split(".")[0] in IO_MODULES:
                violations.append(f"{path.relative_to(ROOT)} imports {name}")
        source = path.read_text()
        for call in (r"(?<![\w.])open\(", r"(?<![\w.])print\(", r"\.now\(", r"\btime\.time\("):
            if re.search(call, source):
                violations.append(f"{path.relative_to(ROOT)} calls {call}")
    assert violations == []


def test_the_checker_sees_a_violation(tmp_path):
    bad = tmp_path / "domain" / "bad.py"
    bad.parent.mkdir()
    bad.write_text("from application.service import Motley\nimport os\n")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        names = list(imports_of(bad))
    finally:
        ROOT = saved
    assert "application.service" in names and "os" in names
