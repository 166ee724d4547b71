# live/pollux.mk: Pollux run live — in-place batch changes (the batch control
# file, live/batch.[ch]) and the end-to-end comparison of Pollux run live
# (local and Slurm) with `mlsched simulate`.
libmlsched_a_SOURCES += live/batch.c live/batch.h
TESTS += tests/live_pollux.sh tests/live_pollux_slurm.sh
EXTRA_DIST += tests/live_pollux.sh tests/live_pollux_slurm.sh
check_PROGRAMS += tests/test_live_batch
TESTS += tests/test_live_batch
tests_test_live_batch_CFLAGS = $(TEST_CFLAGS)
tests_test_live_batch_LDADD = $(TEST_LIBS)
