/* check_main.h: the main() of a Check unit test, once: run every test case
 * of one suite, exit non-zero when one failed. A test file defines its test
 * cases and calls check_main("name", cases, n). */
#ifndef MLS_CHECK_MAIN_H
#define MLS_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

static inline int check_main(const char *name, const TTest *const *tests, size_t n)
{
    Suite *s = suite_create(name);
    TCase *tc = tcase_create("core");
    for (size_t i = 0; i < n; i++)
        tcase_add_test(tc, tests[i]);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
