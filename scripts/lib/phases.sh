# Phase times of a test run, sourced by .ci/run and scripts/test: every
# landing shows where its minutes went, and a run that has grown past its
# budget says which phases grew. It warns and never fails for time: a CI
# run on a noisy machine must not turn red for being slow.
#
#   phase NAME COMMAND...     runs COMMAND, records its wall time under NAME
#                             and how many cores the machine kept busy
#                             meanwhile (may be sent to the background with &)
#   phases_report             prints the table; once per run (the outermost
#                             script that sourced this first prints it)
#
# The table is kept in TESSERA_PHASES (a file), so .ci/run and the
# scripts/test it calls write one table between them.

# The budget of a whole run on two cores, in seconds.
phases_budget=${TESSERA_TEST_BUDGET:-1500}

if [ -z "${TESSERA_PHASES:-}" ]; then
    TESSERA_PHASES="$(mktemp)"
    export TESSERA_PHASES
    export TESSERA_PHASES_START="$(date +%s)"
    phases_owner=1
else
    phases_owner=0
fi

# The machine's busy and total CPU time so far (jiffies, all cores), from
# /proc/stat: "busy total".
cpu_jiffies() {
    awk '/^cpu / { t = 0; for (i = 2; i <= 9; i++) t += $i; print t - $5 - $6, t }' /proc/stat
}

phase() { # name command...
    local name="$1" start status=0 before after
    shift
    start="$(date +%s)"
    before="$(cpu_jiffies)"
    echo "==> $name: $*" >&2
    "$@" || status=$?
    after="$(cpu_jiffies)"
    # Busy cores on average: machine-wide, so a phase that overlaps another
    # counts both. A phase well under the core count leaves room to overlap.
    printf '%s\t%s\t%s\t%s\n' "$name" "$(( $(date +%s) - start ))" "$status" \
        "$(echo "$before $after" | awk -v n="$(nproc)" '{ t = $4 - $2; printf "%.1f", (t > 0 ? n * ($3 - $1) / t : 0) }')" \
        >>"$TESSERA_PHASES"
    return "$status"
}

phases_report() {
    [ "$phases_owner" = 1 ] || return 0
    local total=$(( $(date +%s) - TESSERA_PHASES_START ))
    {
        echo
        echo "| phase | seconds | minutes | cores busy (of $(nproc)) | status |"
        echo "|---|---:|---:|---:|---|"
        awk -F'\t' '{ printf "| %s | %d | %.1f | %s | %s |\n", $1, $2, $2 / 60, $4, ($3 == 0 ? "ok" : "exit " $3) }' "$TESSERA_PHASES"
        awk -v t="$total" 'BEGIN { printf "| **total (wall; phases may overlap)** | %d | %.1f | | |\n", t, t / 60 }'
        if [ "$total" -gt "$phases_budget" ]; then
            echo
            echo "warning: the run took $total s, over its budget of $phases_budget s; the slowest phases:"
            sort -t$'\t' -k2,2nr "$TESSERA_PHASES" | head -3 | awk -F'\t' '{ printf "  %s: %d s\n", $1, $2 }'
        fi
    } >&2
    rm -f "$TESSERA_PHASES"
}
