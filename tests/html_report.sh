#!/bin/sh
# html_report.sh: `compare --html` and `report --html` write one
# self-contained page (nothing fetched: no external script, style sheet or
# image) that a real browser opens with the comparison table, every figure
# as inline SVG, the run parameters and the diagnostics in its DOM, and the
# table sorter's script run. Skips (77) without gnuplot or a headless
# chromium (Debian: chromium or chromium-headless-shell).
set -u
: "${MLSCHED:=./mlsched}"
command -v gnuplot >/dev/null 2>&1 || { echo "html_report.sh: SKIP: gnuplot not installed (Debian: gnuplot-nox)"; exit 77; }
browser=""
for b in chromium-headless-shell chromium chromium-browser google-chrome; do
    command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
[ -n "$browser" ] || { echo "html_report.sh: SKIP: no headless browser (Debian: chromium-headless-shell or chromium)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$MLSCHED" trace generate --jobs 30 --rate 4/h --seed 1 --multi-gpu -o "$tmp/t.csv" >/dev/null || fail=1
"$MLSCHED" compare --trace "$tmp/t.csv" --cluster v100=2x4,k80=2x4 --policies fifo,las,sjf,themis,drf \
    --db "$tmp/r.db" --html "$tmp/page" >"$tmp/out" 2>&1 || { echo "FAIL: compare --html: $(cat "$tmp/out")"; fail=1; }
page="$tmp/page/index.html"
[ -s "$page" ] || { echo "FAIL: no $page: $(cat "$tmp/out")"; exit 1; }
# self-contained: no external resource of any kind
if grep -Eiq '<script[^>]* src=|<link |<img |src="https?:|href="https?:' "$page"; then
    echo "FAIL: the page refers to an external resource"; fail=1
fi
# a real browser's DOM (its --dump-dom runs the page's script first)
dump() { # page -> DOM on stdout
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$tmp/profile" --dump-dom "file://$1" 2>"$tmp/browser.err"
}
dump "$page" >"$tmp/dom.html" || { echo "FAIL: $browser could not open the page: $(tail -3 "$tmp/browser.err")"; fail=1; }
rows=$(sed -n '/<table id="comparison"/,/<\/table>/p' "$tmp/dom.html" | grep -c '<tr><td')
[ "$rows" -eq 5 ] || { echo "FAIL: the comparison table has $rows policy rows, expected 5"; fail=1; }
svgs=$(grep -o '<figure id="fig-[a-z_]*"><svg' "$tmp/dom.html" | wc -l)
[ "$svgs" -ge 5 ] || { echo "FAIL: $svgs inline SVG figures in the DOM, expected 5 (CDFs, timeline, bars, users)"; fail=1; }
for id in fig-jct_cdf fig-timeline fig-relative_bars table runs diagnostics params run-1; do
    grep -q "id=\"$id\"" "$tmp/dom.html" || { echo "FAIL: no element #$id in the DOM"; fail=1; }
done
grep -q 'data-sortable="ready"' "$tmp/dom.html" || { echo "FAIL: the table sorter's script did not run"; fail=1; }
grep -q 'utilization [0-9.]*%' "$tmp/dom.html" || { echo "FAIL: no diagnostics"; fail=1; }
# report --html on the database, filtered: one policy, its page has one row
"$MLSCHED" report --db "$tmp/r.db" --policy las --html "$tmp/p2" >"$tmp/out2" 2>&1 || { echo "FAIL: report --html: $(cat "$tmp/out2")"; fail=1; }
dump "$tmp/p2/index.html" >"$tmp/dom2.html"
[ "$(sed -n '/<table id="comparison"/,/<\/table>/p' "$tmp/dom2.html" | grep -c '<tr><td')" -eq 1 ] ||
    { echo "FAIL: report --policy las --html: not one row"; fail=1; }
"$MLSCHED" report --db "$tmp/r.db" --policy nosuch --html "$tmp/p3" >/dev/null 2>&1
[ $? -eq 1 ] || { echo "FAIL: report --html with no run did not exit 1"; fail=1; }
[ $fail -eq 0 ] && echo "html_report.sh: all checks passed"
exit $fail
