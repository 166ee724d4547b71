/* opts.c: the option tables of the subcommands (see opts.h) — one parser
 * built on getopt_long (so every command keeps getopt's rules: options and
 * arguments in any order, `--opt=value` and `--opt value`, `-xVALUE`,
 * unambiguous prefixes of long names, `--` ends the options), one help
 * generator and one form of usage error.
 *
 * The table is flattened first (OPT_INCLUDE rows spliced in, their offsets
 * added), then turned into getopt's short-option string and long-option
 * array; getopt's own messages are off and every error is said here. */
#include "cli/opts.h"

#include "cli/cmd.h"
#include "model/util.h"
#include "policies/policy.h"
#include "sim/mechanism.h"

#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS 128
#define HELP_COL 28

/* A row of the flattened table and where its value goes. */
typedef struct flat {
    const opt_t *row;
    size_t off;
} flat_t;

typedef struct table {
    flat_t rows[MAX_ROWS];
    size_t n;
} table_t;

static const opt_t help_row = {
    .kind = OPT_FLAG, .name = "help", .letter = 'h', .help = "this text"};

static void flatten(table_t *t, const opt_t *opts, size_t base)
{
    for (const opt_t *o = opts; o && o->kind != OPT_END && t->n < MAX_ROWS; o++) {
        if (o->kind == OPT_INCLUDE)
            flatten(t, o->sub, base + o->off);
        else
            t->rows[t->n++] = (flat_t){o, base + o->off};
    }
}

static void build_table(const opt_cmd_t *cmd, table_t *t)
{
    t->n = 0;
    flatten(t, cmd->opts, 0);
    if (!(cmd->flags & OPT_NO_HELP) && t->n < MAX_ROWS)
        t->rows[t->n++] = (flat_t){&help_row, 0};
}

static int is_option(const opt_t *o)
{
    return o->kind != OPT_GROUP && o->kind != OPT_END && o->kind != OPT_INCLUDE;
}

/* ---- help ------------------------------------------------------------------ */

static void help_row_print(FILE *out, const opt_t *o)
{
    char left[128];
    int n = snprintf(left, sizeof left, "  %c%c%s%s%s%s%s", o->letter ? '-' : ' ',
                     o->letter ? o->letter : ' ', o->letter && o->name ? "," : " ",
                     o->name ? " --" : "", o->name ? o->name : "", o->arg ? " " : "",
                     o->arg ? o->arg : "");
    fputs(left, out);
    const char *h = o->help ? o->help : "";
    if (n >= HELP_COL - 1)
        fputs("  ", out);
    else
        fprintf(out, "%*s", HELP_COL - n, "");
    for (;;) {
        size_t len = strcspn(h, "\n");
        fprintf(out, "%.*s\n", (int)len, h);
        if (!h[len])
            break;
        h += len + 1;
        fprintf(out, "%*s", HELP_COL, "");
    }
}

void opt_help(const opt_cmd_t *cmd, FILE *out)
{
    table_t t;
    build_table(cmd, &t);
    fprintf(out, "usage: mlsched %s %s\n", cmd->who, cmd->usage ? cmd->usage : "[options]");
    if (cmd->about)
        fprintf(out, "\n%s\n", cmd->about);
    fputc('\n', out);
    for (size_t i = 0; i < t.n; i++) {
        const opt_t *o = t.rows[i].row;
        if (o->kind == OPT_GROUP)
            fprintf(out, "  %s\n", o->help);
        else
            help_row_print(out, o);
    }
    if (cmd->footer)
        fprintf(out, "\n%s\n", cmd->footer);
    if (cmd->more_help)
        cmd->more_help(out);
}

/* ---- values ---------------------------------------------------------------- */

/* "--round", or "-r" for a row with no long name. */
static void opt_name(const opt_t *o, char *buf, size_t n)
{
    if (o->name)
        snprintf(buf, n, "--%s", o->name);
    else
        snprintf(buf, n, "-%c", o->letter);
}

/* "--NAME wants an integer >= 0, got 'ARG'" for a row without `bad`. */
static int bad_value(const char *who, const opt_t *o, const char *arg)
{
    if (o->bad)
        return cmd_usage_error(who, o->bad, arg);
    char msg[256], name[64];
    opt_name(o, name, sizeof name);
    int n = snprintf(msg, sizeof msg, "%s wants %s", name,
                     o->kind == OPT_DOUBLE ? "a number"
                     : o->kind == OPT_CALL ? "a valid value"
                                           : "an integer");
    if (o->kind != OPT_CALL && o->lo > -1e300)
        n += snprintf(msg + n, sizeof msg - n, " %s %g",
                      o->flags & OPT_ABOVE_LO ? ">" : ">=", o->lo);
    if (o->kind != OPT_CALL && o->hi < 1e9)
        snprintf(msg + n, sizeof msg - n, " and <= %g", o->hi);
    strncat(msg, ", got '%s'", sizeof msg - strlen(msg) - 1);
    return cmd_usage_error(who, msg, arg);
}

