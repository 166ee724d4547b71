/* test_harden.c: inputs are read exactly as written (issue 19). One case per
 * finding of the fuzzing campaign, each on the reader that had it:
 *
 *   - a NUL byte is an error naming FILE:LINE (trace CSV, every CSV reader,
 *     JSON files, the faults CSV, live requests: raw or as \u0000);
 *   - a duplicate key is an error in every JSON input, with its path;
 *   - one JSON document per input: trailing data is an error;
 *   - live requests: invalid UTF-8 in argv, user or workload is refused, and
 *     every error reply is valid UTF-8 even when it quotes request bytes;
 *   - numbers are decimal (0x10, inf, nan refused with a message that says
 *     why), times are bounded by MLS_MAX_TIME, a deadline before submit and
 *     a stray comma in a cluster spec are errors, messages say what is wrong;
 *   - faults: a factor on a non-slow event, a second fail, a recover of a
 *     healthy node are errors;
 *   - duplicate job ids name both lines.
 * The importer findings (Philly, DIR-LAB, Pollux) are in tests/harden_inputs.sh. */
#include "live/proto.h"
#include "model/cluster.h"
#include "model/csv.h"
#include "model/json_util.h"
#include "model/perf.h"
#include "model/trace.h"
#include "model/util.h"
#include "sim/faults.h"
#include "tests/check_main.h"
#include "traces/import.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[64];

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_harden-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Writes n bytes (NULs allowed) to tmpdir/name; returns the path (static). */
static const char *put(const char *name, const char *bytes, size_t n)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(bytes, 1, n, f), n);
    fclose(f);
    return path;
}
#define PUT(name, lit) put(name, lit, sizeof lit - 1)

static void want(const mls_err_t *err, const char *part)
{
    if (!strstr(err->msg, part))
        ck_abort_msg("error '%s' lacks '%s'", err->msg, part);
}

/* ---- numbers ---------------------------------------------------------------- */

START_TEST(numbers_are_decimal)
{
    double v;
    ck_assert_int_eq(mls_parse_double("0x10", &v), -1);
    ck_assert_str_eq(mls_number_why("0x10"), "is not a decimal number");
    ck_assert_int_eq(mls_parse_double("inf", &v), -1);
    ck_assert_int_eq(mls_parse_double("nan", &v), -1);
    ck_assert_str_eq(mls_number_why("nan"), "is not a finite number");
    ck_assert_int_eq(mls_parse_double("1e999", &v), -1);
    ck_assert_str_eq(mls_number_why("1e999"), "is out of range");
    ck_assert_str_eq(mls_number_why(""), "is empty");
    ck_assert_str_eq(mls_number_why("abc"), "is not a number");
    ck_assert_int_eq(mls_parse_double("1e", &v), -1);
    ck_assert_int_eq(mls_parse_double(".", &v), -1);
    /* 5e-324 is a number: it reads as the smallest double, not as an error */
    ck_assert_int_eq(mls_parse_double("5e-324", &v), 0);
    ck_assert(v > 0 && v < 1e-300);
    ck_assert_int_eq(mls_parse_double(" -1.5e3 ", &v), 0);
    ck_assert_double_eq(v, -1500);
    ck_assert_int_eq(mls_parse_double(".5", &v), 0);
    ck_assert_double_eq(v, 0.5);
    long l;
    ck_assert_int_eq(mls_parse_long("0x10", &l), -1);
}
END_TEST

/* Decimals of 16-19 digits (a double printed in full) read without strtod:
 * the same bits as strtod on halfway cases and on random ones. */
static void same_as_strtod(const char *s)
{
    double v = -1, w = strtod(s, NULL);
    ck_assert_msg(mls_parse_double(s, &v) == 0 && !memcmp(&v, &w, sizeof v), "%s: %.17g, not %.17g",
                  s, v, w);
}

