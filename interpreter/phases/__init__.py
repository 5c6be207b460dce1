"""The phase types a spec's `phases:` list is built from; each is registered in `compiler.PHASE_TYPES`."""
