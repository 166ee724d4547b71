# traces/: canonical format, generator, stats, importers, sample traces.
libmlsched_a_SOURCES += traces/trace.h traces/trace.c traces/csv.h traces/csv.c \
	traces/generate.h traces/generate.c traces/stats.h traces/stats.c sim/cmd-trace.c
libmlsched_a_SOURCES += traces/import.h traces/import.c traces/import_gavel.c \
	traces/records.h traces/records.c
libmlsched_a_SOURCES += traces/mapping.h traces/mapping.c traces/import_prod.h \
	traces/import_prod.c traces/import_philly.c traces/import_helios.c traces/import_itp.c
TESTS += tests/import_gavel.sh
EXTRA_DIST += tests/import_gavel.sh tests/fixtures/import
TESTS += tests/import_prod.sh
EXTRA_DIST += tests/import_prod.sh tests/fixtures/import_prod
check_PROGRAMS += tests/test_import
TESTS += tests/test_import
tests_test_import_CFLAGS = $(TEST_CFLAGS)
tests_test_import_LDADD = $(TEST_LIBS)
# The default catalogs, bundled clusters and the sample trace travel with the
# tarball (`make distcheck` runs the tests that read them from the source tree).
EXTRA_DIST += traces/catalog traces/clusters traces/samples scripts/install-deps scripts/slurm
