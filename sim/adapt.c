/* adapt.c: Shockwave-style batch-size schedules (see adapt.h). Pure functions
 * of the job's model, mode, initial batch and epoch. */
#include "sim/adapt.h"

#include <stdlib.h>
#include <string.h>

typedef struct model_info {
    const char *model;
    double dataset;
    int cap;
} model_info_t;

static const model_info_t models[] = {
    {"ResNet-18", 50000, 256}, {"ResNet-50", 100000, 128},       {"Transformer", 10000, 128},
    {"LM", 59675, 80},         {"Recommendation", 117907, 8192},
};

static size_t model_len(const char *workload)
{
    const char *b = strstr(workload, " (batch size ");
    return b ? (size_t)(b - workload) : strlen(workload);
}

static const model_info_t *find_model(const char *workload)
{
    size_t n = model_len(workload);
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (strlen(models[i].model) == n && !strncmp(models[i].model, workload, n))
            return &models[i];
    return NULL;
}

int adapt_model_info(const char *workload, double *dataset, int *cap)
{
    const model_info_t *m = find_model(workload);
    if (!m)
        return -1;
    *dataset = m->dataset;
    *cap = m->cap;
    return 0;
}

int adapt_named_batch(const char *workload)
{
    const char *b = strstr(workload, " (batch size ");
    return b ? atoi(b + 13) : 0;
}

static int is_model(const char *workload, const char *model)
{
    size_t n = model_len(workload);
    return strlen(model) == n && !strncmp(workload, model, n);
}

static int accordion_critical(const char *w, int b, int e)
{
    if (is_model(w, "ResNet-18"))
        return e < (b == 256 ? 20 : 10) || (e >= 150 && e < 160) || (e >= 250 && e < 260);
    if (is_model(w, "ResNet-50"))
        return e % 30 < 10;
    if (is_model(w, "LM"))
        return e < 10;
    if (is_model(w, "Recommendation")) {
        int first = b <= 1024 ? 30 : b == 2048 ? 40 : 10;
        return e < first || (e >= 60 && e < 70) || (e >= 80 && e < 90);
    }
    return 1; /* Transformer, CycleGAN, A3C: never adapt */
}

/* Shockwave's simulator (_simulate_gns) doubles a gns job's batch at epochs
 * hand-listed per (model, initial batch, GPUs) from measured noise scales;
 * combinations not listed never change (every Transformer, every 8-GPU job).
 * from[k] is the index in its per-epoch pattern where the batch reaches
 * 2^(k+1) times the initial one (0: no further doubling). */
typedef struct gns_rule {
    const char *model;
    int batch, gpus;
    short from[4];
} gns_rule_t;

static const gns_rule_t gns_rules[] = {
    {"ResNet-18", 16, 1, {31, 41, 51, 71}},
    {"ResNet-18", 16, 2, {21, 31, 91, 111}},
    {"ResNet-18", 16, 4, {11, 21, 81, 91}},
    {"ResNet-18", 32, 1, {21, 31, 51, 0}},
    {"ResNet-18", 32, 2, {11, 21, 41, 0}},
    {"ResNet-18", 32, 4, {21, 31, 61, 0}},
    {"ResNet-18", 64, 1, {11, 31, 0, 0}},
    {"ResNet-18", 64, 2, {21, 41, 0, 0}},
    {"ResNet-18", 64, 4, {11, 61, 0, 0}},
    {"ResNet-18", 128, 1, {11, 0, 0, 0}},
    {"ResNet-18", 128, 2, {41, 0, 0, 0}},
    {"ResNet-18", 128, 4, {11, 0, 0, 0}},
    {"ResNet-50", 32, 2, {101, 111, 0, 0}},
    {"ResNet-50", 32, 4, {131, 221, 0, 0}},
    {"ResNet-50", 64, 1, {101, 0, 0, 0}},
    {"ResNet-50", 64, 2, {81, 0, 0, 0}},
    {"ResNet-50", 64, 4, {191, 0, 0, 0}},
    {"LM", 5, 1, {31, 41, 61, 71}},
    {"LM", 5, 2, {31, 51, 61, 71}},
    {"LM", 5, 4, {11, 31, 71, 91}},
    {"LM", 10, 1, {11, 21, 41, 0}},
    {"LM", 10, 2, {11, 31, 41, 0}},
    {"LM", 10, 4, {11, 31, 61, 0}},
    {"LM", 20, 1, {11, 41, 0, 0}},
    {"LM", 20, 2, {31, 41, 0, 0}},
    {"LM", 20, 4, {11, 61, 0, 0}},
    {"LM", 40, 1, {11, 0, 0, 0}},
    {"LM", 40, 2, {11, 0, 0, 0}},
    {"LM", 40, 4, {61, 0, 0, 0}},
    {"Recommendation", 512, 1, {21, 41, 71, 91}},
    {"Recommendation", 1024, 1, {21, 51, 91, 0}},
    {"Recommendation", 2048, 1, {21, 41, 0, 0}},
    {"Recommendation", 4096, 1, {41, 0, 0, 0}},
};

static const gns_rule_t *find_gns_rule(const char *workload, int batch, int gpus)
{
    for (size_t i = 0; i < sizeof gns_rules / sizeof gns_rules[0]; i++)
        if (gns_rules[i].batch == batch && gns_rules[i].gpus == gpus &&
            is_model(workload, gns_rules[i].model))
            return &gns_rules[i];
    return NULL;
}

int adapt_batch_at(mls_adapt_mode_t mode, const char *workload, int init_batch, int gpus, int epoch)
{
    const model_info_t *m = find_model(workload);
    if (!m || mode == ADAPT_STATIC || init_batch <= 0 || init_batch >= m->cap)
        return init_batch;
    if (mode == ADAPT_ACCORDION) {
        if (accordion_critical(workload, init_batch, epoch) || is_model(workload, "Transformer"))
            return init_batch;
        return m->cap;
    }
    /* The simulator looks one epoch ahead (pattern[current + 1], current
     * counted by ceil), so doubling k lands at the start of epoch from[k] - 1. */
    const gns_rule_t *r = find_gns_rule(workload, init_batch, gpus);
    int b = init_batch;
    for (int k = 0; r && k < 4 && r->from[k] > 0; k++)
        if (epoch >= r->from[k] - 1 && 2 * b <= m->cap)
            b *= 2;
    return b;
}
