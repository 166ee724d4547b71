# traces/import_b.mk: the pai2020, openb2023, pollux/sia and tiresias importers
# and their tests.
libmlsched_a_SOURCES += traces/import_rows.h traces/import_rows.c traces/import_b.h \
	traces/import_pai.c traces/import_openb.c traces/import_workloads.c \
	traces/pollux_apps.h traces/pollux_apps.c
check_PROGRAMS += tests/test_import_b
TESTS += tests/test_import_b
tests_test_import_b_CFLAGS = $(TEST_CFLAGS)
tests_test_import_b_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/fixtures/import_b
TESTS += tests/import_b.sh
EXTRA_DIST += tests/import_b.sh
