/* cmd-policies.c: `mlsched policies`, the registry as a table.
 *
 * Without an argument it lists every policy of policies/registry.c, one row
 * each (name, oracle, paper, summary), columns aligned to the widest entry;
 * with a NAME it prints that policy's paper, oracle flag, cadence, summary and
 * parameters, one per line; --names prints the names alone (for scripts). It
 * reads only the registry, so the listing cannot drift from what --policy
 * accepts. */
#include "cli/cmd.h"
#include "cli/opts.h"
#include "policies/policy.h"
#include "sim/policy_exec.h"

#include <stdio.h>
#include <string.h>

typedef struct pol_opts {
    int names;
} pol_opts_t;

static const opt_t options[] = {
    OPT_FLAG("names", 'n', pol_opts_t, names, "print only the policy names, one per line"),
    OPT_END_ROW};

static const opt_cmd_t command = {
    .who = "policies",
    .usage = "[--names] [NAME]",
    .about = "Lists the scheduling policies, or shows one policy in detail: with NAME,\n"
             "the paper, oracle flag, cadence and parameters of NAME.",
    .opts = options,
    .footer = "An oracle policy reads jobs' true total and remaining work, which a real\n"
              "scheduler does not know; results record the flag.\n"
              "Parameters are given to simulate as --param key=value.",
};

static void list_all(void)
{
    int wn = (int)strlen("NAME"), wp = (int)strlen("PAPER");
    for (size_t i = 0; i < policy_count(); i++) {
        const policy_ops_t *p = policy_at(i);
        if ((int)strlen(p->name) > wn)
            wn = (int)strlen(p->name);
        if ((int)strlen(p->paper) > wp)
            wp = (int)strlen(p->paper);
    }
    printf("%-*s  %-6s  %-*s  %s\n", wn, "NAME", "ORACLE", wp, "PAPER", "SUMMARY");
    for (size_t i = 0; i < policy_count(); i++) {
        const policy_ops_t *p = policy_at(i);
        printf("%-*s  %-6s  %-*s  %s\n", wn, p->name, p->oracle ? "yes" : "no", wp, p->paper,
               p->summary);
    }
}

static const char *cadence_name(unsigned c)
{
    if ((c & MLS_CADENCE_EVENTS) && (c & MLS_CADENCE_ROUNDS))
        return "events+rounds (arrivals, completions and every round)";
    if (c & MLS_CADENCE_ROUNDS)
        return "rounds (every round boundary)";
    return "events (arrivals and completions)";
}

/* Prints "k=v: meaning; k2=..." one parameter per line. */
static void print_params(const char *params)
{
    printf("parameters:");
    if (!params || !*params) {
        printf(" none\n");
        return;
    }
    printf("\n");
    const char *s = params;
    while (*s) {
        while (*s == ' ' || *s == ';')
            s++;
        size_t n = strcspn(s, ";");
        if (n)
            printf("  %.*s\n", (int)n, s);
        s += n;
    }
}

static void show_one(const policy_ops_t *p)
{
    printf("name:       %s\n", p->name);
    printf("paper:      %s\n", p->paper);
    printf("oracle:     %s\n", p->oracle ? "yes (reads total and remaining work)" : "no");
    printf("cadence:    %s\n", cadence_name(p->cadence));
    printf("summary:    %s\n", p->summary);
    print_params(p->params);
}

static int exec_policies(int argc, char **argv)
{
    pol_opts_t o = {0};
    int optind, rc = opt_parse(&command, &o, argc, argv, &optind);
    if (rc)
        return rc < 0 ? MLS_EXIT_OK : rc;
    int names = o.names;
    if (argc - optind > 1 || (names && argc - optind > 0))
        return cmd_usage_error("policies", "%s", "too many arguments");
    if (names) {
        for (size_t i = 0; i < policy_count(); i++)
            printf("%s\n", policy_at(i)->name);
        return MLS_EXIT_OK;
    }
    if (optind == argc) {
        list_all();
        return MLS_EXIT_OK;
    }
    if (policy_is_exec(argv[optind])) { /* an external policy: its hello */
        policy_ref_t ref;
        mls_err_t err;
        if (policy_resolve(argv[optind], NULL, &ref, &err) < 0) {
            fprintf(stderr, "mlsched policies: %s\n", err.msg);
            return MLS_EXIT_FAIL;
        }
        show_one(ref.ops);
        policy_release(&ref);
        return MLS_EXIT_OK;
    }
    const policy_ops_t *p = policy_find(argv[optind]);
    if (!p) {
        fprintf(stderr, "mlsched policies: unknown policy '%s' (run mlsched policies)\n",
                argv[optind]);
        return MLS_EXIT_FAIL;
    }
    show_one(p);
    return MLS_EXIT_OK;
}

const cmd_entry_t cmd_policies_entry = {"policies", "list the scheduling policies and their papers",
                                        exec_policies};
