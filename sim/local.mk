# sim/: the shared mechanism (view, plan checks, placement, overheads, faults), the
# event engine, batch-size adaptation, metrics, the results store, and experiments
# (runs in a process pool or a Slurm job array, merged summaries).
libmlsched_a_SOURCES += sim/adapt.c sim/adapt.h sim/engine.c sim/engine.h sim/eventq.c sim/eventq.h \
	sim/experiment.c sim/experiment.h sim/faults.c sim/faults.h sim/mechanism.c \
	sim/mechanism.h sim/merge.c sim/merge.h sim/metrics.c sim/metrics.h sim/overheads.c \
	sim/overheads.h sim/placer.c sim/placer.h sim/results.c sim/results.h sim/runner.c \
	sim/runner.h sim/slurm_array.c sim/store.c sim/store.h sim/view_perf.c sim/view_perf.h \
	sim/diagnose.c sim/diagnose.h
# External policies (exec:PATH) over the view/plan protocol (docs/exec-policy.md).
libmlsched_a_SOURCES += sim/policy_exec.c sim/policy_exec.h
EXTRA_DIST += docs/exec-policy.md bindings/python/mlsched_policy.py \
	bindings/python/pyproject.toml examples/policies/fifo.py examples/policies/las.py \
	examples/policies/max_min.py
