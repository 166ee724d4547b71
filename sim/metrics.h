/* metrics.h: what a run measured — per job and per run.
 *
 * The engine fills one job_result_t per trace job; metrics_summarize() turns
 * them into the run's summary over the measured jobs (all jobs, or a window of
 * job ids as in Gavel's steady-state experiments).
 *
 * Finish-time fairness (Themis, Mahajan et al., NSDI 2020, §3.1):
 *   rho = T_shared / T_id, T_shared = JCT,
 *   T_id = T_ex * max(1, gpus * N_avg / n_gpus),
 * where T_ex is the job's exclusive run time on its requested GPUs (the
 * fastest GPU type, consolidated, plus one start overhead) and N_avg is the
 * time-averaged number of active (arrived, unfinished) jobs over the job's
 * lifetime: 1/N_avg of the cluster is the job's isolated share, capped at its
 * own demand (a job cannot use more GPUs than it asked for). A job is unfair
 * when rho > 1.05 (Shockwave's threshold). Jain's index is computed over 1/rho
 * (each job's normalized share of its fair finish time). */
#ifndef MLS_METRICS_H
#define MLS_METRICS_H

#include <stddef.h>
#include <stdint.h>

typedef struct job_result {
    int64_t id;
    int user, workload, gpus;
    double work;
    double submit, first_start, finish; /* s; NAN when never started / unfinished */
    double run_time;    /* s holding GPUs */
    double gpu_seconds; /* GPU-seconds held */
    double isolated_time; /* T_ex, s */
    double contention;  /* N_avg over the job's lifetime */
    double rho;         /* finish-time fairness, NAN when unfinished */
    double deadline;    /* absolute s, INFINITY when none */
    int preemptions, restarts;
    int measured; /* in the --measure window */
    int finished;
    double feedback; /* s from submit to its first feedback_work work units (Gandiva's early
                        feedback; its whole work when it has fewer), NAN not reached */
} job_result_t;

typedef struct timeline_sample {
    double t;
    int busy_gpus, running_jobs, queued_jobs;
} timeline_sample_t;

typedef struct run_summary {
    int jobs;       /* measured jobs that finished */
    int unfinished; /* measured jobs that did not */
    double avg_jct, p50_jct, p95_jct, p99_jct;
    double makespan; /* s: time of the run's last event */
    double avg_queue_delay;
    double utilization; /* busy GPU-seconds / (n_gpus * makespan) */
    double unfair_fraction, worst_ftf, jain_index;
    int deadline_jobs, deadlines_met;
    long preemptions, restarts;
    long events, decisions;
    double decision_time_total, decision_time_mean, decision_time_max; /* s, wall clock */
    double wall_seconds;
    double avg_feedback; /* mean job_result_t.feedback over the measured jobs that have one */
} run_summary_t;

typedef struct sim_result {
    job_result_t *jobs;
    size_t n_jobs;
    timeline_sample_t *timeline;
    size_t n_timeline, timeline_cap;
    double busy_gpu_seconds;
    int n_gpus;
    run_summary_t summary;
} sim_result_t;

#define MLS_UNFAIR_RHO 1.05

/* Fills r->summary from r->jobs (keeps the event/decision/wall fields). */
void metrics_summarize(sim_result_t *r);
void sim_result_free(sim_result_t *r);

#endif
