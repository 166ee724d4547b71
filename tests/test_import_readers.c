/* test_import_b.c: the pai2020, openb2023, tiresias and pollux/sia readers at
 * the record level, on the fixtures in tests/fixtures/import_readers (headerless
 * tables, CRLF, no trailing newline, percent and fractional GPUs, NaN and
 * empty times, an unknown GPU type, join misses) and on malformed rows written
 * here, each checked for its FILE:LINE: field message and for --skip-bad. */
#include "tests/check_main.h"
#include "traces/import.h"
#include "traces/import_readers.h"
#include "traces/pollux_apps.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FIX MLS_SRCDIR "/tests/fixtures/import_readers"

static void close_to(double got, double want)
{
    ck_assert_msg(fabs(got - want) <= 1e-9 * fmax(1, fabs(want)), "got %.17g, want %.17g", got,
                  want);
}

static const char *name_of(const strtab_t *t, int i)
{
    return i < 0 ? "" : t->names[i];
}

/* a scratch directory with files written from strings */
typedef struct scratch {
    char dir[64];
    char paths[8][128];
    int n;
} scratch_t;

static void scratch_open(scratch_t *s)
{
    strcpy(s->dir, "/tmp/mls-import-b-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(s->dir));
    s->n = 0;
}

static const char *scratch_file(scratch_t *s, const char *name, const char *text)
{
    char path[sizeof s->paths[0]];
    snprintf(path, sizeof path, "%s/%s", s->dir, name); /* not into s: gcc's -Wrestrict */
    char *p = s->paths[s->n++];
    memcpy(p, path, sizeof path);
    FILE *fp = fopen(p, "w");
    ck_assert_ptr_nonnull(fp);
    fputs(text, fp);
    fclose(fp);
    return p;
}

static void scratch_close(scratch_t *s)
{
    for (int i = 0; i < s->n; i++)
        unlink(s->paths[i]);
    rmdir(s->dir);
}

typedef int (*reader_fn)(import_records_t *, const char *, unsigned, long *, mls_err_t *);

/* Reading `path` fails with a message containing `want`; with --skip-bad it
 * succeeds, skipping `skips` rows and keeping `kept` records. */
static void expect_bad(reader_fn read, const char *path, const char *want, long skips, size_t kept)
{
    import_records_t rs;
    records_init(&rs);
    mls_err_t err = {{0}};
    long skipped = 0;
    ck_assert_int_eq(read(&rs, path, 0, &skipped, &err), -1);
    ck_assert_msg(strstr(err.msg, want), "message '%s' lacks '%s'", err.msg, want);
    records_free(&rs);
    records_init(&rs);
    skipped = 0;
    ck_assert_msg(read(&rs, path, IMPORT_SKIP_BAD, &skipped, &err) == 0, "skip-bad: %s", err.msg);
    ck_assert_int_eq(skipped, skips);
    ck_assert_uint_eq(rs.n, kept);
    records_free(&rs);
}

/* ---- pai2020 ------------------------------------------------------------------------ */

START_TEST(pai_join)
{
    import_records_t rs;
    records_init(&rs);
    mls_err_t err = {{0}};
    long skipped = 0;
    ck_assert_msg(pai_read_records(&rs, FIX "/pai", 0, &skipped, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(skipped, 0);
    ck_assert_uint_eq(rs.n, 5);
    /* half a GPU x 2 workers + a CPU-only ps; first instance start 150 */
    const import_record_t *r = &rs.r[0];
    close_to(r->submit, 100);
    close_to(r->gpus, 1.0);
    close_to(r->cpus, 6 * 2 + 4);
    close_to(r->mem_gb, 29.296875 * 2 + 10);
    ck_assert_str_eq(name_of(&rs.gpu_types, r->gpu_type), "MISC");
    ck_assert_str_eq(name_of(&rs.users, r->user), "58540f191766");
    close_to(r->start, 150);
    close_to(r->duration, 950);
    ck_assert_int_eq(r->status, REC_PASS);
    ck_assert_int_eq(r->line, 1);
    ck_assert_int_eq(r->nodes, 1); /* two machines, but 1 GPU: at most one holds it */
    /* 800 % = 8 GPUs; no instances: the task start */
    r = &rs.r[1];
    close_to(r->gpus, 8);
    ck_assert_str_eq(name_of(&rs.gpu_types, r->gpu_type), "V100M32");
    close_to(r->start, 210);
    close_to(r->duration, 290);
    ck_assert_int_eq(r->status, REC_FAILED);
    ck_assert_int_eq(r->nodes, 0); /* unknown */
    /* running: end empty, instance start NaN */
    r = &rs.r[2];
    close_to(r->gpus, 4);
    close_to(r->start, 320);
    ck_assert(isnan(r->duration));
    ck_assert_int_eq(r->status, REC_RUNNING);
    /* waiting, end NaN, an unknown GPU type kept as written, no start */
    r = &rs.r[3];
    close_to(r->gpus, 0.25);
    ck_assert_str_eq(name_of(&rs.gpu_types, r->gpu_type), "A100X");
    ck_assert(isnan(r->start) && isnan(r->duration));
    ck_assert_int_eq(r->status, REC_RUNNING);
    /* two GPU tasks: the type of the larger; instance start before the
     * submit is clamped to it; no user */
    r = &rs.r[4];
    close_to(r->gpus, 1 + 4);
    ck_assert_int_eq(r->nodes, 2); /* three instances on two machines */
    ck_assert_str_eq(name_of(&rs.gpu_types, r->gpu_type), "V100");
    close_to(r->start, 500);
    close_to(r->duration, 100);
    ck_assert_int_eq(r->user, -1);
    /* machine spec */
    ck_assert_uint_eq(rs.n_machines, 4);
    ck_assert_int_eq(rs.machines[0].gpu_type, -1);
    ck_assert_int_eq(rs.machines[0].gpus, 0);
    ck_assert_str_eq(name_of(&rs.gpu_types, rs.machines[2].gpu_type), "t4");
    close_to(rs.machines[3].gpu_mem_gb, 32); /* V100M32 */
    ck_assert_str_eq(name_of(&rs.gpu_types, rs.machines[3].gpu_type), "v100");
    ck_assert_str_eq(name_of(&rs.gpu_types, rs.machines[1].gpu_type), "k80"); /* MISC */
    ck_assert_int_eq(rs.machines[2].gpus, 2);
    close_to(rs.machines[2].cpus, 64);
    close_to(rs.machines[2].mem_gb, 256);
    records_free(&rs);
}
END_TEST

START_TEST(pai_job_table_file)
{
    /* the job table named directly: siblings by name, no machines; the spec
     * alone: machines, no jobs */
    import_records_t rs;
    records_init(&rs);
    mls_err_t err = {{0}};
    long skipped = 0;
    ck_assert_msg(pai_read_records(&rs, FIX "/pai/pai_job_table.csv", 0, &skipped, &err) == 0, "%s",
                  err.msg);
    ck_assert_uint_eq(rs.n, 5);
    ck_assert_uint_eq(rs.n_machines, 0);
    ck_assert_int_eq(pai_read_records(&rs, FIX "/pai/pai_machine_spec.csv", 0, &skipped, &err), 0);
    ck_assert_uint_eq(rs.n, 5);
    ck_assert_uint_eq(rs.n_machines, 4);
    records_free(&rs);
    records_init(&rs);
    ck_assert_int_eq(pai_read_records(&rs, FIX "/pai/pai_task_table.csv", 0, &skipped, &err), -1);
    ck_assert(strstr(err.msg, "cannot name the task table"));
    records_free(&rs);
}
END_TEST

#define JOB1 "j1,i1,u1,Terminated,10.0,20.0\n"
#define JOB2 "j2,i2,u2,Terminated,11.0,30.0\n"
#define TASK1 "j1,worker,1.0,Terminated,12.0,20.0,100.0,2.0,100.0,T4\n"
#define TASK2 "j2,worker,1.0,Terminated,12.0,30.0,100.0,2.0,200.0,V100\n"

/* Job table `jobs`, task table `tasks`, instance table `insts` (NULL: none). */
static void pai_bad(const char *jobs, const char *tasks, const char *insts, const char *want,
                    long skips, size_t kept)
{
    scratch_t s;
    scratch_open(&s);
    const char *job = scratch_file(&s, "pai_job_table.csv", jobs);
    scratch_file(&s, "pai_task_table.csv", tasks);
    if (insts)
        scratch_file(&s, "pai_instance_table.csv", insts);
    expect_bad(pai_read_records, job, want, skips, kept);
    scratch_close(&s);
}

START_TEST(pai_malformed)
{
    pai_bad("j1,i1,u1,Terminated,10.0\n" JOB2, TASK1 TASK2, NULL,
            "pai_job_table.csv:1: 5 fields; pai_job_table has 6", 2, 1);
    pai_bad(JOB1 "j2,i2,u2,Done,11.0,30.0\n", TASK1 TASK2, NULL,
            "pai_job_table.csv:2: field 'status': 'Done'", 2, 1);
    pai_bad(JOB1 "j2,i2,u2,Failed,abc,30.0\n", TASK1 TASK2, NULL,
            "pai_job_table.csv:2: field 'start_time': 'abc' is not a number", 2, 1);
    pai_bad(JOB1 "j2,i2,u2,Failed,11.0,5.0\n", TASK1 TASK2, NULL,
            "pai_job_table.csv:2: field 'end_time': 5 is before start_time 11", 2, 1);
    pai_bad(JOB1 JOB2 "j1,i3,u1,Failed,12.0,13.0\n", TASK1 TASK2, NULL,
            "pai_job_table.csv:3: field 'job_name': 'j1' appears twice (first at line 1)", 1, 2);
    pai_bad(JOB1 JOB2, TASK1 "jx,worker,1.0,Terminated,,,100.0,2.0,100.0,T4\n" TASK2, NULL,
            "pai_task_table.csv:2: field 'job_name': no job 'jx' in ", 1, 2);
    pai_bad(JOB1 JOB2, TASK1 "j2,worker,1.0,Terminated,,,100.0,2.0,-50.0,T4\n", NULL,
            "pai_task_table.csv:2: field 'plan_gpu': -50 is negative", 2, 1);
    pai_bad(JOB1 JOB2, TASK1 "j2,worker,1.5,Terminated,,,100.0,2.0,50.0,T4\n", NULL,
            "pai_task_table.csv:2: field 'inst_num': 1.5 is not a whole number", 2, 1);
    pai_bad(JOB1 JOB2, TASK1 "j2,worker,1.0,Terminated,14.0,13.0,100.0,2.0,50.0,T4\n", NULL,
            "pai_task_table.csv:2: field 'end_time'", 2, 1);
    /* a job no task names: reported at its job-table line */
    pai_bad(JOB1 JOB2, TASK1, NULL,
            "pai_job_table.csv:2: field 'job_name': job 'j2' has no row in the task table", 1, 1);
    pai_bad(JOB1 JOB2, TASK1 TASK2, "jy,w,a,b,c,Terminated,12.0,13.0,m1\n",
            "pai_instance_table.csv:1: field 'job_name': no job 'jy'", 1, 2);
    pai_bad(JOB1 JOB2, TASK1 TASK2, "j1,w,a,b,c,Terminated,12.0\n",
            "pai_instance_table.csv:1: 7 fields; pai_instance_table has 9", 1, 2);
    /* the first instance starts after the job ended */
    pai_bad(JOB1 JOB2, TASK1 TASK2, "j1,w,a,b,c,Terminated,25.0,26.0,m1\n",
            "pai_job_table.csv:1: field 'end_time': 20 is before the job's first start 25", 1, 1);
}
END_TEST

START_TEST(pai_machines_malformed)
{
    scratch_t s;
    scratch_open(&s);
    const char *p = scratch_file(&s, "spec.csv",
                                 "m1,CPU,96,512,0\nm2,CPU,96,512,8\n"
                                 "m3,T4,96,x,2\nm4,T4,64,256,2\n"
                                 "m5,H100,64,256,8\n");
    import_records_t rs;
    records_init(&rs);
    mls_err_t err = {{0}};
    long skipped = 0;
    ck_assert_int_eq(pai_read_machines(&rs, p, 0, &skipped, &err), -1);
    ck_assert_str_eq(strstr(err.msg, "spec.csv:2:"),
                     "spec.csv:2: field 'cap_gpu': 8 GPUs on a 'CPU' machine");
    records_free(&rs);
    records_init(&rs);
    ck_assert_int_eq(pai_read_machines(&rs, p, IMPORT_SKIP_BAD, &skipped, &err), 0);
    ck_assert_int_eq(skipped, 3); /* and m3's cap_mem 'x', m5's unknown type */
    ck_assert_uint_eq(rs.n_machines, 2);
    records_free(&rs);
    scratch_close(&s);
}
END_TEST

/* ---- openb2023 ---------------------------------------------------------------------- */

START_TEST(openb_pods)
{
    import_records_t rs;
    records_init(&rs);
    mls_err_t err = {{0}};
    long skipped = 0;
    ck_assert_msg(
        openb_read_records(&rs, FIX "/openb/openb_pod_list_default.csv", 0, &skipped, &err) == 0,
        "%s", err.msg);
    ck_assert_uint_eq(rs.n_machines, 0);
    ck_assert_msg(
        openb_read_records(&rs, FIX "/openb/openb_node_list_all_node.csv", 0, &skipped, &err) == 0,
        "%s", err.msg);
    ck_assert_uint_eq(rs.n, 6);
    const import_record_t *r = rs.r;
    close_to(r[0].gpus, 1);
    close_to(r[0].cpus, 12);
    close_to(r[0].mem_gb, 16);
    close_to(r[0].duration, 12537496);
    ck_assert_int_eq(r[0].status, REC_RUNNING);
    ck_assert_str_eq(name_of(&rs.vcs, r[0].vc), "LS");
    ck_assert_int_eq(r[0].gpu_type, -1);
    close_to(r[1].gpus, 0.46); /* a shared GPU */
    close_to(r[1].submit, 427061);
    close_to(r[2].gpus, 0); /* CPU-only */
    close_to(r[2].start, 2759676);
    close_to(r[2].duration, 12902960 - 2759676);
    close_to(r[3].gpus, 8);
    ck_assert_int_eq(r[3].status, REC_PASS);
    /* pending: never scheduled, deleted */
    ck_assert(isnan(r[4].start) && isnan(r[4].duration));
    ck_assert_int_eq(r[4].status, REC_KILLED);
    ck_assert_str_eq(name_of(&rs.gpu_types, r[4].gpu_type), "V100M16|V100M32");
    close_to(r[5].gpus, 0.59);
    ck_assert_int_eq(r[5].status, REC_FAILED);
    ck_assert_int_eq(r[5].line, 7); /* CRLF, no trailing newline */
    /* the node list: machines only */
    ck_assert_uint_eq(rs.n_machines, 4);
    ck_assert_int_eq(rs.machines[0].gpu_type, -1);
    ck_assert_str_eq(name_of(&rs.gpu_types, rs.machines[1].gpu_type), "v100");
    close_to(rs.machines[1].gpu_mem_gb, 16);
    ck_assert_int_eq(rs.machines[3].gpu_type, -1); /* G2: undisclosed */
    ck_assert_int_eq(rs.machines[3].gpus, 8);
    ck_assert_int_eq(rs.machines[1].gpus, 8);
    close_to(rs.machines[1].cpus, 96);
    close_to(rs.machines[1].mem_gb, 768);
    records_free(&rs);
}
END_TEST

START_TEST(openb_no_times)
{
    import_records_t rs;
    records_init(&rs);
    mls_err_t err = {{0}};
    long skipped = 0;
    ck_assert_msg(
        openb_read_records(&rs, FIX "/openb/openb_pod_list_multigpu20.csv", 0, &skipped, &err) == 0,
        "%s", err.msg);
    ck_assert_uint_eq(rs.n, 3);
    close_to(rs.r[2].submit, 2); /* file order is the clock */
    close_to(rs.r[2].gpus, 4);
    ck_assert(isnan(rs.r[2].duration));
    ck_assert_int_eq(rs.r[2].status, REC_UNKNOWN);
    records_free(&rs);
}
END_TEST

#define POD_HDR                                                                                    \
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_"   \
    "time,scheduled_time\n"
#define POD_OK "p0,1000,1024,1,500,,LS,Running,0,10,0\n"

static void openb_bad(const char *text, const char *want, long skips, size_t kept)
{
    scratch_t s;
    scratch_open(&s);
    expect_bad(openb_read_records, scratch_file(&s, "pods.csv", text), want, skips, kept);
    scratch_close(&s);
}

START_TEST(openb_malformed)
{
    openb_bad(POD_HDR POD_OK "p1,1000,1024,1,1200,,LS,Running,0,10,0\n",
              "pods.csv:3: field 'gpu_milli': 1200 with num_gpu 1", 1, 1);
    openb_bad(POD_HDR POD_OK "p1,1000,1024,2,500,,LS,Running,0,10,0\n",
              "pods.csv:3: field 'gpu_milli': 500 with num_gpu 2", 1, 1);
    openb_bad(POD_HDR POD_OK "p1,1000,1024,0,300,,LS,Running,0,10,0\n",
              "pods.csv:3: field 'gpu_milli': 300 with num_gpu 0", 1, 1);
    openb_bad(POD_HDR POD_OK "p1,1000,1024,1,500,,LS,Running,20,10,20\n",
              "pods.csv:3: field 'deletion_time': 10 is before creation_time 20", 1, 1);
    openb_bad(POD_HDR POD_OK "p1,1000,1024,1,500,,LS,Running,0,10,x\n",
              "pods.csv:3: field 'scheduled_time': 'x' is not a number", 1, 1);
    openb_bad(POD_HDR POD_OK "p1,1000,1024,1,500,,LS,Running,5,10,2\n",
              "pods.csv:3: field 'scheduled_time': 2 is outside creation..deletion", 1, 1);
    openb_bad(POD_HDR POD_OK "p1,1000,1024,1,500,,LS,Lost,0,10,0\n",
              "pods.csv:3: field 'pod_phase': 'Lost'", 1, 1);
    openb_bad(POD_HDR POD_OK "p1,1000,1024,1,500,,LS,Running,0,10\n",
              "pods.csv:3: 10 fields; the header names 11", 1, 1);
    openb_bad(POD_HDR POD_OK ",1000,1024,1,500,,LS,Running,0,10,0\n",
              "pods.csv:3: field 'name': empty", 1, 1);
    openb_bad(POD_HDR POD_OK "p1,-1000,1024,1,500,,LS,Running,0,10,0\n",
              "pods.csv:3: field 'cpu_milli': -1000 is negative", 1, 1);
    /* a bad header is never skipped */
    scratch_t s;
    scratch_open(&s);
    const char *p = scratch_file(&s, "h.csv", "name,cpu_milli,memory_mib,num_gpu\np,1,1,0\n");
    import_records_t rs;
    records_init(&rs);
    mls_err_t err = {{0}};
    long skipped = 0;
    ck_assert_int_eq(openb_read_records(&rs, p, IMPORT_SKIP_BAD, &skipped, &err), -1);
    ck_assert(strstr(err.msg, "h.csv:1: header: no column 'gpu_milli'"));
    p = scratch_file(&s, "t.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli,creation_time\n");
    ck_assert_int_eq(openb_read_records(&rs, p, 0, &skipped, &err), -1);
    ck_assert(strstr(err.msg, "come together"));
    p = scratch_file(&s, "nodes.csv", "sn,cpu_milli,memory_mib,gpu,model\nn0,1000,1024,2,\n");
    ck_assert_int_eq(openb_read_records(&rs, p, 0, &skipped, &err), -1);
    ck_assert(strstr(err.msg, "nodes.csv:2: field 'model': '' with 2 GPUs"));
    records_free(&rs);
    scratch_close(&s);
}
END_TEST

/* ---- tiresias ----------------------------------------------------------------------- */

START_TEST(tiresias_jobs)
{
    import_records_t rs;
    records_init(&rs);
    mls_err_t err = {{0}};
    long skipped = 0;
    ck_assert_msg(tiresias_read_records(&rs, FIX "/tiresias-60.csv", 0, &skipped, &err) == 0, "%s",
                  err.msg);
    ck_assert_msg(tiresias_read_records(&rs, FIX "/tiresias-tf.csv", 0, &skipped, &err) == 0, "%s",
                  err.msg);
    ck_assert_uint_eq(rs.n, 5);
    ck_assert_str_eq(name_of(&rs.workloads, rs.r[0].workload), "vgg19");
    ck_assert_str_eq(name_of(&rs.workloads, rs.r[1].workload), "ResNet-50 (batch size 64)");
    close_to(rs.r[1].gpus, 8);
    close_to(rs.r[1].submit, 30);
    close_to(rs.r[1].duration, 147);
    ck_assert(isnan(rs.r[1].iterations)); /* work comes from the duration */
    close_to(rs.r[2].duration, 122.5);    /* last line: CRLF file without a final newline */
    ck_assert_int_eq(rs.r[2].line, 4);
    ck_assert_int_eq(rs.r[0].status, REC_PASS);
    close_to(rs.r[3].start, 14); /* tf_job.csv has start_time */
    ck_assert(isnan(rs.r[4].start));
    records_free(&rs);
}
END_TEST

#define TIR_HDR "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n"

static void tiresias_bad(const char *text, const char *want, long skips, size_t kept)
{
    scratch_t s;
    scratch_open(&s);
    expect_bad(tiresias_read_records, scratch_file(&s, "jobs.csv", text), want, skips, kept);
    scratch_close(&s);
}

START_TEST(tiresias_malformed)
{
    tiresias_bad(TIR_HDR "0,1,0,606,vgg19,164,30\n1,0,30,133,vgg11,147,23\n",
                 "jobs.csv:3: field 'num_gpu': 0, must be > 0", 1, 1);
    tiresias_bad(TIR_HDR "0,1,0,606,vgg19,164,30\n1,1,30,133,vgg11,-1,23\n",
                 "jobs.csv:3: field 'duration': -1, must be > 0", 1, 1);
    tiresias_bad(TIR_HDR "0,1,0,606,vgg19,164,30\n1,1,30,133,,147,23\n",
                 "jobs.csv:3: field 'model_name': empty", 1, 1);
    tiresias_bad(TIR_HDR "0,1,0,606,vgg19,164,30\n1,1,-3,133,vgg11,147,23\n",
                 "jobs.csv:3: field 'submit_time': -3 is negative", 1, 1);
    tiresias_bad(TIR_HDR "0,1,0,606,vgg19,164,30\n1,1.5,3,133,vgg11,147,23\n",
                 "jobs.csv:3: field 'num_gpu': 1.5 is not a whole number", 1, 1);
    tiresias_bad(TIR_HDR "0,1,0,606,vgg19,164,30\n1,1,3,-5,vgg11,147,23\n",
                 "jobs.csv:3: field 'iterations': -5, must be > 0", 1, 1);
    tiresias_bad("job_id,num_gpu,submit_time,start_time,duration,model_name\n"
                 "0,1,10,5,20,vgg19\n1,1,10,12,20,vgg19\n",
                 "jobs.csv:2: field 'start_time': 5 is before submit_time 10", 1, 1);
}
END_TEST

/* ---- pollux / sia ------------------------------------------------------------------- */

START_TEST(pollux_workload)
{
    mls_trace_t t;
    trace_init(&t);
    mls_err_t err = {{0}};
    long skipped = 0;
    ck_assert_msg(import_pollux(&t, FIX "/pollux-workload.csv", 0, &skipped, &err) == 0, "%s",
                  err.msg);
    ck_assert_uint_eq(t.n, 7);
    const mls_job_t *j = &t.jobs[0];
    ck_assert_str_eq(t.workloads.names[j->workload], "cifar10");
    ck_assert_int_eq(j->gpus, 6);
    ck_assert_int_eq(j->min_gpus, 1);
    ck_assert_int_eq(j->max_gpus, 64);
    ck_assert_int_eq(j->batch_size, 342); /* ceil(2048 / 6) */
    close_to(j->work, 50048.0 * 100);
    /* ncf: Pollux never scales it, but the trace's own 4 replicas stay legal */
    ck_assert_int_eq(t.jobs[2].max_gpus, 1);
    ck_assert_int_eq(t.jobs[6].max_gpus, 4);
    close_to(t.jobs[3].submit, 90.5);
    close_to(t.jobs[4].work, pollux_app_work(pollux_app_find("imagenet")));
    trace_free(&t);
    /* the table itself: datasets as published */
    close_to(pollux_app_dataset(pollux_app_find("cifar10")), 50048);
    close_to(pollux_app_dataset(pollux_app_find("imagenet")), 1281200);
    ck_assert_ptr_null(pollux_app_find("resnet50"));
}
END_TEST

static void pollux_bad(const char *text, const char *want)
{
    scratch_t s;
    scratch_open(&s);
    const char *p = scratch_file(&s, "w.csv", text);
    mls_trace_t t;
    trace_init(&t);
    mls_err_t err = {{0}};
    long skipped = 0;
    ck_assert_int_eq(import_pollux(&t, p, 0, &skipped, &err), -1);
    ck_assert_msg(strstr(err.msg, want), "message '%s' lacks '%s'", err.msg, want);
    trace_free(&t);
    trace_init(&t);
    ck_assert_int_eq(import_pollux(&t, p, IMPORT_SKIP_BAD, &skipped, &err), 0);
    ck_assert_int_eq(skipped, 1);
    ck_assert_uint_eq(t.n, 1);
    trace_free(&t);
    scratch_close(&s);
}

#define POL_HDR "name,time,application,num_replicas,batch_size\n"

START_TEST(pollux_malformed)
{
    pollux_bad(POL_HDR "a,1,cifar10,1,128\nb,2,resnet,1,128\n",
               "w.csv:3: field 'application': 'resnet' is not one of");
    pollux_bad(POL_HDR "a,1,cifar10,1,128\nb,2,cifar10,0,128\n",
               "w.csv:3: field 'num_replicas': 0, must be > 0");
    pollux_bad(POL_HDR "a,1,cifar10,1,128\nb,-2,cifar10,1,128\n",
               "w.csv:3: field 'time': -2 is negative");
    pollux_bad(POL_HDR "a,1,cifar10,1,128\nb,2,cifar10,1,12.5\n",
               "w.csv:3: field 'batch_size': 12.5 is not a whole number");
    pollux_bad(POL_HDR "a,1,cifar10,1,128\nb,2,cifar10,1\n", "w.csv:3: 4 fields; the header has 5");
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("import_readers");
    TCase *tc = tcase_create("readers");
    tcase_add_test(tc, pai_join);
    tcase_add_test(tc, pai_job_table_file);
    tcase_add_test(tc, pai_malformed);
    tcase_add_test(tc, pai_machines_malformed);
    tcase_add_test(tc, openb_pods);
    tcase_add_test(tc, openb_no_times);
    tcase_add_test(tc, openb_malformed);
    tcase_add_test(tc, tiresias_jobs);
    tcase_add_test(tc, tiresias_malformed);
    tcase_add_test(tc, pollux_workload);
    tcase_add_test(tc, pollux_malformed);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(suite(), 0);
}