START_TEST(long_decimals_as_strtod)
{
    const char *ties[] = {"4503599627370496.5",    "4503599627370497.5",   "2251799813685248.25",
                          "2251799813685248.75",   "1125899906842624.375", "1125899906842625.625",
                          "9007199254740993",      "9007199254740995",     "9999999999999999999",
                          "0.0000000000000000001", "1.000000000000000111", "1.000000000000000222",
                          "0.9999999999999999999", "-161.78867027681054",  "7348594.539875028"};
    for (size_t i = 0; i < sizeof ties / sizeof ties[0]; i++)
        same_as_strtod(ties[i]);
    unsigned long long x = 88172645463325252ULL; /* xorshift: the same strings every run */
    char buf[64];
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        double v = ldexp(1.0 + (double)(x >> 11) / 9007199254740992.0, (int)(x % 90) - 40);
        snprintf(buf, sizeof buf, "%.17g", v);
        if (!strchr(buf, 'e'))
            same_as_strtod(buf);
        snprintf(buf, sizeof buf, "%.*f", (int)(x % 20), v);
        if (strlen(buf) < 21)
            same_as_strtod(buf);
    }
}
END_TEST

/* ---- UTF-8 ------------------------------------------------------------------ */

START_TEST(utf8_checks)
{
    ck_assert(mls_utf8_valid("ann", 3));
    ck_assert(mls_utf8_valid("\xc3\xa9t\xc3\xa9", 6)); /* été */
    ck_assert(mls_utf8_valid("\xf0\x9f\x98\x80", 4));  /* U+1F600 */
    ck_assert(!mls_utf8_valid("\xff", 1));             /* never in UTF-8 */
    ck_assert(!mls_utf8_valid("\xc0\xaf", 2));         /* overlong '/' */
    ck_assert(!mls_utf8_valid("\xed\xa0\x80", 3));     /* a surrogate */
    ck_assert(!mls_utf8_valid("\xf4\x90\x80\x80", 4)); /* above U+10FFFF */
    ck_assert(!mls_utf8_valid("\xc3", 1));             /* cut short */
    char *s = mls_utf8_sanitize("a\xff\xc3\xa9z\xc3");
    ck_assert_str_eq(s, "a\\xFF\xc3\xa9z\\xC3");
    free(s);
}
END_TEST

/* ---- JSON ------------------------------------------------------------------- */

START_TEST(json_one_document)
{
    mls_err_t err;
    const char *t = "{\"a\":1} {\"b\":2}";
    ck_assert_ptr_null(mls_json_parse(t, strlen(t), "x.json", 1, &err));
    want(&err, "x.json:1: data after the JSON document");
    t = "{\"a\":1}\n\n  \n";
    cJSON *o = mls_json_parse(t, strlen(t), "x.json", 1, &err);
    ck_assert_ptr_nonnull(o);
    cJSON_Delete(o);
    /* a raw NUL, and text after it */
    const char nul[] = "{\"a\":1}\n\0{\"b\":2}";
    ck_assert_ptr_null(mls_json_parse(nul, sizeof nul - 1, "x.json", 1, &err));
    want(&err, "x.json:2: a NUL byte");
    /* \u0000 cuts a cJSON string: refused; an escaped backslash before u0000 is not one */
    t = "{\"a\":\"x\\u0000y\"}";
    ck_assert_ptr_null(mls_json_parse(t, strlen(t), "x.json", 1, &err));
    want(&err, "\\u0000");
    t = "{\"a\":\"x\\\\u0000y\"}";
    o = mls_json_parse(t, strlen(t), "x.json", 1, &err);
    ck_assert_ptr_nonnull(o);
    ck_assert_str_eq(cJSON_GetObjectItem(o, "a")->valuestring, "x\\u0000y");
    cJSON_Delete(o);
}
END_TEST

START_TEST(json_duplicate_keys)
{
    mls_err_t err;
    const char *t = "{\"node_groups\":[{\"gpu_type\":\"v100\",\"count\":2,\"gpus_per_node\":4,"
                    "\"count\":3}]}";
    ck_assert_ptr_null(mls_json_parse(t, strlen(t), "c.json", 1, &err));
    want(&err, "c.json: key 'count' appears twice in node_groups[0]");
    /* the same key written two ways is one key */
    t = "{\"op\":\"status\",\"\\u006fp\":\"drain\"}";
    ck_assert_ptr_null(mls_json_parse(t, strlen(t), "request", 1, &err));
    want(&err, "key 'op' appears twice in the top-level object");
    /* equal keys in different objects are fine */
    t = "{\"a\":{\"k\":1},\"b\":{\"k\":2},\"c\":[{\"k\":1},{\"k\":2}]}";
    cJSON *o = mls_json_parse(t, strlen(t), "x", 1, &err);
    ck_assert_ptr_nonnull(o);
    cJSON_Delete(o);
    /* a large object (the sorted path) */
    char big[8192] = "{";
    for (int i = 0; i < 300; i++)
        snprintf(big + strlen(big), sizeof big - strlen(big), "\"k%d\":%d,", i, i);
    strcat(big, "\"k17\":0}");
    ck_assert_ptr_null(mls_json_parse(big, strlen(big), "x", 1, &err));
    want(&err, "key 'k17' appears twice");
}
END_TEST

