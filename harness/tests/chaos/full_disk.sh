#!/bin/sh
# A `ptxcts run` on a full disk, for the chaos soak (run under `unshare -rm`, whose mounts end with it):
#   full_disk.sh SIZE MOUNT KEEP COMMAND...
# mounts a tmpfs of SIZE bytes at MOUNT, copies into it what the folder KEEP holds, runs COMMAND,
# which the soak has pointed at MOUNT (its --reports for disk-reports, its $TMPDIR for disk-tmp),
# and puts back in KEEP what the tmpfs holds then. So the run finds on the full disk what the run
# before it left (a journal to resume; a scratch folder a SIGKILL left, for its sweep), and the next
# run finds what this one left (the soak counts what the last one leaves). Exits as COMMAND did.
set -u
size=$1 mount=$2 keep=$3
shift 3
mount -t tmpfs -o "size=$size" tmpfs "$mount" || exit 90
cp -a "$keep/." "$mount/" 2>/dev/null || exit 91
"$@"
rc=$?
find "$keep" -mindepth 1 -delete
cp -a "$mount/." "$keep/"
exit $rc
