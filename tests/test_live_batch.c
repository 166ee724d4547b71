/* test_live_batch.c: the batch control file (live/batch.h) through which the
 * live daemon changes a running job's batch in place: a valid file, a round
 * trip through write and read, a missing file, and malformed files, each
 * rejected with a message naming the file, the line and the field. */
#include "live/batch.h"
#include "tests/check_main.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int parse(const char *text, live_batch_t *b, mls_err_t *err)
{
    return live_batch_parse(text, strlen(text), "B", b, err);
}

START_TEST(test_parse)
{
    live_batch_t b;
    mls_err_t err;
    ck_assert_msg(
        parse("mlsched-batch 1\n# c\naccum 2 \r\n\nbatch 64\nsince 1763859123.25", &b, &err) == 0,
        "%s", err.msg);
    ck_assert_int_eq(b.batch, 64);
    ck_assert_int_eq(b.accum, 2);
    ck_assert_double_eq_tol(b.since, 1763859123.25, 1e-6);
    ck_assert_int_eq(parse("mlsched-batch 1\nbatch 0\naccum -1\nsince 0\n", &b, &err), 0);
    ck_assert_int_eq(b.batch, 0);
    ck_assert_int_eq(b.accum, -1);
}
END_TEST

START_TEST(test_round_trip)
{
    char dir[] = "/tmp/test_live_batch-XXXXXX", path[128];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/job-1-1.batch", dir);
    live_batch_t in = {17, 3, 1700000000.5}, out;
    mls_err_t err;
    ck_assert_int_eq(live_batch_read(path, &out, &err), 1); /* none yet */
    ck_assert_msg(live_batch_write(path, &in, &err) == 0, "%s", err.msg);
    ck_assert_msg(live_batch_read(path, &out, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(out.batch, 17);
    ck_assert_int_eq(out.accum, 3);
    ck_assert_double_eq_tol(out.since, in.since, 1e-6);
    unlink(path);
    rmdir(dir);
}
END_TEST

START_TEST(test_malformed)
{
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"", "B: empty"},
        {"mlsched-pack 1\nbatch 1\naccum 0\nsince 1\n", "B:1: the first line"},
        {"mlsched-batch 1\nbatch 1\nsize 2\n", "B:3: 'size': unknown key"},
        {"mlsched-batch 1\nbatch 1\nbatch 2\n", "B:3: batch: given twice"},
        {"mlsched-batch 1\nbatch -4\n", "B:2: batch: '-4' is not a batch size"},
        {"mlsched-batch 1\nbatch 4\naccum -2\n", "B:3: accum: '-2' is not a step count"},
        {"mlsched-batch 1\nbatch 4\naccum x\n", "B:3: accum: 'x'"},
        {"mlsched-batch 1\nbatch 4\naccum 0\nsince -1\n", "B:4: since: '-1'"},
        {"mlsched-batch 1\nbatch 4\nsince 1\n", "B: accum: missing"},
        {"mlsched-batch 1\naccum 0\nsince 1\n", "B: batch: missing"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        live_batch_t b;
        mls_err_t err = {""};
        ck_assert_msg(parse(cases[i].text, &b, &err) < 0, "case %zu accepted", i);
        ck_assert_msg(strstr(err.msg, cases[i].msg), "case %zu: '%s' lacks '%s'", i, err.msg,
                      cases[i].msg);
    }
}
END_TEST

int main(void)
{
    const TTest *tests[] = {test_parse, test_round_trip, test_malformed};
    return check_main("live_batch", tests, sizeof tests / sizeof tests[0]);
}