START_TEST(json_files)
{
    mls_err_t err;
    mls_cluster_t c;
    const char *p =
        put("c.json", "{\"node_groups\":[{\"gpu_type\":\"v100\",\"count\":2}]}\0{}", 51);
    ck_assert_int_eq(cluster_load(&c, p, &err), -1);
    want(&err, "c.json:1: a NUL byte");
    p = PUT("d.json", "{\"node_groups\":[{\"gpu_type\":\"v100\",\"count\":2,\"count\":3}]}");
    ck_assert_int_eq(cluster_load(&c, p, &err), -1);
    want(&err, "key 'count' appears twice in node_groups[0]");
    p = PUT("e.json", "{\"node_groups\":[{\"gpu_type\":\"v100\",\"count\":100000000}]}");
    ck_assert_int_eq(cluster_load(&c, p, &err), -1);
    want(&err, "node_groups[0].count: 1e+08 is not an integer in [1, 1000000]");
    p = PUT("f.json", "{\"node_groups\":[{\"gpu_type\":\"v100\",\"count\":2}]}\nGARBAGE {{{");
    ck_assert_int_eq(cluster_load(&c, p, &err), -1);
    want(&err, "f.json:2: data after the JSON document");
}
END_TEST

/* ---- perf models: throughputs JSON, Pollux catalog, curves ----------------------- */

START_TEST(perf_inputs)
{
    mls_err_t err;
    mls_perf_t *pm = NULL;
    /* Gavel's table: a workload's throughputs given twice on one GPU type */
    const char *p = PUT("t.json", "{\"v100\":{\"('A3C', 1)\":{\"null\":10},"
                                  "\"('A3C', 1)\":{\"null\":99}}}");
    ck_assert_int_eq(perf_load(&pm, p, &err), -1);
    want(&err, "key '('A3C', 1)' appears twice in v100");
    static const char nul_json[] = "{\"v100\":{\"('A3C', 1)\":{\"null\":10}}}\n\0{}";
    p = put("u.json", nul_json, sizeof nul_json - 1);
    ck_assert_int_eq(perf_load(&pm, p, &err), -1);
    want(&err, "u.json:2: a NUL byte");
    /* a catalog and the Pollux catalog are JSON files too: the same loader */
    char path[300];
    snprintf(path, sizeof path, "%s/traces/catalog/pollux.json", MLS_SRCDIR);
    char *text = mls_read_file(path, &err);
    ck_assert_ptr_nonnull(text);
    size_t n = strlen(text);
    char *twice = malloc(2 * n + 2);
    memcpy(twice, text, n);
    memcpy(twice + n, text, n + 1);
    ck_assert_int_eq(perf_load(&pm, put("p2.json", twice, 2 * n), &err), -1);
    want(&err, "data after the JSON document");
    free(twice);
    free(text);
    /* a curve file with a NUL in its third line */
    p = PUT("c.csv", "# mlsched-curves v1\nworkload,gpu_type,gpus\nA3C,v100\0,1\n");
    ck_assert_int_eq(perf_load(&pm, p, &err), -1);
    want(&err, "c.csv:3: a NUL byte");
}
END_TEST

/* ---- cluster spec ------------------------------------------------------------ */

START_TEST(cluster_spec_commas)
{
    mls_err_t err;
    mls_cluster_t c;
    ck_assert_int_eq(cluster_from_spec(&c, "v100=1x4,", &err), -1);
    want(&err, "an empty group");
    ck_assert_int_eq(cluster_from_spec(&c, ",v100=1x4", &err), -1);
    ck_assert_int_eq(cluster_from_spec(&c, "v100=1x4,,k80=2", &err), -1);
    ck_assert_int_eq(cluster_from_spec(&c, "v100=1x4,k80=2", &err), 0);
    ck_assert_int_eq(c.n_gpus, 6);
    cluster_free(&c);
}
END_TEST

