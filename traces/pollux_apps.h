/* pollux_apps.h: the six applications of Pollux's (OSDI'21) simulator and
 * Sia's (SOSP'23) workloads, with the constants that make a job of each: how
 * much work it is to train to completion, its initial batch size and its
 * largest elastic allocation. One table (pollux_apps.c) says where every
 * number comes from. */
#ifndef MLS_POLLUX_APPS_H
#define MLS_POLLUX_APPS_H

typedef struct pollux_app {
    const char *name;      /* the workload name, as in the workload CSVs */
    int max_epochs;        /* Pollux completes a job after this many epochs */
    int init_batch_size;   /* total batch the statistical progress is counted in */
    double epoch_progress; /* iterations of one epoch at init_batch_size */
    int max_batch_size;    /* largest validated total batch */
    int min_local_bsz;     /* smallest per-GPU batch profiled */
    int max_replicas;      /* Pollux's elastic cap: min(64, max_batch / min_local), ncf 1 */
} pollux_app_t;

const pollux_app_t *pollux_app_find(const char *name); /* NULL when unknown */
/* Training-set size in samples: epoch_progress x init_batch_size. */
double pollux_app_dataset(const pollux_app_t *app);
/* Training to completion in samples: dataset x max_epochs. */
double pollux_app_work(const pollux_app_t *app);

#endif
