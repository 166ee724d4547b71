# sim/: engine, cluster, perf model, metrics, results store, CLI.
libmlsched_a_SOURCES += sim/util.c sim/util.h sim/strtab.c sim/strtab.h sim/cmd.h \
	sim/cluster.h sim/perf.h \
	sim/cmd-simulate.c
