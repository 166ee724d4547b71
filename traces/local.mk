# traces/: canonical format, generator, stats, importers, sample traces.
libmlsched_a_SOURCES += traces/trace.h sim/cmd-trace.c
