/* plotstyle.c: the policy -> (colour, dash, marker) table (see plotstyle.h).
 *
 * Families group policies a reader compares with each other: the queue
 * orders (FIFO and its non-preemptive relatives), the preemptive
 * least-attained-service line (LAS, SRTF, Tiresias), Gavel's LP policies,
 * finish-time fair share (Themis and its kin), Gandiva's time slicing, the
 * elastic schedulers, and the goodput/market ones (Pollux, Sia, Shockwave).
 * Hues are Okabe & Ito's (2008) colour-blind-safe set; dashes and filled
 * markers are chosen so that the first members of a family (the ones most
 * figures show) are the most distinct. */
#include "cli/plotstyle.h"

#include <string.h>

typedef struct family {
    const char *name, *color;
    const char *members[8];
} family_t;

static const family_t families[] = {
    {"queue order",
     "#000000",
     {"fifo", "fifo-backfill", "sjf", "qssf", "drf", "allox", "pathways", NULL}},
    {"LAS / Tiresias", "#D55E00", {"las", "tiresias-las", "tiresias-gittins", "srtf", NULL}},
    {"Gavel LPs",
     "#0072B2",
     {"max-min-fairness", "max-min-fairness-perf", "max-min-fairness-packed",
      "finish-time-fairness", "min-total-duration", "max-sum-throughput-perf", "fifo-perf", NULL}},
    {"fair share (Themis)",
     "#009E73",
     {"themis", "themis-oracle", "isolated", "gandiva-fair", NULL}},
    {"Gandiva", "#CC79A7", {"gandiva", "gandiva-paper", NULL}},
    {"elastic",
     "#E69F00",
     {"optimus", "optimus-oracle", "elastic-dp", "elastic-fixed-batch", "autoscale", "deeppool",
      NULL}},
    {"goodput (Pollux, Sia)", "#56B4E9", {"pollux", "sia", "shockwave", NULL}},
};

#define N_FAMILIES (sizeof families / sizeof families[0])

static const char *const dashes[] = {"1",      "(10,5)",        "(3,4)", "(14,4,3,4)",
                                     "(20,6)", "(6,3,2,3,2,3)", "(2,2)", "(24,4,6,4)"};
static const int points[] = {7, 5, 9, 11, 13, 15, 6, 4};

plot_style_t plot_style(const char *policy)
{
    for (size_t f = 0; f < N_FAMILIES; f++)
        for (int k = 0; k < 8 && families[f].members[k]; k++)
            if (!strcmp(policy, families[f].members[k]))
                return (plot_style_t){families[f].name, families[f].color, dashes[k], points[k],
                                      (int)f * 16 + k};
    unsigned h = 5381; /* djb2: the same name gets the same look everywhere */
    for (const char *p = policy; *p; p++)
        h = h * 33 + (unsigned char)*p;
    return (plot_style_t){"other", "#777777", dashes[h % 8], points[(h / 8) % 8],
                          (int)N_FAMILIES * 16 + 15};
}
