//! The delivery worker: runs inside `serve`, claims due webhook deliveries and attempts
//! them, a few at a time (the claim keeps each merchant to its share, so one merchant's
//! slow endpoints never fill every slot). Stopped with the server: attempts in flight
//! finish (each is bounded by the answer timeout); any that cannot are given back, due
//! at once.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use domain::error::Report;
use domain::ids::DeliveryId;
use domain::ports::WebhookSender;
use domain::services::WebhookService;
use domain::webhook::{ANSWER_TIMEOUT, Outcome};
use tokio::sync::watch;
use tokio::task::{self, JoinSet};

/// How often the worker looks for due deliveries.
const POLL: Duration = Duration::from_millis(250);
/// Attempts in flight at most, per instance, all merchants together (each merchant has
/// at most `domain::services::IN_FLIGHT_PER_MERCHANT` of them, across instances).
const IN_FLIGHT: usize = 16;
/// How long a stopping worker waits for its attempts: one answer's timeout and a margin.
const STOP_GRACE: Duration = Duration::from_secs(ANSWER_TIMEOUT.as_secs() + 5);

/// The running worker.
pub struct Worker {
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl Worker {
    /// Starts delivering.
    pub fn start(service: WebhookService, sender: Arc<dyn WebhookSender>) -> Self {
        let (stop, stopped) = watch::channel(false);
        let task = tokio::spawn(run(service, sender, stopped));
        Self { stop, task }
    }

    /// Stops claiming, lets attempts in flight finish, and returns when done.
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        if let Err(e) = self.task.await {
            tracing::error!(error = %Report(&e), "the webhook worker ended abnormally");
        }
    }
}

async fn run(
    service: WebhookService,
    sender: Arc<dyn WebhookSender>,
    mut stopped: watch::Receiver<bool>,
) {
    let mut attempts: JoinSet<()> = JoinSet::new();
    let mut in_flight: HashMap<task::Id, DeliveryId> = HashMap::new();
    loop {
        while let Some(done) = attempts.try_join_next_with_id() {
            forget(&mut in_flight, done);
        }
        let free = IN_FLIGHT - in_flight.len();
        if free > 0 {
            match service.claim_due(free).await {
                Ok(claimed) => {
                    for due in claimed {
                        let (service, sender) = (service.clone(), sender.clone());
                        let id = due.delivery.id.clone();
                        let task = attempts.spawn(async move {
                            let delivery_id = due.delivery.id.to_string();
                            match service.attempt(sender.as_ref(), due).await {
                                Ok(Outcome::Succeeded) => {}
                                Ok(outcome) => {
                                    tracing::info!(%delivery_id, ?outcome, "webhook attempt failed")
                                }
                                // The claim lapses and the delivery is attempted again.
                                Err(e) => tracing::warn!(
                                    %delivery_id, error = %Report(&e), "could not record a webhook attempt"
                                ),
                            }
                        });
                        in_flight.insert(task.id(), id);
                    }
                }
                Err(e) => tracing::warn!(error = %Report(&e), "could not claim webhook deliveries"),
            }
        }
        tokio::select! {
            _ = stopped.changed() => break,
            _ = tokio::time::sleep(POLL) => {}
        }
    }
    let finished = tokio::time::timeout(STOP_GRACE, async {
        while let Some(done) = attempts.join_next_with_id().await {
            forget(&mut in_flight, done);
        }
    })
    .await;
    if finished.is_err() {
        attempts.abort_all();
        let unfinished: Vec<DeliveryId> = in_flight.into_values().collect();
        if let Err(e) = service.release(&unfinished).await {
            // Their claims lapse on their own within the lease.
            tracing::warn!(error = %Report(&e), "could not give back unfinished webhook deliveries");
        }
    }
}

/// Drops a finished attempt from those in flight.
fn forget(
    in_flight: &mut HashMap<task::Id, DeliveryId>,
    done: Result<(task::Id, ()), task::JoinError>,
) {
    let id = match done {
        Ok((id, ())) => id,
        Err(e) => {
            tracing::error!(error = %Report(&e), "a webhook attempt panicked");
            e.id()
        }
    };
    in_flight.remove(&id);
}
