"""The `sequence-stacks` command line (placeholder until the real subcommands land)."""

import argparse

from sequence_stacks import __version__

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run it; return the process exit status."""
    parser = argparse.ArgumentParser(prog="sequence-stacks")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.parse_args(argv)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
