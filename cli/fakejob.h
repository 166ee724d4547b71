/* fakejob.h: `mlsched live fake-job` — a synthetic training job.
 *
 * It consumes its work at the rate the perf model gives for the allocation it
 * was started on (GPU count from CUDA_VISIBLE_DEVICES, type, nodes and batch
 * from the MLSCHED_* variables) times the time scale, reports progress to the
 * daemon, first spends MLSCHED_START_OVERHEAD (daemon s) "restoring", and on
 * SIGTERM saves its progress to MLSCHED_CHECKPOINT and exits 143; started
 * again, it resumes from that file. SIGSTOP/SIGCONT pause it (the time it was
 * stopped does not count). While it shares its GPUs with another job
 * (MLSCHED_PACK_FILE, live/pack.h) it runs at the perf model's pair rate, and
 * at its solo rate from the moment its partner ended. It exits 0 when its
 * work is done. */
#ifndef MLS_LIVE_FAKEJOB_H
#define MLS_LIVE_FAKEJOB_H

int live_fake_job_main(int argc, char **argv);

#endif
