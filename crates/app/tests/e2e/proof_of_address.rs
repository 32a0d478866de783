//! Proofs of address (contract §18), over HTTP with generated bills and statements: a
//! bill's PDF, a statement's scan and a photo of a bill pass `proof_of_address` with what
//! was read in the document's `data`; an old bill, another person's, another street's and
//! an edited PDF each fail with their reason; the merchant's oldest age is theirs to set;
//! each hostile PDF ends in a named outcome with the server's memory under 400 MB.
//! Nothing here is a real person's bill.

use fixtures::bill::{Bill, Edit, HOSTILE, Hostile, Kind, Layout};
use fixtures::corpus::camera::{Shot, Table, photograph};
use fixtures::degrade;
use image::Rgb;
use serde_json::{Value, json};
use time::{Duration, OffsetDateTime};

use crate::client_pages::upload_side as upload;
use crate::documents_read::{
    document, documents, failed, holder, outcome, passed, quiz, read_from, sealed_and_reviewed,
    titled, type_and_submit,
};
use crate::support::{Backend, Env};
use crate::verification::completed;

/// The sample holder's bill of `kind`, issued `days_ago`.
fn bill_of_holder(kind: Kind, days_ago: i64) -> Bill {
    let licence = holder();
    Bill {
        kind,
        first_name: titled(&licence.first_name),
        last_name: titled(&licence.last_name),
        street: titled(&licence.street),
        city: titled(&licence.city),
        state: licence.state.clone(),
        postal: licence.postal.clone(),
        ..Bill::sample(OffsetDateTime::now_utc().date() - Duration::days(days_ago))
    }
}

/// A phone's photo of a page: turned a little, tilted, shadowed, a JPEG.
fn phone() -> Shot {
    Shot {
        degrees: -3.0,
        keystone: 0.05,
        far_edge: 0,
        share: 0.8,
        long_side: 3000,
        table: Table::Plain(Rgb([120, 100, 80])),
        shadow: 0.25,
        noise: 3.0,
        motion: 0,
        stored_turns: 0,
        exif: false,
        jpeg: Some(85),
        pdf: false,
    }
}

/// The quiz of `email` asking for `step`, `bytes` uploaded for it, the holder's address
/// typed, submitted and verified: the verification.
fn verified(env: &Env, email: &str, step: &str, bytes: &[u8]) -> Value {
    let licence = holder();
    let steps = json!({ step: 1, "address_submit": 1 });
    let (token, url) = quiz(env, email, &licence.number, steps);
    upload(env, &token, step, None, bytes).assert_status(200);
    type_and_submit(env, &token, &licence, &licence.postal, None);
    completed(&env.client(), &url)
}

