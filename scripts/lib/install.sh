# What the tests need beside Rust, installed where missing, sourced by
# scripts/test: Chromium (browser tests), tmux (the terminal game's tests),
# nginx and the PostgreSQL client (scale-out tests), the browser tests'
# node modules, and the Python environments of the contract check and the
# Python package. scripts/test runs this while the Rust tests build: one
# waits on the network and the disk, the other on the CPU.

install_test_tools() {
    need /usr/bin/chromium chromium tmux tmux nginx nginx psql postgresql-client
    if [ ! -d e2e/node_modules ]; then
        (cd e2e && npm ci --no-audit --no-fund --loglevel=error)
    fi
    # The same environments scripts/contract and scripts/test-python make
    # when they are missing (their versions are pinned there).
    scripts/contract --install-only
    scripts/test-python --install-only
}
