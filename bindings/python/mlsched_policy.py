"""mlsched_policy: write an mlsched scheduling policy in Python.

mlsched runs an external policy with ``--policy 'exec:PATH [ARGS]'``: it starts
PATH once per run and speaks the view/plan protocol (docs/exec-policy.md,
protocol 1: one JSON object per line on the process's stdin and stdout). This
module is that protocol's Python side, standard library only. A policy is a
class with a ``schedule(view)`` method returning a ``Plan``; ``run(policy)``
is the loop::

    import mlsched_policy as mp

    class Fifo(mp.Policy):
        name = "py-fifo"
        cadence = ("events",)

        def schedule(self, view):
            plan = mp.Plan()
            ...
            return plan

    if __name__ == "__main__":
        mp.run(Fifo())

The view holds what a C policy's view_t holds (policies/policy.h): the time,
the reasons for the call, GPU types, nodes, the active jobs with what has been
observed of them, the finished-job history, and the perf model's answers
through ``view.throughput(...)`` and the other perf calls (each a request
answered by the same code that answers C policies; ``view.perf(calls)`` asks
many in one round trip). Floats mlsched does not know are ``math.nan``
(a job without deadline has ``math.inf``). Jobs are referred to by their
index in ``view.jobs`` (``job.index``), as in plan_t.

Log to stderr: stdout carries the protocol. Install by copying this file next
to the policy, or ``pip install bindings/python``.
"""

import contextlib
import gc
import json
import math
import sys
import time
import traceback

PROTOCOL = 1

QUEUED, RUNNING, RESTARTING = 0, 1, 2

JOB_COLUMNS = [
    "id", "state", "cur_type", "cur_gpus", "cur_nodes", "cur_partner", "first_start",
    "last_start", "attained_time", "attained_service", "work_done", "throughput",
    "preemptions", "restarts", "total_work", "remaining_work", "batch_size", "accum_steps",
    "grad_noise_scale", "epoch", "batch_changes", "cur_gpu_ids"]
STATIC_COLUMNS = [
    "id", "user", "workload", "workload_name", "submit", "priority", "deadline",
    "duration_estimate", "gpus_requested", "min_gpus", "max_gpus", "adapt_mode", "cpus",
    "mem_gb", "gang", "total_batch"]


class ProtocolError(Exception):
    """The other side broke protocol 1."""


def _f(v):
    return math.nan if v is None else v


def _static(i, nan=True):
    if nan:
        return property(lambda self: _f(self._s[i]))
    return property(lambda self: self._s[i])


def _dyn(i, nan=True):
    if nan:
        return property(lambda self: _f(self._d[i]))
    return property(lambda self: self._d[i])


class Job:
    """An active job: its request (sent once) and what is observed of it now."""
    __slots__ = ("index", "_s", "_d")

    def __init__(self, index, static, row):
        self.index = index
        self._s = static
        self._d = row

    id = _dyn(0, False)
    state = _dyn(1, False)
    cur_type = _dyn(2, False)
    cur_gpus = _dyn(3, False)
    cur_nodes = _dyn(4, False)
    cur_partner = _dyn(5, False)
    first_start = _dyn(6)
    last_start = _dyn(7)
    attained_time = _dyn(8)
    attained_service = _dyn(9)
    work_done = _dyn(10)
    throughput = _dyn(11)
    preemptions = _dyn(12, False)
    restarts = _dyn(13, False)
    total_work = _dyn(14)        # oracle only
    remaining_work = _dyn(15)    # oracle only
    batch_size = _dyn(16, False)
    accum_steps = _dyn(17, False)
    grad_noise_scale = _dyn(18)
    epoch = _dyn(19)
    batch_changes = _dyn(20, False)

    @property
    def cur_gpu_ids(self):
        return self._d[21] or []

    @property
    def rates(self):
        """Per GPU type: throughput alone on gpus_requested GPUs over the fewest
        nodes (pu_rate); 0 where the request exceeds the type's GPUs. Only for a
        policy with "rates" in view_options (else None)."""
        if len(self._d) < 23:
            return None
        return [_f(v) for v in self._d[22]]

    user = _static(1, False)
    workload = _static(2, False)
    workload_name = _static(3, False)
    submit = _static(4)
    priority = _static(5)
    duration_estimate = _static(7)
    gpus_requested = _static(8, False)
    min_gpus = _static(9, False)
    max_gpus = _static(10, False)
    adapt_mode = _static(11, False)
    cpus = _static(12)
    mem_gb = _static(13)
    gang = _static(14, False)
    total_batch = _static(15, False)  # the trace's total batch over all GPUs, 0 when not given

    @property
    def deadline(self):
        d = self._s[6]
        return math.inf if d is None else d

    def holds_gpus(self):
        """Holds GPUs now (running or restarting), as policy_util's pu_holds."""
        return self.state != QUEUED and self.cur_type >= 0 and self.cur_gpus > 0

    def __repr__(self):
        return "Job(index=%d, id=%d)" % (self.index, self.id)