pub fn proofs_of_address_read(backend: Backend) {
    // Everything logged, to show that nothing read is.
    let env = Env::start_with(backend, &[("IDV_LOG", "debug")]);
    let font = fixtures::passport::ocrb_font().expect("the OCR-B typeface");
    let bill = bill_of_holder(Kind::UtilityBill, 12);
    let statement = Bill {
        layout: Layout::Table,
        ..bill_of_holder(Kind::BankStatement, 30)
    };
    // A bill as its maker sent it, the merchant's first client: its reading in full.
    let verification = verified(&env, "pdf@example.com", "utility_bill_upload", &bill.pdf());
    passed(&verification, "proof_of_address");
    let pdf = read_from(
        document(&documents(&env, "pdf@example.com"), "utility_bill_upload"),
        "text",
    )
    .clone();
    assert_eq!(pdf["document_type"], "utility_bill", "{pdf}");
    assert_eq!(pdf["issued_on"], json!(bill.issued_on.to_string()), "{pdf}");
    assert_eq!(pdf["issuer"], "NORTHWIND ENERGY", "{pdf}");
    assert_eq!(pdf["address_line_1"], bill.street, "{pdf}");
    // Sealed, never logged, and shown to the reviewer beside what was typed.
    let html = sealed_and_reviewed(&env, &[bill.street.as_str(), "NORTHWIND ENERGY"]);
    assert!(
        html.contains("Read from the text of the document, beside what was typed"),
        "{html}"
    );
    assert!(
        html.contains("Agrees") && !html.contains("Differs"),
        "{html}"
    );
    // What was typed, city included, in the address row's second cell.
    let typed_cell = html
        .split("<th scope=\"row\">Address</th>")
        .nth(1)
        .and_then(|row| row.split("<td>").nth(2))
        .and_then(|cell| cell.split("</td>").next())
        .expect("an address row, read and typed");
    assert!(typed_cell.contains(&titled(&holder().city)), "{typed_cell}");

    // A statement's scan and a photo of a bill.
    let passing = [
        (
            "scan@example.com",
            "bank_statement_upload",
            degrade::pdf(&statement.page(&font, 150.0), 85, 1),
        ),
        (
            "photo@example.com",
            "utility_bill_upload",
            photograph(&bill.page(&font, 150.0), &phone(), 11),
        ),
    ];
    for (email, step, bytes) in passing {
        let verification = verified(&env, email, step, &bytes);
        passed(&verification, "proof_of_address");
        let all = documents(&env, email);
        let read = read_from(document(&all, step), "text");
        let expected = match step {
            "bank_statement_upload" => "bank_statement",
            _ => "utility_bill",
        };
        assert_eq!(read["document_type"], expected, "{email}: {read}");
        assert_eq!(
            read["last_name"],
            titled(&holder().last_name),
            "{email}: {read}"
        );
        assert_eq!(read["postal"], holder().postal, "{email}: {read}");
    }

    let failing = [
        (
            "old@example.com",
            bill_of_holder(Kind::UtilityBill, 200).pdf(),
            "poa_too_old",
        ),
        (
            "other@example.com",
            Bill {
                first_name: "Robert".into(),
                last_name: "Quist".into(),
                ..bill.clone()
            }
            .pdf(),
            "poa_name_mismatch",
        ),
        (
            "street@example.com",
            Bill {
                street: "77 Oak Avenue".into(),
                ..bill.clone()
            }
            .pdf(),
            "poa_address_mismatch",
        ),
        (
            "edited@example.com",
            bill.edited_pdf(Edit::Incremental),
            "poa_pdf_modified",
        ),
    ];
    for (email, bytes, reason) in failing {
        let verification = verified(&env, email, "utility_bill_upload", &bytes);
        failed(&verification, "proof_of_address", reason);
        assert_eq!(verification["status"], "review", "{email}: {verification}");
    }

    // The oldest bill is the merchant's to set: at 365 days the old one passes.
    let client = env.client();
    for days in [json!(0), json!(366), json!("90")] {
        client
            .call(
                "merchant/settings/update",
                &json!({ "proof_of_address_max_age_days": days }),
            )
            .assert_status(400);
    }
    let settings = client.call("merchant/settings/get", &json!({}));
    assert_eq!(
        settings.assert_status(200)["proof_of_address_max_age_days"],
        90
    );
    client
        .call(
            "merchant/settings/update",
            &json!({ "proof_of_address_max_age_days": 365 }),
        )
        .assert_status(200);
    let old = verified(
        &env,
        "old-kept@example.com",
        "utility_bill_upload",
        &bill_of_holder(Kind::UtilityBill, 200).pdf(),
    );
    passed(&old, "proof_of_address");

    // Each hostile PDF: refused as unreadable, or (a bomb, inflated by poppler as it
    // reads, in its own bounded process) read.
    for (n, how) in HOSTILE.into_iter().enumerate() {
        let email = format!("hostile{n}@example.com");
        let verification = verified(&env, &email, "utility_bill_upload", &bill.hostile_pdf(how));
        match how {
            Hostile::CompressionBomb => passed(&verification, "proof_of_address"),
            _ => assert_eq!(
                outcome(&verification, "proof_of_address"),
                ("failed".to_owned(), json!(["poa_unreadable"])),
                "{how:?}"
            ),
        }
    }
    let peak = env.server.peak_memory_bytes();
    assert!(
        peak < 400 * 1024 * 1024,
        "peak resident memory {peak} bytes"
    );
}