/* ---- CSV and the canonical trace --------------------------------------------- */

static const char header[] = "id,submit_time,workload,gpus,total_work,deadline,mode\n";

static int read_trace(const char *name, const char *rows, size_t n, mls_err_t *err)
{
    char buf[1024];
    size_t h = strlen(header);
    memcpy(buf, header, h);
    memcpy(buf + h, rows, n);
    mls_trace_t t;
    trace_init(&t);
    int rc = trace_read_csv(&t, put(name, buf, h + n), 0, err);
    trace_free(&t);
    return rc;
}
#define TRACE(name, lit, err) read_trace(name, lit, sizeof lit - 1, err)

START_TEST(trace_nul_byte)
{
    mls_err_t err;
    /* "...,static\0,GARBAGE" used to pass: the line ended at the NUL */
    ck_assert_int_eq(TRACE("n.csv", "0,0,A3C,1,10,,static\n1,5,A3C,1,10,,static\0,GARBAGE\n", &err),
                     -1);
    want(&err, "n.csv:3: a NUL byte");
    ck_assert_int_eq(TRACE("m.csv", "0,0,A3C,1,10,,static\n", &err), 0);
    /* the raw reader says it too */
    const char bytes[] = "a,b\nc\0d,e\n";
    FILE *f = fopen(put("r.csv", bytes, sizeof bytes - 1), "r");
    csv_reader_t r;
    csv_open(&r, f, ',');
    ck_assert_int_eq(csv_next(&r), 1);
    ck_assert_int_eq(csv_next(&r), -1);
    ck_assert_int_eq(csv_fail(&r, "r.csv", &err), -1);
    want(&err, "r.csv:2: a NUL byte");
    csv_close(&r);
    fclose(f);
}
END_TEST

START_TEST(trace_numbers_and_bounds)
{
    mls_err_t err;
    ck_assert_int_eq(TRACE("h.csv", "0,0x10,A3C,1,10,,\n", &err), -1);
    want(&err, "h.csv:2: field 'submit_time': '0x10' is not a decimal number");
    ck_assert_int_eq(TRACE("b.csv", "0,1e30,A3C,1,10,,\n", &err), -1);
    want(&err, "b.csv:2: field 'submit_time': 1e+30 s is above the largest time accepted");
    ck_assert_int_eq(TRACE("b2.csv", "0,0,A3C,1,10,2e12,\n", &err), -1);
    want(&err, "field 'deadline': 2e+12 s is above");
    ck_assert_int_eq(TRACE("nan.csv", "0,nan,A3C,1,10,,\n", &err), -1);
    want(&err, "field 'submit_time': 'nan' is not a finite number");
    ck_assert_int_eq(TRACE("inf.csv", "0,0,A3C,1,10,inf,\n", &err), -1);
    want(&err, "field 'deadline': 'inf' is not a finite number");
    ck_assert_int_eq(TRACE("t.csv", "0,5e-324,A3C,1,10,,\n", &err), 0);
    ck_assert_int_eq(TRACE("d.csv", "0,50,A3C,1,10,10,\n", &err), -1);
    want(&err, "d.csv:2: field 'deadline': 10 is before the job's submit_time 50");
    ck_assert_int_eq(TRACE("d2.csv", "0,50,A3C,1,10,50,\n", &err), 0);
    ck_assert_int_eq(TRACE("g.csv", "0,0,A3C,100000000,10,,\n", &err), -1);
    want(&err, "field 'gpus': '100000000' is more than 1048576 GPUs");
    ck_assert_int_eq(TRACE("i.csv", "0,0,A3C,1.5,10,,\n", &err), -1);
    want(&err, "field 'gpus': '1.5' is not a decimal integer");
}
END_TEST

START_TEST(trace_duplicate_ids_name_lines)
{
    mls_err_t err;
    ck_assert_int_eq(TRACE("dup.csv", "0,0,A3C,1,10,,\n3,1,A3C,1,10,,\n0,2,A3C,1,10,,\n", &err),
                     -1);
    want(&err, "dup.csv:4: job 0: field 'id': job id 0 appears twice (first at line 2)");
}
END_TEST

