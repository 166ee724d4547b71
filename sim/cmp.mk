# sim/cmp.mk: the researcher's main loop — compare, sweep, merge, report —
# the process pool and Slurm job-array backend under them, and reading run
# summaries back (results.h, shared with plot/regress).
libmlsched_a_SOURCES += sim/results.c sim/results.h sim/merge.c sim/merge.h \
	sim/runner.c sim/runner.h sim/experiment.c sim/experiment.h sim/slurm_array.c \
	sim/cmd-compare.c sim/cmd-sweep.c sim/cmd-merge.c sim/cmd-report.c
check_PROGRAMS += tests/test_results tests/test_runner
TESTS += tests/test_results tests/test_runner tests/compare.sh tests/slurm_array.sh
tests_test_results_CFLAGS = $(TEST_CFLAGS)
tests_test_results_LDADD = $(TEST_LIBS)
tests_test_runner_CFLAGS = $(TEST_CFLAGS)
tests_test_runner_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/compare.sh tests/slurm_array.sh scripts/quickstart \
	scripts/slurm/start scripts/slurm/stop
