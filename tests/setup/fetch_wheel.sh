#!/bin/sh
# fetch_wheel.sh SCRIPT NAME - scripts/fetch-NAME.py without the network
# (GG_<NAME>_WHEEL names a local file): a wheel whose SHA-256 is not the
# pinned one is refused and nothing is installed; a folder the script did
# not make is never replaced; a folder stamped with the pinned version is
# left as it is (idempotent).
set -u
script=$1 name=$2
var=GG_$(echo "$name" | tr a-z A-Z)_WHEEL
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
fetch() { env "$var=$dir/fake.whl" python3 "$script" "$1" 2>&1; }

printf 'not a wheel' > "$dir/fake.whl"
out=$(fetch "$dir/$name") && fail "fake wheel accepted: $out"
echo "$out" | grep -q "SHA-256 mismatch" || fail "no SHA-256 message: $out"
[ ! -e "$dir/$name" ] || fail "a refused wheel left $dir/$name"
[ -z "$(ls -A "$dir" | grep -v fake.whl)" ] || fail "a refused wheel left files: $(ls -A "$dir")"

out=$(env "$var=$dir/no-such.whl" python3 "$script" "$dir/$name" 2>&1) && fail "missing wheel accepted: $out"
echo "$out" | grep -q "cannot read" || fail "no message for a missing wheel: $out"

mkdir "$dir/mine" && echo keep > "$dir/mine/data"
out=$(fetch "$dir/mine") && fail "foreign folder accepted"
echo "$out" | grep -q "not made by this script" || fail "no foreign-folder message: $out"
[ "$(cat "$dir/mine/data")" = keep ] || fail "the foreign folder was touched"

version=$(cd "$(dirname "$script")" && python3 -B -c "import wheels; print(wheels.PINS['$name'].version)") ||
  fail "no pin for $name in scripts/wheels.py"
mkdir "$dir/done" && echo "$version" > "$dir/done/.version"
out=$(fetch "$dir/done") || fail "stamped folder: $out"
echo "$out" | grep -q "already in" || fail "stamped folder not recognised: $out"
echo "fetch_wheel $name: ok"
