/* adapt.c: Shockwave-style batch-size schedules (see adapt.h). Pure functions
 * of the job's model, mode, initial batch and epoch. */
#include "adapt.h"

#include <stdlib.h>
#include <string.h>

typedef struct model_info {
    const char *model;
    double dataset;
    int cap;
} model_info_t;

static const model_info_t models[] = {
    {"ResNet-18", 50000, 256},  {"ResNet-50", 100000, 128},        {"Transformer", 10000, 128},
    {"LM", 59675, 80},          {"Recommendation", 117907, 8192},
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

int adapt_batch_at(mls_adapt_mode_t mode, const char *workload, int init_batch, int n_epochs,
                   int epoch)
{
    const model_info_t *m = find_model(workload);
    if (!m || mode == ADAPT_STATIC || init_batch <= 0)
        return init_batch;
    if (mode == ADAPT_ACCORDION) {
        if (accordion_critical(workload, init_batch, epoch) || epoch <= 0.3 * n_epochs ||
            is_model(workload, "Transformer"))
            return init_batch;
        return m->cap > init_batch ? m->cap : init_batch;
    }
    static const int from[] = {11, 21, 41, 71};
    int b = init_batch;
    for (size_t i = 0; i < sizeof from / sizeof from[0]; i++)
        if (epoch >= from[i] && 2 * b <= m->cap)
            b *= 2;
    return b;
}
