# Runs the workspace's Rust tests that `cargo test --workspace --tests --no-run`
# built, in two lanes at once, sourced by scripts/test. `cargo test` runs
# its test binaries one after another, and most of the time one of them
# leaves a core idle: the command-line and server tests (`it`) wait on
# servers, sockets and a person's pace, while the engines' tests keep the
# CPU busy. So `it` runs in one lane and every other binary, in cargo's
# order, in the other; then the doctests. `it` runs four tests at a time
# (TESSERA_IT_THREADS): they mostly wait, and four took two thirds of the
# time two did. (The engines' budget tests, slide's tests/budgets.rs,
# count their thread's CPU time, so the load beside them does not stretch
# what they measure.) Each binary runs from its
# package's directory, as cargo runs it, and its output is printed whole.
#
#   rust_tests [TEST ARGS...]     e.g. rust_tests --nocapture

rust_tests() {
    local dir list status=0
    dir="$(mktemp -d)"
    list="$dir/binaries"
    # One line a test binary: its package's directory, then its path.
    cargo test --workspace --tests --no-run --message-format=json 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("reason") == "compiler-artifact" and message.get("executable") \
            and message["profile"]["test"]:
        print(message["manifest_path"].rsplit("/", 1)[0] + "\t" + message["executable"])
' >"$list"
    [ -s "$list" ] || { echo "no test binaries found" >&2; return 1; }
    lane() { # name, then lines "dir<TAB>binary" on stdin; args for the binaries
        local name="$1" failed=0
        shift
        while IFS=$'\t' read -r package binary; do
            echo "     Running $(basename "$binary") in $package"
            (cd "$package" && CARGO_MANIFEST_DIR="$package" "$binary" "$@") || failed=1
        done >"$dir/$name.log" 2>&1
        return "$failed"
    }
    { grep -E '/it-[0-9a-f]+$' "$list" || true; } |
        lane servers --test-threads "${TESSERA_IT_THREADS:-4}" "$@" &
    local servers=$!
    { grep -vE '/it-[0-9a-f]+$' "$list" || true; } | lane engines "$@" || status=1
    wait "$servers" || status=1
    cat "$dir/engines.log" "$dir/servers.log"
    cargo test --workspace --doc || status=1
    rm -rf "$dir"
    return "$status"
}

# Runs one package's library tests (the store's on PostgreSQL, say) from
# the binary `cargo test --workspace` built, from the package's directory as
# cargo runs it. `cargo test -p <package>` would resolve features for that
# package alone and build its dependencies again; a name filter cannot pick
# one crate's tests out of the workspace's.
#
#   lib_tests PACKAGE [TEST ARGS...]     e.g. lib_tests store
lib_tests() {
    local package="$1" found dir
    shift
    found="$(cargo test --workspace --lib --no-run --message-format=json 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("reason") == "compiler-artifact" and message.get("executable") \
            and message["profile"]["test"] and message["target"]["name"] == sys.argv[1]:
        print(message["manifest_path"].rsplit("/", 1)[0] + "\t" + message["executable"])
' "$package")"
    [ -n "$found" ] || { echo "no library tests of $package found" >&2; return 1; }
    dir="${found%%$'\t'*}"
    (cd "$dir" && CARGO_MANIFEST_DIR="$dir" "${found#*$'\t'}" "$@")
}
