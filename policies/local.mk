# policies/: policy.h (the whole API), the registry, one file per policy.
libmlsched_a_SOURCES += policies/policy.h policies/plan.c sim/cmd-policies.c
libmlsched_a_SOURCES += policies/policies.h policies/registry.c \
	policies/policy_util.h policies/policy_util.c \
	policies/fifo.c policies/fifo_backfill.c policies/sjf.c policies/srtf.c \
	policies/las.c policies/isolated.c policies/pathways.c
check_PROGRAMS += tests/test_policies
TESTS += tests/test_policies
tests_test_policies_CFLAGS = $(TEST_CFLAGS)
tests_test_policies_LDADD = $(TEST_LIBS)
TESTS += tests/policies_cli.sh
EXTRA_DIST += tests/policies_cli.sh
