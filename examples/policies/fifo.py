#!/usr/bin/env python3
"""fifo.py: first in, first out with strict head-of-line blocking, as an
external policy (mlsched simulate --policy 'exec:examples/policies/fifo.py').

The same decisions as the C policy `fifo` (policies/fifo.c with
policies/policy_util.c), written against the view/plan protocol: running jobs
keep their GPUs, in arrival order; then queued jobs start in arrival order on
their fastest GPU type with room, and the first that does not fit blocks the
rest. tests/exec_policy.sh checks per-job results byte-identical to the C fifo.
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "bindings", "python"))
import mlsched_policy as mp  # noqa: E402


def room(view):
    """GPUs per type on nodes that are up (pu_room_init)."""
    r = [0] * len(view.types)
    if not view.nodes:
        return [t.total_gpus for t in view.types]
    for n in view.nodes:
        if n.up and 0 <= n.type < len(r):
            r[n.type] += n.gpus
    return r


def usable_types(view, job, rates):
    """Types the job may use, fastest known first, unknown rates last (pu_type_order)."""
    g = job.gpus_requested
    out = []
    for t, gt in enumerate(view.types):
        if g <= 0 or g > gt.total_gpus:
            continue
        r = rates[t]
        if math.isnan(r) or r > 0:
            out.append((1 if math.isnan(r) else 0, 0.0 if math.isnan(r) else -r, t))
    out.sort()
    return [t for _, _, t in out]


def keep(view, rm, plan, job):
    """A job holding GPUs keeps them when its type still has room (pu_keep)."""
    if not job.holds_gpus() or job.cur_type >= len(rm) or rm[job.cur_type] < job.cur_gpus:
        return False
    plan.run(job, job.cur_type, job.cur_gpus)
    rm[job.cur_type] -= job.cur_gpus
    return True


def start(view, rm, plan, job, rates):
    """Starts a job on its fastest type with room (pu_start)."""
    g = job.gpus_requested
    for t in usable_types(view, job, rates):
        if rm[t] >= g:
            plan.run(job, t, g)
            rm[t] -= g
            return True
    return False


def arrival_order(view):
    return sorted(view.jobs, key=lambda j: (j.submit, j.id))


class Fifo(mp.Policy):
    name = "py-fifo"
    paper = "Gu et al., NSDI 2019 (YARN-CS baseline); the C fifo (policies/fifo.c) in Python"
    summary = "first in, first out; strict head-of-line blocking; non-preemptive"
    cadence = ("events",)
    view_options = ("rates",)

    def schedule(self, view):
        plan = mp.Plan()
        rm = room(view)
        order = arrival_order(view)
        kept = {j.index for j in order if keep(view, rm, plan, j)}
        waiting = [j for j in order if j.index not in kept]
        rates = view.rates(waiting)
        for j in waiting:
            if not usable_types(view, j, rates[j.index]):
                continue
            if not start(view, rm, plan, j, rates[j.index]):
                break  # head-of-line blocking
        return plan


if __name__ == "__main__":
    sys.exit(mp.run(Fifo()))
