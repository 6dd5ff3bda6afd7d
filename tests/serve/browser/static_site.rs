//! The web board as a static site (`web/build.sh OUT`, named by `STATIC_SITE`), served by
//! Python's static file server under a sub-path (`/chess-puzzles/`, as GitHub serves a
//! project's page), in the same headless Chromium as `chess-puzzles serve`, on real time:
//!
//! - every view opens on its sample and shows what it shows under `serve` (the same judge
//!   output, pieces and text), and so do links to positions and steps, a bad input's error
//!   and a count;
//! - the page answers through its Web Worker (the library as WebAssembly) under a
//!   Content-Security-Policy sent by the server (the page's own, with `'wasm-unsafe-eval'`);
//!   under a policy without it, or without the worker, the view says that the library could
//!   not be loaded, and why;
//! - a long count shows its progress from the worker and leaves the page's thread free, Stop
//!   answers within 100 ms, and the fresh worker then counts again;
//! - so do the optimisers, here and under `serve` with one solver: the showdown's (a 25x25
//!   board of 313 kings, 300,000 steps) and N-Queens' best placement (random weights on
//!   35x35, which the time limit ends unproven): a progress line that ticks while they run
//!   (the showdown's search steps), Stop within 100 ms, and the next answer at once (under
//!   `serve`, the stopped solve gave its solver back);
//! - a cold load (a static server and an address the browser has never seen) shows the first
//!   view's answer within 1 s of navigation, by the page's own clock.
//!
//! `.ci/web.sh` builds the site and runs this test with `STATIC_SITE` set (through
//! `.ci/serve.sh`, which starts chromedriver). Without `STATIC_SITE`, chromedriver or python3
//! the test is skipped, except under `CI=true`, where that is a failure.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::Client;
use serde_json::{Value, json};

use super::{Browser, Failure, SOLVED, click_id, missing, text_of, type_into, wait_for};
use crate::server::Server;

/// Where the site is served on the static server.
const SUB_PATH: &str = "/chess-puzzles/";

/// Python's static file server (`http.server`), with one header added to every answer, the
/// Content-Security-Policy it is given, and no log; it prints its port once it listens.
const STATIC_SERVER: &str = r#"
import functools, http.server, sys
class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Content-Security-Policy", sys.argv[2])
        super().end_headers()
    def log_message(self, *args):
        pass
handler = functools.partial(Handler, directory=sys.argv[1])
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
print(server.server_address[1], flush=True)
server.serve_forever()
"#;

