# slurm_serial.sh: sourced by the tests that start a private Slurm
# (scripts/slurm/start). `make check -j` runs tests side by side; two private
# Slurms on one small machine slow each other's starts past the margins of the
# live JCT comparisons and can leave nodes unknown, so these tests take turns:
# slurm_serial_lock waits (up to 15 min) for a lock folder, taking over one
# whose owner process has died; slurm_serial_unlock (call it from the test's
# exit trap) gives it back. A folder, not flock(1): the lock must not be
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
}

slurm_serial_unlock() {
    [ -n "${slurm_lock_dir:-}" ] && [ "$(cat "$slurm_lock_dir/pid" 2>/dev/null)" = $$ ] &&
        rm -rf "$slurm_lock_dir"
    slurm_lock_dir=""
}

slurm_accuracy_asserted() {
    ! grep -q __asan_init "${MLSCHED:-./mlsched}" 2>/dev/null
}
