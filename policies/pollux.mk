# policies/pollux.mk: the Pollux policy (PolluxAgent's batch choice, PolluxSched's
# genetic algorithm) and its unit tests (tests/test_pollux_policy.c).
libmlsched_a_SOURCES += policies/pollux.h policies/pollux.c
check_PROGRAMS += tests/test_pollux_policy
TESTS += tests/test_pollux_policy
tests_test_pollux_policy_CFLAGS = $(TEST_CFLAGS)
tests_test_pollux_policy_LDADD = $(TEST_LIBS)
TESTS += tests/pollux_policy.sh tests/pollux_paper.sh
EXTRA_DIST += tests/pollux_policy.sh tests/pollux_paper.sh tests/fixtures/regress/px12.csv
# bench/pollux_decide: decision time with many active jobs (built by make check, not run).
check_PROGRAMS += bench/pollux_decide
bench_pollux_decide_LDADD = $(MLS_LIBS)
