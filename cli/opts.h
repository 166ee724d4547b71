/* opts.h: a subcommand's options, declared once in a table.
 *
 * As tmux's `.args` and git's OPT_* macros: a command describes each option
 * by one opt_t row — long name, short letter, argument name, kind (flag,
 * int, long, double, string, list, or a callback), where the value goes
 * (an offset into the command's own options struct) and its help text —
 * and opt_parse() parses the whole command line with getopt_long built from
 * that table. The same table generates the command's --help (usage line,
 * what it does, the options, a footer), and every usage error reads
 *   mlsched WHO: MESSAGE (see mlsched WHO --help)
 * with exit status 2 (WHO: "simulate", or "live serve" for a verb;
 * cmd_usage_error() in cmd.h says it, for the checks a command makes after
 * parsing too).
 *
 * Options several commands take (--param, --cadence, --placement, --round,
 * --cluster, --throughputs, --seed, --db) are the OPT_SHARED_* rows below: name, short
 * letter, argument, kind and check are written once; each command gives its
 * own help text and where the value goes. A table may include another
 * (OPT_INCLUDE: compare and sweep include the experiment options), and a
 * heading row (OPT_GROUP) starts a section of the help. */
#ifndef MLS_OPTS_H
#define MLS_OPTS_H

#include <stddef.h>
#include <stdio.h>

#define OPT_LIST_MAX 64

typedef enum opt_kind {
    OPT_END = 0, /* the row that ends a table */
    OPT_FLAG,    /* int = 1 */
    OPT_INT,     /* int, an integer (strtol) in [lo, hi] */
    OPT_LONG,    /* long, an integer (strtol) in [lo, hi] */
    OPT_WHOLE,   /* int, a number (strtod) with no fraction in [lo, hi] */
    OPT_DOUBLE,  /* double, finite, in [lo, hi] (lo open with OPT_ABOVE_LO) */
    OPT_STRING,  /* const char *: the argument itself (the last one given) */
    OPT_LIST,    /* opt_list_t: every argument of a repeated option */
    OPT_CALL,    /* call(): the command's own parser */
    OPT_GROUP,   /* no option: `help` is a heading line in --help */
    OPT_INCLUDE  /* no option: the rows of `sub`, their offsets from `off` */
} opt_kind_t;

enum {
    OPT_ABOVE_LO = 1, /* a number must be > lo, not >= lo */
    OPT_INF_OK = 2,   /* OPT_DOUBLE: infinity is a value (no finite check) */
    OPT_MARKS = 4     /* giving this option sets the command's mark (opt_cmd_t.mark_off) */
};

/* The arguments of a repeatable option, in order. */
typedef struct opt_list {
    const char *v[OPT_LIST_MAX];
    size_t n;
} opt_list_t;

/* KEY=VALUE pairs (--param), split at the first '='. */
typedef struct opt_params {
    const char *keys[OPT_LIST_MAX], *values[OPT_LIST_MAX];
    char *bufs[OPT_LIST_MAX];
    int n;
} opt_params_t;

/* An OPT_CALL parser: stores arg into the command's options struct `base`
 * (at offset off). Returns 0; -1 when arg is bad (opt_parse says so with the
 * row's `bad` message); or MLS_EXIT_USAGE after printing its own usage error
 * (with cmd_usage_error(who, ...)). */
typedef int (*opt_call_fn)(void *base, size_t off, const char *arg, const char *who);

typedef struct opt {
    opt_kind_t kind;
    const char *name; /* long name, without "--"; NULL: short only */
    int letter;       /* short letter, 0: none */
    const char *arg;  /* argument's name in --help; NULL: takes none */
    size_t off;       /* where the value goes, from the options struct */
    const char *help; /* may hold '\n': continuation lines */
    double lo, hi;    /* numbers: bounds; lists: hi = most items (0: OPT_LIST_MAX) */
    unsigned flags;
    const char *bad; /* message for a bad argument, with one %s (the argument);
                        NULL: "--NAME wants ..., got 'ARG'" from the kind */
    opt_call_fn call;
    const struct opt *sub; /* OPT_INCLUDE */
} opt_t;

enum {
    OPT_STOP_AT_ARG = 1, /* options end at the first argument (`-- PROG ARGS`) */
    OPT_NO_HELP = 2      /* no -h/--help row added (the command has its own -h) */
};

/* A command: who it is, its help around the options, its table. */
typedef struct opt_cmd {
    const char *who;    /* "simulate", "live serve" */
    const char *usage;  /* after "usage: mlsched WHO "; '\n' starts another form */
    const char *about;  /* what it does (paragraphs), or NULL */
    const opt_t *opts;  /* ends with an OPT_END row */
    const char *footer; /* after the options, or NULL */
    unsigned flags;
    void (*more_help)(FILE *out); /* prints after the footer (a list of names), or NULL */
    size_t mark_off;              /* an int set to 1 when an OPT_MARKS option is given */
} opt_cmd_t;

/* Parses argv[1..] into base. Arguments that are not options are moved to
 * the end (getopt's order) and *first_arg is the index of the first one
 * (argc when none). Returns 0; -1 after printing --help to stdout (exit 0);
 * or MLS_EXIT_USAGE after printing a usage error: an unknown option, an
 * option without its argument, a bad value (naming the option), a list
 * given too often. */
int opt_parse(const opt_cmd_t *cmd, void *base, int argc, char **argv, int *first_arg);
/* opt_parse for a command that takes no arguments: a stray one is the usage
 * error "unexpected argument 'ARG'". */