class GpuType:
    __slots__ = ("index", "name", "total_gpus", "free_gpus", "mem_gb")

    def __init__(self, index, row):
        self.index = index
        self.name, self.total_gpus, self.free_gpus, self.mem_gb = row


class Node:
    __slots__ = ("index", "type", "gpus", "first_gpu", "rack", "up", "cpus", "mem_gb")

    def __init__(self, index, row):
        self.index = index
        self.type, self.gpus, self.first_gpu, self.rack, self.up, self.cpus, mem = row
        self.mem_gb = _f(mem)


class Finished:
    __slots__ = ("user", "workload", "gpus_requested", "submit", "first_start", "finish",
                 "run_time", "gpu_seconds")

    def __init__(self, row):
        (self.user, self.workload, self.gpus_requested, self.submit, self.first_start,
         self.finish, self.run_time, self.gpu_seconds) = [_f(v) for v in row]


class BatchLimits:
    __slots__ = ("init_batch", "max_batch", "min_local_batch", "max_local_batch", "epoch_work")

    def __init__(self, row):
        (self.init_batch, self.max_batch, self.min_local_batch, self.max_local_batch,
         self.epoch_work) = row


class Plan:
    """The policy's answer: the jobs that run from now on (plan_t)."""

    def __init__(self):
        self.allocs = []

    def run(self, job, gpu_type, gpus, ids=None, batch=0, accum=0, pack_with=None):
        """job runs on `gpus` GPUs of type `gpu_type` (indices, or Job/GpuType
        objects); ids: explicit global GPU ids (else the mechanism places it);
        batch: per-GPU batch (0 keeps the job's), accum: accumulation steps;
        pack_with: the job sharing these GPUs."""
        a = {"job": _index(job), "type": _index(gpu_type), "gpus": int(gpus)}
        if ids is not None:
            a["ids"] = [int(g) for g in ids]
        if batch:
            a["batch"] = int(batch)
        if accum:
            a["accum"] = int(accum)
        if pack_with is not None:
            a["pack_with"] = _index(pack_with)
        self.allocs.append(a)
        return a

    def find(self, job):
        j = _index(job)
        for a in self.allocs:
            if a["job"] == j:
                return a
        return None


def _index(x):
    return x if isinstance(x, int) else x.index


