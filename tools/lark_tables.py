"""Build the DSL grammar's parser tables shipped with the package: `python tools/lark_tables.py`.

Run it after editing interp/dsl/grammar.lark or upgrading lark; it writes interp/dsl/grammar.tables (lark's
tables, see interp.dsl.tables) and interp/dsl/grammar.lalr (interp's own parser's, derived from lark's: see
interp.dsl.lalr), which tests/dsl/test_tables.py and tests/dsl/test_lalr.py check are for the grammar and lark in
use. Until it is run, the package still works: the shipped files are ignored, every text is parsed by lark and
its tables are built (or read from the load cache).
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interp.dsl import tables  # noqa: E402


def main() -> int:
    changed = tables.write()
    print(f"{tables.TABLES} and {tables.lalr.TABLES}: {'written' if changed else 'already up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
