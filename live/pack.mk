# live/pack.mk: space sharing carried out live — the pack control file
# (live/pack.[ch]), its unit tests (with the shared pair callback of
# sim/view_perf.c), and the end-to-end test of packed policies run live.
libmlsched_a_SOURCES += live/pack.c live/pack.h live/ctlfile.c live/ctlfile.h
check_PROGRAMS += tests/test_live_pack
TESTS += tests/test_live_pack
tests_test_live_pack_CFLAGS = $(TEST_CFLAGS)
tests_test_live_pack_LDADD = $(TEST_LIBS)
TESTS += tests/live_pack.sh tests/live_pack_crash.sh
EXTRA_DIST += tests/live_pack.sh tests/live_pack_crash.sh
TESTS += tests/live_slurm_pack.sh
EXTRA_DIST += tests/live_slurm_pack.sh
