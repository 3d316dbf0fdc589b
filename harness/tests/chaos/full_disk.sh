#!/bin/sh
# A `ptxcts run` on a full disk, for the chaos soak (run under `unshare -rm`, whose mounts end with it):
#   full_disk.sh disk-reports|disk-tmp SIZE MOUNT REPORTS LEFT COMMAND...
# mounts a tmpfs of SIZE bytes at MOUNT and runs COMMAND, which the soak has pointed at it: its
# --reports (disk-reports: the reports folder's files, a journal to resume included, are copied in
# first and back after, so that what the run wrote on the full disk is what the next run finds) or
# its $TMPDIR (disk-tmp: what the run leaves there is counted into LEFT, "ENTRIES BYTES", since the
# tmpfs goes with the namespace). Exits as COMMAND did.
set -u
kind=$1 size=$2 mount=$3 reports=$4 left=$5
shift 5
mount -t tmpfs -o "size=$size" tmpfs "$mount" || exit 90
if [ "$kind" = disk-reports ]; then
  cp -a "$reports/." "$mount/" 2>/dev/null || exit 91
fi
"$@"
rc=$?
if [ "$kind" = disk-reports ]; then
  find "$reports" -mindepth 1 -delete
  cp -a "$mount/." "$reports/"
else
  echo "$(find "$mount" -mindepth 1 | wc -l) $(find "$mount" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}')" >"$left"
fi
exit $rc
