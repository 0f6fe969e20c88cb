//! Running `tessera` as a user would, for the command-line tests.

/// `tessera ARGS`, which must succeed: its stdout.
pub fn stdout(args: &[&str]) -> String {
    let output = assert_cmd::Command::cargo_bin("tessera")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}
