//! The local judge over a folder of tests (`<puzzle> judge TESTS -- PROGRAM`): the tests
//! listed (`NAME.in`, with `NAME.out` or our answer), each read when its turn comes, only
//! regular files, and each judged as [`super::stress`] judges a run.

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

use super::run::{Resolved, Verdict};
use super::stress::{
    Judgement, MAX_INPUT_BYTES, Progress, StressError, StressOptions, Subject, judge_run,
};

/// One test of a folder: its name, the paths of its input and of its answer when it has one.
/// They are read when the test is judged, so that the folder is never in memory at once.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Test {
    /// The name (`NAME` of `NAME.in`).
    pub name: String,
    /// The input.
    pub input: PathBuf,
    /// The right answer, when the folder has one.
    pub answer: Option<PathBuf>,
}

/// A test of a folder that is not judged, and why.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Skipped {
    /// The test's name.
    pub name: String,
    /// Why: `a.in is a FIFO, not a regular file`.
    pub reason: String,
}

/// What a file is, in words, when it is not a regular file.
fn not_regular(path: &Path) -> Option<String> {
    let kind = match std::fs::metadata(path) {
        Ok(m) if m.is_file() => return None,
        Ok(m) if m.is_dir() => "a directory",
        Ok(m) if m.file_type().is_fifo() => "a FIFO",
        Ok(m) if m.file_type().is_socket() => "a socket",
        Ok(m) if m.file_type().is_char_device() => "a character device",
        Ok(m) if m.file_type().is_block_device() => "a block device",
        Ok(_) => "not a regular file",
        Err(e) if e.kind() == io::ErrorKind::NotFound => "a broken link",
        Err(_) => "unreadable",
    };
    let name = path
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    Some(format!("{name} is {kind}, not a regular file"))
}

/// The tests of the folder `dir`, in name order: every `NAME.in` that is a regular file (with
/// `NAME.out` as its answer when there is one); the others, and those whose `NAME.out` is not
/// a regular file, are skipped, each with its reason. Nothing is opened here.
pub fn tests_in(dir: &Path) -> Result<(Vec<Test>, Vec<Skipped>), StressError> {
    let cannot = |error| StressError::Read {
        path: dir.to_path_buf(),
        error,
    };
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(cannot)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "in"))
        .collect();
    inputs.sort();
    let mut tests = Vec::new();
    let mut skipped = Vec::new();
    for input in inputs {
        let name = input
            .file_stem()
            .map_or(String::new(), |s| s.to_string_lossy().into_owned());
        let answer = input.with_extension("out");
        let answer_there = std::fs::symlink_metadata(&answer).is_ok();
        let problem =
            not_regular(&input).or_else(|| answer_there.then(|| not_regular(&answer)).flatten());
        match problem {
            Some(reason) => skipped.push(Skipped { name, reason }),
            None => tests.push(Test {
                name,
                answer: answer_there.then_some(answer),
                input,
            }),
        }
    }
    if tests.is_empty() && skipped.is_empty() {
        return Err(StressError::NoTest(dir.to_path_buf()));
    }
    Ok((tests, skipped))
}

/// The bytes of the regular file `path`, at most `limit` of them (past it: an error saying
/// `what`); `Err(None)`-like refusals of what is not a regular file come back as
/// [`Skipped`]-worthy reasons. Opened without blocking: a FIFO put in place of the file
/// since the folder was listed is refused, not waited on.
fn read_regular(
    path: &Path,
    limit: u64,
    what: &'static str,
) -> Result<Result<Vec<u8>, String>, StressError> {
    let cannot = |error| StressError::Read {
        path: path.to_path_buf(),
        error,
    };
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(cannot)?;
    if !file.metadata().map_err(cannot)?.is_file() {
        return Ok(Err(
            not_regular(path).unwrap_or_else(|| "not a regular file".to_string())
        ));
    }
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > limit {
        return Err(StressError::TooLarge {
            path: path.to_path_buf(),
            what,
            limit,
        });
    }
    Ok(Ok(bytes))
}

/// What became of one test of a folder.
#[derive(Clone, Debug)]
pub enum TestEnd {
    /// It was judged.
    Judged(Judgement),
    /// It was not: the reason.
    Skipped(String),
}

/// How a judging of a folder ended.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct FolderSummary {
    /// Tests of the folder, skipped ones included.
    pub tests: u64,
    /// Tests judged and reported.
    pub judged: u64,
    /// Of which accepted.
    pub accepted: u64,
    /// The first failure: the test's name and its verdict.
    pub first_failure: Option<(String, Verdict)>,
    /// The tests skipped, with their reasons.
    pub skipped: Vec<Skipped>,
    /// True when it was stopped before the end.
    pub interrupted: bool,
}

