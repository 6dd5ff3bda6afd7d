//! Shell completions and manual pages, generated from the argument definitions, through the
//! real binary and, where the shell is installed, the real shell. With CI=true a missing shell
//! is a failure (CI installs zsh and fish); elsewhere its checks are skipped with a note.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{run, scratch};

fn script(shell: &str, dir: &Path) -> PathBuf {
    let got = run(&["completions", shell], b"");
    assert_eq!(got.code, 0, "{shell}: {}", got.stderr);
    assert!(got.stdout_text().contains("chess-puzzles"), "{shell}");
    let path = dir.join(format!("completion.{shell}"));
    std::fs::write(&path, &got.stdout).unwrap();
    path
}

/// Whether `program` runs here; under CI=true it must.
fn available(program: &str) -> bool {
    let found = Command::new(program).arg("--version").output().is_ok();
    if !found {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{program} must be installed in CI (.ci/ux-kit.sh installs it)"
        );
        eprintln!("note: {program} is not installed: its completion checks are skipped");
    }
    found
}

/// What bash offers for the command line `line` (completing its last word).
fn bash_offers(script: &Path, line: &str) -> Vec<String> {
    let program = format!(
        r#"source '{}'
read -ra COMP_WORDS <<< "$LINE"
[[ "$LINE" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1))
COMP_LINE="$LINE"
COMP_POINT=${{#LINE}}
_chess__puzzles chess-puzzles "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
printf '%s\n' "${{COMPREPLY[@]}}""#,
        script.display()
    );
    let got = Command::new("bash")
        .args(["-c", &program])
        .env("LINE", line)
        .output()
        .expect("bash runs");
    assert!(
        got.status.success(),
        "{}",
        String::from_utf8_lossy(&got.stderr)
    );
    String::from_utf8_lossy(&got.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn bash_completes_commands_options_and_their_values() {
    let tmp = scratch("completions-bash");
    let dir = tmp.path();
    let script = script("bash", dir);
    let offers = |line: &str| bash_offers(&script, line);
    assert_eq!(offers("chess-puzzles qu"), ["queens"]);
    let top = offers("chess-puzzles ");
    for command in [
        "queens",
        "sultan",
        "showdown",
        "tour",
        "nqueens",
        "demo",
        "completions",
        "man",
    ] {
        assert!(top.iter().any(|o| o == command), "{command}: {top:?}");
    }
    // Past the first word too (clap_complete alone gets this wrong for a hyphenated name).
    assert_eq!(offers("chess-puzzles queens check --tol"), ["--tolerance"]);
    assert_eq!(
        offers("chess-puzzles queens check --tolerance "),
        ["exact", "lines", "tokens"]
    );
    assert_eq!(offers("chess-puzzles sultan gen --ki"), ["--kind"]);
    assert!(offers("chess-puzzles tour gen --kind ").contains(&"crowded".to_string()));
    assert_eq!(
        offers("chess-puzzles nqueens count 8 --f"),
        ["--fix", "--format"]
    );
    let shells = offers("chess-puzzles completions ");
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        assert!(shells.iter().any(|s| s == shell), "{shell}: {shells:?}");
    }
}

#[test]
fn fish_completes_commands_options_and_their_values() {
    if !available("fish") {
        return;
    }
    let tmp = scratch("completions-fish");
    let dir = tmp.path();
    let script = script("fish", dir);
    let offers = |line: &str| -> Vec<String> {
        let program = format!("source '{}'; complete -C '{line}'", script.display());
        let got = Command::new("fish")
            .args(["--no-config", "-c", &program])
            .env("HOME", dir)
            .output()
            .unwrap();
        assert!(
            got.status.success(),
            "{}",
            String::from_utf8_lossy(&got.stderr)
        );
        String::from_utf8_lossy(&got.stdout)
            .lines()
            .map(|l| l.split('\t').next().unwrap_or_default().to_string())
            .collect()
    };
    assert!(offers("chess-puzzles qu").contains(&"queens".to_string()));
    assert!(offers("chess-puzzles queens check --tol").contains(&"--tolerance".to_string()));
    let values = offers("chess-puzzles queens check --tolerance ");
    for value in ["exact", "lines", "tokens"] {
        assert!(values.iter().any(|v| v == value), "{value}: {values:?}");
    }
}

#[test]
fn zsh_reads_its_completion_script() {
    if !available("zsh") {
        return;
    }
    let tmp = scratch("completions-zsh");
    let dir = tmp.path();
    let script = script("zsh", dir);
    // The script parses, and defining it under compinit registers the command.
    let got = Command::new("zsh").arg("-n").arg(&script).output().unwrap();
    assert!(
        got.status.success(),
        "{}",
        String::from_utf8_lossy(&got.stderr)
    );
    let program = format!(
        "autoload -Uz compinit && compinit -u -d '{dir}/zcompdump' && source '{script}' && print -r -- ${{_comps[chess-puzzles]}}",
        dir = dir.display(),
        script = script.display()
    );
    let got = Command::new("zsh")
        .args(["-f", "-c", &program])
        .env("HOME", dir)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&got.stdout);
    assert!(
        got.status.success(),
        "{}",
        String::from_utf8_lossy(&got.stderr)
    );
    assert_eq!(out.trim(), "_chess-puzzles");
}

#[test]
fn every_shell_gets_a_script_and_others_are_refused() {
    let tmp = scratch("completions-all");
    let dir = tmp.path();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let text = std::fs::read_to_string(script(shell, dir)).unwrap();
        assert!(
            text.contains("queens") && text.contains("tolerance"),
            "{shell}"
        );
    }
    let got = run(&["completions", "tcsh"], b"");
    assert_eq!(got.code, 2);
    assert!(got.stderr.contains("possible values"), "{}", got.stderr);
}

/// A manual page as `man` shows it.
fn rendered(page: &Path) -> String {
    assert!(available("man"));
    // No hyphenation, no justification; runs of blanks read as one space.
    let got = Command::new("man")
        .args(["--nh", "--nj", "-l"])
        .arg(page)
        .env("MANWIDTH", "100")
        .output()
        .unwrap();
    assert!(
        got.status.success(),
        "{}",
        String::from_utf8_lossy(&got.stderr)
    );
    let text = String::from_utf8_lossy(&got.stdout);
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn manual_pages_cover_every_command() {
    let tmp = scratch("completions-man");
    let dir = tmp.path();
    let pages = dir.join("man1");
    let got = run(&["man", "--dir", pages.to_str().unwrap()], b"");
    assert_eq!(got.code, 0, "{}", got.stderr);
    let listed: Vec<String> = got.stdout_text().lines().map(str::to_string).collect();
    let mut names: Vec<String> = std::fs::read_dir(&pages)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        listed,
        names
            .iter()
            .map(|n| pages.join(n).display().to_string())
            .collect::<Vec<_>>()
    );
    for command in ["queens", "sultan", "showdown", "tour"] {
        for sub in ["", "-gen", "-validate", "-check"] {
            let name = format!("chess-puzzles-{command}{sub}.1");
            assert!(names.contains(&name), "{name}: {names:?}");
        }
    }
    for name in [
        "chess-puzzles.1",
        "chess-puzzles-nqueens-count.1",
        "chess-puzzles-completions.1",
        "chess-puzzles-man.1",
    ] {
        assert!(names.contains(&name.to_string()), "{name}");
    }
    // Rendered by man: the formats, the options and the examples are there.
    let queens = rendered(&pages.join("chess-puzzles-queens.1"));
    assert!(queens.contains("NAME"), "{queens}");
    assert!(
        queens.contains("8 Queens Chess Problem (UVa 750)"),
        "{queens}"
    );
    assert!(
        queens.contains("Input: the number of test cases T"),
        "{queens}"
    );
    assert!(queens.contains("--uva"), "{queens}");
    assert!(
        queens.contains("printf '1\\n1 1\\n' | chess-puzzles queens"),
        "{queens}"
    );
    let check = rendered(&pages.join("chess-puzzles-queens-check.1"));
    assert!(check.contains("--tolerance"), "{check}");
    let main = rendered(&pages.join("chess-puzzles.1"));
    assert!(
        main.contains("Exit codes, the same for every command: 0 success"),
        "{main}"
    );
    // Without --dir: the main page on standard output.
    let got = run(&["man"], b"");
    assert!(
        got.stdout_text().starts_with(".ie "),
        "{}",
        got.stdout_text()
    );
    assert!(got.stdout_text().contains(".TH chess-puzzles 1"));
}
