#!/usr/bin/env python3
"""las.py: least attained service first (preemptive), as an external policy
(mlsched simulate --policy 'exec:examples/policies/las.py').

The same decisions as the C policy `las` (policies/las.c): jobs in order of
GPU-seconds received (then submit time, then id); in that order each job keeps
its GPUs or starts on its fastest type with room, until the cluster is full.
Called after arrivals and completions and at every round.
tests/exec_policy.sh checks per-job results byte-identical to the C las.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "bindings", "python"))
import mlsched_policy as mp  # noqa: E402
from fifo import keep, room, start, usable_types  # noqa: E402


def nan_last(x):
    return (1, 0.0) if math.isnan(x) else (0, x)


class Las(mp.Policy):
    name = "py-las"
    paper = "Gu et al., NSDI 2019 (2D attained service); the C las (policies/las.c) in Python"
    summary = "least attained service (GPU-seconds) first; preemptive; every round"
    cadence = ("events", "rounds")
    view_options = ("rates",)

    def schedule(self, view):
        plan = mp.Plan()
        order = sorted(view.jobs, key=lambda j: (nan_last(j.attained_service),
                                                 nan_last(j.submit), j.id))
        rates = view.rates(order)
        rm = room(view)
        for j in order:  # pu_fill
            if sum(rm) <= 0:
                break
            if not usable_types(view, j, rates[j.index]):
                continue
            if j.cur_gpus == j.gpus_requested and keep(view, rm, plan, j):
                continue
            start(view, rm, plan, j, rates[j.index])
        return plan


if __name__ == "__main__":
    sys.exit(mp.run(Las()))
