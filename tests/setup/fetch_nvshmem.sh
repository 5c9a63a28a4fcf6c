#!/bin/sh
# fetch_nvshmem.sh SCRIPT - scripts/fetch-nvshmem.py without the network
# (GG_NVSHMEM_WHEEL names a local file): a wheel whose SHA-256 is not the
# pinned one is refused and nothing is installed; a folder the script did
# not make is never replaced; a folder stamped with the pinned version is
# left as it is (idempotent).
set -u
script=$1
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

printf 'not a wheel' > "$dir/fake.whl"
out=$(GG_NVSHMEM_WHEEL="$dir/fake.whl" python3 "$script" "$dir/nvshmem" 2>&1) && fail "fake wheel accepted: $out"
echo "$out" | grep -q "SHA-256 mismatch" || fail "no SHA-256 message: $out"
[ ! -e "$dir/nvshmem" ] || fail "a refused wheel left $dir/nvshmem"
[ -z "$(ls -A "$dir" | grep -v fake.whl)" ] || fail "a refused wheel left files: $(ls -A "$dir")"

mkdir "$dir/mine" && echo keep > "$dir/mine/data"
out=$(GG_NVSHMEM_WHEEL="$dir/fake.whl" python3 "$script" "$dir/mine" 2>&1) && fail "foreign folder accepted"
echo "$out" | grep -q "not made by this script" || fail "no foreign-folder message: $out"
[ "$(cat "$dir/mine/data")" = keep ] || fail "the foreign folder was touched"

version=$(sed -n 's/^VERSION = "\(.*\)"$/\1/p' "$script")
mkdir "$dir/done" && echo "$version" > "$dir/done/.version"
out=$(GG_NVSHMEM_WHEEL="$dir/fake.whl" python3 "$script" "$dir/done" 2>&1) || fail "stamped folder: $out"
echo "$out" | grep -q "already in" || fail "stamped folder not recognised: $out"
echo "fetch_nvshmem: ok"
