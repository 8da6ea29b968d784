"""``python -m sequence_stacks.server [options]``: the same as ``sequence-stacks serve``."""

from __future__ import annotations

import argparse
import sys

from .serve import add_serve_parser, run_serve


def main(argv: list[str] | None = None) -> int:
    """Parse serve options and run the server."""
    parser = argparse.ArgumentParser(prog="python -m sequence_stacks.server")
    add_serve_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["serve", *(sys.argv[1:] if argv is None else argv)])
    return run_serve(args)


if __name__ == "__main__":
    raise SystemExit(main())
