//! Running `tessera` as a user would, for the command-line tests.

/// `tessera ARGS`, which must succeed: its stdout.
pub fn stdout(args: &[&str]) -> String {
    run(args, "")
}

/// `tessera ARGS` reading `input` on stdin, which must succeed: its lines
/// of output (a batch command's answers).
pub fn answers(args: &[&str], input: &str) -> Vec<String> {
    run(args, input).lines().map(str::to_string).collect()
}

fn run(args: &[&str], input: &str) -> String {
    let output = assert_cmd::Command::cargo_bin("tessera")
        .unwrap()
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}
