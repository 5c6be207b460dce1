"""`python -m interp.cli …` runs the `interp` command."""
import sys

from interp.cli import main

if __name__ == "__main__":
    sys.exit(main())
