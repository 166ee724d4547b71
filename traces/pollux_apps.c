/* pollux_apps.c: the Pollux application table (see pollux_apps.h).
 *
 * Source: petuum/adaptdl, branch osdi21-artifact @ c793c708 (Apache-2.0),
 * simulator/applications.py and simulator/traces/<app>/ (copied to
 * ../shared/data/pollux/profiles, see its PROVENANCE.md):
 *
 * - max_epochs: applications.py (bert 2, cifar10 100, ncf 10, imagenet 90,
 *   deepspeech2 80, yolov3 50). target_metric is None for every app, so
 *   get_completion_epoch() = max_epochs - 1 and the simulator's job finishes
 *   when it passes that epoch, i.e. at progress get_progress(max_epochs) =
 *   the smallest `progress` over the validation-<B>.csv files at epoch row
 *   max_epochs (done_progress below; the file it comes from in brackets).
 * - init_batch_size = min B of validation-<B>.csv, max_batch_size = max B
 *   (Application.__init__); progress is counted in iterations at
 *   init_batch_size, so work in samples = done_progress x init_batch_size.
 * - epoch_progress = `progress` after the first epoch at init_batch_size; x
 *   init_batch_size it is the training set: CIFAR-10 50,048 (50,000 images),
 *   ImageNet 1,281,200 (1,281,167), SQuAD 88,644 (bert), PASCAL VOC 16,552
 *   (yolov3), 4,971,008 NCF interactions, 7,140 DeepSpeech2 utterances.
 * - min_local_bsz = min local_bsz of placements.csv; max_replicas =
 *   min(max(2 x profiled, 1), 64, max_batch_size // min_local_bsz) in the
 *   Pollux policy's JobInfo at its largest, and 1 for ncf (simulator.py). */
#include "pollux_apps.h"

#include <string.h>

static const pollux_app_t apps[] = {
    /* name, max_epochs, init_bsz, epoch_progress, done_progress, max_bsz, min_local, max_rep */
    {"bert", 2, 12, 7387.0, 14774.0 /* [12] */, 384, 4, 64},
    {"cifar10", 100, 128, 391.0, 39062.90816659533 /* [256] */, 4096, 32, 64},
    {"deepspeech2", 80, 20, 357.0, 28536.0 /* [20] */, 640, 10, 64},
    {"imagenet", 90, 200, 6406.0, 576525.594895604 /* [400] */, 12800, 20, 64},
    {"ncf", 10, 256, 19418.0, 194174.0 /* [256] */, 32768, 32, 1},
    {"yolov3", 50, 8, 2069.0, 103443.97796253164 /* [16] */, 512, 4, 64},
};

const pollux_app_t *pollux_app_find(const char *name)
{
    for (size_t i = 0; i < sizeof apps / sizeof apps[0]; i++)
        if (!strcmp(apps[i].name, name))
            return &apps[i];
    return NULL;
}

double pollux_app_work(const pollux_app_t *app)
{
    return app->done_progress * app->init_batch_size;
}

double pollux_app_dataset(const pollux_app_t *app)
{
    return app->epoch_progress * app->init_batch_size;
}
