"""Run the command line: ``python -m sequence_stacks.cli``."""

from sequence_stacks.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
