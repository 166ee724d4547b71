/* eventq.c: binary min-heap of events keyed by (time, seq) (see eventq.h). */
#include "sim/eventq.h"

#include "model/util.h"

#include <stdlib.h>
#include <string.h>

static int before(const event_t *a, const event_t *b)
{
    if (a->time != b->time)
        return a->time < b->time;
    return a->seq < b->seq;
}

void eventq_init(eventq_t *q)
{
    memset(q, 0, sizeof *q);
}

void eventq_free(eventq_t *q)
{
    free(q->heap);
    eventq_init(q);
}

void eventq_push(eventq_t *q, double time, ev_kind_t kind, int job, uint32_t version)
{
    xgrow((void **)&q->heap, &q->cap, q->n + 1, sizeof *q->heap);
    event_t ev = {time, q->next_seq++, kind, job, version};
    size_t i = q->n++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!before(&ev, &q->heap[parent]))
            break;
        q->heap[i] = q->heap[parent];
        i = parent;
    }
    q->heap[i] = ev;
}

const event_t *eventq_peek(const eventq_t *q)
{
    return q->n ? &q->heap[0] : NULL;
}

int eventq_pop(eventq_t *q, event_t *out)
{
    if (!q->n)
        return -1;
    *out = q->heap[0];
    event_t last = q->heap[--q->n];
    size_t i = 0, n = q->n;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        const event_t *best = &last;
        if (l < n && before(&q->heap[l], best)) {
            m = l;
            best = &q->heap[l];
        }
        if (r < n && before(&q->heap[r], best))
            m = r;
        if (m == i)
            break;
        q->heap[i] = q->heap[m];
        i = m;
    }
    if (n)
        q->heap[i] = last;
    return 0;
}
