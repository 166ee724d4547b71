# sim/model.mk
# Perf models beyond the table: the Pollux backend and its catalog builder,
# batch-size adaptation, `mlsched model`; their tests.
libmlsched_a_SOURCES += sim/perf_pollux.c sim/perf_pollux.h sim/adapt.c sim/adapt.h \
	sim/pollux_catalog.c sim/pollux_catalog.h sim/cmd-model.c
