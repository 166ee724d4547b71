/* main.cu: mlsched-gpu-bench, the built-in GPU workloads of `mlsched profile
 * builtin`: one binary, one subcommand per workload (transformer.cu, resnet.cu,
 * recsys.cu, allreduce.cu; bench.cu has what they share). Without a workload name
 * it runs the Transformer, as the harness did before it had others.
 *
 *   mlsched-gpu-bench [WORKLOAD] [options]      (mlsched-gpu-bench WORKLOAD --help) */
#include "profiler/cuda/bench.h"

#include <cstring>

struct workload_entry {
    const char *name, *summary;
    int (*main)(int argc, char **argv);
};

static const workload_entry workloads[] = {
    {"transformer", "Transformer encoder training (cuBLAS, bf16); the default",
     transformer_main},
    {"resnet", "ResNet-style conv + batch-norm + ReLU stack training (cuDNN, fp32/TF32)",
     resnet_main},
    {"recsys", "DLRM-like embedding tables + MLPs training (gathers, scatter-add, cuBLAS)",
     recsys_main},
    {"allreduce", "NCCL all-reduce of gradient buffers across the visible GPUs",
     allreduce_main},
};

static void help(void)
{
    printf("usage: mlsched-gpu-bench [WORKLOAD] [options]\n\nworkloads:\n");
    for (const workload_entry &w : workloads)
        printf("  %-12s %s\n", w.name, w.summary);
    printf("\nmlsched-gpu-bench WORKLOAD --help lists its options; without WORKLOAD the\n"
           "options are the transformer's. Each writes a curve file (# mlsched-curves v1) to\n"
           "stdout, or mlsched-progress lines with --progress. Exit: 0 ok, 1 failed, 2 usage\n"
           "error, 77 no CUDA device.\n");
}

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        help();
        return 0;
    }
    if (argc > 1 && argv[1][0] != '-') {
        for (const workload_entry &w : workloads)
            if (!strcmp(argv[1], w.name))
                return w.main(argc - 2, argv + 2);
        fprintf(stderr, "mlsched-gpu-bench: unknown workload '%s' (see mlsched-gpu-bench "
                        "--help)\n",
                argv[1]);
        return 2;
    }
    return transformer_main(argc - 1, argv + 1);
}
