# cli/: the top floor: main.c and its one table of subcommands, one cmd-*.c per
# subcommand, what their command lines share (cmd.c, opts, experiment_opts), and
# the fake training job of `live fake-job` (fakejob.c).
mlsched_SOURCES = cli/main.c
libmlsched_a_SOURCES += cli/cmd-compare.c cli/cmd-live.c cli/cmd-merge.c cli/cmd-model.c cli/cmd-plot.c \
	cli/cmd-policies.c cli/cmd-profile.c cli/cmd-regress.c cli/cmd-report.c \
	cli/cmd-simulate.c cli/cmd-sweep.c cli/cmd-trace.c cli/cmd.c cli/cmd.h \
	cli/experiment_opts.c cli/experiment_opts.h cli/fakejob.c cli/fakejob.h cli/like.c \
	cli/like.h cli/opts.c \
	cli/opts.h
