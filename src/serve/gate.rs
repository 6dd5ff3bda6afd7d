//! At most one solve per core: a semaphore, a bounded queue in front of it, and a bounded wait.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::http::StatusCode;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::error::ApiError;

/// Lets `solvers` solves run at once; up to `queue` more wait at most `wait` each.
#[derive(Debug)]
pub struct Gate {
    permits: Arc<Semaphore>,
    waiting: AtomicUsize,
    queue: usize,
    wait: Duration,
}

/// Counts a waiting request for as long as it lives (also when its client goes away).
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Gate {
    /// A gate of `solvers` (at least 1) places.
    pub fn new(solvers: usize, queue: usize, wait: Duration) -> Gate {
        Gate {
            permits: Arc::new(Semaphore::new(solvers.max(1))),
            waiting: AtomicUsize::new(0),
            queue,
            wait,
        }
    }

    /// A place for one solve, held until the permit is dropped; 503 when the queue is full
    /// or the wait is over.
    pub async fn enter(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        if let Ok(permit) = self.permits.clone().try_acquire_owned() {
            return Ok(permit);
        }
        if self.waiting.fetch_add(1, Ordering::AcqRel) >= self.queue {
            self.waiting.fetch_sub(1, Ordering::AcqRel);
            return Err(busy("every solver is busy and the queue is full"));
        }
        let _waiting = Waiting(&self.waiting);
        match tokio::time::timeout(self.wait, self.permits.clone().acquire_owned()).await {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(busy(&format!(
                "every solver stayed busy for {} s",
                self.wait.as_secs_f64()
            ))),
        }
    }
}

fn busy(why: &str) -> ApiError {
    super::error::refusal(
        StatusCode::SERVICE_UNAVAILABLE,
        format!("{why}; try again in a moment"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_queue_and_the_wait_are_bounded() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        runtime.block_on(async {
            let gate = Arc::new(Gate::new(1, 1, Duration::from_millis(50)));
            let held = gate.enter().await.unwrap();
            // One may wait: it gives up after the wait.
            let waited = gate.enter().await.unwrap_err();
            assert_eq!(waited.status, StatusCode::SERVICE_UNAVAILABLE.as_u16());
            assert_eq!(gate.waiting.load(Ordering::Acquire), 0);
            // While one waits, the next is refused at once.
            let g = gate.clone();
            let first = tokio::spawn(async move { g.enter().await.map(drop) });
            tokio::time::sleep(Duration::from_millis(10)).await;
            assert!(gate.enter().await.is_err());
            drop(held);
            assert!(first.await.unwrap().is_ok());
            assert!(gate.enter().await.is_ok());
        });
    }
}
