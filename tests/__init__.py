"""The suite mirrors the package: tests/dsl, engine, spec, bots, runs, table and adapters each test the subpackage
of that name, a module per behaviour (tests/engine/test_auction.py: the auction offers the bids the rules allow).
tests/games/ holds the worked examples of each game in games/ (stacked deals, hand-counted scores). At the top:
the suites that cross every layer (the command, random playouts and golden playthroughs of every game, fuzzing,
the type checker, the layers, the docs, the README, packaging). Shared fixtures are in conftest.py (`from
tests.conftest import ROOT, SPECS, game_of`), scenario runners in scenario_helpers.py; the data the tests read
stay in tests/scenarios, golden, specs, broken, score_inputs and save_files."""
