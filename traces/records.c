/* records.c: the record list that production-trace importers fill (see
 * records.h). */
#include "traces/records.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void records_init(import_records_t *rs)
{
    memset(rs, 0, sizeof *rs);
    strtab_init(&rs->users);
    strtab_init(&rs->vcs);
    strtab_init(&rs->gpu_types);
    strtab_init(&rs->workloads);
    strtab_init(&rs->files);
    rs->cur_file = -1;
}

void records_free(import_records_t *rs)
{
    free(rs->r);
    free(rs->machines);
    strtab_free(&rs->users);
    strtab_free(&rs->vcs);
    strtab_free(&rs->gpu_types);
    strtab_free(&rs->workloads);
    strtab_free(&rs->files);
    memset(rs, 0, sizeof *rs);
}

import_record_t record_blank(void)
{
    import_record_t r = {
        .submit = NAN,
        .start = NAN,
        .duration = NAN,
        .gpus = NAN,
        .nodes = 0,
        .cpus = NAN,
        .mem_gb = NAN,
        .user = -1,
        .vc = -1,
        .gpu_type = -1,
        .workload = -1,
        .status = REC_UNKNOWN,
        .attempts = -1,
        .iterations = NAN,
        .batch_size = 0,
        .deadline = INFINITY,
        .line = 0,
        .file = -1,
    };
    return r;
}

size_t records_add(import_records_t *rs, const import_record_t *r)
{
    xgrow((void **)&rs->r, &rs->cap, rs->n + 1, sizeof *rs->r);
    rs->r[rs->n] = *r;
    if (rs->r[rs->n].file < 0)
        rs->r[rs->n].file = rs->cur_file;
    return rs->n++;
}

size_t records_add_machine(import_records_t *rs, const import_machine_t *m)
{
    xgrow((void **)&rs->machines, &rs->machines_cap, rs->n_machines + 1, sizeof *rs->machines);
    rs->machines[rs->n_machines] = *m;
    return rs->n_machines++;
}

void records_begin_file(import_records_t *rs, const char *path)
{
    rs->cur_file = strtab_intern(&rs->files, path);
}

const char *records_file(const import_records_t *rs, const import_record_t *r)
{
    return r->file >= 0 && (size_t)r->file < rs->files.n ? rs->files.names[r->file] : "-";
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar
 * (H. Hinnant's days_from_civil). */
static long days_from_civil(long y, int m, int d)
{
    y -= m <= 2;
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400;
    long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* n digits at *s as an integer; advances *s. -1 when not n digits. */
static long digits(const char **s, int n)
{
    long v = 0;
    for (int i = 0; i < n; i++, (*s)++) {
        if (**s < '0' || **s > '9')
            return -1;
        v = v * 10 + (**s - '0');
    }
    return v;
}

static int parse_zone(const char *s, double *offset)
{
    *offset = 0;
    if (!*s)
        return 0;
    if (!strcmp(s, "Z") || !strcmp(s, "UTC"))
        return 0;
    if (*s != '+' && *s != '-')
        return -1;
    int sign = *s++ == '-' ? -1 : 1;
    long hh = digits(&s, 2), mm = 0;
    if (hh < 0 || hh > 14)
        return -1;
    if (*s == ':')
        s++;
    if (*s && ((mm = digits(&s, 2)) < 0 || mm > 59))
        return -1;
    if (*s)
        return -1;
    *offset = sign * (hh * 3600.0 + mm * 60.0);
    return 0;
}

int rec_parse_time(const char *s, double *epoch)
{
    long y = digits(&s, 4);
    if (y < 0 || *s++ != '-')
        return -1;
    long mo = digits(&s, 2);
    if (mo < 1 || mo > 12 || *s++ != '-')
        return -1;
    long d = digits(&s, 2);
    if (d < 1 || d > 31)
        return -1;
    long hh = 0, mi = 0;
    double sec = 0;
    if (*s == ' ' || *s == 'T') {
        s++;
        if ((hh = digits(&s, 2)) < 0 || hh > 23 || *s++ != ':' || (mi = digits(&s, 2)) < 0 ||
            mi > 59)
            return -1;
        if (*s == ':') {
            s++;
            long ss = digits(&s, 2);
            if (ss < 0 || ss > 60)
                return -1;
            sec = (double)ss;
            if (*s == '.') {
                s++;
                double scale = 0.1;
                if (*s < '0' || *s > '9')
                    return -1;
                for (; *s >= '0' && *s <= '9'; s++, scale /= 10)
                    sec += (*s - '0') * scale;
            }
        }
    }
    double offset;
    if (parse_zone(s, &offset) < 0)
        return -1;
    *epoch = (double)days_from_civil(y, (int)mo, (int)d) * 86400.0 + hh * 3600.0 + mi * 60.0 +
             sec - offset;
    return 0;
}
