//! The showdown optimiser stepped in the page: the board after every step the command line's
//! `showdown --trace` replayed, to the final board, which is the command line's answer; the
//! learner's own pieces placed by keyboard, their cost and the kings left unchecked read back.

use std::collections::{BTreeMap, BTreeSet};

use super::*;

/// A board: the pieces (row, column) -> type, and the unchecked kings.
type Drawn = (BTreeMap<(i64, i64), u64>, BTreeSet<(i64, i64)>);

/// The pieces (row, column, type) and the unchecked kings on the page's board.
async fn page_board(client: &Client) -> Result<Drawn, Failure> {
    let names = [
        "bishop",
        "rook",
        "knight",
        "gold general",
        "silver general",
        "horse",
        "phoenix",
        "cannon",
    ];
    let v = client
        .execute(
            "return [...document.querySelectorAll('#showdown-board .sq')].map((s) => [s.dataset.square, s.dataset.piece || '', s.classList.contains('bad')]);",
            vec![],
        )
        .await?;
    let mut pieces = BTreeMap::new();
    let mut open = BTreeSet::new();
    for sq in v.as_array().unwrap() {
        let name = sq[0].as_str().unwrap();
        // "row R, column C"
        let nums: Vec<i64> = name
            .split(|c: char| !c.is_ascii_digit())
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().unwrap())
            .collect();
        let at = (nums[0], nums[1]);
        let piece = sq[1].as_str().unwrap();
        if let Some(t) = names.iter().position(|&n| n == piece) {
            pieces.insert(at, t as u64 + 1);
        }
        if sq[2].as_bool().unwrap() {
            open.insert(at);
        }
    }
    Ok((pieces, open))
}

/// The board after each step of a trace's lines (of one test), replayed here: pieces and the
/// unchecked kings, index 0 the empty board.
fn replayed(lines: &[Value]) -> Vec<Drawn> {
    let at = |v: &Value| (v[0].as_i64().unwrap(), v[1].as_i64().unwrap());
    let kings: BTreeSet<(i64, i64)> = lines[0]["kings"]
        .as_array()
        .unwrap()
        .iter()
        .map(at)
        .collect();
    let mut pieces = BTreeMap::new();
    let mut open = kings.clone();
    let mut states = vec![(pieces.clone(), open.clone())];
    for l in lines.iter().filter(|l| l.get("step").is_some()) {
        match l["event"].as_str().unwrap() {
            "add" | "swap" => {
                pieces.insert(at(&l["square"]), l["type"].as_u64().unwrap());
            }
            "remove" => {
                pieces.remove(&at(&l["square"]));
            }
            _ => {}
        }
        for k in l["checked"].as_array().into_iter().flatten() {
            open.remove(&at(k));
        }
        for k in l["lost"].as_array().into_iter().flatten() {
            open.insert(at(k));
        }
        if let Some(all) = l["pieces"].as_array() {
            pieces = all
                .iter()
                .map(|p| {
                    (
                        (p["row"].as_i64().unwrap(), p["col"].as_i64().unwrap()),
                        p["type"].as_u64().unwrap(),
                    )
                })
                .collect();
            open = l["open"].as_array().unwrap().iter().map(at).collect();
        }
        states.push((pieces.clone(), open.clone()));
    }
    states
}

