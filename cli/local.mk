# cli/: the top floor: main.c and its one table of subcommands, one cmd-*.c per
# subcommand, what their command lines share (cmd.c, opts, experiment_opts), and
# the fake training job of `live fake-job` (fakejob.c) and the wrapper of a real
# one, `live wrap` (wrapjob.c).
mlsched_SOURCES = cli/main.c
libmlsched_a_SOURCES += cli/cmd-compare.c cli/cmd-live.c cli/cmd-merge.c cli/cmd-model.c cli/cmd-plot.c \
	cli/cmd-policies.c cli/cmd-profile.c cli/cmd-regress.c cli/cmd-report.c \
	cli/cmd-simulate.c cli/cmd-sweep.c cli/cmd-trace.c cli/cmd.c cli/cmd.h \
	cli/experiment_opts.c cli/experiment_opts.h cli/fakejob.c cli/fakejob.h cli/wrapjob.c cli/wrapjob.h cli/like.c \
	cli/like.h cli/opts.c \
	cli/dbinput.c cli/dbinput.h cli/html.c cli/html.h cli/plot.c cli/plot.h cli/plotstyle.c cli/plotstyle.h \
	cli/opts.h

# Man pages: mlsched(1) and one per subcommand, generated from their --help text
# by help2man at build time (none are written by hand; none when configure did
# not find help2man).
MLS_MAN_CMDS = simulate compare sweep report merge plot regress model trace policies \
	profile live
if HAVE_HELP2MAN
man1_MANS = man/mlsched.1 $(MLS_MAN_CMDS:%=man/mlsched-%.1)
CLEANFILES += $(man1_MANS)
man/mlsched.1: mlsched$(EXEEXT)
	@$(MKDIR_P) man
	$(AM_V_GEN)$(HELP2MAN) --no-info --no-discard-stderr --version-string='$(VERSION)' \
		-n 'deep-learning cluster scheduling: simulate and run policies on job traces' \
		-o $@ ./mlsched$(EXEEXT)
man/mlsched-%.1: mlsched$(EXEEXT)
	@$(MKDIR_P) man
	$(AM_V_GEN)$(HELP2MAN) --no-info --no-discard-stderr --version-string='$(VERSION)' \
		-n "$$(./mlsched$(EXEEXT) --help | sed -n 's/^  $* *//p')" \
		-o $@ './mlsched$(EXEEXT) $*'
endif
