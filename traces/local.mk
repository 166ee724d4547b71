# traces/: canonical format, generator, stats, importers, sample traces.
libmlsched_a_SOURCES += traces/trace.h traces/trace.c traces/csv.h traces/csv.c \
	traces/generate.h traces/generate.c traces/stats.h traces/stats.c sim/cmd-trace.c
