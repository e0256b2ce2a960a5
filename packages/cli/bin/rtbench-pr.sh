#!/bin/sh
# rtbench-pr: a pull request's benchmarks in a project that has rtbench as a
# dev dependency, on one machine: each suite folder or file measured on the
# base commit, then on the checked-out head, by this rtbench, and the two runs
# compared (unpaired: two runs one after the other). Writes <out>/base-<i>.json,
# <out>/head-<i>.json and <out>/verdicts.md (appended to the GitHub job summary
# when there is one); exits 1 when a case is slower by more than
# --fail-on-regression, 2 on a usage error. The base is checked out as a git
# worktree inside <out>, so its imports resolve from the head's node_modules
# unless RTBENCH_BASE_INSTALL names a command that installs its own
# (docs/guides/ci.md).
#
#   rtbench-pr --base <git ref> [--out rtbench-pr] [--fail-on-regression 5%] <suite folder | file>... [-- <bench options>]
set -eu

USAGE='usage: rtbench-pr --base <git ref> [--out <dir>] [--fail-on-regression <percent>] <suite folder | file>... [-- <bench options>]'
usage() {
  echo "rtbench-pr: $1" >&2
  echo "$USAGE" >&2
  exit 2
}

launcher="$(dirname "$(readlink -f "$0")")/rtbench.mjs"
base=''
out='rtbench-pr'
fail='5%'
targets=''
while [ $# -gt 0 ]; do
  case $1 in
    --base | --out | --fail-on-regression)
      [ $# -ge 2 ] || usage "$1 needs a value"
      case $1 in --base) base=$2 ;; --out) out=$2 ;; *) fail=$2 ;; esac
      shift 2
      ;;
    -h | --help)
      echo "$USAGE"
      echo 'Measures each suite folder or file on the base commit and on the checked-out head, and compares them: docs/guides/ci.md.'
      exit 0
      ;;
    --) shift; break ;;
    -*) usage "unknown option $1 (the runs' own options go after --)" ;;
    *) targets="$targets$1
"; shift ;;
  esac
done
[ -n "$base" ] || usage 'name the base commit: --base <git ref> (on GitHub, github.event.pull_request.base.sha)'
[ -n "$targets" ] || usage 'name a suite folder or a file to measure'
git rev-parse --verify --quiet "$base^{commit}" >/dev/null || usage "no commit $base here: fetch it (actions/checkout with fetch-depth: 0)"

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
# A worktree left registered by a run that was killed is forgotten first.
git worktree prune
git worktree add --quiet --detach "$out/base" "$base"
cleanup() { git worktree remove --force "$out/base" 2>/dev/null || true; }
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
if [ -n "${RTBENCH_BASE_INSTALL:-}" ]; then (cd "$out/base" && sh -c "$RTBENCH_BASE_INSTALL"); fi

worst=0
i=0
while IFS= read -r target; do
  [ -n "$target" ] || continue
  i=$((i + 1))
  if [ ! -e "$out/base/$target" ]; then
    printf '%s is new in this pull request: no base to compare it with.\n\n' "$target" >>"$out/verdicts.md"
    continue
  fi
  echo "rtbench-pr: $target on the base ($base)" >&2
  (cd "$out/base" && node "$launcher" bench "$target" "$@" --save "$out/base-$i.json")
  echo "rtbench-pr: $target on the head" >&2
  node "$launcher" bench "$target" "$@" --save "$out/head-$i.json"
  code=0
  node "$launcher" compare "$out/base-$i.json" "$out/head-$i.json" --format markdown --fail-on-regression "$fail" >>"$out/verdicts.md" || code=$?
  echo >>"$out/verdicts.md"
  [ "$code" -le "$worst" ] || worst=$code
done <<EOF
$targets
EOF

if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$out/verdicts.md" >>"$GITHUB_STEP_SUMMARY"; fi
cat "$out/verdicts.md"
exit "$worst"
