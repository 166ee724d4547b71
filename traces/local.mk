# traces/: canonical format, generator, stats, importers, sample traces.
libmlsched_a_SOURCES += traces/trace.h traces/trace.c traces/csv.h traces/csv.c \
	traces/generate.h traces/generate.c traces/stats.h traces/stats.c sim/cmd-trace.c
libmlsched_a_SOURCES += traces/import.h traces/import.c traces/import_gavel.c \
	traces/records.h traces/records.c
TESTS += tests/import_gavel.sh
EXTRA_DIST += tests/import_gavel.sh tests/fixtures/import
