//! Conventions shared by every command: the demo, help, usage errors.

mod support;

use support::run;

#[test]
fn the_demo_solves_every_sample_and_draws_it() {
    let got = run(&["demo"], b"");
    assert_eq!(got.code, 0, "{}", got.stderr);
    let text = got.stdout_text();
    assert!(!text.contains("DIFFERS"), "{text}");
    assert!(!text.contains("REJECTED"), "{text}");
    assert!(text.contains("valid by `showdown check`"), "{text}");
    for (command, seed) in [
        ("queens", "000"),
        ("sultan", "001"),
        ("showdown", "002"),
        ("tour", "003"),
    ] {
        assert!(
            text.contains(&format!("== {command} (seed {seed})")),
            "{command}"
        );
    }
    assert!(
        text.matches("identical to the statement's sample output")
            .count()
            >= 3
    );
    assert!(text.contains('♛'));
}

#[test]
fn help_and_version_succeed() {
    for args in [
        &["--help"][..],
        &["--version"],
        &["queens", "--help"],
        &["sultan", "gen", "--help"],
    ] {
        let got = run(args, b"");
        assert_eq!(got.code, 0, "{args:?}: {}", got.stderr);
        assert!(!got.stdout.is_empty());
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["no-such-command"][..],
        &["queens", "--format", "xml"],
        &["queens", "gen", "--cases", "0"],
        &["sultan", "gen", "--kind", "nope"],
        &["sultan", "check", "only-one-file"],
    ] {
        let got = run(args, b"");
        assert_eq!(got.code, 2, "{args:?}");
        assert!(!got.stderr.contains("panicked"));
        assert!(!got.stderr.is_empty());
    }
}
