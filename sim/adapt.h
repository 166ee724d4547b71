/* adapt.h: dynamic batch-size adaptation of a job during training, as
 * Shockwave simulates it (Zheng et al., "Shockwave: Fair and Efficient Cluster
 * Scheduling for Dynamic Adaptation in Machine Learning", NSDI 2023, §2, and
 * its simulator's get_accordion_bs_pattern / get_gns_bs_pattern).
 *
 * A job of mode accordion or gns (the trace's `mode` column) runs epoch e at
 * the batch adapt_batch_at() gives; the engine changes the batch at each
 * epoch boundary where that value changes (MLS_WHY_BATCH_CHANGE). Models are
 * the Gavel workload names' prefixes ("ResNet-18 (batch size 64)"). The
 * rules are those of Shockwave's simulated run time (scheduler.py,
 * _simulate_accordion / _simulate_gns / _scale_bs_and_iters), which set every
 * baseline's job lengths in its experiments, not those of the per-epoch
 * patterns its own policy plans with (utils.py, get_accordion_bs_pattern,
 * which also keeps the first 30 % of the epochs at the initial batch).
 *
 *   accordion (Agarwal et al., "Adaptive Gradient Communication via Critical
 *     Learning Regime Identification", MLSys 2021): the largest batch (the cap
 *     below) outside critical regimes, the initial batch inside them. Accordion
 *     detects critical regimes at run time from the change of the gradient
 *     norm; like Shockwave's simulator we use the regimes that rule yields
 *     for each model (after learning-rate decays): ResNet-18 epochs < 10 (20 at
 *     batch 256), 150-159, 250-259; ResNet-50 epochs with e mod 30 < 10; LM
 *     epochs < 10; Recommendation epochs < 30 (batch 512, 1024), < 40 (2048),
 *     < 10 (4096, 8192), 60-69, 80-89. Transformer, CycleGAN and A3C keep
 *     their batch.
 *   gns (McCandlish et al., "An Empirical Model of Large-Batch Training",
 *     2018; the gradient-noise-scale rule): the batch doubles at epoch
 *     boundaries Shockwave's simulator hand-lists per (model, initial batch,
 *     GPUs) from measured noise scales (first doubling at epoch 10, 20, 30,
 *     ... up to 190, later ones 10-90 epochs apart), up to the cap; the
 *     combinations it does not list (every Transformer, every 8-GPU job,
 *     ResNet-50 at batch 16, Recommendation on more than one GPU) keep their
 *     batch. Its simulator looks one epoch ahead, so a doubling its pattern
 *     puts at epoch p starts here at epoch p - 1.
 *   Caps (both modes): ResNet-18 256, ResNet-50 128, Transformer 128, LM 80,
 *   Recommendation 8192; a job that starts at the cap never changes.
 *
 * Epochs: a model's dataset gives the iterations of one epoch at batch b,
 * ceil(dataset / b) (CIFAR-10 50,000 for ResNet-18; Shockwave's ImageNet
 * subset 100,000 for ResNet-50; Multi30k 10,000 for Transformer; Wikitext-2
 * 59,675 for LM; ML-20M 117,907 for Recommendation). A job's epoch count is
 * its total work (iterations at its initial batch) over one epoch's
 * iterations. When the batch changes from b to b', the remaining iterations
 * are scaled by ceil(dataset / b') / ceil(dataset / b), so the epoch count
 * stays. */
#ifndef MLS_ADAPT_H
#define MLS_ADAPT_H

#include "model/trace.h"

/* The model's dataset size (samples) and batch cap; -1 when the model has no
 * adaptation data (the job then keeps its batch). `workload` is the full
 * workload name; its model is the part before " (batch size". */
int adapt_model_info(const char *workload, double *dataset, int *cap);
/* The batch the workload's name states, 0 when none. */
int adapt_named_batch(const char *workload);
/* The batch of epoch `epoch` (0-based) of a job on `gpus` GPUs that starts
 * at `init_batch`. */
int adapt_batch_at(mls_adapt_mode_t mode, const char *workload, int init_batch, int gpus,
                   int epoch);

#endif