pub(super) async fn showdown_steps(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    // A 9x9 board where the exact search gives up and the local search moves (the page's
    // seed is 1).
    let input = cli(
        &[
            "showdown", "gen", "--seed", "5", "--cases", "1", "--size", "9",
        ],
        "",
    );
    let rows: Vec<&str> = input.lines().skip(2).take(9).collect();
    let prices = input
        .lines()
        .nth(11)
        .unwrap()
        .split(' ')
        .collect::<Vec<_>>()
        .join(",");
    let traced = cli(
        &[
            "showdown",
            "--trace",
            "--steps",
            "3000",
            "--seed",
            "1",
            "--trace-steps",
            "20000",
        ],
        &input,
    );
    let lines: Vec<Value> = traced
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let states = replayed(&lines);
    let steps = states.len() - 1;
    let answer = lines.last().unwrap();
    let answer_pieces: BTreeMap<(i64, i64), u64> = answer["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                (p["row"].as_i64().unwrap(), p["col"].as_i64().unwrap()),
                p["type"].as_u64().unwrap(),
            )
        })
        .collect();
    let plain: Value = serde_json::from_str(
        cli(
            &[
                "showdown", "--format", "json", "--steps", "3000", "--seed", "1",
            ],
            &input,
        )
        .trim(),
    )?;
    assert_eq!(answer["pieces"], plain["pieces"]);
    assert_eq!(
        states[steps].0, answer_pieces,
        "the trace replayed reaches the answer"
    );
    assert!(lines.iter().any(|l| l["phase"] == "search"));

    open(
        page,
        &format!("showdown?n=9&k={}&p={prices}&s=3000", rows.join("/")),
    )
    .await?;
    wait_for(
        client,
        &format!("return document.getElementById('showdown-counter').textContent.startsWith('Step {steps} of {steps}');"),
    )
    .await?;
    // The final board is the command line's answer.
    assert_eq!(page_board(client).await?, states[steps]);
    // From the start, step by step with the keyboard (N): each board the replayed one.
    click_id(client, "showdown-start").await?;
    assert_eq!(page_board(client).await?, states[0]);
    client
        .execute(
            "document.querySelector('#showdown-board .sq').focus();",
            vec![],
        )
        .await?;
    for (k, state) in states.iter().enumerate().take(13).skip(1) {
        press_char(client, 'n').await?;
        wait_for(
            client,
            &format!("return document.getElementById('showdown-counter').textContent.startsWith('Step {k} of');"),
        )
        .await?;
        assert_eq!(&page_board(client).await?, state, "step {k}");
        let said = text_of(client, "showdown-status").await?;
        if k == 1 {
            let bound = lines[1]["bound"].as_u64().unwrap();
            assert!(
                said.starts_with(&format!("The lower bound is {bound}:")),
                "{said}"
            );
        } else {
            assert!(!said.is_empty());
        }
    }
    // A step of the local search, and the next phase (S).
    let first_search = lines
        .iter()
        .filter(|l| l.get("step").is_some())
        .position(|l| l["phase"] == "search")
        .unwrap()
        + 1;
    type_into(client, "showdown-goto", &first_search.to_string()).await?;
    wait_for(
        client,
        &format!("return document.getElementById('showdown-counter').textContent.startsWith('Step {first_search} of');"),
    )
    .await?;
    assert_eq!(page_board(client).await?, states[first_search]);
    assert!(
        text_of(client, "showdown-status")
            .await?
            .starts_with("The local search ")
    );
    // The address keeps the step: opened again, the page shows the same board.
    let hash = client
        .execute("return location.hash.slice(1);", vec![])
        .await?;
    let hash = hash.as_str().unwrap().to_string();
    assert!(hash.ends_with(&format!("&step={first_search}")), "{hash}");
    open(page, "queens").await?;
    open(page, &hash).await?;
    wait_for(
        client,
        &format!("return document.getElementById('showdown-counter').textContent.startsWith('Step {first_search} of {steps}');"),
    )
    .await?;
    assert_eq!(page_board(client).await?, states[first_search]);
    screenshot(client, "showdown-steps").await?;
    accessible(page, "showdown, a step of the search").await?;
    // The last step again: the final board.
    type_into(client, "showdown-goto", &steps.to_string()).await?;
    wait_for(
        client,
        "return document.getElementById('showdown-status').textContent.includes('This is the final board');",
    )
    .await?;
    assert_eq!(page_board(client).await?.0, answer_pieces);

    // Try it: the answer's pieces placed by keyboard, one by one.
    click_id(client, "showdown-try").await?;
    wait_for(
        client,
        "return document.getElementById('showdown-try-status').dataset.unchecked !== undefined;",
    )
    .await?;
    let kings = lines[0]["kings"].as_array().unwrap().len();
    let price = |t: u64| {
        prices
            .split(',')
            .nth(t as usize - 1)
            .unwrap()
            .parse::<u64>()
            .unwrap()
    };
    let mut cost = 0;
    for (i, (&(r, c), &t)) in answer_pieces.iter().enumerate() {
        let kind = client.find(Locator::Id("showdown-try-kind")).await?;
        kind.send_keys(&t.to_string()).await?;
        client
            .execute(&format!("document.querySelector('#showdown-board [data-square=\"row {r}, column {c}\"]').focus();"), vec![])
            .await?;
        press(client, &[Key::Enter]).await?;
        cost += price(t);
        wait_for(
            client,
            &format!("return document.getElementById('showdown-try-status').dataset.cost === '{cost}' && document.querySelectorAll('#showdown-board .mine').length === {};", i + 1),
        )
        .await?;
        let status = text_of(client, "showdown-try-status").await?;
        if i == 0 {
            let open: usize = client
                .execute("return Number(document.getElementById('showdown-try-status').dataset.unchecked);", vec![])
                .await?
                .as_u64()
                .unwrap() as usize;
            assert!(
                open < kings && status.contains("still unchecked"),
                "{status}"
            );
            assert_eq!(page_board(client).await?.1.len(), open);
        }
    }
    let status = text_of(client, "showdown-try-status").await?;
    assert_eq!(cost, answer["cost"].as_u64().unwrap());
    assert!(
        status.starts_with(&format!(
            "Every king is in check: your {} pieces cost {cost}, as much as the optimiser's",
            answer_pieces.len()
        )),
        "{status}"
    );
    assert!(
        status.contains(&format!("The lower bound is {}", answer["lower_bound"])),
        "{status}"
    );
    screenshot(client, "showdown-try").await?;
    accessible(page, "showdown, try it").await?;
    click_id(client, "showdown-try").await?;
    Ok(())
}
