"""Runs past one machine: the deals of `interp simulate` and `interp arena` as tasks on a Ray cluster
(`--executor ray`; the optional extra `pip install 'interp[ray]'`).

Ray is started on this machine when no cluster is named, or joined where the `RAY_ADDRESS` environment variable
says (`ray start --head` on one machine, `ray start --address=…` on the others). A task carries the game as the
way to load it (`Game.reload`: a shipped game by its name, any other spec file by its absolute path, which must
be readable at that path on every node), the work as a module-level function and the deals as numbers, so the
records are the same as those of a local run with the same seed, in the same order. Plug-in agents
(`module:Class`) must be importable on every node.
"""
from __future__ import annotations

import os
from collections import deque
from typing import Callable

from interp.errors import WorkerDied

IN_FLIGHT_PER_CPU = 4  # tasks submitted ahead of the one awaited: the cluster stays busy, memory stays bounded


def check_ray():
    """The `ray` module; a one-line error (ValueError) when it is not installed, before a run is spent."""
    try:
        import ray
    except ImportError:
        raise ValueError("--executor ray needs Ray: pip install 'interp[ray]'") from None
    return ray


def ray_map(game, work: Callable, tasks: list, jobs: int | None = None):
    """`work(game, task)` for every task, yielded in task order, as Ray tasks. Started here (on `jobs` CPUs,
    default all) unless Ray runs already or `RAY_ADDRESS` names a cluster."""
    ray = check_ray()
    if not ray.is_initialized():
        here = {} if os.environ.get("RAY_ADDRESS") else {"num_cpus": jobs or os.cpu_count() or 1}
        ray.init(include_dashboard=False, logging_level="ERROR", log_to_driver=False, **here)
    remote = ray.remote(_run_task)
    shared = ray.put(game)  # sent once; each worker loads the game once (spec.compiler.reloaded_game)
    ahead = IN_FLIGHT_PER_CPU * max(1, int(ray.cluster_resources().get("CPU", 1)))
    pending: deque = deque()
    waiting = iter(tasks)
    for task in waiting:
        pending.append(remote.remote(shared, work, task))
        if len(pending) >= ahead:
            break
    while pending:
        try:
            result = ray.get(pending.popleft())
        except ray.exceptions.RayTaskError as exc:  # the task's own error, raised again here as itself
            raise exc.as_instanceof_cause() from None
        except ray.exceptions.RayError as exc:  # a node or worker lost
            raise WorkerDied(f"the Ray run stopped: {str(exc).splitlines()[0]}") from None
        for task in waiting:
            pending.append(remote.remote(shared, work, task))
            break
        yield result


def _run_task(game, work: Callable, task):
    return work(game, task)
