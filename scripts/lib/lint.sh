# clippy inside a build, sourced by scripts/test (with --lint, as .ci/run
# runs it) and scripts/test-python. `cargo clippy` is `cargo check` with
# clippy's driver wrapped around rustc for the workspace's own crates, and
# `check` builds every dependency again in a mode of its own (metadata
# only): on a fresh clone that cost as long as a third of the test build.
# Wrapping the driver around the build itself lints the same crates and
# targets while they compile for real, and the dependencies are built
# once. Measured on a warm target: the workspace's crates took 465 CPU-s
# to build plain and 467 with the driver, and its tests ran as fast.
#
# CLIPPY_ARGS is how `cargo clippy` hands its arguments to the driver
# (separated by __CLIPPY_HACKERY__). Should a clippy release ever change
# that, the driver passes the words to rustc, which refuses them: the build
# fails loudly, it never stops linting silently.
#
#   lint_while_building       exports the wrapper for every later cargo
#                             command (they must all see it, or cargo
#                             rebuilds the workspace's crates without it)

lint_while_building() {
    local driver
    driver="$(command -v clippy-driver)" || {
        echo "clippy-driver not found: rustup component add clippy" >&2
        return 1
    }
    export RUSTC_WORKSPACE_WRAPPER="$driver"
    export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
}
