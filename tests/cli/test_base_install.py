"""`pip install sequence-stacks` without extras (what ./scripts/run installs) gives a
working command: every parser loads, the server starts, and a command that needs an
extra says which one instead of failing at start-up with an import error."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

# The optional extras' packages (pyproject.toml: rl, sim, ray, postgres), made
# unimportable in the child process as if they were not installed.
EXTRAS = ("numpy", "pyarrow", "matplotlib", "gymnasium", "pettingzoo", "ray", "psycopg")


def _without_extras(code: str) -> subprocess.CompletedProcess[str]:
    script = "import sys\n"
    script += f"for name in {EXTRAS!r}: sys.modules[name] = None\n"
    script += textwrap.dedent(code)
    return subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize(
    "argv", [["--help"], ["serve", "--help"], ["train-value", "--help"], ["play", "--help"]]
)
def test_every_parser_loads_without_the_extras(argv: list[str]) -> None:
    found = _without_extras(
        f"""
        from sequence_stacks.cli.app import main
        sys.exit(main({argv!r}))
        """
    )
    assert found.returncode == 0, found.stderr[-2000:]
    assert "usage:" in found.stdout


def test_the_server_app_is_built_without_the_extras() -> None:
    found = _without_extras(
        """
        from sequence_stacks.server.app import create_app
        print(type(create_app()).__name__)
        """
    )
    assert found.returncode == 0, found.stderr[-2000:]


def test_a_command_that_needs_an_extra_names_it(tmp_path: object) -> None:
    found = _without_extras(
        f"""
        from sequence_stacks.cli.app import main
        sys.exit(main(["train-value", "--quick", "--dir", {str(tmp_path)!r}]))
        """
    )
    assert found.returncode != 0
    assert "pip install 'sequence-stacks[sim]'" in found.stderr + found.stdout
    assert "Traceback" not in found.stderr