class View:
    """What the policy sees at one decision (view_t)."""

    def __init__(self, conn, msg, state):
        self._conn = conn
        self.decision = msg["decision"]
        self.now = msg["now"]
        self.round_len = msg["round_len"]
        self.round = msg["round"]
        self.seed = msg["seed"]
        self.reasons = frozenset(msg["reasons"])
        self.types = [GpuType(i, r) for i, r in enumerate(msg["types"])]
        self.n_gpus = msg["n_gpus"]
        self.nodes = state.nodes
        self.users = state.users
        self.finished = state.finished
        static = state.static
        rows = state.rows
        self.jobs = [Job(i, static[r[0]], r) for i, r in enumerate(rows)]
        self._holder = None

    @property
    def gpu_holder(self):
        """Per GPU id: the index of the job holding it (a pair's later job), or -1."""
        if self._holder is None:
            h = [-1] * self.n_gpus
            for j in self.jobs:
                for g in j.cur_gpu_ids:
                    h[g] = j.index
            self._holder = h
        return self._holder

    def min_nodes(self, gpu_type, gpus):
        """Fewest nodes of a type that hold `gpus` GPUs (as pu_min_nodes)."""
        t = _index(gpu_type)
        biggest = max((n.gpus for n in self.nodes if n.type == t), default=0)
        if biggest <= 0 or gpus <= biggest:
            return 1
        return (gpus + biggest - 1) // biggest

    # ---- perf questions (view->perf) ----

    def perf(self, calls):
        """Many perf calls in one round trip: each a list as in
        docs/exec-policy.md, e.g. ["throughput", job, type, gpus, nodes, batch];
        returns the raw answers (None for NAN or a refusal)."""
        return self._conn.perf(calls)

    def throughput(self, job, gpu_type, gpus, nodes=None, batch=0):
        t = _index(gpu_type)
        if nodes is None:
            nodes = self.min_nodes(t, gpus)
        return _f(self.perf([["throughput", _index(job), t, gpus, nodes, batch]])[0])

    def pair_throughput(self, a, b, gpu_type, gpus):
        """(rate of a, rate of b) sharing, or None when they may not share."""
        r = self.perf([["pair_throughput", _index(a), _index(b), _index(gpu_type), gpus]])[0]
        return None if r is None else (_f(r[0]), _f(r[1]))

    def samples_throughput(self, job, gpu_type, gpus, nodes=0, batch=0, accum=0):
        return _f(self.perf([["samples_throughput", _index(job), _index(gpu_type), gpus, nodes,
                              batch, accum]])[0])

    def efficiency(self, job, total_batch):
        return _f(self.perf([["efficiency", _index(job), total_batch]])[0])

    def goodput(self, job, gpu_type, gpus, nodes=0, batch=0, accum=0):
        return _f(self.perf([["goodput", _index(job), _index(gpu_type), gpus, nodes, batch,
                              accum]])[0])

    def batch_limits(self, job, gpu_type=-1):
        r = self.perf([["batch_limits", _index(job), _index(gpu_type)]])[0]
        return None if r is None else BatchLimits(r)

    def batch_schedule(self, job, max_steps=64):
        """Oracle policies: [(epoch, batch), ...], the current step first; None otherwise."""
        r = self.perf([["batch_schedule", _index(job), max_steps]])[0]
        return None if r is None else [tuple(s) for s in r]

    def rates(self, jobs=None):
        """rates[i][t]: throughput of job i alone on its requested GPUs of type t
        over the fewest nodes (policy_util's pu_rate), for every job in `jobs`
        (default all), in one round trip. NAN when unknown."""
        jobs = self.jobs if jobs is None else jobs
        if jobs and jobs[0].rates is not None:
            return {j.index: j.rates for j in jobs}
        calls = []
        for j in jobs:
            g = j.gpus_requested
            for t in range(len(self.types)):
                calls.append(["throughput", j.index, t, g, self.min_nodes(t, g), 0])
        vals = self.perf(calls) if calls else []
        nt = len(self.types)
        out = {}
        for k, j in enumerate(jobs):
            out[j.index] = [_f(v) for v in vals[k * nt:(k + 1) * nt]]
        return out


class Policy:
    """Subclass and set the metadata; schedule(view) returns a Plan."""
    name = "python-policy"
    oracle = False
    cadence = ("events",)      # "events" and/or "rounds"
    paper = ""
    summary = ""
    params = ""
    view_options = ()          # "rates": each job's rate per type in the view

    def start(self, params):
        """The run's --param pairs (strings). Raise ValueError to refuse them."""
        if params:
            raise ValueError("%s takes no parameters, got %s" % (self.name,
                                                                 ", ".join(sorted(params))))

    def schedule(self, view):
        raise NotImplementedError


