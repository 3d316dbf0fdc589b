#!/usr/bin/env bash
# Issue 44 on a lent H200: the release package of this commit as a user installs it. Every run is
# kept: the tarball's runs record into the default history (~/.local/share/ptxcts/history.sqlite);
# the committed reports are imported (twice: the second finds them all there); the questions and
# the history page; the .deb's run by a user who is not root records into that user's own history.
set -u
root=$PWD
W=/tmp/w; rm -rf $W ~/.local/share/ptxcts; mkdir -p $W/r
R() { n=$1; shift; /usr/bin/time -f "%e s" -o $W/$n.time "$@" > $W/$n.log 2>&1; rc=$?
  echo "$n: exit $rc, $(cat $W/$n.time), $(wc -l < $W/$n.log) lines | $(grep -m1 '^history' $W/$n.log | cut -c1-150)"; }
nvidia-smi -L > $W/nvidia-smi.txt 2>&1; cat $W/nvidia-smi.txt
D="$W/a path with spaces/ünïcödé"; mkdir -p "$D"
tar xzf .device/ptxcts-0.1.0-Linux-x86_64.tar.gz -C "$D" || exit 1
B="$D/ptxcts-0.1.0-Linux-x86_64/bin"
"$B/ptxcts" --version > $W/version.txt 2>&1; head -1 $W/version.txt
ldd "$B/ptxcts" > $W/ldd.txt 2>&1; grep -E "sqlite|libpq|not found" $W/ldd.txt || echo "ldd: no libsqlite3, no libpq, nothing missing"
cd $W
R run1 "$B/ptxcts" run --reports $W/r/a
R run2-jit "$B/ptxcts" run --toolchain jit --reports $W/r/a
R run3-no-history "$B/ptxcts" run --no-history --reports $W/r/b
R import1 "$B/ptxcts" history import "$root/reports"
R import2 "$B/ptxcts" history import "$root/reports"
R changes "$B/ptxcts" history changes
R latest "$B/ptxcts" history latest
R regressions "$B/ptxcts" history regressions
R case "$B/ptxcts" history case claim wmma-requirements-float
R changes-json "$B/ptxcts" history changes --json
R page "$B/ptxcts" history page $W/history.html
ls -la ~/.local/share/ptxcts/ $W/history.html > $W/sizes.txt 2>&1; cat $W/sizes.txt
for n in import1 import2 changes latest regressions case page; do echo "== $n"; head -30 $W/$n.log | cut -c1-200; done
{ dpkg -i "$root/.device/ptxcts_0.1.0_amd64.deb" 2>&1 | tail -1; useradd -m ptxuser 2>/dev/null; mkdir -p $W/r/user && chown ptxuser $W/r/user; } > $W/deb-install.log 2>&1
R user-deb runuser -u ptxuser -- /usr/bin/ptxcts run -q --reports $W/r/user
R user-latest runuser -u ptxuser -- /usr/bin/ptxcts history latest
cat $W/user-deb.log $W/user-latest.log | cut -c1-200; ls -la /home/ptxuser/.local/share/ptxcts 2>&1
cd /tmp && tar czf $OUT/h200.tgz w/*.log w/*.time w/*.txt w/history.html && ls -la $OUT
