/* test_runner.c: the process pool — exit statuses, stderr kept apart from
 * progress lines, the -j bound, and a program that cannot be run. Children
 * are /bin/sh scripts (the pool execs any program, not only mlsched). */
#include "sim/runner.h"
#include "tests/check_main.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

typedef struct seen {
    size_t max_running;
    int calls;
} seen_t;

static void cb(void *ctx, const runner_task_t *t, size_t n, double elapsed)
{
    (void)elapsed;
    seen_t *s = ctx;
    size_t running = 0;
    for (size_t i = 0; i < n; i++)
        running += t[i].state == TASK_RUNNING;
    if (running > s->max_running)
        s->max_running = running;
    s->calls++;
}

START_TEST(statuses_and_output)
{
    const char *scripts[] = {
        "echo out; echo 'simulate: t=2.5 h, 3/10 jobs done, 2 active' >&2; echo oops >&2",
        "exit 3",
        "sleep 0.2; kill -9 $$",
        "echo 'simulate: t=1.0 h, 10/10 jobs done, 0 active' >&2",
    };
    runner_task_t t[4];
    for (int i = 0; i < 4; i++) {
        char *argv[] = {"sh", "-c", (char *)scripts[i], NULL};
        runner_task_init(&t[i], "task", argv);
    }
    seen_t seen = {0, 0};
    runner_opts_t o = {"/bin/sh", 2, 0.05, cb, &seen};
    mls_err_t err = {{0}};
    ck_assert_int_eq(runner_run(t, 4, &o, &err), 2);
    ck_assert_int_eq(t[0].status, 0);
    ck_assert_str_eq(t[0].out, "out\n");
    ck_assert_str_eq(t[0].err, "oops\n");
    ck_assert(t[0].sim_hours == 2.5);
    ck_assert_int_eq(t[0].jobs_done, 3);
    ck_assert_int_eq(t[0].jobs_total, 10);
    ck_assert_int_eq(t[1].status, 3);
    ck_assert_int_eq(t[2].status, 128 + 9);
    ck_assert_int_eq(t[3].status, 0);
    ck_assert_ptr_null(t[3].err);
    ck_assert_uint_le(seen.max_running, 2);
    ck_assert_int_gt(seen.calls, 0);
    for (int i = 0; i < 4; i++)
        runner_task_free(&t[i]);
}
END_TEST

START_TEST(capture_and_missing_program)
{
    char *argv[] = {"sh", "-c", "echo hi; echo no >&2; exit 4", NULL};
    char *out, *errtext;
    int status;
    mls_err_t err = {{0}};
    ck_assert_int_eq(runner_capture("/bin/sh", argv, &out, &errtext, &status, &err), 0);
    ck_assert_int_eq(status, 4);
    ck_assert_str_eq(out, "hi\n");
    ck_assert_str_eq(errtext, "no\n");
    free(out);
    free(errtext);
    char *argv2[] = {"x", NULL};
    ck_assert_int_eq(runner_capture("/nonexistent/prog", argv2, NULL, &errtext, &status, &err), 0);
    ck_assert_int_eq(status, 127);
    ck_assert_ptr_nonnull(strstr(errtext, "cannot run /nonexistent/prog"));
    free(errtext);
    char exe[4096];
    ck_assert_int_eq(runner_self_exe(exe, sizeof exe, &err), 0);
    ck_assert_ptr_nonnull(strstr(exe, "test_runner"));
}
END_TEST

START_TEST(progress_lines)
{
    double h;
    long d, t;
    ck_assert_int_eq(
        runner_parse_progress("simulate: t=12.5 h, 7/9 jobs done, 2 active", &h, &d, &t), 0);
    ck_assert(h == 12.5 && d == 7 && t == 9);
    ck_assert_int_eq(runner_parse_progress("mlsched simulate: bad", &h, &d, &t), -1);
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {
        statuses_and_output,
        capture_and_missing_program,
        progress_lines,
    };
    return check_main("runner", tests, sizeof tests / sizeof tests[0]);
}
