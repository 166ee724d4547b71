/* check_main.h: the main() of a Check unit test, once: run every test case
 * of one suite, exit non-zero when one failed. A test file defines its test
 * cases and calls check_main("name", cases, n), or check_main_opts() when its
 * cases need a timeout, a fixture or Check's no-fork mode, or runs a Suite it
 * built itself through check_run_suite(). */
#ifndef MLS_CHECK_MAIN_H
#define MLS_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

typedef struct check_opts {
    int timeout_s;          /* per test case; 0: Check's default */
    int nofork;             /* 1: run the cases in this process (CK_NOFORK) */
    void (*setup)(void);    /* checked fixture around every case, or NULL */
    void (*teardown)(void);
} check_opts_t;

/* Runs every case of s; frees s; EXIT_SUCCESS when none failed. */
static inline int check_run_suite(Suite *s, int nofork)
{
    SRunner *sr = srunner_create(s);
    if (nofork)
        srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

static inline int check_main_opts(const char *name, const TTest *const *tests, size_t n,
                                  const check_opts_t *o)
{
    Suite *s = suite_create(name);
    TCase *tc = tcase_create("core");
    if (o && o->timeout_s > 0)
        tcase_set_timeout(tc, o->timeout_s);
    if (o && (o->setup || o->teardown))
        tcase_add_checked_fixture(tc, o->setup, o->teardown);
    for (size_t i = 0; i < n; i++)
        tcase_add_test(tc, tests[i]);
    suite_add_tcase(s, tc);
    return check_run_suite(s, o && o->nofork);
}

static inline int check_main(const char *name, const TTest *const *tests, size_t n)
{
    return check_main_opts(name, tests, n, NULL);
}

#endif