static int in_range(const opt_t *o, double v)
{
    if (isnan(v) || (!isfinite(v) && !(o->flags & OPT_INF_OK)) || v > o->hi)
        return 0;
    return (o->flags & OPT_ABOVE_LO) ? v > o->lo : v >= o->lo;
}

static int store_number(const opt_t *o, char *at, const char *arg)
{
    long l;
    double d;
    switch (o->kind) {
    case OPT_INT:
    case OPT_LONG:
        if (mls_parse_long(arg, &l) < 0 || !in_range(o, (double)l))
            return -1;
        if (o->kind == OPT_INT)
            *(int *)at = (int)l;
        else
            *(long *)at = l;
        return 0;
    case OPT_WHOLE:
        if (mls_parse_double(arg, &d) < 0 || d != floor(d) || !in_range(o, d))
            return -1;
        *(int *)at = (int)d;
        return 0;
    default:
        if (mls_parse_double(arg, &d) < 0 || !in_range(o, d))
            return -1;
        *(double *)at = d;
        return 0;
    }
}

static int store_list(const opt_t *o, opt_list_t *l, const char *arg, const char *who)
{
    size_t max = o->hi > 0 && o->hi < OPT_LIST_MAX ? (size_t)o->hi : OPT_LIST_MAX;
    char name[64];
    opt_name(o, name, sizeof name);
    if (l->n >= max)
        return cmd_usage_error(who, "too many %s", name);
    l->v[l->n++] = arg;
    return 0;
}

/* Stores one option's value: 0, or MLS_EXIT_USAGE after saying why. */
static int store(const flat_t *f, void *base, const char *arg, const char *who)
{
    const opt_t *o = f->row;
    char *at = (char *)base + f->off;
    int rc;
    switch (o->kind) {
    case OPT_FLAG:
        *(int *)at = 1;
        return 0;
    case OPT_STRING:
        *(const char **)at = arg;
        return 0;
    case OPT_LIST:
        return store_list(o, (opt_list_t *)at, arg, who);
    case OPT_CALL:
        rc = o->call(base, f->off, arg, who);
        return rc < 0 ? bad_value(who, o, arg) : rc;
    default:
        return store_number(o, at, arg) < 0 ? bad_value(who, o, arg) : 0;
    }
}

/* ---- parsing --------------------------------------------------------------- */

typedef struct getopt_spec {
    char shorts[3 * MAX_ROWS + 4];
    struct option longs[MAX_ROWS + 1];
} getopt_spec_t;

/* getopt's code of row i: its letter, else 256 + i. */
static int code_of(const table_t *t, size_t i)
{
    return t->rows[i].row->letter ? t->rows[i].row->letter : 256 + (int)i;
}

static void build_spec(const opt_cmd_t *cmd, const table_t *t, getopt_spec_t *s)
{
    size_t ns = 0, nl = 0;
    if (cmd->flags & OPT_STOP_AT_ARG)
        s->shorts[ns++] = '+';
    s->shorts[ns++] = ':';
    for (size_t i = 0; i < t->n; i++) {
        const opt_t *o = t->rows[i].row;
        if (!is_option(o))
            continue;
        if (o->letter) {
            s->shorts[ns++] = (char)o->letter;
            if (o->kind != OPT_FLAG)
                s->shorts[ns++] = ':';
        }
        if (o->name)
            s->longs[nl++] =
                (struct option){o->name, o->kind == OPT_FLAG ? no_argument : required_argument,
                                NULL, code_of(t, i)};
    }
    s->shorts[ns] = '\0';
    s->longs[nl] = (struct option){0, 0, 0, 0};
}

static const flat_t *find_code(const table_t *t, int c)
{
    for (size_t i = 0; i < t->n; i++)
        if (is_option(t->rows[i].row) && code_of(t, i) == c)
            return &t->rows[i];
    return NULL;
}

static const flat_t *find_code(const table_t *t, int c);

/* Whether more than one long name starts with `prefix` (up to a '='). */
static int ambiguous(const table_t *t, const char *prefix)
{
    size_t len = strcspn(prefix, "="), n = 0;
    for (size_t i = 0; i < t->n && len; i++)
        n += t->rows[i].row->name && !strncmp(t->rows[i].row->name, prefix, len);
    return n > 1;
}