/* fuzz_import's finding: a file whose rows were all skipped left no jobs, and
 * the sort passed qsort a NULL array (undefined behaviour; the CI's UBSan
 * build of this suite fails on it). */
START_TEST(import_sort_empty)
{
    mls_trace_t t;
    trace_init(&t);
    import_sort_renumber(&t);
    ck_assert_uint_eq(t.n, 0);
    trace_free(&t);
}
END_TEST

/* ---- faults ------------------------------------------------------------------ */

static int read_faults(const char *name, const char *text, size_t n, mls_err_t *err)
{
    mls_cluster_t c;
    ck_assert_int_eq(cluster_from_spec(&c, "v100=2x4", err), 0);
    fault_plan_t f;
    faults_init(&f);
    int rc = faults_read_csv(&f, put(name, text, n), &c, err);
    faults_free(&f);
    cluster_free(&c);
    return rc;
}
#define FAULTS(name, lit, err) read_faults(name, lit, sizeof lit - 1, err)

START_TEST(faults_rows)
{
    mls_err_t err;
    ck_assert_int_eq(FAULTS("a.csv", "time,node,event,factor\n100,0,fail,0.5\n", &err), -1);
    want(&err, "a.csv:2: field 'factor': '0.5' given, but only a slow event takes a factor");
    ck_assert_int_eq(FAULTS("b.csv", "time,node,event\n100,v100-1,recover\n", &err), -1);
    want(&err, "b.csv:2: field 'event': node v100-1 recovers, but the schedule has not failed it");
    ck_assert_int_eq(FAULTS("c.csv", "time,node,event\n100,0,fail\n200,0,fail\n", &err), -1);
    want(&err, "c.csv:3: field 'event': node v100-0 fails again");
    ck_assert_int_eq(FAULTS("d.csv", "time,node,event\n1e30,0,fail\n", &err), -1);
    want(&err, "d.csv:2: field 'time': '1e30' is not a time in [0, 1e+12] s");
    ck_assert_int_eq(FAULTS("e.csv", "time,node,event\n100,0,fail\0,x\n", &err), -1);
    want(&err, "e.csv:2: a NUL byte");
    /* a full story, an empty factor column, slow twice */
    ck_assert_int_eq(FAULTS("ok.csv",
                            "time,node,event,factor\n100,0,fail,\n200,0,recover\n300,0,fail\n"
                            "400,0,recover\n500,1,slow,0.5\n600,1,slow,0.25\n700,1,unslow\n",
                            &err),
                     0);
}
END_TEST

/* ---- live requests ----------------------------------------------------------- */

static const char *live_error(const char *s, size_t n)
{
    static mls_err_t err;
    live_request_t r;
    ck_assert_int_eq(live_parse_request(s, n, &r, &err), -1);
    return err.msg;
}
#define LIVE_ERR(lit) live_error(lit, sizeof lit - 1)

static void live_want(const char *got, const char *part)
{
    if (!strstr(got, part))
        ck_abort_msg("error '%s' lacks '%s'", got, part);
}

START_TEST(live_nul)
{
    /* "/bin/sleep\u0000x" ran /bin/sleep; "ann\u0000bob" was stored as ann */
    live_want(LIVE_ERR("{\"op\":\"submit\",\"argv\":[\"/bin/sleep\\u0000x\",\"1\"],"
                       "\"workload\":\"A3C\",\"gpus\":1,\"work\":1}"),
              "request: a \\u0000 (NUL) in a string");
    live_want(
        LIVE_ERR("{\"op\":\"submit\",\"argv\":[\"/bin/sleep\",\"1\"],\"user\":\"ann\\u0000bob\","
                 "\"workload\":\"A3C\",\"gpus\":1,\"work\":1}"),
        "NUL");
    live_want(LIVE_ERR("{\"op\":\"status\"}\0{\"op\":\"drain\"}"), "request: a NUL byte");
}
END_TEST

