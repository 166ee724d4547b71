# test_lib.sh: the start every script test shares, sourced after the test
# sets MLSCHED and SRCDIR. test_init NAME [COMMAND...] skips (exit 77) unless
# each COMMAND is installed, makes the test's folder $tmp
# (/tmp/mls-NAME-XXXXXX), sets fail=0 and bad() (says FAIL and counts into
# $fail), and an exit trap that cleans up: it kills the daemons the test
# started ($pid, $pids, and those whose pid it wrote in $tmp/*.pid), runs the
# test's own test_cleanup_more (define it after test_init), stops the private
# Slurm that slurm_test_start (tests/slurm_serial.sh) started, removes $tmp
# (kept and named with KEEP=1) and gives the Slurm test lock back. INT and
# TERM exit 1, through the same trap. One place for what each test used to
# spell out again.

test_init() {
    _name=$1
    shift
    for _c in "$@"; do
        command -v "$_c" >/dev/null 2>&1 && continue
        echo "SKIP: the $_c command is not installed"
        exit 77
    done
    tmp=$(mktemp -d "/tmp/mls-$_name-XXXXXX") || exit 1
    pid="" pids="" fail=0
    bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
    test_cleanup_more() { :; }
    trap test_cleanup EXIT
    trap 'exit 1' INT TERM
}

test_cleanup() {
    for _p in $pid $pids $(cat "$tmp"/*.pid 2>/dev/null); do kill "$_p" 2>/dev/null; done
    test_cleanup_more
    [ -n "${slurm_dir:-}" ] && "$SRCDIR/scripts/slurm/stop" "$slurm_dir"
    if [ -n "${KEEP:-}" ]; then echo "kept $tmp"; else rm -rf "$tmp"; fi
    [ -n "${slurm_dir:-}" ] && slurm_serial_unlock
}
