"""The phase types a spec's `phases:` are built from (deal, auction, choose, discard, effects, declare, tricks,
turns), on the shared `base.Phase`; `progress` and `context` hold what several phase types share."""
