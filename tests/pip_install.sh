#!/bin/sh
# pip_install.sh: `pip install bindings/python` works (issue 20): offline
# (--no-index --no-build-isolation: the setuptools already installed builds
# it), into a --target folder, from a copy of the folder (a build writes
# next to its pyproject.toml, and the source tree may be read-only). The
# installed module is then the one a policy outside the source tree imports:
# the Python fifo, copied away from bindings/, runs `mlsched simulate` with
# only the installed mlsched_policy on its path, and gives the C fifo's JCTs.
# Skips (77) when no Python here has pip, setuptools and a wheel builder
# (the `wheel` package, or setuptools 70.1 or later, which has its own).
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
py=""
for p in python3 /usr/bin/python3 /usr/local/bin/python3; do
    command -v "$p" >/dev/null 2>&1 || continue
    "$p" - <<'EOF' >/dev/null 2>&1 || continue
import importlib.util as u, sys
import setuptools, pip  # noqa: F401
v = tuple(int(x) for x in setuptools.__version__.split(".")[:2])
sys.exit(0 if u.find_spec("wheel") or v >= (70, 1) else 1)
EOF
    py=$p
    break
done
[ -n "$py" ] || { echo "SKIP: no python3 with pip, setuptools and wheel (offline build)"; exit 77; }
command -v sqlite3 >/dev/null 2>&1 || { echo "SKIP: sqlite3 not found"; exit 77; }
tmp=$(mktemp -d /tmp/mls-pip-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

cp -R "$SRCDIR/bindings/python" "$tmp/src"
chmod -R u+w "$tmp/src"
"$py" -m pip install --no-index --no-build-isolation --no-deps --disable-pip-version-check \
    --target "$tmp/site" "$tmp/src" >"$tmp/pip.log" 2>&1 ||
    bad "pip install ($py) failed: $(tail -20 "$tmp/pip.log")"
[ -f "$tmp/site/mlsched_policy.py" ] || bad "no mlsched_policy.py installed: $(ls "$tmp/site" 2>&1)"
ls -d "$tmp/site"/mlsched_policy-*.dist-info >/dev/null 2>&1 || bad "no dist-info installed"
where=$(cd "$tmp" && PYTHONPATH="$tmp/site" "$py" -c 'import mlsched_policy as m; print(m.__file__)')
[ "$where" = "$tmp/site/mlsched_policy.py" ] || bad "mlsched_policy imported from '$where'"

# a policy outside the source tree, with only the installed module
mkdir "$tmp/pol"
cp "$SRCDIR/examples/policies/fifo.py" "$tmp/pol/fifo.py"
trace="$SRCDIR/tests/fixtures/regress/mix40.csv"
for q in fifo "exec:$py $tmp/pol/fifo.py"; do
    PYTHONPATH="$tmp/site" "$MLSCHED" simulate --trace "$trace" --cluster v100=2x4 --policy "$q" \
        --seed 1 -q --db "$tmp/r.db" >/dev/null 2>"$tmp/err" || bad "simulate $q failed: $(cat "$tmp/err")"
done
jcts() { sqlite3 "$tmp/r.db" "SELECT group_concat(quote(jct)) FROM (SELECT jct FROM jobs j
    JOIN runs r USING (run_id) WHERE r.policy = '$1' ORDER BY job_id)"; }
c=$(jcts fifo)
[ -n "$c" ] && [ "$c" = "$(jcts "exec:$py $tmp/pol/fifo.py")" ] ||
    bad "the installed module's fifo differs from the C fifo"
echo "pip install with $py: $(grep -o 'Successfully installed.*' "$tmp/pip.log")"
exit $((fail > 0))