/// The static file server this test started, stopped by its PID when dropped.
struct StaticServer {
    child: Child,
    /// `http://127.0.0.1:PORT` + [`SUB_PATH`].
    site: String,
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// The policy of the site's page (its `<meta>`), which the static server sends as a header.
fn page_policy(site: &Path) -> String {
    let page = std::fs::read_to_string(site.join("index.html")).expect("the site's index.html");
    let start = page
        .find("<meta http-equiv=\"Content-Security-Policy\" content=\"")
        .expect("a policy in the site's index.html");
    page[start..].split('"').nth(3).unwrap().to_string()
}

/// Serves a copy of `site` under [`SUB_PATH`] of a folder of `root`, every answer with the
/// Content-Security-Policy `policy`.
fn serve_static(site: &Path, root: &Path, policy: &str) -> StaticServer {
    copy_tree(site, &root.join(SUB_PATH.trim_matches('/'))).expect("a copy of the site");
    let mut child = Command::new("python3")
        .args(["-c", STATIC_SERVER])
        .arg(root)
        .arg(policy)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("python3 starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("piped"))
        .read_line(&mut line)
        .expect("the static server prints its port");
    let port: u16 = line
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("a port from the static server, found {line:?}"));
    StaticServer {
        child,
        site: format!("http://127.0.0.1:{port}{SUB_PATH}"),
    }
}

/// The built site (`STATIC_SITE`), if named and built.
fn static_site() -> Option<PathBuf> {
    let site = PathBuf::from(std::env::var_os("STATIC_SITE")?);
    site.join("chess_puzzles_web_bg.wasm")
        .exists()
        .then_some(site)
}

#[test]
#[ignore = "drives Chromium through chromedriver against web/build.sh's site: run by .ci/web.sh"]
fn the_static_site_answers_as_serve_does() {
    let Some(site) = static_site() else {
        missing::<()>("no STATIC_SITE: build the site with web/build.sh OUT and name OUT");
        return;
    };
    let python = Command::new("python3").arg("--version").output();
    if !python.is_ok_and(|o| o.status.success()) {
        missing::<()>("no python3 to serve the static site");
        return;
    }
    let Some(browser) = Browser::start() else {
        return;
    };
    let root = tempfile::tempdir().unwrap();
    let policy = page_policy(&site);
    assert!(policy.contains("'wasm-unsafe-eval'"), "{policy}");
    let statics = serve_static(&site, root.path(), &policy);
    // A server of its own for the cold load: nothing from its address is in the browser's
    // caches.
    let cold_root = tempfile::tempdir().unwrap();
    let cold = serve_static(&site, cold_root.path(), &policy);
    // A host whose policy forbids compiling WebAssembly.
    let strict_root = tempfile::tempdir().unwrap();
    let strict = serve_static(
        &site,
        strict_root.path(),
        &policy.replace(" 'wasm-unsafe-eval'", ""),
    );
    // A site published without its worker.
    let broken_root = tempfile::tempdir().unwrap();
    let broken = serve_static(&site, broken_root.path(), &policy);
    std::fs::remove_file(
        broken_root
            .path()
            .join(SUB_PATH.trim_matches('/'))
            .join("worker.js"),
    )
    .unwrap();
    // One thread, as in the browser: a showdown's steps give the same answers (docs/web.md).
    // One solver: a stopped optimiser must give it back for the next answer to come at once.
    let server = Server::start_with_env(&["--solvers", "1"], &[("RAYON_NUM_THREADS", "1")]);
    let (served, statics_site) = (format!("{}/", server.base), statics.site.clone());
    let (strict_site, broken_site) = (strict.site.clone(), broken.site.clone());
    let cold_site = cold.site.clone();
    browser.run(|client| async move {
        let sites = Sites {
            client: &client,
            served,
            statics: statics_site,
        };
        sites.cold_load(&cold_site).await?;
        sites.same_answers().await?;
        sites.count_and_stop().await?;
        sites.optimisers_stop(&sites.statics).await?;
        sites.optimisers_stop(&sites.served).await?;
        sites.no_module(&strict_site, &broken_site).await?;
        Ok(())
    });
    server.stop(Duration::from_secs(10));
    drop((statics, strict, broken, cold));
}

/// The browser, and the page's address under `serve` and on the static server.
struct Sites<'a> {
    client: &'a Client,
    served: String,
    statics: String,
}

/// What a view shows: its judge output, its pieces and its visible text.
const SNAPSHOT: &str = "const view = arguments[0];
     const root = document.getElementById(`view-${view}`);
     const output = document.getElementById(`${view}-output`);
     return {
       transport: document.documentElement.dataset.transport,
       output: output ? output.textContent : null,
       pieces: [...root.querySelectorAll('[data-piece]')]
         .map((s) => `${s.dataset.r},${s.dataset.c}:${s.dataset.piece}`).sort(),
       text: root.innerText,
     };";

