#!/bin/sh
# peer_agreement.sh: scripts/peer-agreement.sh on the 300-job Gavel rows (~5 s):
# every row prints both numbers, and fifo-perf stays within 2 % of Gavel's
# fifo_perf on makespan and average JCT, allox within 3.5 % (measured: at most
# 1.7 % and 3.0 %, docs/reproducing.md "Comparing with peer simulators"). Skips without the
# shared data.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
out=$(MLSCHED="$MLSCHED" PEERS=gavel QUICK=1 sh "$SRCDIR/scripts/peer-agreement.sh")
rc=$?
[ $rc = 77 ] && { echo "$out"; exit 77; }
echo "$out"
[ $rc = 0 ] || { echo "FAIL: peer-agreement.sh exited $rc"; exit 1; }
echo "$out" | awk '
    NR == 1 { next }
    $1 != "gavel" || NF != 13 { print "FAIL: a row without numbers: " $0; bad = 1; next }
    { rows++; m = $7 < 0 ? -$7 : $7; j = $11 < 0 ? -$11 : $11
      lim = $4 == "fifo-perf" ? 2 : $4 == "allox" ? 3.5 : -1
      if (lim >= 0 && (m > lim || j > lim)) { print "FAIL: beyond " lim " %: " $0; bad = 1 } }
    END { if (rows != 10) { print "FAIL: " rows " rows, wanted 10"; bad = 1 }
          if (!bad) print "peer_agreement.sh: all checks passed"; exit bad }'
