/* fuzz_util.h: what the libFuzzer harnesses of tests/fuzz share.
 *
 * Most readers take a path (they stream their file), so a harness writes
 * the input to a file of its own (one per process, under TMPDIR) and calls
 * the reader on it, exactly as `mlsched` would. A harness aborts (a finding)
 * only when a property every input must keep is broken; a refused input is
 * the expected outcome for most of them. */
#ifndef MLS_FUZZ_UTIL_H
#define MLS_FUZZ_UTIL_H

#include "model/util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Writes data to this process's file for `tag` and returns its path. */
static inline const char *fuzz_file(const uint8_t *data, size_t size, const char *tag)
{
    static char path[256];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/mls-fuzz-%ld-%s", dir && *dir ? dir : "/tmp",
             (long)getpid(), tag);
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
    return path;
}

/* A property broke: say which and abort (libFuzzer saves the input). */
static inline void fuzz_fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz finding: %s: %s\n", what, detail ? detail : "");
    abort();
}

#endif
