//! End-to-end tests of the web board in a real headless Chromium, driven through WebDriver
//! (chromedriver). For every view:
//!
//! - the first screen: the view opens on its sample, solved and drawn, with one primary
//!   action, and nothing cut off at 1280x800 or on a 390-px-wide phone screen;
//! - a board set up by clicking, typing and the keyboard alone, solved, and the answer read
//!   from the page and checked against the command line (or, for showdown, by the judge);
//! - the search played to its first solution and checked against the command line, and the
//!   board after step k compared with the command line's trace replayed by the test;
//! - a shared link opened again, showing the same position; a bad link named, never a blank
//!   view;
//! - the answer saved as SVG (a real download), parsed as XML, its pieces read back, and its
//!   bytes those of `--format svg`; the page printed (one page);
//! - the accessibility check of axe-core (no violation of WCAG 2.1 A or AA), when
//!   `AXE_CORE_JS` names its `axe.min.js`.
//!
//! Screenshots go to `SCREENSHOTS_DIR` (default `target/.../screenshots`): each view, and a
//! search being stepped.
//!
//! Needs Chromium and chromedriver: `.ci/serve.sh` installs them (and axe-core from npm),
//! starts chromedriver and runs `cargo test --release --test serve browser:: -- --ignored` with
//! `WEBDRIVER_URL` and `AXE_CORE_JS` set. Without `WEBDRIVER_URL` the test starts
//! `chromedriver` itself when it is on the PATH. When a part is missing the test (or its
//! accessibility check) is skipped, except under `CI=true`, where that is a failure.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, KeyAction, KeyActions, MouseActions, PointerAction};
use fantoccini::elements::Element;
use fantoccini::key::Key;
use fantoccini::wd::PrintConfiguration;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

use crate::common::run;
use crate::server::Server;

mod showdown_steps;
mod static_site;
mod steps;
mod teacher;

type Failure = Box<dyn std::error::Error>;

/// A chromedriver this test started, stopped when dropped.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn in_ci() -> bool {
    std::env::var("CI").as_deref() == Ok("true")
}

/// Skips a browser test that lacks `what` (returns `None`), except under `CI=true`, where
/// that is a failure.
fn missing<T>(what: &str) -> Option<T> {
    if in_ci() {
        panic!("CI=true and {what}");
    }
    eprintln!("skipped: {what}");
    None
}

/// The WebDriver to use, and the chromedriver started for it if any.
fn webdriver() -> Option<(String, Option<Driver>)> {
    if let Ok(url) = std::env::var("WEBDRIVER_URL") {
        return Some((url, None));
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .ok()?
        .local_addr()
        .ok()?
        .port();
    let child = Command::new("chromedriver")
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let driver = Driver(child);
    let url = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if started.elapsed() > Duration::from_secs(20) {
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Some((url, Some(driver)))
}

/// What every browser test sets up: the WebDriver (a chromedriver started for the test when
/// `WEBDRIVER_URL` names none), a fresh profile and downloads folder, and a runtime to drive
/// the browser from.
struct Browser {
    webdriver: String,
    profile: tempfile::TempDir,
    downloads: tempfile::TempDir,
    runtime: tokio::runtime::Runtime,
    // Last: the chromedriver is stopped after the rest.
    _driver: Option<Driver>,
}

impl Browser {
    /// The browser, or `None` (the test skipped, or failed under `CI=true`) when there is no
    /// WebDriver.
    fn start() -> Option<Browser> {
        let Some((webdriver, driver)) = webdriver() else {
            return missing("no WebDriver: set WEBDRIVER_URL or install chromedriver");
        };
        Some(Browser {
            webdriver,
            profile: tempfile::tempdir().unwrap(),
            downloads: tempfile::tempdir().unwrap(),
            runtime: tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap(),
            _driver: driver,
        })
    }

    /// Where the browser saves downloads.
    fn downloads(&self) -> &Path {
        self.downloads.path()
    }

    /// Opens a headless Chromium at 1280x800, runs `flows` with it, closes it whatever
    /// happened, and fails the test on a failure of either.
    fn run<F, Fut>(&self, flows: F)
    where
        F: FnOnce(Client) -> Fut,
        Fut: std::future::Future<Output = Result<(), Failure>>,
    {
        let result: Result<(), Failure> = self.runtime.block_on(async {
            let client = connect(&self.webdriver, self.profile.path(), self.downloads()).await?;
            let result = flows(client.clone()).await;
            client.close().await?;
            result
        });
        result.unwrap();
    }
}

/// The source of axe-core (`AXE_CORE_JS`), if given and readable.
fn axe_source() -> Option<String> {
    let path = std::env::var_os("AXE_CORE_JS")?;
    std::fs::read_to_string(path).ok()
}

fn screenshots_dir() -> PathBuf {
    let dir = std::env::var_os("SCREENSHOTS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screenshots"));
    std::fs::create_dir_all(&dir).expect("the screenshot folder");
    dir
}

/// Everything a flow needs: the browser (and its WebDriver), the server, the downloads folder,
/// axe-core.
struct Page<'a> {
    client: &'a Client,
    /// The WebDriver's address, for the commands fantoccini does not name.
    webdriver: &'a str,
    server: &'a Server,
    downloads: &'a Path,
    axe: Option<&'a str>,
}

#[test]
#[ignore = "drives Chromium through chromedriver: run by .ci/serve.sh (or with --ignored)"]
fn every_view_works_in_a_real_browser() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let axe = axe_source();
    if axe.is_none() {
        if in_ci() {
            panic!("CI=true and no axe-core: set AXE_CORE_JS to axe.min.js (.ci/serve.sh does)");
        }
        eprintln!("the accessibility check is skipped: no AXE_CORE_JS");
    }
    let server = Server::start(&[]);
    let (served, downloads, axe) = (&server, browser.downloads(), axe.as_deref());
    let webdriver = browser.webdriver.as_str();
    browser.run(|client| async move {
        let page = Page {
            client: &client,
            webdriver,
            server: served,
            downloads,
            axe,
        };
        first_screens(&page).await?;
        queens(&page).await?;
        sultan(&page).await?;
        tour(&page).await?;
        showdown(&page).await?;
        nqueens(&page).await?;
        links(&page).await?;
        steps::all(&page).await?;
        Ok(())
    });
    server.stop(Duration::from_secs(10));
}

/// A teacher's walk (`teacher`): every sentence on the board true, at 1280x800, 1024x768 and
/// 390x844. Its name begins as the test above's, so that `.ci/serve.sh` runs both.
#[test]
#[ignore = "drives Chromium through chromedriver: run by .ci/serve.sh (or with --ignored)"]
fn every_view_works_in_a_real_browser_as_a_teacher_walks_it() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let server = Server::start(&[]);
    let (served, downloads) = (&server, browser.downloads());
    let webdriver = browser.webdriver.as_str();
    browser.run(|client| async move {
        let page = Page {
            client: &client,
            webdriver,
            server: served,
            downloads,
            axe: None,
        };
        teacher::walk(&page).await
    });
    server.stop(Duration::from_secs(10));
}

/// A headless Chromium at 1280x800 through the WebDriver at `webdriver`, with its profile and
/// downloads in these folders.
async fn connect(webdriver: &str, profile: &Path, downloads: &Path) -> Result<Client, Failure> {
    let mut capabilities = serde_json::Map::new();
    let mut chrome = json!({
        "args": [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", "--window-size=1280,800",
            format!("--user-data-dir={}", profile.display()),
        ],
        "prefs": {
            "download.default_directory": downloads.display().to_string(),
            "download.prompt_for_download": false,
            "download.directory_upgrade": true,
        },
    });
    if Path::new("/usr/bin/chromium").exists() {
        chrome["binary"] = json!("/usr/bin/chromium");
    }
    capabilities.insert("goog:chromeOptions".to_string(), chrome);
    Ok(
        ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(capabilities)
            .connect(webdriver)
            .await?,
    )
}