START_TEST(live_duplicates_and_trailing)
{
    live_want(LIVE_ERR("{\"op\":\"submit\",\"argv\":[\"a\"],\"workload\":\"A3C\",\"gpus\":1,"
                       "\"gpus\":64,\"work\":1}"),
              "key 'gpus' appears twice");
    live_want(LIVE_ERR("{\"op\":\"status\",\"op\":\"drain\"}"), "key 'op' appears twice");
    live_want(LIVE_ERR("{\"op\":\"status\"} {\"op\":\"drain\"}"), "data after the JSON document");
    live_want(LIVE_ERR("{\"op\":\"status\""), "request: malformed JSON");
    /* a trailing newline is not data */
    live_request_t r;
    mls_err_t err;
    const char *ok = "{\"op\":\"status\"}\r\n";
    ck_assert_int_eq(live_parse_request(ok, strlen(ok), &r, &err), 0);
    live_request_free(&r);
}
END_TEST

START_TEST(live_utf8_and_bounds)
{
    live_want(LIVE_ERR("{\"op\":\"submit\",\"argv\":[\"a\",\"\xff\"],\"workload\":\"A3C\","
                       "\"gpus\":1,\"work\":1}"),
              "field 'argv': element 1 is not valid UTF-8");
    live_want(LIVE_ERR("{\"op\":\"submit\",\"argv\":[\"a\"],\"user\":\"\xc0\xaf\","
                       "\"workload\":\"A3C\",\"gpus\":1,\"work\":1}"),
              "field 'user': not valid UTF-8");
    live_want(LIVE_ERR("{\"op\":\"submit\",\"argv\":[\"a\"],\"workload\":\"A3\xed\xa0\x80\","
                       "\"gpus\":1,\"work\":1}"),
              "field 'workload': not valid UTF-8");
    live_want(LIVE_ERR("{\"op\":\"submit\",\"argv\":[\"a\"],\"workload\":\"A3C\",\"gpus\":1,"
                       "\"work\":1,\"submit_at\":1e30}"),
              "field 'submit_at': 1e+30 s is above the largest time accepted");
    /* valid UTF-8 passes */
    live_request_t r;
    mls_err_t err;
    const char *ok = "{\"op\":\"submit\",\"argv\":[\"\xc3\xa9\"],\"user\":\"\xc3\xa9t\xc3\xa9\","
                     "\"workload\":\"A3C\",\"gpus\":1,\"work\":1}";
    ck_assert_int_eq(live_parse_request(ok, strlen(ok), &r, &err), 0);
    ck_assert_str_eq(r.sub.user, "\xc3\xa9t\xc3\xa9");
    live_request_free(&r);
}
END_TEST

START_TEST(live_replies_are_utf8_json)
{
    /* an unknown op quoting invalid bytes, cut by %.64s inside a sequence */
    char req[200] = "{\"op\":\"x";
    for (int i = 0; i < 40; i++)
        strcat(req, "\xc3\xa9");
    strcat(req, "\xff\"}");
    const char *msg = live_error(req, strlen(req));
    ck_assert(!mls_utf8_valid(msg, strlen(msg))); /* the message itself is raw */
    char *reply = live_reply_error(msg);
    ck_assert(mls_utf8_valid(reply, strlen(reply)));
    mls_err_t err;
    cJSON *o = mls_json_parse(reply, strlen(reply), "reply", 1, &err);
    ck_assert_ptr_nonnull(o);
    const cJSON *e = cJSON_GetObjectItem(o, "error");
    ck_assert(cJSON_IsString(e));
    ck_assert_ptr_nonnull(strstr(e->valuestring, "unknown op"));
    cJSON_Delete(o);
    free(reply);
    /* a key of invalid bytes is quoted by "unknown field" */
    msg = LIVE_ERR("{\"op\":\"status\",\"\xfe\xfe\":1}");
    reply = live_reply_error(msg);
    ck_assert(mls_utf8_valid(reply, strlen(reply)));
    ck_assert_ptr_nonnull(strstr(reply, "\\\\xFE\\\\xFE"));
    free(reply);
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {
        numbers_are_decimal,
        long_decimals_as_strtod,
        utf8_checks,
        json_one_document,
        json_duplicate_keys,
        json_files,
        perf_inputs,
        cluster_spec_commas,
        trace_nul_byte,
        trace_numbers_and_bounds,
        trace_duplicate_ids_name_lines,
        import_sort_empty,
        faults_rows,
        live_nul,
        live_duplicates_and_trailing,
        live_utf8_and_bounds,
        live_replies_are_utf8_json,
    };
    const check_opts_t opts = {.setup = setup, .teardown = teardown};
    return check_main_opts("harden", tests, sizeof tests / sizeof tests[0], &opts);
}
