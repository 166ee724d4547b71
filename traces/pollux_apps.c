/* pollux_apps.c: the Pollux application table (see pollux_apps.h).
 *
 * Source: petuum/adaptdl, branch osdi21-artifact @ c793c708 (Apache-2.0),
 * simulator/applications.py and simulator/traces/<app>/ (copied to
 * ../shared/data/pollux/profiles, see its PROVENANCE.md):
 *
 * - max_epochs: applications.py (bert 2, cifar10 100, ncf 10, imagenet 90,
 *   deepspeech2 80, yolov3 50). target_metric is None for every app, so
 *   get_completion_epoch() = max_epochs - 1 and the simulator's job finishes
 *   when its epoch passes that, i.e. after max_epochs epochs of statistical
 *   progress (counted in iterations at init_batch_size).
 * - init_batch_size = min B of validation-<B>.csv, max_batch_size = max B
 *   (Application.__init__).
 * - epoch_progress = `progress` after the first epoch in validation-<init>.csv;
 *   x init_batch_size it is the training set: CIFAR-10 50,048 (50,000
 *   images), ImageNet 1,281,200 (1,281,167), SQuAD 88,644 (bert), PASCAL VOC
 *   16,552 (yolov3), 4,971,008 NCF interactions, 7,140 DeepSpeech2 utterances.
 *   Work = that x max_epochs samples (the simulator's exact point, the
 *   smallest `progress` over the files at row max_epochs, is within 0.1 % of
 *   it: cifar10 39,062.9 x 128 vs 50,048 x 100); the same numbers as the
 *   Pollux perf catalog (traces/catalog/pollux.json: dataset_size,
 *   completion_epochs), whose work units are these samples.
 * - min_local_bsz = min local_bsz of placements.csv; max_replicas =
 *   min(max(2 x profiled, 1), 64, max_batch_size // min_local_bsz) in the
 *   Pollux policy's JobInfo at its largest, and 1 for ncf (simulator.py). */
#include "traces/pollux_apps.h"

#include <string.h>

static const pollux_app_t apps[] = {
    /* name, max_epochs, init_bsz, epoch_progress, max_bsz, min_local, max_rep */
    {"bert", 2, 12, 7387.0, 384, 4, 64},         {"cifar10", 100, 128, 391.0, 4096, 32, 64},
    {"deepspeech2", 80, 20, 357.0, 640, 10, 64}, {"imagenet", 90, 200, 6406.0, 12800, 20, 64},
    {"ncf", 10, 256, 19418.0, 32768, 32, 1},     {"yolov3", 50, 8, 2069.0, 512, 4, 64},
};

const pollux_app_t *pollux_app_find(const char *name)
{
    for (size_t i = 0; i < sizeof apps / sizeof apps[0]; i++)
        if (!strcmp(apps[i].name, name))
            return &apps[i];
    return NULL;
}

double pollux_app_dataset(const pollux_app_t *app)
{
    return app->epoch_progress * app->init_batch_size;
}

double pollux_app_work(const pollux_app_t *app)
{
    return pollux_app_dataset(app) * app->max_epochs;
}
