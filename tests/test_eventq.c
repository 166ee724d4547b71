/* test_eventq.c: the event heap against a sorted reference under random
 * pushes and pops, and same-time events popping in push order. */
#include "sim/eventq.h"
#include "tests/check_main.h"

#include <check.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>

typedef struct ref {
    double t;
    uint64_t seq;
} ref_t;

static int ref_cmp(const void *a, const void *b)
{
    const ref_t *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

START_TEST(random_against_sorted)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 42);
    eventq_t q;
    eventq_init(&q);
    ref_t *ref = malloc(sizeof(ref_t) * 20000);
    size_t n = 0;
    uint64_t seq = 0;
    for (int step = 0; step < 20000; step++) {
        if (n == 0 || gsl_rng_uniform(r) < 0.6) {
            /* coarse times so that ties are common */
            double t = (double)gsl_rng_uniform_int(r, 500);
            eventq_push(&q, t, EV_ARRIVAL, step, 0);
            ref[n++] = (ref_t){t, seq++};
        } else {
            qsort(ref, n, sizeof *ref, ref_cmp);
            event_t ev;
            ck_assert_int_eq(eventq_pop(&q, &ev), 0);
            ck_assert(ev.time == ref[0].t);
            ck_assert_uint_eq(ev.seq, ref[0].seq);
            ref[0] = ref[--n];
        }
        ck_assert_uint_eq(eventq_size(&q), n);
    }
    free(ref);
    eventq_free(&q);
    gsl_rng_free(r);
}
END_TEST

START_TEST(ties_in_push_order)
{
    eventq_t q;
    eventq_init(&q);
    for (int i = 0; i < 100; i++)
        eventq_push(&q, 5.0, EV_COMPLETION, i, 0);
    eventq_push(&q, 1.0, EV_ROUND, -1, 0);
    event_t ev;
    ck_assert_int_eq(eventq_pop(&q, &ev), 0);
    ck_assert_int_eq(ev.kind, EV_ROUND);
    for (int i = 0; i < 100; i++) {
        ck_assert_int_eq(eventq_pop(&q, &ev), 0);
        ck_assert_int_eq(ev.job, i);
    }
    ck_assert_int_eq(eventq_pop(&q, &ev), -1);
    ck_assert_ptr_null(eventq_peek(&q));
    eventq_free(&q);
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {
        random_against_sorted,
        ties_in_push_order,
    };
    return check_main("eventq", tests, sizeof tests / sizeof tests[0]);
}
