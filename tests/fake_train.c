/* fake_train.c: a stand-in training job for the `profile run` tests.
 *
 * Prints one mlsched-progress line per "iteration" with a known iteration time,
 * T = alpha + beta * batch + 0.001 * (GPUs - 1), where GPUs is the number of
 * entries of CUDA_VISIBLE_DEVICES, times a factor that cycles through
 * 1.00, 0.98, 1.02, 0.96, 1.04 (so the median of a multiple of 5 iterations is
 * T exactly); the first --slow-first iterations take 10 T (what warm-up must
 * drop). The batch is --batch, else $MLSCHED_BATCH_SIZE. It runs until
 * stopped unless --exit-after N.
 *
 *   --alpha A --beta B --batch N --slow-first N --exit-after N --sleep S
 *   --ignore-term      ignore SIGTERM (the profiler must SIGKILL it)
 *   --silent           print only chatter, never a progress line
 *   --custom           print "step N: X.XXX ms/it" instead (for --regex)
 *   --no-time          omit iter_time= and really sleep T (clock-timed)
 *   --stderr           progress on stderr
 *   --ranks R          print each line R times (several ranks)
 *   --mem BYTES        add mem=BYTES
 *   --nvml-file PATH   write "BYTES" there at start (the fake NVML's used memory)
 *   --bad              print a malformed progress line after 3 iterations */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void nap(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

static int count_gpus(void)
{
    const char *v = getenv("CUDA_VISIBLE_DEVICES");
    if (!v || !*v)
        return 1;
    int n = 1;
    for (const char *p = v; *p; p++)
        n += *p == ',';
    return n;
}

int main(int argc, char **argv)
{
    double alpha = 0.01, beta = 0.0001, sleep_s = 0.002;
    long batch = -1, slow_first = 0, exit_after = -1, ranks = 1, mem = -1;
    int ignore_term = 0, silent = 0, custom = 0, no_time = 0, bad = 0;
    FILE *out = stdout;
    const char *nvml_file = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "0";
        if (!strcmp(a, "--alpha")) alpha = atof(v), i++;
        else if (!strcmp(a, "--beta")) beta = atof(v), i++;
        else if (!strcmp(a, "--batch")) batch = atol(v), i++;
        else if (!strcmp(a, "--slow-first")) slow_first = atol(v), i++;
        else if (!strcmp(a, "--exit-after")) exit_after = atol(v), i++;
        else if (!strcmp(a, "--sleep")) sleep_s = atof(v), i++;
        else if (!strcmp(a, "--ranks")) ranks = atol(v), i++;
        else if (!strcmp(a, "--mem")) mem = atol(v), i++;
        else if (!strcmp(a, "--nvml-file")) nvml_file = v, i++;
        else if (!strcmp(a, "--ignore-term")) ignore_term = 1;
        else if (!strcmp(a, "--silent")) silent = 1;
        else if (!strcmp(a, "--custom")) custom = 1;
        else if (!strcmp(a, "--no-time")) no_time = 1;
        else if (!strcmp(a, "--stderr")) out = stderr;
        else if (!strcmp(a, "--bad")) bad = 1;
        else {
            fprintf(stderr, "fake_train: unknown argument %s\n", a);
            return 2;
        }
    }
    if (batch < 0) {
        const char *e = getenv("MLSCHED_BATCH_SIZE");
        batch = e ? atol(e) : 0;
    }
    if (batch <= 0) {
        fprintf(stderr, "fake_train: no batch size\n");
        return 2;
    }
    if (ignore_term)
        signal(SIGTERM, SIG_IGN);
    if (nvml_file) {
        FILE *f = fopen(nvml_file, "w");
        if (f) {
            fprintf(f, "%ld\n", mem > 0 ? mem : 4294967296L);
            fclose(f);
        }
    }
    static const double factor[5] = {1.00, 0.98, 1.02, 0.96, 1.04};
    double base = alpha + beta * (double)batch + 0.001 * (count_gpus() - 1);
    printf("fake_train: batch %ld on %d GPU(s), loading...\n", batch, count_gpus());
    fflush(stdout);
    for (long it = 1; exit_after < 0 || it <= exit_after; it++) {
        double t = base * factor[(it - 1) % 5] * (it <= slow_first ? 10 : 1);
        if (no_time)
            nap(t);
        else if (sleep_s > 0)
            nap(sleep_s);
        if (silent) {
            if (it % 50 == 0)
                printf("still loading the data set (%ld)\n", it);
            fflush(stdout);
            continue;
        }
        for (long r = 0; r < ranks; r++) {
            if (custom)
                fprintf(out, "[rank%ld] step %ld: %.6f ms/it, loss 1.0\n", r, it, t * 1000);
            else if (bad && it == 4)
                fprintf(out, "mlsched-progress iter=%ld iter_time=fast\n", it);
            else {
                fprintf(out, "mlsched-progress iter=%ld samples=%ld batch=%ld", it, it * batch,
                        batch);
                if (!no_time)
                    fprintf(out, " iter_time=%.9f", t);
                if (mem > 0)
                    fprintf(out, " mem=%ld", mem);
                fprintf(out, "\n");
            }
        }
        fflush(out);
    }
    return 3;
}
