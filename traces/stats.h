/* stats.h: what the papers print about a trace — jobs, users, GPU-hours,
 * arrival rate over time, GPU-count histogram, duration percentiles and
 * per-user shares — as aligned text or JSON. */
#ifndef MLS_STATS_H
#define MLS_STATS_H

#include "model/trace.h"

#include <stdio.h>

void trace_stats_print(const mls_trace_t *t, FILE *out, int json);

#endif
