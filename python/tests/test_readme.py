"""The manual's Python chapter (docs/python.md) and the example script run as written."""

import ast
import re
import subprocess
import sys

import knightnet as kn


def section(root):
    body = (root / "docs" / "python.md").read_text()
    return re.findall(r"```(\w*)\n(.*?)```", body, re.S)


def test_readme_python_block_runs(root, tmp_path, monkeypatch):
    blocks = [code for lang, code in section(root) if lang == "python"]
    assert len(blocks) == 1
    monkeypatch.chdir(tmp_path)  # a folder outside the clone
    scope = {}
    exec(compile(blocks[0], "docs/python.md", "exec"), scope)
    assert scope["run"].outcome in ("tour", "multiple-cycles", "stable-not-degree-two", "iteration-cap")
    assert scope["net"].stopped or scope["net"].iterations == scope["net"].params["max_iterations"]
    assert len(scope["t"].tour) == 26 * 26 and scope["t"].start == "a1"
    assert scope["z"].outcome == "tour" and scope["z"].target["leaper"] == "2,3"
    assert len(scope["df"]) == kn.open_results("out/q").summary()["trials_done"] == 28000


def test_readme_shell_commands(root):
    shell = [code for lang, code in section(root) if lang == ""][0]
    lines = [l for l in shell.splitlines() if l.startswith("python -c ")]
    assert len(lines) == 1
    code = re.match(r'python -c "(.*)"$', lines[0]).group(1)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == str(kn.solve("8x8", seed=1).tour[:5]).split()
    commands = [l.split("#")[0].strip() for l in shell.splitlines()]
    assert commands.index("pip install -r python/requirements-ci.txt") < commands.index(
        "maturin develop --release -m python/Cargo.toml"
    ) < commands.index("pytest python/tests")
    # The tests compare with the command line: the section builds it before running them.
    assert commands.index("cargo build --release") < commands.index("pytest python/tests")


def test_readme_installs_what_the_tests_import(root):
    """The pinned requirements the README installs cover every module the tests, the
    package and the example import from outside the standard library."""
    pinned = {
        re.split(r"[=<>!~\[ ]", line)[0].lower()
        for line in (root / "python" / "requirements-ci.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    sources = [*(root / "python").glob("tests/*.py"), *(root / "python" / "knightnet").glob("*.py"),
               root / "examples" / "convergence_8x8.py"]
    imported = set()
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    local = {"knightnet", *(path.stem for path in sources)}
    third_party = {m for m in imported - local if m not in sys.stdlib_module_names}
    assert third_party and third_party <= pinned, third_party - pinned


def test_example_reproduces_the_committed_convergence_data(root, tmp_path):
    out = tmp_path / "convergence.png"
    done = subprocess.run(
        [sys.executable, str(root / "examples" / "convergence_8x8.py"), "--out", str(out)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "matches" in done.stdout
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_example_notices_a_different_figure(root, tmp_path):
    lines = (root / "plots" / "convergence-8x8.csv").read_text().splitlines(keepends=True)
    cells = lines[5].split(",")
    cells[2] = str(float(cells[2]) + 0.5)
    lines[5] = ",".join(cells)
    changed = tmp_path / "changed.csv"
    changed.write_text("".join(lines))
    done = subprocess.run(
        [sys.executable, str(root / "examples" / "convergence_8x8.py"), "--check", str(changed),
         "--out", str(tmp_path / "x.png")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1 and "differs" in done.stdout, done.stdout + done.stderr