/// Judges `program` on the tests of a folder (see [`tests_in`]) with `jobs` runs side by
/// side; `report` is called for every test in name order as soon as it and those before it
/// are done (skipped ones included). An input is read when its test is judged, up to
/// [`MAX_INPUT_BYTES`], an answer up to the output limit (a longer one could never be
/// matched).
pub fn judge_folder<S: Subject, E: From<StressError>>(
    subject: &S,
    program: &Resolved,
    dir: &Path,
    options: &StressOptions<S::Gen>,
    progress: &Progress,
    mut report: impl FnMut(&str, &TestEnd) -> Result<(), E>,
) -> Result<FolderSummary, E> {
    let (tests, skipped) = tests_in(dir)?;
    let mut order: Vec<(String, Option<Test>, Option<String>)> = tests
        .into_iter()
        .map(|t| (t.name.clone(), Some(t), None))
        .chain(
            skipped
                .iter()
                .map(|s| (s.name.clone(), None, Some(s.reason.clone()))),
        )
        .collect();
    order.sort_by(|a, b| a.0.cmp(&b.0));
    let mut summary = FolderSummary {
        tests: order.len() as u64,
        skipped,
        ..FolderSummary::default()
    };
    let next = AtomicU64::new(0);
    let (sender, receiver) = mpsc::channel::<(usize, Result<TestEnd, Option<StressError>>)>();
    let jobs = options.jobs.max(1);
    let result: Result<(), E> = std::thread::scope(|scope| {
        for _ in 0..jobs {
            let sender = sender.clone();
            let (order, next) = (&order, &next);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst) as usize;
                    let Some((_, test, skipped)) = order.get(i) else {
                        return;
                    };
                    let end = match (test, skipped) {
                        (_, Some(reason)) => Ok(TestEnd::Skipped(reason.clone())),
                        _ if progress.stop.load(Ordering::Relaxed) => Err(None),
                        (Some(test), None) => judge_test(subject, program, test, options, progress),
                        (None, None) => Err(None),
                    };
                    let stop = end.is_err();
                    if sender.send((i, end)).is_err() || stop {
                        return;
                    }
                }
            });
        }
        drop(sender);
        let mut waiting: BTreeMap<usize, Result<TestEnd, Option<StressError>>> = BTreeMap::new();
        let mut emitted = 0usize;
        for (i, end) in receiver {
            waiting.insert(i, end);
            while let Some(end) = waiting.remove(&emitted) {
                let end = match end {
                    Ok(end) => end,
                    Err(None) => {
                        summary.interrupted = true;
                        progress.stop.store(true, Ordering::Relaxed);
                        return Ok(());
                    }
                    Err(Some(e)) => {
                        progress.stop.store(true, Ordering::Relaxed);
                        return Err(E::from(e));
                    }
                };
                let name = &order[emitted].0;
                // A test that was listed as a regular file but could not be read when its
                // turn came (made a FIFO meanwhile) is skipped like those found at listing.
                if let (TestEnd::Skipped(reason), Some(_)) = (&end, &order[emitted].1) {
                    summary.skipped.push(Skipped {
                        name: name.clone(),
                        reason: reason.clone(),
                    });
                }
                if let TestEnd::Judged(j) = &end {
                    summary.judged += 1;
                    if j.verdict == Verdict::Accepted {
                        summary.accepted += 1;
                    } else if summary.first_failure.is_none() {
                        summary.first_failure = Some((name.clone(), j.verdict));
                    }
                }
                if let Err(e) = report(name, &end) {
                    progress.stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                emitted += 1;
            }
        }
        Ok(())
    });
    result?;
    if progress.stop.load(Ordering::Relaxed)
        && summary.judged + (summary.skipped.len() as u64) < summary.tests
    {
        summary.interrupted = true;
    }
    Ok(summary)
}

/// Reads and judges one test of a folder.
fn judge_test<S: Subject>(
    subject: &S,
    program: &Resolved,
    test: &Test,
    options: &StressOptions<S::Gen>,
    progress: &Progress,
) -> Result<TestEnd, Option<StressError>> {
    let input = match read_regular(&test.input, MAX_INPUT_BYTES as u64, "a test may be")? {
        Ok(bytes) => bytes,
        Err(reason) => return Ok(TestEnd::Skipped(reason)),
    };
    let expected = match &test.answer {
        Some(a) => match read_regular(
            a,
            options.limits.output,
            "the output limit (--output-limit)",
        )? {
            Ok(bytes) => bytes,
            Err(reason) => return Ok(TestEnd::Skipped(reason)),
        },
        None => subject
            .reference(&input)
            .map_err(|message| StressError::Reference {
                what: format!("{}.in", test.name),
                message,
            })?,
    };
    let judged = judge_run(
        subject,
        program,
        &input,
        expected,
        &options.limits,
        &options.layers,
        Some(&progress.stop),
    )?
    .ok_or(None)?;
    progress.runs.fetch_add(1, Ordering::Relaxed);
    if judged.verdict == Verdict::Accepted {
        progress.accepted.fetch_add(1, Ordering::Relaxed);
    }
    Ok(TestEnd::Judged(judged))
}
