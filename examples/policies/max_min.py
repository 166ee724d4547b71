#!/usr/bin/env python3
"""max_min.py: a Gavel-like heterogeneity-aware max-min fairness policy, as an
external policy (mlsched simulate --round 360 --policy 'exec:examples/policies/max_min.py').

Follows Narayanan et al., OSDI 2020 (Gavel), section 4.1 (max-min fairness
over normalised effective throughput) and section 5 (the round-based
mechanism), simplified:
- the allocation X[j][t] (fraction of time job j spends on type t) maximises
  min_j sum_t X[j][t] * rate[j][t] / best_rate[j] subject to sum_t X[j][t] <= 1
  and sum_j X[j][t] * gpus[j] <= GPUs of type t. Gavel normalises by the
  throughput under an equal share of the cluster; here by the job's best
  rate, and job weights (priority) and space sharing are left out;
- the LP is solved with scipy.optimize.linprog when SciPy is installed
  (Debian: python3-scipy); without it (solver=share, or no SciPy) every job
  gets the same share of every type, min(1, GPUs / GPUs asked) (Gavel's
  heterogeneity-agnostic baseline), and the rounds below still run;
- the allocation is recomputed at every decision (Gavel: every
  recompute_interval s);
- each round, (job, type) pairs go by priority X[j][t] / (share of rounds job
  j has run on t since it arrived), as Gavel's mechanism; a job runs on one
  type per round, on its requested GPUs; a job kept on its type keeps its GPUs.
Parameters: solver=lp|share (default lp).
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "bindings", "python"))
import mlsched_policy as mp  # noqa: E402


def solve_lp(jobs, rates, caps):
    """X[j][t] by SciPy's linprog, or None when SciPy is missing or fails."""
    try:
        from scipy.optimize import linprog
    except ImportError:
        return None
    n, nt = len(jobs), len(caps)
    nv = n * nt + 1  # X, then z
    c = [0.0] * (n * nt) + [-1.0]
    a, b = [], []
    for j, job in enumerate(jobs):
        best = max([r for r in rates[j] if r > 0] or [1.0])
        row = [0.0] * nv
        for t in range(nt):
            row[j * nt + t] = -rates[j][t] / best
        row[-1] = 1.0
        a.append(row)
        b.append(0.0)
        row = [0.0] * nv
        for t in range(nt):
            row[j * nt + t] = 1.0
        a.append(row)
        b.append(1.0)
    for t in range(nt):
        row = [0.0] * nv
        for j, job in enumerate(jobs):
            row[j * nt + t] = job.gpus_requested
        a.append(row)
        b.append(caps[t])
    bounds = []
    for j in range(n):
        for t in range(nt):
            ok = rates[j][t] > 0 and jobs[j].gpus_requested <= caps[t]
            bounds.append((0, 1 if ok else 0))
    bounds.append((0, None))
    res = linprog(c, A_ub=a, b_ub=b, bounds=bounds, method="highs")
    if not res.success:
        return None
    return [[max(0.0, res.x[j * nt + t]) for t in range(nt)] for j in range(n)]


def equal_share(jobs, rates, caps):
    asked = sum(j.gpus_requested for j in jobs) or 1
    s = min(1.0, sum(caps) / asked)
    out = []
    for j, job in enumerate(jobs):
        ok = [t for t in range(len(caps)) if rates[j][t] > 0 and job.gpus_requested <= caps[t]]
        cap_ok = sum(caps[t] for t in ok) or 1
        out.append([s * caps[t] / cap_ok if t in ok else 0.0 for t in range(len(caps))])
    return out


class MaxMin(mp.Policy):
    name = "py-max-min"
    summary = "Gavel-like max-min fairness of normalised throughput; LP (SciPy) or equal shares"
    paper = "Narayanan et al., OSDI 2020 (Gavel), sections 4.1, 5"
    params = "solver=lp: lp (SciPy) or share (equal shares)"
    cadence = ("rounds",)
    view_options = ("rates",)

    def start(self, params):
        self.solver = params.pop("solver", "lp")
        if self.solver not in ("lp", "share") or params:
            raise ValueError("py-max-min takes solver=lp|share, got %r" % (params or self.solver))
        self.rounds = {}    # job id -> rounds seen
        self.received = {}  # job id -> rounds run per type

    def schedule(self, view):
        jobs = view.jobs
        nt = len(view.types)
        caps = [0] * nt
        for n in view.nodes:
            if n.up:
                caps[n.type] += n.gpus
        rates = [[r if not math.isnan(r) else 0.0 for r in j.rates] for j in jobs]
        x = solve_lp(jobs, rates, caps) if self.solver == "lp" and jobs else None
        if x is None:
            x = equal_share(jobs, rates, caps)
        live = {j.id for j in jobs}
        for d in (self.rounds, self.received):
            for i in [i for i in d if i not in live]:
                del d[i]
        pairs = []
        for j, job in enumerate(jobs):
            seen = self.rounds.get(job.id, 0)
            got = self.received.setdefault(job.id, [0] * nt)
            if job.holds_gpus():
                got[job.cur_type] += 1
            self.rounds[job.id] = seen + 1
            for t in range(nt):
                if x[j][t] > 1e-9:
                    share = (got[t] + 1) / (seen + 1)
                    pairs.append((-x[j][t] / share, job.submit, job.id, j, t))
        pairs.sort()
        room = list(caps)
        plan = mp.Plan()
        placed = set()
        for _, _, _, j, t in pairs:
            job = jobs[j]
            g = job.gpus_requested
            if j in placed or room[t] < g:
                continue
            plan.run(job, t, g)
            room[t] -= g
            placed.add(j)
        return plan


if __name__ == "__main__":
    sys.exit(mp.run(MaxMin()))
