# sim/cli.mk: what the subcommands' command lines share — the option tables,
# their parser, generated help and usage error (sim/opts, sim/cmd.c), the
# options of compare and sweep (experiment_opts), and reading/writing JSON
# files with errors that name the file (json_util).
libmlsched_a_SOURCES += sim/cmd.c sim/opts.c sim/opts.h sim/experiment_opts.c sim/experiment_opts.h \
	sim/json_util.c sim/json_util.h
check_PROGRAMS += tests/test_cli tests/test_opts
TESTS += tests/test_cli tests/test_opts
tests_test_cli_SOURCES = tests/test_cli.c tests/check_main.h
tests_test_cli_CFLAGS = $(TEST_CFLAGS)
tests_test_cli_LDADD = $(TEST_LIBS)
tests_test_opts_SOURCES = tests/test_opts.c tests/check_main.h
tests_test_opts_CFLAGS = $(TEST_CFLAGS)
tests_test_opts_LDADD = $(TEST_LIBS)
