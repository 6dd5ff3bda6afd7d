//! Conventions shared by every command: the demo, help, usage errors.

use crate::common::run;

#[test]
fn the_demo_solves_every_sample_and_draws_it() {
    let got = run(&["demo"], b"");
    assert_eq!(got.code, 0, "{}", got.stderr);
    let text = got.stdout_text();
    assert!(!text.contains("DIFFERS"), "{text}");
    assert!(!text.contains("REJECTED"), "{text}");
    assert!(text.contains("valid by `showdown check`"), "{text}");
    for (title, judge, command) in [
        ("8 Queens Chess Problem", "UVa 750", "queens"),
        ("The Sultan's Successors", "UVa 167", "sultan"),
        ("Chess Variants Showdown", "SPOJ CHE", "showdown"),
        ("Traveling Queen", "POJ 2919", "tour"),
    ] {
        assert!(text.contains(&format!("== {title} ({judge}): ")), "{title}");
        assert!(
            text.contains(&format!(
                "`chess-puzzles {command}` on the statement's sample input"
            )),
            "{command}"
        );
    }
    // Users never see the internal numbers of the statements.
    assert!(!text.to_lowercase().contains("seed 00"), "{text}");
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
