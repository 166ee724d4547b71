# sim/: engine, cluster, perf model, metrics, results store, CLI.
libmlsched_a_SOURCES += sim/util.c sim/util.h sim/strtab.c sim/strtab.h sim/cmd.h \
	sim/cluster.h sim/cluster.c sim/perf.h sim/perf.c sim/perf_table.c sim/eventq.c sim/eventq.h sim/placer.c sim/placer.h \
	sim/metrics.c sim/metrics.h sim/engine.c sim/engine.h sim/store.c sim/store.h \
	sim/faults.c sim/faults.h sim/overheads.c sim/overheads.h \
	sim/mechanism.c sim/mechanism.h sim/view_perf.c sim/view_perf.h sim/pollux_model.c sim/pollux_model.h \
	sim/cmd-simulate.c
