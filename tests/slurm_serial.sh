# slurm_serial.sh: sourced by the tests that start a private Slurm
# (scripts/slurm/start). slurm_test_require skips (77) unless Slurm is
# installed, we are root and the commands a test names are there;
# slurm_test_start DIR takes the lock below and starts the test's Slurm in
# DIR (MLS_SLURM_GPUS, MLS_SLURM_NODES from the caller), skipping when it
# does not start. `make check -j` runs tests side by side; two private
# Slurms on one small machine slow each other's starts past the margins of the
# live JCT comparisons and can leave nodes unknown, so these tests take turns:
# slurm_serial_lock waits (up to 15 min) for a lock folder, taking over one
# whose owner process has died, and says how long it waited;
# slurm_serial_unlock (call it from the test's exit trap, with
# scripts/slurm/stop DIR) gives it back. A folder, not flock(1): the lock must not be
# inherited by the Slurm daemons and jobs the test starts.
# slurm_accuracy_asserted: 0 (true) unless $MLSCHED is a sanitizer build,
# whose slower restarts on Slurm (up to 2 s) make the JCT comparison a test of
# the machine's speed; such a build still prints the differences.

slurm_serial_lock() {
    slurm_lock_dir=${TMPDIR:-/tmp}/mlsched-slurm-tests.lock
    slurm_lock_wait=0
    until mkdir "$slurm_lock_dir" 2>/dev/null; do
        slurm_lock_owner=$(cat "$slurm_lock_dir/pid" 2>/dev/null)
        if [ -n "$slurm_lock_owner" ] && ! kill -0 "$slurm_lock_owner" 2>/dev/null; then
            rm -rf "$slurm_lock_dir"
            continue
        fi
        slurm_lock_wait=$((slurm_lock_wait + 1))
        if [ $slurm_lock_wait -gt 9000 ]; then
            echo "slurm_serial: waited 15 min for $slurm_lock_dir (held by ${slurm_lock_owner:-?})"
            slurm_lock_dir=""
            return 1
        fi
        sleep 0.1
    done
    echo $$ >"$slurm_lock_dir/pid"
    [ $slurm_lock_wait -gt 0 ] &&
        echo "slurm_serial: waited $((slurm_lock_wait / 10)) s for the Slurm test lock"
    return 0
}

slurm_serial_unlock() {
    [ -n "${slurm_lock_dir:-}" ] && [ "$(cat "$slurm_lock_dir/pid" 2>/dev/null)" = $$ ] &&
        rm -rf "$slurm_lock_dir"
    slurm_lock_dir=""
}

slurm_accuracy_asserted() {
    ! grep -q __asan_init "${MLSCHED:-./mlsched}" 2>/dev/null
}

# slurm_test_require [COMMAND...]: exits 77, saying why, unless slurmctld is
# installed (scripts/install-deps --slurm), we are root (a private Slurm
# starts its daemons as root) and each COMMAND is on the PATH.
slurm_test_require() {
    if ! command -v slurmctld >/dev/null 2>&1 && [ ! -x /usr/sbin/slurmctld ]; then
        echo "SKIP: slurmctld is not installed (scripts/install-deps --slurm)"
        exit 77
    fi
    if [ "$(id -u)" != 0 ]; then
        echo "SKIP: starting a private Slurm needs root"
        exit 77
    fi
    for _c in "$@"; do
        command -v "$_c" >/dev/null 2>&1 && continue
        echo "SKIP: the $_c command is not installed"
        exit 77
    done
}

# slurm_test_start DIR: takes the lock (exit 1 when it waited too long) and
# starts a private Slurm in DIR (its log in DIR.start.log), then exports
# SLURM_CONF; exits 77 when Slurm does not start. Call it once the exit trap
# that stops DIR and calls slurm_serial_unlock is set: test_init's
# (tests/test_lib.sh) does both for the slurm_dir set here.
slurm_test_start() {
    slurm_dir=$1
    slurm_serial_lock || exit 1
    if ! "$SRCDIR/scripts/slurm/start" "$1" >"$1.start.log" 2>&1; then
        echo "SKIP: Slurm did not start: $(cat "$1.start.log")"
        exit 77
    fi
    SLURM_CONF="$1/slurm.conf"
    export SLURM_CONF
}
