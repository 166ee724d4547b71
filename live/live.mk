# live/: the live runner — daemon, executors, request protocol, state store,
# progress client, fake job, and the `mlsched live` command.
libmlsched_a_SOURCES += live/proto.c live/proto.h live/state.c live/state.h \
	live/report.c live/report.h live/executor.h live/exec_local.c live/exec_slurm.c \
	live/daemon.c live/daemon.h live/fakejob.c live/fakejob.h live/cmd-live.c
TESTS += tests/live_e2e.sh
EXTRA_DIST += tests/live_e2e.sh tests/fixtures/live
check_PROGRAMS += tests/test_live
TESTS += tests/test_live
tests_test_live_CFLAGS = $(TEST_CFLAGS)
tests_test_live_LDADD = $(TEST_LIBS)
TESTS += tests/live_crash.sh tests/live_requests.sh tests/live_clients.sh
EXTRA_DIST += tests/live_crash.sh tests/live_requests.sh tests/live_clients.sh
check_PROGRAMS += tests/sock_client
tests_sock_client_SOURCES = tests/sock_client.c
TESTS += tests/live_slurm.sh
EXTRA_DIST += tests/live_slurm.sh tests/slurm_serial.sh
