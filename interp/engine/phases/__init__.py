"""The phase types a spec's `phases:` are built from (deal, auction, choose, discard, effects, declare, tricks,
turns), on the shared `base.Phase`; `progress` and `context` hold what several phase types share. A `tricks` phase
is built in layers: its rules and progress (`trick_rules`, with `card_tables`), who wins a trick (`trick_winner`),
the legal cards (`trick_legality`), the play (`tricks`)."""