impl Sites<'_> {
    /// The first view opened on `site`, never visited: its answer (the worker started, the
    /// module fetched and compiled, the sample solved and drawn) within 1 s of navigation,
    /// read on the page's clock (`performance.now()`, from the navigation's start), polled
    /// every 5 ms: an upper bound of when it appeared.
    async fn cold_load(&self, site: &str) -> Result<(), Failure> {
        let (view, check) = SOLVED[0];
        self.client.goto("about:blank").await?;
        self.client.goto(&format!("{site}#{view}")).await?;
        let at = self
            .client
            .execute_async(
                &format!(
                    "const done = arguments[arguments.length - 1];
                     const poll = () => {{
                       if ({check}) done(performance.now());
                       else if (performance.now() > 20000) done(null);
                       else setTimeout(poll, 5);
                     }};
                     poll();"
                ),
                vec![],
            )
            .await?;
        let transport = self
            .client
            .execute("return document.documentElement.dataset.transport;", vec![])
            .await?;
        assert_eq!(
            transport, "worker",
            "the cold load answered through its worker"
        );
        let at = at.as_f64().unwrap_or(f64::MAX);
        eprintln!("static site: a cold load showed its first answer {at:.0} ms after navigation");
        assert!(
            at < 1000.0,
            "a cold load showed its first answer {at} ms after navigation"
        );
        Ok(())
    }

    /// Opens `base#hash` in a fresh page and waits until its view is ready.
    async fn open(&self, base: &str, hash: &str) -> Result<(), Failure> {
        let view = hash.split('?').next().unwrap_or(hash);
        // A fresh document each time (about:blank between): the same address with another
        // fragment would not load the page again.
        self.client.goto("about:blank").await?;
        self.client.goto(&format!("{base}#{hash}")).await?;
        wait_for(
            self.client,
            &format!("return document.body.dataset.ready === '{view}';"),
        )
        .await?;
        Ok(())
    }

    /// What the view of `hash` shows once `ready` (a script's expression) holds, on `base`.
    async fn snapshot(&self, base: &str, hash: &str, ready: &str) -> Result<Value, Failure> {
        self.open(base, hash).await?;
        wait_for(self.client, &format!("return {ready};")).await?;
        let view = hash.split('?').next().unwrap_or(hash);
        Ok(self.client.execute(SNAPSHOT, vec![json!(view)]).await?)
    }

    /// Every view's sample and a few links show the same under `serve` and on the static site.
    async fn same_answers(&self) -> Result<(), Failure> {
        let mut cases: Vec<(String, String)> = SOLVED
            .iter()
            .map(|(view, check)| (view.to_string(), check.to_string()))
            .collect();
        for (hash, ready) in [
            (
                "queens?q=3,6&step=872",
                "document.getElementById('queens-counter').textContent.startsWith('Step 872 of ')",
            ),
            (
                "sultan?step=300",
                "document.getElementById('sultan-counter').textContent.startsWith('Step 300 of ')",
            ),
            (
                "nqueens?n=7&fix=2,3&step=40",
                "document.getElementById('nqueens-counter').textContent.startsWith('Step 40 of ')",
            ),
        ] {
            cases.push((hash.to_string(), ready.to_string()));
        }
        for (hash, ready) in &cases {
            let served = self.snapshot(&self.served, hash, ready).await?;
            let statics = self.snapshot(&self.statics, hash, ready).await?;
            assert_eq!(served["transport"], "server", "{hash}");
            assert_eq!(statics["transport"], "worker", "{hash}");
            let output = served["output"].as_str().is_some_and(|o| !o.is_empty());
            let pieces = served["pieces"].as_array().is_some_and(|p| !p.is_empty());
            assert!(
                output || pieces,
                "{hash}: nothing shown under serve: {served}"
            );
            for key in ["output", "pieces", "text"] {
                assert_eq!(
                    statics[key], served[key],
                    "{hash}: the static site's {key} differs from serve's"
                );
            }
        }
        // Nothing left the sub-path: the page's own files all came from under it.
        let outside = self
            .client
            .execute(
                "return performance.getEntriesByType('resource').map((e) => e.name)
                   .filter((name) => !name.startsWith(arguments[0]));",
                vec![json!(self.statics)],
            )
            .await?;
        assert_eq!(outside, json!([]), "requests outside {SUB_PATH}");

        // A bad input: the same located error on both.
        let mut errors = Vec::new();
        for base in [&self.served, &self.statics] {
            self.open(base, "queens").await?;
            type_into(self.client, "queens-input", "1\n9 1\n").await?;
            click_id(self.client, "queens-solve-input").await?;
            let error = wait_for(
                self.client,
                "return document.getElementById('queens-error').textContent;",
            )
            .await?;
            errors.push(error);
        }
        assert_eq!(errors[0], errors[1], "the error of a bad input");
        assert!(
            errors[0].as_str().is_some_and(|e| e.contains("line 2")),
            "{}",
            errors[0]
        );

        // A count with given queens (one worker), and an empty board's (shared by as many
        // workers as the browser has cores, up to 8).
        for hash in ["nqueens?n=10&fix=1,2;5,1", "nqueens?n=13"] {
            let mut counts = Vec::new();
            for base in [&self.served, &self.statics] {
                self.open(base, hash).await?;
                click_id(self.client, "nqueens-count").await?;
                let count = wait_for(
                    self.client,
                    "const r = document.getElementById('nqueens-result').textContent; return /^\\d+$/.test(r) && r;",
                )
                .await?;
                counts.push((count, text_of(self.client, "nqueens-output").await?));
            }
            assert_eq!(counts[0], counts[1], "{hash}: the count");
        }
        let shared = self
            .client
            .execute(
                "return [document.documentElement.dataset.workers || '1', String(Math.min(navigator.hardwareConcurrency || 1, 8))];",
                vec![],
            )
            .await?;
        assert_eq!(shared[0], shared[1], "the workers that shared the count");
        Ok(())
    }

    /// A host that forbids the module (its policy lacks `'wasm-unsafe-eval'`), and a site
    /// without its worker: the view says so, with the reason, instead of waiting for ever.
    async fn no_module(&self, strict: &str, broken: &str) -> Result<(), Failure> {
        self.open(strict, "queens").await?;
        let said = text_of(self.client, "state-error").await?;
        assert!(
            said.starts_with(
                "This view could not be opened: the library could not be loaded in this browser: "
            ) && said.contains("Content Security Policy"),
            "{said}"
        );
        self.open(broken, "sultan").await?;
        let said = text_of(self.client, "state-error").await?;
        assert_eq!(
            said,
            "This view could not be opened: the library's worker failed: it could not be loaded"
        );
        Ok(())
    }

    /// A count too long to finish: its progress comes from the worker, the page's thread stays
    /// free while the worker counts, Stop answers within 100 ms, and the next count is
    /// answered by a fresh worker.
    async fn count_and_stop(&self) -> Result<(), Failure> {
        let client = self.client;
        self.open(&self.statics, "nqueens?n=18").await?;
        click_id(client, "nqueens-count").await?;
        // The worker's progress: parts done of parts known, as the server's events give it.
        wait_for(
            client,
            "return /: [1-9]\\d* of [1-9]\\d* parts after /.test(document.getElementById('nqueens-detail').textContent);",
        )
        .await?;
        // The longest the page's thread was busy over a second of the count (a timer every
        // 10 ms). The count runs for seconds, so on the page's thread it would hold it all that
        // time; the bound leaves room for a loaded machine.
        let worst = client
            .execute_async(
                "const done = arguments[arguments.length - 1];
                 let last = performance.now(), worst = 0;
                 const timer = setInterval(() => {
                   const now = performance.now();
                   worst = Math.max(worst, now - last);
                   last = now;
                 }, 10);
                 setTimeout(() => { clearInterval(timer); done(worst); }, 1000);",
                vec![],
            )
            .await?;
        let worst = worst.as_f64().unwrap_or(f64::MAX);
        assert!(
            worst < 250.0,
            "the page's thread was held {worst} ms during a count"
        );
        assert_eq!(
            text_of(client, "nqueens-result").await?,
            "counting\u{2026}",
            "a count of 18 is still going"
        );
        let stopped = client
            .execute_async(
                "const done = arguments[arguments.length - 1];
                 const result = document.getElementById('nqueens-result');
                 const started = performance.now();
                 const seen = new MutationObserver(() => {
                   if (result.textContent === 'cancelled') {
                     seen.disconnect();
                     done(performance.now() - started);
                   }
                 });
                 seen.observe(result, { childList: true, characterData: true, subtree: true });
                 document.getElementById('nqueens-cancel').click();",
                vec![],
            )
            .await?;
        let stopped = stopped.as_f64().unwrap_or(f64::MAX);
        assert!(stopped < 100.0, "Stop took {stopped} ms");
        // The fresh worker counts the next board.
        type_into(client, "nqueens-side", "8").await?;
        wait_for(
            client,
            "return document.querySelectorAll('#nqueens-board .sq').length === 64;",
        )
        .await?;
        click_id(client, "nqueens-count").await?;
        wait_for(
            client,
            "return document.getElementById('nqueens-result').textContent === '92';",
        )
        .await?;
        Ok(())
    }

    /// The long optimisers on the static site and under `serve` (one solver): each shows a
    /// progress line that ticks (the showdown's search steps, which move, or the boards
    /// proven, and the time), Stop ends it within 100 ms, and the page then answers the next
    /// request at once (the stopped one would have held the worker, or the server's only
    /// solver, for seconds more).
    async fn optimisers_stop(&self, base: &str) -> Result<(), Failure> {
        let client = self.client;
        // The showdown: a 25x25 board with a king on every other square, 300,000 steps (the
        // most the page allows there; about 4 s natively on one thread). Opened from a link,
        // which solves while the view opens.
        let rows: Vec<String> = (0..25)
            .map(|r| {
                (0..25)
                    .map(|c| if (r + c) % 2 == 0 { '#' } else { '_' })
                    .collect()
            })
            .collect();
        let hash = format!(
            "showdown?n=25&k={}&p=1,1,1,1,1,1,2,1&s=300000",
            rows.join("/")
        );
        client.goto("about:blank").await?;
        client.goto(&format!("{base}#{hash}")).await?;
        // Steps made (not 0: the bar moves within the one test) of 300,000 (one search: the
        // browser's one thread, and the server's, see the test above).
        ticks(
            client,
            "showdown-detail",
            "^25x25 board, 313 kings: [1-9][\\\\d,]* of 300,000 search steps after (\\\\d+\\\\.\\\\d) s$",
        )
        .await?;
        assert!(
            !is_disabled(client, "showdown-stop").await?,
            "Stop is enabled while the optimiser runs"
        );
        let stopped = stop_within(client, "showdown-stop", "showdown-detail").await?;
        assert!(stopped < 100.0, "the showdown's Stop took {stopped} ms");
        // The view has opened (the stop is not the link's fault) and is usable at once.
        wait_for(client, "return document.body.dataset.ready === 'showdown';").await?;
        assert_eq!(text_of(client, "state-error").await?, "");
        assert!(
            is_disabled(client, "showdown-stop").await?,
            "Stop once stopped"
        );
        assert_eq!(text_of(client, "showdown-cost").await?, "\u{2014}");
        click_id(client, "showdown-sample").await?;
        let answered = timed(
            client,
            "document.getElementById('showdown-solve').click();",
            "document.getElementById('showdown-checks').textContent === 'Every king is in check (verified by the judge).'",
        )
        .await?;
        assert!(
            answered < 3000.0,
            "the sample took {answered} ms after Stop"
        );
        assert_eq!(text_of(client, "showdown-detail").await?, "");

        // N-Queens' best placement on random weights of 35x35: unproven at the time limit (a
        // 30x30 board was proven in 1 to 4 s, natively at times before the progress line ticked).
        self.open(base, "nqueens?n=35").await?;
        click_id(client, "nqueens-best").await?;
        ticks(
            client,
            "nqueens-detail",
            "^the best placement on the weights: 0 of 1 board proven after (\\\\d+\\\\.\\\\d) s$",
        )
        .await?;
        assert_eq!(
            text_of(client, "nqueens-result").await?,
            "searching\u{2026}"
        );
        let stopped = stop_within(client, "nqueens-cancel", "nqueens-result").await?;
        assert!(stopped < 100.0, "N-Queens' Stop took {stopped} ms");
        assert!(
            is_disabled(client, "nqueens-cancel").await?,
            "Stop once stopped"
        );
        type_into(client, "nqueens-side", "8").await?;
        wait_for(
            client,
            "return document.querySelectorAll('#nqueens-board .sq').length === 64;",
        )
        .await?;
        let answered = timed(
            client,
            "document.getElementById('nqueens-best').click();",
            "/^\\d+$/.test(document.getElementById('nqueens-result').textContent)",
        )
        .await?;
        assert!(
            answered < 3000.0,
            "the 8x8 best took {answered} ms after Stop"
        );
        Ok(())
    }
}

