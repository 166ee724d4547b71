# policies/sia.mk: the Sia policy (configurations, GLPK selection program,
# placement) and its unit tests (tests/test_sia.c).
libmlsched_a_SOURCES += policies/sia.h policies/sia.c
check_PROGRAMS += tests/test_sia
TESTS += tests/test_sia
tests_test_sia_CFLAGS = $(TEST_CFLAGS)
tests_test_sia_LDADD = $(TEST_LIBS)
# bench/sia_decide: decision time with 200 and 2,000 active jobs (built by make check, not run).
check_PROGRAMS += bench/sia_decide
bench_sia_decide_LDADD = $(MLS_LIBS)
# Sia's Table 4 ordering on its Philly workload-1 (skipped without shared/data).
TESTS += tests/sia_paper.sh
EXTRA_DIST += tests/sia_paper.sh scripts/sia-table4.sh