class _State:
    """What earlier messages sent: nodes, users, finished jobs, static job fields."""

    def __init__(self):
        self.nodes = []
        self.users = []
        self.finished = []
        self.static = {}
        self.rows = []
        self._by_id = {}

    def update(self, msg):
        if "nodes" in msg:
            self.nodes = [Node(i, r) for i, r in enumerate(msg["nodes"])]
        self.users = self.users[:msg["users_from"]] + msg["users"]
        self.finished = self.finished[:msg["finished_from"]] + [Finished(r)
                                                                for r in msg["finished"]]
        old = self.static
        new = {r[0]: r for r in msg["new_jobs"]}
        prev = self._by_id
        rows = []
        by_id = {}
        for r in msg["jobs"]:
            if isinstance(r, int):  # unchanged since the last decision
                i = r
                r = prev.get(i)
                if r is None:
                    raise ProtocolError("job %d: an unchanged row never sent" % i)
            else:
                i = r[0]
            rows.append(r)
            by_id[i] = r
            if i not in new:
                if i not in old:
                    raise ProtocolError("job %d has no static fields" % i)
                new[i] = old[i]
        self.static = new
        self.rows = rows
        self._by_id = by_id


class _Conn:
    def __init__(self, rfile, wfile):
        self.r = rfile
        self.w = wfile
        self.perf_s = 0.0

    def send(self, obj):
        self.w.write(json.dumps(obj, separators=(",", ":"), allow_nan=False) + "\n")
        self.w.flush()

    def recv(self):
        line = self.r.readline()
        if not line:
            return None
        return json.loads(line)

    def perf(self, calls):
        t0 = time.perf_counter()
        self.send({"type": "perf", "calls": calls})
        m = self.recv()
        self.perf_s += time.perf_counter() - t0
        if m is None or m.get("type") != "perf_result":
            raise ProtocolError("expected perf_result, got %r" % (m,))
        return m["values"]


def _plan_msg(decision, plan, seconds):
    allocs = plan.allocs if isinstance(plan, Plan) else plan
    return {"type": "plan", "decision": decision, "allocs": allocs, "seconds": seconds}


@contextlib.contextmanager
def _gc_paused():
    """The cyclic garbage collector off while a view is read: the thousands of
    lists a large view decodes into would trigger collections that find
    nothing (15 % of the protocol's CPU at 2,000 jobs); the policy's own code
    runs with the collector as it was."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def run(policy, rfile=None, wfile=None):
    """Speaks protocol 1 on stdin/stdout until mlsched says end (or closes)."""
    conn = _Conn(rfile or sys.stdin, wfile or sys.stdout)
    conn.send({"type": "hello", "protocol": PROTOCOL, "name": policy.name,
               "oracle": bool(policy.oracle), "cadence": list(policy.cadence),
               "paper": policy.paper, "summary": policy.summary, "params": policy.params,
               "view": list(policy.view_options)})
    state = _State()
    while True:
        with _gc_paused():  # decoding makes lists, no cycles: no collection needed
            m = conn.recv()
            if m is not None and m.get("type") == "decide":
                state.update(m)
                view = View(conn, m, state)
        if m is None or m.get("type") == "end":
            return 0
        t = m.get("type")
        if t == "start":
            if m.get("job_columns") != JOB_COLUMNS or m.get("static_columns") != STATIC_COLUMNS:
                conn.send({"type": "error", "message": "mlsched_policy: job columns differ "
                           "from this module's (protocol %d)" % PROTOCOL})
                return 1
            try:
                policy.start(m.get("params") or {})
            except ValueError as e:
                conn.send({"type": "error", "message": str(e)})
                return 1
            conn.send({"type": "ready"})
        elif t == "decide":
            conn.perf_s = 0.0
            t0 = time.perf_counter()
            try:
                plan = policy.schedule(view)
            except (ProtocolError, OSError):
                raise
            except Exception as e:  # the policy's own bug: say it in mlsched's error
                traceback.print_exc(file=sys.stderr)
                conn.send({"type": "error", "message": "%s: %s (traceback on stderr)" %
                           (type(e).__name__, e)})
                return 1
            own = time.perf_counter() - t0 - conn.perf_s
            conn.send(_plan_msg(m["decision"], plan, max(own, 0.0)))
        else:
            raise ProtocolError("unexpected message %r" % (t,))
