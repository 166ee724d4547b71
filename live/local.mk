# live/: the live runner: the daemon, its executors (local processes, Slurm), the
# request protocol, the state store, progress reports, the pack and batch control
# files (the fake job that reads them is cli/fakejob.c, the verb `live fake-job`).
libmlsched_a_SOURCES += live/batch.c live/batch.h live/ctlfile.c live/ctlfile.h live/daemon.c live/daemon.h \
	live/exec_local.c live/exec_slurm.c live/executor.h live/pack.c live/pack.h live/proto.c \
	live/proto.h live/report.c live/report.h live/state.c live/state.h live/export.c live/export.h