/// Waits up to 20 s until `script` (a function body) returns a non-null, non-false value.
async fn wait_for(client: &Client, script: &str) -> Result<Value, Failure> {
    let started = Instant::now();
    loop {
        let value = client.execute(script, vec![]).await?;
        if !(value.is_null() || value == json!(false) || value == json!("")) {
            return Ok(value);
        }
        if started.elapsed() > Duration::from_secs(20) {
            return Err(format!("timed out waiting for: {script}").into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The exact text of the element with this id (`textContent`, or `value` for text fields).
async fn text_of(client: &Client, id: &str) -> Result<String, Failure> {
    let script = format!(
        "const e = document.getElementById('{id}'); return e.value !== undefined ? e.value : e.textContent;"
    );
    Ok(client
        .execute(&script, vec![])
        .await?
        .as_str()
        .unwrap_or_default()
        .to_string())
}

async fn square(client: &Client, board: &str, name: &str) -> Result<Element, Failure> {
    Ok(client
        .find(Locator::Css(&format!("#{board} [data-square=\"{name}\"]")))
        .await?)
}

async fn click_id(client: &Client, id: &str) -> Result<(), Failure> {
    client.find(Locator::Id(id)).await?.click().await?;
    Ok(())
}

/// Presses keys one after the other on whatever has the focus.
async fn press(client: &Client, keys: &[Key]) -> Result<(), Failure> {
    let mut actions = KeyActions::new("keys".to_string());
    for key in keys {
        let value: char = (*key).into();
        actions = actions
            .then(KeyAction::Down { value })
            .then(KeyAction::Up { value });
    }
    client.perform_actions(actions).await?;
    Ok(())
}

/// Types a letter on whatever has the focus.
async fn press_char(client: &Client, c: char) -> Result<(), Failure> {
    let actions = KeyActions::new("letters".to_string())
        .then(KeyAction::Down { value: c })
        .then(KeyAction::Up { value: c });
    client.perform_actions(actions).await?;
    Ok(())
}

/// Replaces the value of a text field by typing.
async fn type_into(client: &Client, id: &str, text: &str) -> Result<(), Failure> {
    let field = client.find(Locator::Id(id)).await?;
    // Select what is there (Control-A, then release the modifier) and type over it, as a
    // person would: `clear` would fire a change event with an empty value first.
    let select_all = format!("{}a{}", Key::Control, Key::Null);
    field.send_keys(&select_all).await?;
    field.send_keys(text).await?;
    // Tab away so that the field's change event fires.
    field.send_keys(&Key::Tab.to_string()).await?;
    Ok(())
}

async fn screenshot(client: &Client, name: &str) -> Result<(), Failure> {
    let png = client.screenshot().await?;
    std::fs::write(screenshots_dir().join(format!("{name}.png")), png)?;
    Ok(())
}

/// Opens `hash` (`view?state`) and waits until the view has opened its position.
async fn open(page: &Page<'_>, hash: &str) -> Result<(), Failure> {
    let view = hash.split('?').next().unwrap_or(hash);
    page.client
        .execute("document.body.dataset.ready = 'leaving';", vec![])
        .await?;
    page.client
        .goto(&page.server.url(&format!("/#{hash}")))
        .await?;
    wait_for(
        page.client,
        &format!("return document.body.dataset.ready === '{view}';"),
    )
    .await?;
    Ok(())
}

fn cli(args: &[&str], input: &str) -> String {
    let r = run(args, input.as_bytes());
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r.stdout_text()
}

fn cli_lines(args: &[&str], input: &str) -> Vec<Value> {
    cli(args, input)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// The queens on a board of the page (1-based rows and columns), from the squares' pieces.
async fn board_queens(client: &Client, board: &str) -> Result<BTreeSet<(i64, i64)>, Failure> {
    let shown = client
        .execute(
            &format!(
                "return [...document.querySelectorAll('#{board} [data-piece]')].filter(s => s.dataset.piece.includes('queen')).map(s => [Number(s.dataset.r) + 1, Number(s.dataset.c) + 1]);"
            ),
            vec![],
        )
        .await?;
    Ok(serde_json::from_value::<Vec<(i64, i64)>>(shown)?
        .into_iter()
        .collect())
}

/// The queens on the board after step `k` of one search's trace (its lines, from `start`),
/// replayed here, apart from the page.
fn replay(lines: &[Value], k: u64) -> BTreeSet<(i64, i64)> {
    let square = |v: &Value| (v[0].as_i64().unwrap(), v[1].as_i64().unwrap());
    let mut queens: BTreeSet<(i64, i64)> = lines[0]["given"]
        .as_array()
        .unwrap()
        .iter()
        .map(square)
        .collect();
    for line in lines
        .iter()
        .filter(|l| l["step"].as_u64().is_some_and(|s| s <= k))
    {
        match line["event"].as_str() {
            Some("place") => {
                queens.insert(square(&line["square"]));
            }
            Some("remove") => {
                queens.remove(&square(&line["square"]));
            }
            _ => {}
        }
    }
    queens
}

/// The step of a trace's first solution.
fn first_solution(lines: &[Value]) -> u64 {
    lines
        .iter()
        .find(|l| l["event"] == "solution")
        .and_then(|l| l["step"].as_u64())
        .expect("a solution in the trace")
}

/// The event of step `k` of a trace.
fn step_event(lines: &[Value], k: u64) -> &str {
    lines
        .iter()
        .find(|l| l["step"] == k)
        .and_then(|l| l["event"].as_str())
        .unwrap_or_default()
}

/// Waits until the player of `view` shows step `k`.
async fn at_step(client: &Client, view: &str, k: u64) -> Result<(), Failure> {
    wait_for(
        client,
        &format!("return document.getElementById('{view}-counter').textContent.startsWith('Step {k} of ');"),
    )
    .await?;
    Ok(())
}

/// The file the browser downloaded as `name`, once complete.
async fn downloaded(page: &Page<'_>, name: &str) -> Result<String, Failure> {
    let path = page.downloads.join(name);
    let started = Instant::now();
    loop {
        if path.exists() {
            let text = std::fs::read_to_string(&path)?;
            if text.ends_with("</svg>\n") {
                std::fs::remove_file(&path)?;
                return Ok(text);
            }
        }
        if started.elapsed() > Duration::from_secs(20) {
            return Err(format!("no download {name} in {}", page.downloads.display()).into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Saves the view's answer as SVG from the page, and checks it: a document that parses, with
/// named pieces, byte for byte what the command line draws with `args` on the view's input.
async fn saves_svg(
    page: &Page<'_>,
    view: &str,
    args: &[&str],
    input: &str,
) -> Result<usize, Failure> {
    click_id(page.client, &format!("{view}-save-svg")).await?;
    let saved = downloaded(page, &format!("{view}.svg")).await?;
    let doc = roxmltree::Document::parse(&saved)?;
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let pieces = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("piece"))
        .inspect(|p| {
            assert!(p.attribute("data-piece").is_some() && p.attribute("data-row").is_some());
        })
        .count();
    let mut args = args.to_vec();
    args.extend(["--format", "svg"]);
    assert_eq!(
        saved,
        cli(&args, input),
        "{view}: the saved SVG against {args:?}"
    );
    Ok(pieces)
}

/// The pages of the page printed to PDF (with the print style sheet).
async fn printed_pages(client: &Client) -> Result<usize, Failure> {
    let pdf = client.print(PrintConfiguration::default()).await?;
    assert!(pdf.starts_with(b"%PDF"));
    let text = String::from_utf8_lossy(&pdf);
    Ok(text
        .match_indices("/Type /Page")
        .filter(|(i, m)| !text[i + m.len()..].starts_with('s'))
        .count())
}

/// Lays the page out for `media` (`"print"`, or `""` for the screen again), as Chromium does
/// when it prints, through chromedriver's command for the Chrome DevTools protocol
/// (`Emulation.setEmulatedMedia`), which fantoccini does not name.
async fn emulate_media(page: &Page<'_>, media: &str) -> Result<(), Failure> {
    let session = page
        .client
        .session_id()
        .await?
        .ok_or("no WebDriver session")?;
    let url = format!(
        "{}/session/{session}/goog/cdp/execute",
        page.webdriver.trim_end_matches('/')
    );
    let body = json!({ "cmd": "Emulation.setEmulatedMedia", "params": { "media": media } });
    let answer = tokio::task::spawn_blocking(move || {
        crate::server::try_post(
            &url,
            body.to_string().as_bytes(),
            &[("content-type", "application/json")],
        )
    })
    .await??;
    if answer.status != 200 {
        return Err(format!("setting the media to {media:?}: {}", answer.text()).into());
    }
    Ok(())
}

/// Runs axe-core on the page: no violation of WCAG 2.1 A or AA.
async fn accessible(page: &Page<'_>, what: &str) -> Result<(), Failure> {
    let Some(axe) = page.axe else {
        return Ok(());
    };
    page.client
        .execute(&format!("{axe}\nreturn typeof window.axe;"), vec![])
        .await?;
    let found = page
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
               .then((r) => done(r.violations.map((v) => `${v.id} (${v.impact}): ${v.help}: ` +
                   v.nodes.slice(0, 5).map((n) => n.target.join(' ')).join(', '))))
               .catch((e) => done([`axe failed: ${e}`]));",
            vec![],
        )
        .await?;
    let violations: Vec<String> = serde_json::from_value(found)?;
    assert!(violations.is_empty(), "{what}: {violations:#?}");
    Ok(())
}

/// Each view, and a test (a script's expression) that it shows its sample solved.
const SOLVED: [(&str, &str); 5] = [
    (
        "queens",
        "document.querySelectorAll('#queens-board [data-piece]').length === 8 && document.getElementById('queens-list').textContent.includes(' 1      1 5 8 6 3 7 2 4')",
    ),
    (
        "sultan",
        "document.getElementById('sultan-score').textContent === '260'",
    ),
    (
        "tour",
        "document.getElementById('tour-result').textContent === 'h8h2e5d4b2'",
    ),
    (
        "showdown",
        "document.getElementById('showdown-cost').textContent === '3'",
    ),
    (
        "nqueens",
        "document.querySelectorAll('#nqueens-board [data-piece]').length === 8 && document.getElementById('nqueens-result').textContent === 'first 20'",
    ),
];

/// The first screen of every view, on a desktop and on a phone: its sample solved and drawn,
/// one primary action in sight, nothing cut off.
async fn first_screens(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    for (width, height) in [(1280u32, 800u32), (390, 844)] {
        client.set_window_size(width, height).await?;
        for (view, check) in SOLVED {
            open(page, view).await?;
            wait_for(client, &format!("return {check};")).await?;
            let report = client
                .execute(
                    &format!(
                        "const W = document.documentElement.clientWidth, H = window.innerHeight;
                         const bad = [];
                         if (document.documentElement.scrollWidth > W) bad.push(`the page is ${{document.documentElement.scrollWidth}} px wide`);
                         for (const e of document.querySelectorAll('header *, #view-{view} *')) {{
                           const r = e.getBoundingClientRect();
                           if (r.width === 0 || getComputedStyle(e).visibility === 'hidden') continue;
                           if (e.closest('pre, .judge-list')) continue;
                           if (r.left < -1 || r.right > W + 1) bad.push(`${{e.tagName}}#${{e.id}}.${{e.className}} ${{Math.round(r.left)}}..${{Math.round(r.right)}}`);
                         }}
                         const primary = [...document.querySelectorAll('#view-{view} .primary')];
                         const p = primary[0] && primary[0].getBoundingClientRect();
                         return {{ width: window.innerWidth, height: H, bad, primaries: primary.length,
                                   primaryInSight: !!p && p.top >= 0 && p.bottom <= H, primaryText: primary[0] && primary[0].textContent }};"
                    ),
                    vec![],
                )
                .await?;
            assert_eq!(report["width"], json!(width), "{view}: the viewport");
            assert_eq!(
                report["bad"],
                json!([]),
                "{view} at {width}x{height}: cut off"
            );
            assert_eq!(report["primaries"], json!(1), "{view}: one primary action");
            assert_eq!(
                report["primaryInSight"],
                json!(true),
                "{view} at {width}x{height}: {report}"
            );
            if width == 1280 {
                accessible(page, &format!("{view}, first screen")).await?;
                assert_eq!(
                    printed_pages(client).await?,
                    1,
                    "{view}: the board and its answer on one page"
                );
            } else if view == "queens" {
                screenshot(client, "queens-phone").await?;
            }
            // The view opens at its title: nothing scrolls the page on load.
            let scrolled = client.execute("return window.scrollY;", vec![]).await?;
            assert_eq!(
                scrolled,
                json!(0),
                "{view} at {width}x{height}: scrolled on load"
            );
        }
    }
    client.set_window_size(1280, 800).await?;
    Ok(())
}

async fn queens(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    open(page, "queens").await?;
    square(client, "queens-board", "row 3, column 5")
        .await?
        .click()
        .await?;
    wait_for(
        client,
        "return document.getElementById('queens-input').value === '1\\n3 5\\n' && document.getElementById('queens-list').textContent.includes(' 1      ');",
    )
    .await?;
    let list = text_of(client, "queens-list").await?;
    assert_eq!(
        list,
        cli(&["queens"], "1\n3 5\n"),
        "the judge's list beside the board"
    );
    assert_eq!(text_of(client, "queens-output").await?, list);
    // The board shows the first placement: eight queens, one given, none attacking.
    let first: Vec<i64> = list
        .lines()
        .nth(2)
        .unwrap()
        .split_whitespace()
        .skip(1)
        .map(|v| v.parse().unwrap())
        .collect();
    let expected: BTreeSet<(i64, i64)> = first
        .iter()
        .enumerate()
        .map(|(c, &r)| (r, c as i64 + 1))
        .collect();
    assert_eq!(board_queens(client, "queens-board").await?, expected);
    // The keyboard: from the focused square, one step right and Enter gives row 3, column 6.
    press(client, &[Key::Right, Key::Enter]).await?;
    wait_for(
        client,
        "return document.getElementById('queens-count').textContent.includes('row 3, column 6');",
    )
    .await?;
    assert_eq!(
        text_of(client, "queens-list").await?,
        cli(&["queens"], "1\n3 6\n")
    );
    click_id(client, "queens-next").await?;
    assert!(
        text_of(client, "queens-count")
            .await?
            .starts_with("Showing placement 2 of ")
    );

    // The search, with the keyboard alone: Enter on "Watch the search", then N and B.
    let trace = cli_lines(&["queens", "--trace"], "1\n3 6\n");
    client
        .find(Locator::Id("queens-watch"))
        .await?
        .send_keys(&Key::Enter.to_string())
        .await?;
    at_step(client, "queens", 0).await?;
    press_char(client, 'n').await?;
    at_step(client, "queens", 1).await?;
    press_char(client, 'n').await?;
    at_step(client, "queens", 2).await?;
    assert_eq!(
        board_queens(client, "queens-board").await?,
        replay(&trace, 2)
    );
    press_char(client, 'b').await?;
    at_step(client, "queens", 1).await?;
    assert_eq!(
        board_queens(client, "queens-board").await?,
        replay(&trace, 1)
    );
    // To the first solution: the command line's first placement, at the trace's step.
    click_id(client, "queens-solution").await?;
    let k = first_solution(&trace);
    at_step(client, "queens", k).await?;
    let answer = cli(&["queens"], "1\n3 6\n");
    let rows: Vec<i64> = answer
        .lines()
        .nth(2)
        .unwrap()
        .split_whitespace()
        .skip(1)
        .map(|v| v.parse().unwrap())
        .collect();
    let placement: BTreeSet<(i64, i64)> = rows
        .iter()
        .enumerate()
        .map(|(c, &r)| (r, c as i64 + 1))
        .collect();
    assert_eq!(board_queens(client, "queens-board").await?, placement);
    assert_eq!(replay(&trace, k), placement);
    let status = text_of(client, "queens-status").await?;
    assert!(
        status.starts_with(&format!("Step {k}: solution 1: rows ")),
        "{status}"
    );
    // Back from the solution, step by step, the board always the trace's; a conflict is
    // marked on its square and named.
    for j in (k - 6..k).rev() {
        click_id(client, "queens-back").await?;
        at_step(client, "queens", j).await?;
        assert_eq!(
            board_queens(client, "queens-board").await?,
            replay(&trace, j),
            "step {j}"
        );
        let line = trace.iter().find(|l| l["step"] == j).unwrap();
        if line["event"] == "attacked" {
            let (r, c) = (&line["square"][0], &line["square"][1]);
            let marks = client
                .execute(
                    &format!("return document.querySelector('#queens-board [data-square=\"row {r}, column {c}\"]').getAttribute('aria-label');"),
                    vec![],
                )
                .await?;
            assert!(marks.as_str().unwrap().contains("conflict"), "{marks}");
        }
    }
    // Playing moves on by itself; pausing stops it.
    click_id(client, "queens-play").await?;
    wait_for(client, &format!("return !document.getElementById('queens-counter').textContent.startsWith('Step {} of ');", k - 6)).await?;
    click_id(client, "queens-play").await?;
    // Right after a solution the last queen is removed to look for more (the link of the
    // issue that found the sentence wrong); step k typed into the player's box.
    open(page, "queens?q=3,6&step=872").await?;
    at_step(client, "queens", 872).await?;
    assert_eq!(step_event(&trace, 871), "solution");
    assert_eq!(step_event(&trace, 872), "remove");
    let status = text_of(client, "queens-status").await?;
    assert!(
        status.contains("the placement is complete, so the queen on row ")
            && status.contains("is removed to look for more solutions (backtrack)"),
        "{status}"
    );
    let backtrack = trace
        .iter()
        .find(|l| {
            l["event"] == "remove"
                && l["step"]
                    .as_u64()
                    .is_some_and(|k| step_event(&trace, k - 1) != "solution")
        })
        .and_then(|l| l["step"].as_u64())
        .unwrap();
    type_into(client, "queens-goto", &backtrack.to_string()).await?;
    at_step(client, "queens", backtrack).await?;
    let status = text_of(client, "queens-status").await?;
    assert!(
        status.contains(": every row of the next column has been tried, so the queen on "),
        "{status}"
    );
    assert_eq!(
        board_queens(client, "queens-board").await?,
        replay(&trace, backtrack)
    );
    // The screenshot of the docs: a conflict, at a step given by the link.
    open(page, "queens?q=3,6&step=867").await?;
    at_step(client, "queens", 867).await?;
    assert_eq!(
        board_queens(client, "queens-board").await?,
        replay(&trace, 867)
    );
    screenshot(client, "queens-search").await?;
    accessible(page, "queens, the search").await?;
    // The answer saved as SVG: the 8 placements of the queen on (3, 6).
    let pieces = saves_svg(page, "queens", &["queens"], "1\n3 6\n").await?;
    let count = answer.lines().count() - 2;
    assert_eq!(pieces, count * 8);
    // Printed during the search too: the board and where the search stands, on one page.
    assert_eq!(
        printed_pages(client).await?,
        1,
        "queens: printed during the search"
    );
    click_id(client, "queens-prev").await?;
    screenshot(client, "queens").await?;
    // Chess coordinates as an option: files a-h, ranks 8 to 1 from the top, in the squares'
    // names too; the statement's numbering again when it is off.
    let labels = "return [...document.querySelectorAll('#queens-board .edge-labels text')].map((t) => t.textContent).join(' ');";
    click_id(client, "chess-coordinates").await?;
    assert_eq!(
        client.execute(labels, vec![]).await?,
        json!("8 7 6 5 4 3 2 1 a b c d e f g h")
    );
    let named = client
        .execute("return document.querySelector('#queens-board [data-square=\"row 3, column 5\"]').getAttribute('aria-label');", vec![])
        .await?;
    assert!(
        named.as_str().unwrap().starts_with("row 3, column 5 (e6)"),
        "{named}"
    );
    click_id(client, "chess-coordinates").await?;
    assert_eq!(
        client.execute(labels, vec![]).await?,
        json!("1 2 3 4 5 6 7 8 1 2 3 4 5 6 7 8")
    );
    Ok(())
}

async fn sultan(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    open(page, "sultan").await?;
    click_id(client, "sultan-sample").await?;
    type_into(client, "sultan-w-1-1", "99").await?;
    type_into(client, "sultan-w-8-8", "500").await?;
    click_id(client, "sultan-solve").await?;
    wait_for(
        client,
        "return document.getElementById('sultan-score').textContent !== '\u{2014}';",
    )
    .await?;
    let mut weights: Vec<u32> = (1..=64).collect();
    weights[0] = 99;
    weights[63] = 500;
    let rows: Vec<String> = weights
        .chunks(8)
        .map(|r| r.iter().map(u32::to_string).collect::<Vec<_>>().join(" "))
        .collect();
    let input = format!("1\n{}\n", rows.join("\n"));
    assert_eq!(text_of(client, "sultan-input").await?, input);
    let expected = cli(&["sultan"], &input);
    assert_eq!(text_of(client, "sultan-score").await?, expected.trim());
    assert_eq!(text_of(client, "sultan-output").await?, expected);
    let queens = client
        .execute(
            "return document.querySelectorAll('#sultan-board td.queen').length;",
            vec![],
        )
        .await?;
    assert_eq!(queens, json!(8));
    screenshot(client, "sultan").await?;
    // The search: its first placement and its sum, then the whole search's best.
    let trace = cli_lines(&["sultan", "--trace"], &input);
    click_id(client, "sultan-watch").await?;
    at_step(client, "sultan", 0).await?;
    click_id(client, "sultan-solution").await?;
    let k = first_solution(&trace);
    at_step(client, "sultan", k).await?;
    let shown = board_queens(client, "sultan-search").await?;
    assert_eq!(shown, replay(&trace, k));
    let sum: u64 = shown
        .iter()
        .map(|&(r, c)| u64::from(weights[((r - 1) * 8 + c - 1) as usize]))
        .sum();
    let status = text_of(client, "sultan-status").await?;
    assert!(
        status.contains(&format!("Sum under the queens: {sum}.")),
        "{status}"
    );
    // During the search the big number is the search's best so far (here the first sum),
    // not the final answer.
    assert_eq!(
        text_of(client, "sultan-score-title").await?,
        "Best sum so far"
    );
    assert_eq!(text_of(client, "sultan-score").await?, sum.to_string());
    // Every queen's weight is written over her, readable.
    let under = client
        .execute(
            "const b = document.getElementById('sultan-search');
             const glyphs = [...b.querySelectorAll('text.glyph')];
             return [...b.querySelectorAll('.sq[data-piece]')].map((sq) => {
               const w = b.querySelector(`text.weight[data-r='${sq.dataset.r}'][data-c='${sq.dataset.c}']`);
               const over = w && glyphs.every((g) => g.compareDocumentPosition(w) & Node.DOCUMENT_POSITION_FOLLOWING);
               return over && getComputedStyle(w).visibility === 'visible' ? Number(w.textContent) : null;
             }).sort((a, b) => a - b);",
            vec![],
        )
        .await?;
    let mut weighed: Vec<u64> = shown
        .iter()
        .map(|&(r, c)| u64::from(weights[((r - 1) * 8 + c - 1) as usize]))
        .collect();
    weighed.sort();
    assert_eq!(under, json!(weighed), "the weights under the queens");
    // The same in the command line's drawing: the weights after (over) the pieces.
    let drawn = cli(&["sultan", "--format", "svg"], &input);
    assert!(
        drawn.rfind("class=\"piece\"") < drawn.find("class=\"number\""),
        "sultan --format svg: a queen hides her weight"
    );
    for _ in 0..3 {
        click_id(client, "sultan-solution").await?;
    }
    screenshot(client, "sultan-search").await?;
    accessible(page, "sultan, the search").await?;
    // The end of the search (through its link): the best sum is the judge's answer.
    let end = trace.last().unwrap()["steps"].as_u64().unwrap();
    let link = text_of(client, "sultan-link").await?;
    let base = link
        .split_once('#')
        .unwrap()
        .1
        .split("&step=")
        .next()
        .unwrap()
        .to_string();
    open(page, &format!("{base}&step={end}")).await?;
    at_step(client, "sultan", end).await?;
    let status = text_of(client, "sultan-placement").await?;
    assert!(
        status.ends_with(&format!("best sum so far {}.", expected.trim())),
        "{status}"
    );
    let pieces = saves_svg(page, "sultan", &["sultan"], &input).await?;
    assert_eq!(pieces, 8);
    // Try it yourself, by keyboard: (1, 1), (5, 2), (8, 3); the sum under them against the
    // best placement that keeps them (from nqueens list --fix) and the judge's best.
    click_id(client, "sultan-try-mode").await?;
    wait_for(
        client,
        "return document.getElementById('sultan-try').textContent.startsWith('No queen placed yet');",
    )
    .await?;
    client
        .execute(
            "document.querySelector('#sultan-search .sq[data-r=\"0\"][data-c=\"0\"]').focus();",
            vec![],
        )
        .await?;
    press(
        client,
        &[
            Key::Enter,
            Key::Down,
            Key::Down,
            Key::Down,
            Key::Down,
            Key::Right,
            Key::Enter,
            Key::Down,
            Key::Down,
            Key::Down,
            Key::Right,
            Key::Enter,
        ],
    )
    .await?;
    let weight = |r: i64, c: i64| u64::from(weights[((r - 1) * 8 + c - 1) as usize]);
    let sum = weight(1, 1) + weight(5, 2) + weight(8, 3);
    let kept: Vec<u64> = cli_lines(
        &[
            "nqueens", "list", "8", "--fix", "1,1", "--fix", "5,2", "--fix", "8,3", "--format",
            "json",
        ],
        "",
    )
    .iter()
    .map(|p| {
        p["rows"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(c, r)| weight(r.as_i64().unwrap(), c as i64 + 1))
            .sum()
    })
    .collect();
    let top = *kept.iter().max().unwrap();
    let best: u64 = expected.trim().parse()?;
    let says = format!(
        "3 queens placed, sum {sum}: {} placement{} of 8 queens keep{} them; the best of them sums to {top}{}.",
        kept.len(),
        if kept.len() == 1 { "" } else { "s" },
        if kept.len() == 1 { "s" } else { "" },
        if top == best {
            "; that is the best of all".to_string()
        } else {
            format!("; the best of all is {best}")
        }
    );
    wait_for(
        client,
        &format!("return document.getElementById('sultan-try').textContent === {says:?};"),
    )
    .await?;
    assert_eq!(
        board_queens(client, "sultan-search").await?,
        BTreeSet::from([(1, 1), (5, 2), (8, 3)])
    );
    accessible(page, "sultan, try it yourself").await?;
    Ok(())
}

async fn tour(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    open(page, "tour").await?;
    click_id(client, "tour-clear").await?;
    let place = |piece: &'static str, squares: &'static [&'static str]| async move {
        client
            .find(Locator::Css(&format!(
                "input[name=tour-piece][value=\"{piece}\"]"
            )))
            .await?
            .click()
            .await?;
        for sq in squares {
            square(client, "tour-board", sq).await?.click().await?;
        }
        Ok::<(), Failure>(())
    };
    place("N", &["c6", "f3", "g7", "b2"]).await?;
    place("P", &["d4", "e4", "d5", "c3"]).await?;
    place("Q", &["a1"]).await?;
    place("B", &["h5"]).await?;
    click_id(client, "tour-solve").await?;
    wait_for(
        client,
        "return document.getElementById('tour-result').textContent !== '\u{2014}';",
    )
    .await?;
    let input = text_of(client, "tour-input").await?;
    assert!(input.starts_with("1\n"), "{input}");
    assert_eq!(input.matches('N').count(), 4);
    let expected = cli(&["tour"], &input);
    assert_eq!(text_of(client, "tour-output").await?, expected);
    let path = expected.lines().nth(1).unwrap();
    assert_eq!(text_of(client, "tour-result").await?, path);
    // The stops are numbered on the board: one mark per stop.
    let stops = client
        .execute(
            "return document.querySelectorAll('#tour-board [data-stop]').length;",
            vec![],
        )
        .await?;
    assert!(stops.as_u64().unwrap() >= 2, "{stops}");
    click_id(client, "tour-play").await?;
    wait_for(
        client,
        "return document.querySelector('#tour-board .walker') !== null;",
    )
    .await?;
    tokio::time::sleep(Duration::from_millis(900)).await;
    screenshot(client, "tour").await?;
    // The search: layer by layer (each as the command line's trace says), then the path.
    let trace = cli_lines(&["tour", "--trace"], &input);
    let layers: Vec<&Value> = trace.iter().filter(|l| l["event"] == "layer").collect();
    let moves: Vec<&Value> = trace.iter().filter(|l| l["event"] == "move").collect();
    click_id(client, "tour-watch").await?;
    at_step(client, "tour", 0).await?;
    for k in 1..=layers.len() {
        click_id(client, "tour-forward").await?;
        at_step(client, "tour", k as u64).await?;
        tour_layer(client, &layers, k).await?;
    }
    // The path: the queen moves along it, the numbers leave the arrowheads in sight.
    for (j, m) in moves.iter().enumerate() {
        click_id(client, "tour-forward").await?;
        at_step(client, "tour", (layers.len() + j + 1) as u64).await?;
        let queen = client
            .execute(
                "return [...document.querySelectorAll('#tour-board [data-piece=queen]')].map((s) => s.dataset.square);",
                vec![],
            )
            .await?;
        assert_eq!(queen, json!([m["square"]]), "move {j}");
    }
    let status = text_of(client, "tour-status").await?;
    assert!(status.contains("The tour is complete"), "{status}");
    let under = client
        .execute(
            "const b = document.getElementById('tour-board');
             const stops = [...b.querySelectorAll('[data-stop]')], arrows = [...b.querySelectorAll('line.arrow')];
             return arrows.length > 0 && stops.every((s) => arrows.every((a) => s.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING));",
            vec![],
        )
        .await?;
    assert_eq!(
        under,
        json!(true),
        "the stops' numbers are drawn under the arrows"
    );
    let shown = client
        .execute(
            "return [...document.querySelectorAll('#tour-board [data-stop]')].length;",
            vec![],
        )
        .await?;
    let distinct: BTreeSet<&str> = (0..path.len() / 2)
        .map(|i| &path[2 * i..2 * i + 2])
        .collect();
    assert_eq!(shown.as_u64(), Some(distinct.len() as u64));
    // The stages of a breadth-first search (no "solutions"): the goal layer, the path's end.
    assert_eq!(
        client
            .execute(
                "return document.getElementById('tour-solution').textContent;",
                vec![]
            )
            .await?,
        json!("Next stage \u{25b6}\u{25b6}")
    );
    click_id(client, "tour-start").await?;
    click_id(client, "tour-solution").await?;
    at_step(client, "tour", layers.len() as u64).await?;
    click_id(client, "tour-solution").await?;
    at_step(
        client,
        "tour",
        trace.iter().filter(|l| l["step"].is_u64()).count() as u64,
    )
    .await?;
    accessible(page, "tour, the search").await?;
    let pieces = saves_svg(page, "tour", &["tour"], &input).await?;
    assert_eq!(pieces, 10);
    // The sample at the link of the issue: layer 3, then the goal layer.
    let rows = ".......Q/...P.P../...PNP../..NP.P../......../......../..B...../........";
    let sample = cli_lines(
        &["tour", "--trace"],
        &format!("1\n{}\n\n", rows.replace('/', "\n")),
    );
    let sample: Vec<&Value> = sample.iter().filter(|l| l["event"] == "layer").collect();
    open(page, &format!("tour?b={rows}&step=4")).await?;
    at_step(client, "tour", 4).await?;
    tour_layer(client, &sample, 4).await?;
    screenshot(client, "tour-search").await?;
    type_into(client, "tour-goto", "5").await?;
    at_step(client, "tour", 5).await?;
    tour_layer(client, &sample, 5).await?;
    assert_eq!(sample[4]["goal"], json!(true));
    // An impossible board: the bishop in a corner behind pawns.
    click_id(client, "tour-clear").await?;
    place("Q", &["e4"]).await?;
    place("B", &["a8"]).await?;
    place("P", &["a7", "b7", "b8"]).await?;
    place("N", &["h1", "h8"]).await?;
    click_id(client, "tour-solve").await?;
    wait_for(
        client,
        "return document.getElementById('tour-result').textContent === 'impossible';",
    )
    .await?;
    let detail = text_of(client, "tour-detail").await?;
    assert!(detail.contains("bishop on a8"), "{detail}");
    let input = text_of(client, "tour-input").await?;
    assert!(cli(&["tour"], &input).contains("impossible"));
    // Its search: where the queen can go at all, move by move, and the bishop out of reach.
    let trace = cli_lines(&["tour", "--trace"], &input);
    let reach: Vec<&Value> = trace.iter().filter(|l| l["event"] == "reach").collect();
    assert!(!reach.is_empty());
    click_id(client, "tour-watch").await?;
    at_step(client, "tour", 0).await?;
    let counter = text_of(client, "tour-counter").await?;
    assert!(
        counter.starts_with(&format!("Step 0 of {} ", reach.len())),
        "{counter}"
    );
    type_into(client, "tour-goto", &reach.len().to_string()).await?;
    at_step(client, "tour", reach.len() as u64).await?;
    let status = text_of(client, "tour-status").await?;
    assert!(
        status.contains("none of them stands next to the bishop on a8: there is no tour"),
        "{status}"
    );
    let numbered = client
        .execute(
            "return document.querySelectorAll('#tour-board .layer-number').length;",
            vec![],
        )
        .await?;
    let reached: usize = reach
        .iter()
        .map(|l| l["squares"].as_array().unwrap().len())
        .sum();
    assert_eq!(numbered, json!(reached));
    Ok(())
}

/// The squares of a trace line's list.
fn squares_of(line: &Value, key: &str) -> BTreeSet<String> {
    line[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// Checks the tour board at step k of its search (layer k - 1) against the trace's layers:
/// every square reached so far numbered once, with the first layer that reached it; the layer's
/// squares reached for the first time and those reached again apart, and the goal marked; the
/// sentence's counts those of the layer, adding up.
async fn tour_layer(client: &Client, layers: &[&Value], k: usize) -> Result<(), Failure> {
    let mut first = std::collections::BTreeMap::new();
    for layer in &layers[..k] {
        for sq in squares_of(layer, "squares") {
            first.entry(sq).or_insert(layer["moves"].as_u64().unwrap());
        }
    }
    let numbers: Vec<(String, String)> = serde_json::from_value(
        client
            .execute(
                "return [...document.querySelectorAll('#tour-board .layer-number')].map((t) => [t.dataset.square, t.textContent]);",
                vec![],
            )
            .await?,
    )?;
    let shown: std::collections::BTreeMap<String, u64> = numbers
        .iter()
        .map(|(s, n)| (s.clone(), n.parse().unwrap()))
        .collect();
    assert_eq!(
        numbers.len(),
        shown.len(),
        "layer {}: a square numbered twice",
        k - 1
    );
    assert_eq!(shown, first, "layer {}: the numbers on the board", k - 1);
    let layer = layers[k - 1];
    let (squares, new, again) = (
        squares_of(layer, "squares"),
        squares_of(layer, "new"),
        squares_of(layer, "again"),
    );
    assert_eq!(new.len() + again.len(), squares.len());
    let marked = |cls: &str| {
        let script = format!(
            "return [...document.querySelectorAll('#tour-board .sq.{cls}')].map((s) => s.dataset.square);"
        );
        async move {
            let v: BTreeSet<String> =
                serde_json::from_value(client.execute(&script, vec![]).await?)?;
            Ok::<_, Failure>(v)
        }
    };
    let status = text_of(client, "tour-status").await?;
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    assert!(
        status.contains(&format!(
            "{} reached for the first time and {} reached again with other knights ({})",
            plural(new.len(), "square"),
            again.len(),
            plural(layer["states"].as_u64().unwrap() as usize, "state")
        )),
        "{status}"
    );
    assert!(
        status.contains(&format!(
            "; {} reached so far",
            plural(first.len(), "square")
        )),
        "{status}"
    );
    if layer["goal"] == json!(true) {
        assert_eq!(marked("goal").await?, squares);
        assert!(
            status.starts_with(&format!("Layer {}, the goal: ", layer["moves"])),
            "{status}"
        );
    } else {
        assert_eq!(marked("layer-new").await?, new, "layer {}", k - 1);
        assert_eq!(marked("again").await?, again, "layer {}", k - 1);
        assert!(marked("goal").await?.is_empty());
    }
    Ok(())
}

async fn showdown(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    open(page, "showdown").await?;
    // One set of piece letters: the command line's (the phoenix is F).
    let letters = client
        .execute(
            "return [...document.querySelectorAll('#showdown-prices .key')].map(k => k.textContent).join('');",
            vec![],
        )
        .await?;
    assert_eq!(letters, json!("BRNGSHFC"));
    type_into(client, "showdown-side", "6").await?;
    wait_for(
        client,
        "return document.querySelectorAll('#showdown-board .sq').length === 36;",
    )
    .await?;
    // The sample's kings that fit stay; add some more by clicking.
    for name in [
        "row 6, column 6",
        "row 6, column 1",
        "row 1, column 6",
        "row 5, column 5",
    ] {
        square(client, "showdown-board", name)
            .await?
            .click()
            .await?;
    }
    type_into(client, "showdown-price-7", "3").await?;
    type_into(client, "showdown-steps", "5000").await?;
    click_id(client, "showdown-solve").await?;
    wait_for(
        client,
        "return document.getElementById('showdown-cost').textContent !== '\u{2014}';",
    )
    .await?;
    wait_for(
        client,
        "return document.getElementById('showdown-checks').textContent.startsWith('Every king');",
    )
    .await?;
    let input = text_of(client, "showdown-input").await?;
    assert!(input.starts_with("1\n6\n"), "{input}");
    let output = text_of(client, "showdown-output").await?;
    let cost: u64 = text_of(client, "showdown-cost").await?.parse()?;
    assert_eq!(
        output.split_whitespace().nth(1).unwrap().parse::<u64>()?,
        cost
    );
    // The answer is the command line's with the same steps and seed.
    assert_eq!(
        output,
        cli(&["showdown", "--steps", "5000", "--seed", "1"], &input)
    );
    // The judge accepts the arrangement read from the page, at that cost.
    let tmp = tempfile::tempdir()?;
    let dir = tmp.path();
    std::fs::write(dir.join("t.in"), &input)?;
    std::fs::write(dir.join("t.out"), &output)?;
    let judged = run(
        &[
            "showdown",
            "check",
            dir.join("t.in").to_str().unwrap(),
            dir.join("t.out").to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(judged.code, 0, "{}", judged.stdout_text());
    assert!(
        judged
            .stdout_text()
            .contains(&format!("test 1: {:.6}", cost as f64 / 36.0))
    );
    let lower: u64 = text_of(client, "showdown-bound").await?.parse()?;
    assert!(lower <= cost);
    // The optimiser's steps open at the final board, whose sentence gives the answer's cost.
    let said = text_of(client, "showdown-status").await?;
    assert!(
        said.contains(&format!(
            "the optimiser's answer: cost {cost}, lower bound {lower}"
        )),
        "{said}"
    );
    // Hovering a king names its checker.
    let king = square(client, "showdown-board", "row 6, column 6").await?;
    let hover = MouseActions::new("mouse".to_string()).then(PointerAction::MoveToElement {
        element: king,
        duration: None,
        x: 0.0,
        y: 0.0,
    });
    client.perform_actions(hover).await?;
    let checks = text_of(client, "showdown-checks").await?;
    assert!(
        checks.starts_with("The king on row 6, column 6 is in check from the "),
        "{checks}"
    );
    let checkers = client
        .execute(
            "return document.querySelectorAll('#showdown-board .checker').length;",
            vec![],
        )
        .await?;
    assert!(checkers.as_u64().unwrap() >= 1);
    // A piece, chosen with the keyboard: the kings it checks.
    let piece = client
        .execute("return document.querySelector('#showdown-board .sq[data-piece]:not([data-piece=\"king\"])').dataset.square;", vec![])
        .await?;
    let piece = piece.as_str().unwrap().to_string();
    let element = square(client, "showdown-board", &piece).await?;
    element.click().await?;
    wait_for(client, "return /^The .* checks \\d+ kings?/.test(document.getElementById('showdown-checks').textContent);").await?;
    screenshot(client, "showdown").await?;
    accessible(page, "showdown, answered").await?;
    let pieces = saves_svg(
        page,
        "showdown",
        &["showdown", "--steps", "5000", "--seed", "1"],
        &input,
    )
    .await?;
    let kings = input.matches('#').count();
    assert_eq!(pieces, kings + output.lines().count() - 1);
    // The pieces' panel: each piece in the middle of a 7x7 board, the squares it checks as the
    // judge says, against the statement's rules.
    client
        .find(Locator::Css("#showdown-pieces-panel summary"))
        .await?
        .click()
        .await?;
    wait_for(
        client,
        "return document.getElementById('showdown-pieces').dataset.ready === 'true';",
    )
    .await?;
    let reached = |piece: &'static str| async move {
        let script = format!(
            "return [...document.querySelectorAll('#showdown-pieces [data-piece=\"{piece}\"] circle.reach')].map((c) => c.dataset.square.split(',').map(Number));"
        );
        let v: BTreeSet<(i64, i64)> =
            serde_json::from_value::<Vec<(i64, i64)>>(client.execute(&script, vec![]).await?)?
                .into_iter()
                .collect();
        Ok::<_, Failure>(v)
    };
    let around = |steps: &[(i64, i64)]| -> BTreeSet<(i64, i64)> {
        steps.iter().map(|&(dr, dc)| (4 + dr, 4 + dc)).collect()
    };
    assert_eq!(
        reached("phoenix").await?,
        around(&[
            (-1, 0),
            (1, 0),
            (0, -1),
            (0, 1),
            (-2, -2),
            (-2, 2),
            (2, -2),
            (2, 2)
        ])
    );
    assert_eq!(
        reached("knight").await?,
        around(&[
            (-2, -1),
            (-2, 1),
            (2, -1),
            (2, 1),
            (-1, -2),
            (-1, 2),
            (1, -2),
            (1, 2)
        ])
    );
    // Gold: every neighbour but the two diagonally backwards (down the board).
    assert_eq!(
        reached("gold general").await?,
        around(&[(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)])
    );
    // The cannon checks only over its screen (a king two squares to its right).
    assert_eq!(reached("cannon").await?, BTreeSet::from([(4, 7)]));
    assert_eq!(reached("rook").await?.len(), 12);
    // The horse: the bishop's slides (stopped by the king two squares up and left, which
    // is no target) and the four orthogonal steps.
    assert_eq!(reached("horse").await?.len(), 12 - 2 + 4);
    assert_eq!(reached("bishop").await?.len(), 12 - 2);
    accessible(page, "showdown, the pieces").await?;
    showdown_steps::showdown_steps(page).await
}

async fn nqueens(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    open(page, "nqueens").await?;
    type_into(client, "nqueens-side", "10").await?;
    wait_for(
        client,
        "return document.querySelectorAll('#nqueens-board .sq').length === 100;",
    )
    .await?;
    square(client, "nqueens-board", "row 1, column 2")
        .await?
        .click()
        .await?;
    // The second queen with the keyboard alone: from (1, 2), down four rows, left one, Enter.
    press(
        client,
        &[
            Key::Down,
            Key::Down,
            Key::Down,
            Key::Down,
            Key::Left,
            Key::Enter,
        ],
    )
    .await?;
    wait_for(
        client,
        "return document.getElementById('nqueens-link').value.includes('fix=1,2;5,1');",
    )
    .await?;
    click_id(client, "nqueens-count").await?;
    wait_for(
        client,
        "return /^\\d+$/.test(document.getElementById('nqueens-result').textContent);",
    )
    .await?;
    let expected = cli(
        &["nqueens", "count", "10", "--fix", "1,2", "--fix", "5,1"],
        "",
    );
    assert_eq!(text_of(client, "nqueens-result").await?, expected.trim());
    assert_eq!(text_of(client, "nqueens-output").await?, expected);
    click_id(client, "nqueens-list").await?;
    wait_for(
        client,
        "return document.getElementById('nqueens-step').textContent.startsWith('Showing placement 1 of');",
    )
    .await?;
    let listed = cli(
        &[
            "nqueens", "list", "10", "--fix", "1,2", "--fix", "5,1", "--limit", "20",
        ],
        "",
    );
    assert_eq!(text_of(client, "nqueens-output").await?, listed);
    screenshot(client, "nqueens").await?;
    let pieces = saves_svg(
        page,
        "nqueens",
        &[
            "nqueens", "list", "10", "--fix", "1,2", "--fix", "5,1", "--limit", "20",
        ],
        "",
    )
    .await?;
    assert_eq!(pieces, 10 * listed.lines().count());
    // The search to its first solution: the command line's first placement.
    let trace = cli_lines(
        &[
            "nqueens", "list", "10", "--fix", "1,2", "--fix", "5,1", "--trace",
        ],
        "",
    );
    click_id(client, "nqueens-watch").await?;
    at_step(client, "nqueens", 0).await?;
    click_id(client, "nqueens-solution").await?;
    let k = first_solution(&trace);
    at_step(client, "nqueens", k).await?;
    let first = listed.lines().next().unwrap();
    let placement: BTreeSet<(i64, i64)> = first
        .split(' ')
        .enumerate()
        .map(|(c, r)| (r.parse().unwrap(), c as i64 + 1))
        .collect();
    assert_eq!(board_queens(client, "nqueens-board").await?, placement);
    // On to the second solution, and back to the first (the keyboard's A).
    let second = trace
        .iter()
        .filter(|l| l["event"] == "solution")
        .nth(1)
        .and_then(|l| l["step"].as_u64())
        .expect("a second solution");
    click_id(client, "nqueens-solution").await?;
    at_step(client, "nqueens", second).await?;
    click_id(client, "nqueens-prev-solution").await?;
    at_step(client, "nqueens", k).await?;
    press_char(client, 'a').await?;
    at_step(client, "nqueens", 0).await?;
    // Steps along the way, through links, each the trace's.
    for j in [1, 2, 7, k / 2, k - 1] {
        let link = text_of(client, "nqueens-link").await?;
        let hash = link.split_once('#').unwrap().1;
        let hash = format!("{}&step={j}", hash.split("&step=").next().unwrap());
        open(page, &hash).await?;
        at_step(client, "nqueens", j).await?;
        assert_eq!(
            board_queens(client, "nqueens-board").await?,
            replay(&trace, j),
            "step {j}"
        );
    }
    screenshot(client, "nqueens-search").await?;
    accessible(page, "nqueens, the search").await?;
    // A long count shows its progress and stops on request.
    click_id(client, "nqueens-clear").await?;
    type_into(client, "nqueens-side", "20").await?;
    click_id(client, "nqueens-count").await?;
    wait_for(
        client,
        "return document.getElementById('nqueens-detail').textContent.includes(' parts after ');",
    )
    .await?;
    click_id(client, "nqueens-cancel").await?;
    wait_for(
        client,
        "return document.getElementById('nqueens-result').textContent === 'cancelled';",
    )
    .await?;
    // The best weighted placement of random weights.
    type_into(client, "nqueens-side", "8").await?;
    click_id(client, "nqueens-best").await?;
    wait_for(
        client,
        "return /^\\d+$/.test(document.getElementById('nqueens-result').textContent);",
    )
    .await?;
    let input = text_of(client, "nqueens-input").await?;
    let best = cli(&["nqueens", "best"], &input);
    assert_eq!(text_of(client, "nqueens-result").await?, best.trim());
    // The judge output, made from the one search's JSON lines, is the command line's.
    assert_eq!(text_of(client, "nqueens-output").await?, best);
    // The weights are kept in the link: a fresh page shows the same board and answer.
    let link = text_of(client, "nqueens-link").await?;
    assert!(link.contains("seed="), "{link}");
    client.goto("about:blank").await?;
    client.goto(&link).await?;
    if let Err(e) = wait_for(client, "return document.body.dataset.ready === 'nqueens';").await {
        let state = client
            .execute("return [location.href, document.body.dataset.ready, document.getElementById('state-error').textContent, document.getElementById('nqueens-result').textContent, document.getElementById('nqueens-error') && document.getElementById('nqueens-error').textContent].join(' | ');", vec![])
            .await?;
        return Err(format!("{e}: {link}: {state}").into());
    }
    wait_for(
        client,
        "return /^\\d+$/.test(document.getElementById('nqueens-result').textContent);",
    )
    .await?;
    assert_eq!(text_of(client, "nqueens-input").await?, input);
    assert_eq!(text_of(client, "nqueens-result").await?, best.trim());
    // Worksheets: the first 20 placements of 8 queens in rows, with no legend for a given
    // queen there is not; a count with no queen given draws no empty board.
    open(page, "nqueens?n=8").await?;
    wait_for(
        client,
        "return document.getElementById('nqueens-result').textContent === 'first 20';",
    )
    .await?;
    let pieces = saves_svg(
        page,
        "nqueens",
        &["nqueens", "list", "8", "--limit", "20"],
        "",
    )
    .await?;
    assert_eq!(pieces, 8 * 20);
    let sheet = cli(
        &["nqueens", "list", "8", "--limit", "20", "--format", "svg"],
        "",
    );
    let doc = roxmltree::Document::parse(&sheet)?;
    let size = |a: &str| {
        doc.root_element()
            .attribute(a)
            .unwrap()
            .parse::<f64>()
            .unwrap()
    };
    let one = cli(
        &["nqueens", "list", "8", "--limit", "1", "--format", "svg"],
        "",
    );
    let one = roxmltree::Document::parse(&one)?;
    let one_h: f64 = one.root_element().attribute("height").unwrap().parse()?;
    assert!(size("width") <= 1760.0, "{}", size("width"));
    assert!(
        size("height") <= 5.0 * (one_h + 24.0),
        "{} px tall",
        size("height")
    );
    assert!(!sheet.contains("given") && !sheet.contains('\u{2655}'));
    click_id(client, "nqueens-count").await?;
    wait_for(
        client,
        "return /^\\d+$/.test(document.getElementById('nqueens-result').textContent);",
    )
    .await?;
    let pieces = saves_svg(page, "nqueens", &["nqueens", "count", "8"], "").await?;
    assert_eq!(pieces, 0);
    assert!(!cli(&["nqueens", "count", "8", "--format", "svg"], "").contains("scale("));
    try_it(page).await
}

/// The try-it mode, by keyboard alone: the learner's queens placed with the arrow keys and
/// Enter, what they attack hatched, and the count of placements that extend them the command
/// line's count with those queens given; two queens that attack each other are named.
async fn try_it(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    // (Not the address the count left: a link to the same address opens nothing new.)
    open(page, "nqueens?n=8&p=1").await?;
    click_id(client, "nqueens-try-mode").await?;
    wait_for(client, "return document.getElementById('nqueens-try').textContent.startsWith('No queen placed yet');").await?;
    client
        .execute(
            "document.querySelector('#nqueens-board [data-square=\"row 1, column 1\"]').focus();",
            vec![],
        )
        .await?;
    // (1, 1), (2, 3), (3, 5): no placement extends them, as the library counts.
    press(
        client,
        &[
            Key::Enter,
            Key::Down,
            Key::Right,
            Key::Right,
            Key::Enter,
            Key::Down,
            Key::Right,
            Key::Right,
            Key::Enter,
        ],
    )
    .await?;
    let count = |fix: &[&str]| {
        let mut args = vec!["nqueens", "count", "8"];
        for f in fix {
            args.extend(["--fix", f]);
        }
        cli(&args, "").trim().to_string()
    };
    assert_eq!(count(&["1,1", "2,3", "3,5"]), "0");
    wait_for(
        client,
        "return document.getElementById('nqueens-try').textContent.startsWith('3 queens placed: no placement of 8 queens extends it (the library counted 0)');",
    )
    .await?;
    // Back to (1, 1) alone: Enter takes each queen back. Then (5, 2) and (8, 3).
    press(
        client,
        &[
            Key::Enter,
            Key::Up,
            Key::Left,
            Key::Left,
            Key::Enter,
            Key::Down,
            Key::Down,
            Key::Down,
            Key::Left,
            Key::Enter,
            Key::Down,
            Key::Down,
            Key::Down,
            Key::Right,
            Key::Enter,
        ],
    )
    .await?;
    let queens = [(1i64, 1i64), (5, 2), (8, 3)];
    let counted = count(&["1,1", "5,2", "8,3"]);
    let says = format!(
        "3 queens placed, 5 to go: {counted} placement{} of 8 queens extend",
        if counted == "1" { "" } else { "s" }
    );
    wait_for(
        client,
        &format!("return document.getElementById('nqueens-try').textContent.startsWith({says:?});"),
    )
    .await?;
    assert_eq!(
        board_queens(client, "nqueens-board").await?,
        queens.into_iter().collect::<BTreeSet<_>>()
    );
    // Every square the three attack is hatched, and no other.
    let hatched: Vec<(i64, i64)> = serde_json::from_value(
        client
            .execute("return [...document.querySelectorAll('#nqueens-board .sq.attacked')].map((s) => [Number(s.dataset.r) + 1, Number(s.dataset.c) + 1]);", vec![])
            .await?,
    )?;
    let expected: Vec<(i64, i64)> = (1..=8)
        .flat_map(|r| (1..=8).map(move |c| (r, c)))
        .filter(|sq| !queens.contains(sq))
        .filter(|&(r, c)| {
            queens
                .iter()
                .any(|&(qr, qc)| qr == r || qc == c || qr - qc == r - c || qr + qc == r + c)
        })
        .collect();
    assert_eq!(hatched, expected);
    screenshot(client, "nqueens-try").await?;
    accessible(page, "nqueens, try it yourself").await?;
    // A queen on (7, 3), in the column of (8, 3): the two named, then taken back.
    press(client, &[Key::Up, Key::Enter]).await?;
    wait_for(
        client,
        "return document.getElementById('nqueens-try').textContent.includes('attack each other');",
    )
    .await?;
    let says_it = text_of(client, "nqueens-try").await?;
    assert!(
        says_it.contains("the queens on row 8, column 3 and row 7, column 3 attack each other"),
        "{says_it}"
    );
    press(client, &[Key::Enter]).await?;
    wait_for(
        client,
        &format!("return document.getElementById('nqueens-try').textContent.startsWith({says:?});"),
    )
    .await?;
    Ok(())
}

/// A link opens the same position, in a fresh page too; a bad link is named and the view
/// shows its sample.
async fn links(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    open(page, "nqueens?n=7&fix=2,3&step=40").await?;
    at_step(client, "nqueens", 40).await?;
    click_id(client, "nqueens-copy-link").await?;
    let link = text_of(client, "nqueens-link").await?;
    assert!(link.contains("#nqueens?n=7&fix=2,3&step=40"), "{link}");
    let queens = board_queens(client, "nqueens-board").await?;
    let status = text_of(client, "nqueens-status").await?;
    // Elsewhere first, then the link in a page loaded afresh.
    open(page, "tour").await?;
    client.goto("about:blank").await?;
    client.goto(&link).await?;
    wait_for(client, "return document.body.dataset.ready === 'nqueens';").await?;
    at_step(client, "nqueens", 40).await?;
    assert_eq!(board_queens(client, "nqueens-board").await?, queens);
    assert_eq!(text_of(client, "nqueens-status").await?, status);
    let trace = cli_lines(&["nqueens", "list", "7", "--fix", "2,3", "--trace"], "");
    assert_eq!(queens, replay(&trace, 40));
    // The two sentences of the backtracking at the links that found them wrong: a queen
    // removed after a solution, and a conflict on the last row.
    let eight = cli_lines(&["nqueens", "list", "8", "--trace"], "");
    assert_eq!(
        (step_event(&eight, 982), step_event(&eight, 983)),
        ("solution", "remove")
    );
    open(page, "nqueens?n=8&step=983").await?;
    at_step(client, "nqueens", 983).await?;
    let status = text_of(client, "nqueens-status").await?;
    assert!(
        status.contains("is removed to look for more solutions"),
        "{status}"
    );
    let conflict = eight.iter().find(|l| l["step"] == 23).unwrap();
    assert_eq!(
        (conflict["event"].as_str(), &conflict["square"][0]),
        (Some("attacked"), &json!(8))
    );
    open(page, "nqueens?n=8&step=23").await?;
    at_step(client, "nqueens", 23).await?;
    let status = text_of(client, "nqueens-status").await?;
    assert!(
        status.contains(&format!(
            ": conflict, no row is left in column {}.",
            conflict["square"][1]
        )) && !status.contains("try the next row"),
        "{status}"
    );
    // What docs/web.md shows of addresses and names is what the page writes.
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/web.md"))?;
    open(page, "showdown").await?;
    wait_for(
        client,
        "return document.getElementById('showdown-link').value.includes('&k=');",
    )
    .await?;
    let link = text_of(client, "showdown-link").await?;
    let kings = link.split("&k=").nth(1).unwrap();
    let shown = &kings[..kings.find('/').unwrap() + 1];
    assert!(
        docs.contains(&format!("&k={shown}...")),
        "docs/web.md against the page's {link}"
    );
    open(page, "queens?q=3,5").await?;
    let named = client
        .execute("return document.querySelector('#queens-board [data-square=\"row 3, column 5\"]').getAttribute('aria-label');", vec![])
        .await?;
    let named = named.as_str().unwrap();
    assert!(
        docs.contains(&format!("`{named}`")),
        "docs/web.md against the page's {named}"
    );
    // The queens view's link, with a placement.
    open(page, "queens?q=5,4&p=3").await?;
    wait_for(client, "return document.getElementById('queens-count').textContent.startsWith('Showing placement 3 of 8 with the queen on row 5, column 4');").await?;
    // Bad links: what is wrong is named, the view opens on its sample.
    for (hash, says, view) in [
        (
            "nqueens?n=99&fix=1,1",
            "n: expected a whole number 1..64, found '99'",
            "nqueens",
        ),
        ("sultan?w=1,2,x", "w: expected 64 weights", "sultan"),
        ("queens?q=9,9", "q: expected ROW,COLUMN", "queens"),
        ("showdown?n=3&k=___/_#_", "k: expected 3 rows", "showdown"),
    ] {
        open(page, hash).await?;
        let error = text_of(client, "state-error").await?;
        assert!(error.contains(says), "{hash}: {error}");
        let squares = client
            .execute(&format!("return document.querySelectorAll('#{view}-board .sq, #{view}-board td').length;"), vec![])
            .await?;
        assert!(
            squares.as_u64().unwrap() >= 25,
            "{hash}: the view shows its sample"
        );
    }
    let long = format!("tour?b={}", ".".repeat(9000));
    open(page, &long).await?;
    assert!(
        text_of(client, "state-error")
            .await?
            .contains("longer than 8192")
    );
    wait_for(
        client,
        "return document.getElementById('tour-result').textContent === 'h8h2e5d4b2';",
    )
    .await?;
    Ok(())
}