/* The option argv[optind - 1] that getopt could not take. */
static int getopt_error(const table_t *t, const char *who, int c, int argc, char **argv)
{
    const char *typed = optind - 1 < argc && optind >= 1 ? argv[optind - 1] : "?";
    char flag[3] = {'-', (char)optopt, '\0'};
    int is_long = !strncmp(typed, "--", 2);
    if (c == '?' && is_long && optopt && find_code(t, optopt)) /* --flag=VALUE */
        return cmd_usage_error(who, "%s takes no argument", typed);
    /* a short option inside a group (-qx) is reported by its letter */
    if (optopt > 0 && optopt < 256 && !is_long)
        typed = flag;
    if (c == ':')
        return cmd_usage_error(who, "%s wants an argument", typed);
    if (is_long && ambiguous(t, typed + 2))
        return cmd_usage_error(who, "ambiguous option '%s' (more than one option starts so)",
                               typed);
    return cmd_usage_error(who, "unknown option '%s'", typed);
}

int opt_parse(const opt_cmd_t *cmd, void *base, int argc, char **argv, int *first_arg)
{
    table_t t;
    getopt_spec_t spec;
    build_table(cmd, &t);
    build_spec(cmd, &t, &spec);
    optind = 0; /* GNU: start afresh (another table may have run before) */
    opterr = 0;
    int c, rc;
    while ((c = getopt_long(argc, argv, spec.shorts, spec.longs, NULL)) != -1) {
        const flat_t *f = c == '?' || c == ':' ? NULL : find_code(&t, c);
        if (!f)
            return getopt_error(&t, cmd->who, c, argc, argv);
        if (f->row == &help_row) {
            opt_help(cmd, stdout);
            return -1;
        }
        if ((rc = store(f, base, optarg, cmd->who)) != 0)
            return rc;
        if (f->row->flags & OPT_MARKS)
            *(int *)((char *)base + cmd->mark_off) = 1;
    }
    *first_arg = optind;
    return 0;
}

int opt_parse_only(const opt_cmd_t *cmd, void *base, int argc, char **argv)
{
    int first, rc = opt_parse(cmd, base, argc, argv, &first);
    if (rc == 0 && first < argc)
        return cmd_usage_error(cmd->who, "unexpected argument '%s'", argv[first]);
    return rc;
}

/* ---- shared rows ----------------------------------------------------------- */

int opt_param_call(void *base, size_t off, const char *arg, const char *who)
{
    opt_params_t *p = (opt_params_t *)((char *)base + off);
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return -1;
    if (p->n >= OPT_LIST_MAX)
        return cmd_usage_error(who, "%s", "too many --param");
    char *buf = xstrdup(arg);
    buf[eq - arg] = '\0';
    p->bufs[p->n] = buf;
    p->keys[p->n] = buf;
    p->values[p->n] = buf + (eq - arg) + 1;
    p->n++;
    return 0;
}

void opt_params_free(opt_params_t *p)
{
    for (int i = 0; i < p->n; i++)
        free(p->bufs[i]);
    p->n = 0;
}

unsigned opt_cadence_parse(const char *s)
{
    if (!strcmp(s, "events"))
        return MLS_CADENCE_EVENTS;
    if (!strcmp(s, "rounds"))
        return MLS_CADENCE_ROUNDS;
    if (!strcmp(s, "both"))
        return MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS;
    return 0;
}

const char *opt_cadence_name(unsigned c)
{
    c &= MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS; /* not the hint */
    return c == MLS_CADENCE_EVENTS ? "events" : c == MLS_CADENCE_ROUNDS ? "rounds" : "both";
}

int opt_placement_call(void *base, size_t off, const char *arg, const char *who)
{
    (void)who;
    int p = mech_placement_parse(arg);
    if (p < 0)
        return -1;
    *(int *)((char *)base + off) = p;
    return 0;
}

int opt_spread_rate_call(void *base, size_t off, const char *arg, const char *who)
{
    (void)who;
    if (strcmp(arg, "placed") && strcmp(arg, "consolidated"))
        return -1;
    *(int *)((char *)base + off) = !strcmp(arg, "consolidated");
    return 0;
}

int opt_cadence_call(void *base, size_t off, const char *arg, const char *who)
{
    (void)who;
    unsigned c = opt_cadence_parse(arg);
    if (!c)
        return -1;
    *(unsigned *)((char *)base + off) = c;
    return 0;
}
