"""`python -m interpreter ...` runs the `interp` command."""
import sys

from .cli import main

sys.exit(main())
