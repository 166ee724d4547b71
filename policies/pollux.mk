# policies/pollux.mk: the Pollux policy (PolluxAgent's batch choice, PolluxSched's
# genetic algorithm) and its unit tests (tests/test_pollux_policy.c).
libmlsched_a_SOURCES += policies/pollux.h policies/pollux.c
check_PROGRAMS += tests/test_pollux_policy
TESTS += tests/test_pollux_policy
tests_test_pollux_policy_CFLAGS = $(TEST_CFLAGS)
tests_test_pollux_policy_LDADD = $(TEST_LIBS)