int opt_parse_only(const opt_cmd_t *cmd, void *base, int argc, char **argv);
/* The --help text generated from cmd. */
void opt_help(const opt_cmd_t *cmd, FILE *out);
/* Frees what an OPT_SHARED_PARAM row stored. */
void opt_params_free(opt_params_t *p);

/* ---- rows ----------------------------------------------------------------- */

/* clang-format off */
#define OPT_ROW(k_, n_, l_, a_, t_, f_, h_)                                                        \
    {.kind = (k_), .name = (n_), .letter = (l_), .arg = (a_), .off = offsetof(t_, f_),             \
     .help = (h_)}
#define OPT_FLAG(n_, l_, t_, f_, h_) OPT_ROW(OPT_FLAG, n_, l_, NULL, t_, f_, h_)
#define OPT_STRING(n_, l_, a_, t_, f_, h_) OPT_ROW(OPT_STRING, n_, l_, a_, t_, f_, h_)
#define OPT_LIST(n_, l_, a_, t_, f_, h_) OPT_ROW(OPT_LIST, n_, l_, a_, t_, f_, h_)
/* A number of kind k_ (OPT_INT, OPT_LONG, OPT_WHOLE, OPT_DOUBLE) in [lo_, hi_]. */
#define OPT_NUM(k_, n_, l_, a_, t_, f_, lo_, hi_, fl_, bad_, h_)                                   \
    {.kind = (k_), .name = (n_), .letter = (l_), .arg = (a_), .off = offsetof(t_, f_),             \
     .help = (h_), .lo = (lo_), .hi = (hi_), .flags = (fl_), .bad = (bad_)}
#define OPT_CALL(n_, l_, a_, t_, f_, fn_, bad_, h_)                                                \
    {.kind = OPT_CALL, .name = (n_), .letter = (l_), .arg = (a_), .off = offsetof(t_, f_),         \
     .help = (h_), .bad = (bad_), .call = (fn_)}
#define OPT_GROUP(heading_) {.kind = OPT_GROUP, .help = (heading_)}
#define OPT_INCLUDE(t_, f_, table_) {.kind = OPT_INCLUDE, .off = offsetof(t_, f_), .sub = (table_)}
#define OPT_END_ROW {.kind = OPT_END}
/* clang-format on */

/* ---- the options several commands share ------------------------------------ */

/* OPT_CALL parsers of the shared rows. */
int opt_param_call(void *base, size_t off, const char *arg, const char *who);   /* opt_params_t */
int opt_cadence_call(void *base, size_t off, const char *arg, const char *who); /* unsigned */
int opt_placement_call(void *base, size_t off, const char *arg, const char *who); /* int */
/* int: 1 for "consolidated", 0 for "placed" */
int opt_spread_rate_call(void *base, size_t off, const char *arg, const char *who);
/* MLS_CADENCE_* bits of "events", "rounds" or "both"; 0 for anything else. */
unsigned opt_cadence_parse(const char *s);
/* "events", "rounds" or "both". */
const char *opt_cadence_name(unsigned cadence);

/* -P, --param KEY=VALUE (repeatable) into an opt_params_t. */
#define OPT_SHARED_PARAM(type, field, help)                                                        \
    OPT_CALL("param", 'P', "KEY=VALUE", type, field, opt_param_call,                               \
             "--param wants KEY=VALUE, got '%s'", help)
/* --cadence MODE into an unsigned (MLS_CADENCE_* bits). */
#define OPT_SHARED_CADENCE(type, field, help)                                                      \
    OPT_CALL("cadence", 0, "MODE", type, field, opt_cadence_call,                                  \
             "--cadence wants events, rounds or both, got '%s'", help)
/* --placement MODE into an int (mech_placement_t, sim/mechanism.h). */
#define OPT_SHARED_PLACEMENT(type, field, help)                                                    \
    OPT_CALL("placement", 0, "MODE", type, field, opt_placement_call,                              \
             "--placement wants spread, consolidate, auto or hold, got '%s'", help)
/* --spread-rate placed|consolidated into an int (engine_config_t.consolidated_rates). */
#define OPT_SHARED_SPREAD_RATE(type, field, help)                                                  \
    OPT_CALL("spread-rate", 0, "HOW", type, field, opt_spread_rate_call,                           \
             "--spread-rate wants placed or consolidated, got '%s'", help)
/* -r, --round SECONDS into a double >= 0. */
#define OPT_SHARED_ROUND(type, field, help)                                                        \
    OPT_NUM(OPT_DOUBLE, "round", 'r', "SECONDS", type, field, 0, 1e300, 0,                         \
            "--round wants seconds >= 0, got '%s'", help)
/* -c, --cluster FILE|SPEC. */
#define OPT_SHARED_CLUSTER(type, field, help)                                                      \
    OPT_STRING("cluster", 'c', "FILE|SPEC", type, field, help)
/* --throughputs FILE. */
#define OPT_SHARED_THROUGHPUTS(type, field, help)                                                  \
    OPT_STRING("throughputs", 0, "FILE|NAME", type, field, help)
/* -s, --seed N into a long >= 0. */
#define OPT_SHARED_SEED(type, field, help)                                                         \
    OPT_NUM(OPT_LONG, "seed", 's', "N", type, field, 0, 9.2e18, 0,                                 \
            "--seed wants an integer >= 0, got '%s'", help)
/* -d, --db FILE. */
#define OPT_SHARED_DB(type, field, help) OPT_STRING("db", 'd', "FILE", type, field, help)

#endif
