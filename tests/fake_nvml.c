/* fake_nvml.c: a stand-in libnvidia-ml.so.1 for the profiler's tests (loaded
 * through MLSCHED_NVML_LIB). Two devices, "NVIDIA H100 80GB HBM3", 81559 MiB
 * each, driver 580.159.04, CUDA 13.0, SM 1980 MHz, memory 2619 MHz. The used
 * memory is 1 GiB, or the number in the file $FAKE_NVML_USED_FILE when that
 * exists (tests/fake_train --nvml-file writes it while it "trains"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned long long total, free, used;
} fake_memory_t;

int nvmlInit_v2(void)
{
    return 0;
}

int nvmlShutdown(void)
{
    return 0;
}

int nvmlDeviceGetCount_v2(unsigned *n)
{
    *n = 2;
    return 0;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned i, void **dev)
{
    if (i >= 2)
        return 2; /* NVML_ERROR_INVALID_ARGUMENT */
    *dev = (void *)(size_t)(i + 1);
    return 0;
}

int nvmlDeviceGetName(void *dev, char *name, unsigned n)
{
    (void)dev;
    snprintf(name, n, "NVIDIA H100 80GB HBM3");
    return 0;
}

int nvmlDeviceGetMemoryInfo(void *dev, fake_memory_t *m)
{
    (void)dev;
    m->total = 81559ULL << 20;
    m->used = 1ULL << 30;
    const char *path = getenv("FAKE_NVML_USED_FILE");
    FILE *f = path ? fopen(path, "r") : NULL;
    if (f) {
        unsigned long long v;
        if (fscanf(f, "%llu", &v) == 1)
            m->used += v;
        fclose(f);
    }
    m->free = m->total - m->used;
    return 0;
}

int nvmlDeviceGetClockInfo(void *dev, int type, unsigned *mhz)
{
    (void)dev;
    *mhz = type == 1 ? 1980 : 2619;
    return 0;
}

int nvmlSystemGetDriverVersion(char *buf, unsigned n)
{
    snprintf(buf, n, "580.159.04");
    return 0;
}

int nvmlSystemGetCudaDriverVersion_v2(int *v)
{
    *v = 13000;
    return 0;
}
