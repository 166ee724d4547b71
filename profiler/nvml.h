/* nvml.h: the few NVIDIA Management Library calls the profiler makes, loaded
 * at run time.
 *
 * libnvidia-ml.so.1 is opened with dlopen() (or the library named by the
 * MLSCHED_NVML_LIB environment variable, which the tests point at a fake), so
 * mlsched builds and runs without CUDA; without the library or a driver
 * nvml_open() returns NULL and the profiler records no memory or GPU metadata.
 * Device indices are NVML's, which are PCI bus order; the profiler runs its
 * commands with CUDA_DEVICE_ORDER=PCI_BUS_ID so that CUDA's agree. */
#ifndef MLS_NVML_H
#define MLS_NVML_H

#include <stddef.h>
#include <stdint.h>

typedef struct mls_nvml mls_nvml_t;

typedef struct nvml_gpu_info {
    char name[96];
    uint64_t mem_total; /* bytes */
    unsigned sm_clock_mhz, mem_clock_mhz;
} nvml_gpu_info_t;

mls_nvml_t *nvml_open(void); /* NULL when NVML cannot be used */
void nvml_close(mls_nvml_t *nv);
int nvml_device_count(mls_nvml_t *nv);
int nvml_gpu_info(mls_nvml_t *nv, int index, nvml_gpu_info_t *out);
int nvml_mem_used(mls_nvml_t *nv, int index, uint64_t *used); /* bytes; -1 on failure */
int nvml_driver_version(mls_nvml_t *nv, char *buf, size_t n);
/* The CUDA version the driver supports, "13.0"; -1 on failure. */
int nvml_cuda_version(mls_nvml_t *nv, char *buf, size_t n);

/* A short GPU type from a marketing name: "NVIDIA H100 80GB HBM3" -> "h100",
 * "Tesla V100-SXM2-16GB" -> "v100". */
void nvml_type_from_name(const char *name, char *out, size_t n);

#endif
