/* nvml.c: NVML through dlopen (see nvml.h). The prototypes below are NVML's
 * (nvml.h of the CUDA toolkit), declared here so that no CUDA header is needed:
 * every call returns an nvmlReturn_t, 0 on success. */
#include "profiler/nvml.h"

#include "model/util.h"

#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int nvml_ret_t;
typedef void *nvml_dev_t;
typedef struct nvml_memory {
    unsigned long long total, free, used;
} nvml_memory_t;

enum { NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2 };

struct mls_nvml {
    void *lib;
    nvml_ret_t (*init)(void);
    nvml_ret_t (*shutdown)(void);
    nvml_ret_t (*count)(unsigned *);
    nvml_ret_t (*handle)(unsigned, nvml_dev_t *);
    nvml_ret_t (*name)(nvml_dev_t, char *, unsigned);
    nvml_ret_t (*memory)(nvml_dev_t, nvml_memory_t *);
    nvml_ret_t (*clock)(nvml_dev_t, int, unsigned *);
    nvml_ret_t (*driver)(char *, unsigned);
    nvml_ret_t (*cuda)(int *);
};

/* dlsym's void * to a function pointer, through memcpy (ISO C has no cast). */
static int sym(void *lib, const char *name, void *fnp, size_t size)
{
    void *p = dlsym(lib, name);
    if (!p)
        return -1;
    memcpy(fnp, &p, size);
    return 0;
}

mls_nvml_t *nvml_open(void)
{
    const char *path = getenv("MLSCHED_NVML_LIB");
    void *lib = dlopen(path && *path ? path : "libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return NULL;
    mls_nvml_t *nv = xcalloc(1, sizeof *nv);
    nv->lib = lib;
    int bad = sym(lib, "nvmlInit_v2", &nv->init, sizeof nv->init) |
              sym(lib, "nvmlShutdown", &nv->shutdown, sizeof nv->shutdown) |
              sym(lib, "nvmlDeviceGetCount_v2", &nv->count, sizeof nv->count) |
              sym(lib, "nvmlDeviceGetHandleByIndex_v2", &nv->handle, sizeof nv->handle) |
              sym(lib, "nvmlDeviceGetName", &nv->name, sizeof nv->name) |
              sym(lib, "nvmlDeviceGetMemoryInfo", &nv->memory, sizeof nv->memory) |
              sym(lib, "nvmlDeviceGetClockInfo", &nv->clock, sizeof nv->clock) |
              sym(lib, "nvmlSystemGetDriverVersion", &nv->driver, sizeof nv->driver);
    if (sym(lib, "nvmlSystemGetCudaDriverVersion_v2", &nv->cuda, sizeof nv->cuda) < 0)
        nv->cuda = NULL;
    if (bad || nv->init() != 0) {
        dlclose(lib);
        free(nv);
        return NULL;
    }
    return nv;
}

void nvml_close(mls_nvml_t *nv)
{
    if (!nv)
        return;
    nv->shutdown();
    dlclose(nv->lib);
    free(nv);
}

int nvml_device_count(mls_nvml_t *nv)
{
    unsigned n = 0;
    return nv && nv->count(&n) == 0 ? (int)n : 0;
}

static int device(mls_nvml_t *nv, int index, nvml_dev_t *d)
{
    return nv && index >= 0 && nv->handle((unsigned)index, d) == 0 ? 0 : -1;
}

int nvml_gpu_info(mls_nvml_t *nv, int index, nvml_gpu_info_t *out)
{
    nvml_dev_t d;
    memset(out, 0, sizeof *out);
    if (device(nv, index, &d) < 0 || nv->name(d, out->name, sizeof out->name) != 0)
        return -1;
    out->name[sizeof out->name - 1] = '\0';
    nvml_memory_t m;
    if (nv->memory(d, &m) == 0)
        out->mem_total = m.total;
    if (nv->clock(d, NVML_CLOCK_SM, &out->sm_clock_mhz) != 0)
        out->sm_clock_mhz = 0;
    if (nv->clock(d, NVML_CLOCK_MEM, &out->mem_clock_mhz) != 0)
        out->mem_clock_mhz = 0;
    return 0;
}

int nvml_mem_used(mls_nvml_t *nv, int index, uint64_t *used)
{
    nvml_dev_t d;
    nvml_memory_t m;
    if (device(nv, index, &d) < 0 || nv->memory(d, &m) != 0)
        return -1;
    *used = m.used;
    return 0;
}

int nvml_driver_version(mls_nvml_t *nv, char *buf, size_t n)
{
    if (!nv || n < 2 || nv->driver(buf, (unsigned)n) != 0)
        return -1;
    buf[n - 1] = '\0';
    return 0;
}

int nvml_cuda_version(mls_nvml_t *nv, char *buf, size_t n)
{
    int v = 0;
    if (!nv || !nv->cuda || nv->cuda(&v) != 0 || v <= 0)
        return -1;
    snprintf(buf, n, "%d.%d", v / 1000, (v % 1000) / 10);
    return 0;
}

void nvml_type_from_name(const char *name, char *out, size_t n)
{
    static const char *const skip[] = {"nvidia", "tesla", "geforce", "quadro", "rtx", "gtx"};
    char tok[64];
    const char *p = name;
    snprintf(out, n, "gpu");
    while (*p) {
        while (*p && !isalnum((unsigned char)*p))
            p++;
        size_t len = 0;
        while (*p && isalnum((unsigned char)*p) && len + 1 < sizeof tok)
            tok[len++] = (char)tolower((unsigned char)*p++);
        tok[len] = '\0';
        while (*p && isalnum((unsigned char)*p))
            p++;
        int skipped = 0;
        for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
            skipped |= !strcmp(tok, skip[i]);
        int digits = 0;
        for (size_t i = 0; i < len; i++)
            digits += isdigit((unsigned char)tok[i]) != 0;
        if (len && !skipped && digits) {
            snprintf(out, n, "%s", tok);
            return;
        }
    }
}
