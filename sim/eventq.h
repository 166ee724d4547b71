/* eventq.h: the simulator's event queue, a binary min-heap.
 *
 * Events are ordered by (time, seq): seq is a counter the queue stamps on every
 * push, so events at the same time pop in the order they were pushed and a run
 * is deterministic. Insert and pop are O(log n). Completion events are never
 * removed when a job's rate changes: each carries the job's version number at
 * push time, and the engine drops an event whose version is stale (lazy
 * invalidation). */
#ifndef MLS_EVENTQ_H
#define MLS_EVENTQ_H

#include <stddef.h>
#include <stdint.h>

typedef enum ev_kind {
    EV_ARRIVAL = 0,
    EV_COMPLETION = 1,
    EV_ROUND = 2,
    EV_FAULT = 3,        /* job = index into the fault schedule */
    EV_BATCH_CHANGE = 4,
    EV_NODE_FAIL = 5,    /* generated failure, job = node */
    EV_NODE_RECOVER = 6, /* generated recovery, job = node */
    EV_SEGMENT = 7,      /* a running job reaches the end of a constant-rate segment */
} ev_kind_t;

typedef struct event {
    double time;
    uint64_t seq;
    ev_kind_t kind;
    int job;          /* index into the engine's jobs, -1 when none */
    uint32_t version; /* the job's version when pushed */
} event_t;

typedef struct eventq {
    event_t *heap;
    size_t n, cap;
    uint64_t next_seq;
} eventq_t;

void eventq_init(eventq_t *q);
void eventq_free(eventq_t *q);
void eventq_push(eventq_t *q, double time, ev_kind_t kind, int job, uint32_t version);
/* Pops the earliest event into *out; returns 0, or -1 when empty. */
int eventq_pop(eventq_t *q, event_t *out);
/* The earliest event without removing it, NULL when empty. */
const event_t *eventq_peek(const eventq_t *q);
static inline size_t eventq_size(const eventq_t *q)
{
    return q->n;
}

#endif