/// Waits until the text of `id` matches `pattern` (a JavaScript regular expression whose first
/// group is seconds) with at least half a second: the line has ticked while the work runs.
async fn ticks(client: &Client, id: &str, pattern: &str) -> Result<(), Failure> {
    wait_for(
        client,
        &format!(
            "const m = new RegExp('{pattern}').exec(document.getElementById('{id}').textContent);
             return m !== null && Number(m[1]) >= 0.5;"
        ),
    )
    .await?;
    Ok(())
}

async fn is_disabled(client: &Client, id: &str) -> Result<bool, Failure> {
    let value = client
        .execute(
            &format!("return document.getElementById('{id}').disabled;"),
            vec![],
        )
        .await?;
    Ok(value == json!(true))
}

/// Clicks the Stop button `stop` and returns the milliseconds until `said` reads `cancelled`.
async fn stop_within(client: &Client, stop: &str, said: &str) -> Result<f64, Failure> {
    let ms = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             const said = document.getElementById(arguments[1]);
             const started = performance.now();
             const seen = new MutationObserver(() => {
               if (said.textContent === 'cancelled') {
                 seen.disconnect();
                 done(performance.now() - started);
               }
             });
             seen.observe(said, { childList: true, characterData: true, subtree: true });
             document.getElementById(arguments[0]).click();",
            vec![json!(stop), json!(said)],
        )
        .await?;
    Ok(ms.as_f64().unwrap_or(f64::MAX))
}

/// Runs `action` (a script) and returns the milliseconds until `until` (an expression) holds,
/// polled every 10 ms on the page, at most 20 s.
async fn timed(client: &Client, action: &str, until: &str) -> Result<f64, Failure> {
    let ms = client
        .execute_async(
            &format!(
                "const done = arguments[arguments.length - 1];
                 const started = performance.now();
                 {action}
                 const poll = setInterval(() => {{
                   const took = performance.now() - started;
                   if (({until}) || took > 20000) {{
                     clearInterval(poll);
                     done(took);
                   }}
                 }}, 10);"
            ),
            vec![],
        )
        .await?;
    Ok(ms.as_f64().unwrap_or(f64::MAX))
}
