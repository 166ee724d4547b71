/* import_readers.h: readers of the Alibaba PAI 2020 and openb 2023 traces, the
 * Tiresias job CSVs (into records, see records.h), and the Pollux/Sia
 * workload CSVs (straight into jobs: they name the application, so their work
 * is known without the workload mapping; see pollux_apps.h).
 *
 * Every reader validates every row and names a bad one FILE:LINE: field;
 * with IMPORT_SKIP_BAD it counts bad rows in *skipped instead. Machine
 * lists (for --emit-cluster) are inputs like the others: each reader knows
 * its format's machine file by name or header and fills rs->machines. */
#ifndef MLS_IMPORT_READERS_H
#define MLS_IMPORT_READERS_H

#include "model/trace.h"
#include "traces/records.h"

/* PATH: a directory holding pai_job_table.csv and pai_task_table.csv
 * (pai_instance_table.csv and pai_machine_spec.csv when present), the job
 * table itself, whose siblings are named by replacing "job_table" in its
 * file name (pai_job_table.sample.csv -> pai_task_table.sample.csv), or a
 * machine spec (a file named *machine_spec*). */
int pai_read_records(import_records_t *rs, const char *path, unsigned flags, long *skipped,
                     mls_err_t *err);
/* pai_machine_spec.csv (headerless machine,gpu_type,cap_cpu,cap_mem,cap_gpu). */
int pai_read_machines(import_records_t *rs, const char *path, unsigned flags, long *skipped,
                      mls_err_t *err);

/* An openb_pod_list_*.csv (pods), or an openb_node_list_*.csv (machines:
 * sn,cpu_milli,memory_mib,gpu,model; told apart by its header). */
int openb_read_records(import_records_t *rs, const char *path, unsigned flags, long *skipped,
                       mls_err_t *err);

/* Tiresias' 60_job.csv / tf_job.csv style job lists. */
int tiresias_read_records(import_records_t *rs, const char *path, unsigned flags, long *skipped,
                          mls_err_t *err);
/* The canonical workload name for a Tiresias model name (itself when the
 * default catalog has no counterpart). */
const char *tiresias_workload(const char *model);

/* Pollux (and Sia) workload-N.csv: name,time,application,num_replicas,batch_size. */
int import_pollux(mls_trace_t *t, const char *path, unsigned flags, long *skipped, mls_err_t *err);

#endif
