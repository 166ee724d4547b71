/* wrapjob.h: `mlsched live wrap` — runs a training command that prints
 * progress lines (profiler/README.md) as a live job: it counts the work the
 * lines complete, reports it to the daemon, checkpoints the count on SIGTERM
 * and stops the command once the job's work is done (cli/wrapjob.c). */
#ifndef MLS_CLI_WRAPJOB_H
#define MLS_CLI_WRAPJOB_H

int live_wrap_main(int argc, char **argv);

#endif
