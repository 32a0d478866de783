//! Signing in to the dashboard under attack (contract §16): bursts from one address are
//! bounded before any password is hashed, parallel wrong passwords cannot slip past the
//! lock-out, the form carries its own CSRF token, posts from another site are refused,
//! and admins read the audit trail.

use std::sync::Barrier;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::Scenario;
use crate::dashboard::{
    FORM, admin_of, csrf_of, login_body, login_form, page, reviewer, set_cookie, signed_in,
    user_cmd,
};
use crate::support::{Backend, Env, Reply};

pub const SCENARIOS: &[Scenario] = &[
    (
        "sixty_parallel_sign_ins_from_one_address_get_ten_tries_and_the_rest_429_before_hashing",
        parallel_burst,
    ),
    (
        "thirty_parallel_wrong_passwords_are_checked_at_most_five_times_then_locked",
        parallel_lockout,
    ),
    (
        "the_sign_in_form_needs_its_own_token_and_posts_from_another_site_are_refused",
        form_token_and_origin,
    ),
    (
        "admins_read_the_audit_trail_in_the_dashboard_and_reviewers_are_refused",
        audit_page,
    ),
    (
        "a_one_time_code_signs_in_once_and_wrong_codes_from_many_addresses_lock_the_user",
        one_time_codes,
    ),
    (
        "a_sign_in_flood_from_many_addresses_leaves_the_memory_of_its_hashes_bounded",
        flood_memory,
    ),
    (
        "refused_sign_ins_by_the_hundred_never_push_the_peoples_actions_off_the_audit_page",
        refusals_apart,
    ),
    (
        "a_browser_that_signed_in_before_signs_in_at_first_try_during_a_flood",
        known_browser_in_a_flood,
    ),
];

/// `count` sign-ins of `email` with `password` posted at once, each with its own fresh
/// form; their answers, and how long they took from the first post to the last answer.
fn burst(env: &Env, count: usize, email: &str, password: &str) -> (Vec<Reply>, Duration) {
    let forms: Vec<(String, String)> = (0..count).map(|_| login_form(env)).collect();
    let start = Barrier::new(count);
    let began = Instant::now();
    let answers = std::thread::scope(|s| {
        let posts: Vec<_> = forms
            .iter()
            .map(|(cookie, token)| {
                let start = &start;
                s.spawn(move || {
                    let body = login_body(email, password, token);
                    start.wait();
                    env.client().send(
                        "POST",
                        "/dashboard/login",
                        &[FORM, ("Cookie", cookie)],
                        body.as_bytes(),
                    )
                })
            })
            .collect();
        posts
            .into_iter()
            .map(|p| p.join().expect("a post"))
            .collect()
    });
    (answers, began.elapsed())
}

fn count(answers: &[Reply], status: u16) -> usize {
    answers.iter().filter(|a| a.status == status).count()
}

fn parallel_burst(backend: Backend) {
    let env = Env::start(backend);
    let password = reviewer(&env, "rev@example.com");
    let (answers, took) = burst(&env, 60, "rev@example.com", "not the passphrase at all");
    // The budget is ten a minute, so it gives one try back every six seconds: a burst
    // slowed down by a busy machine may see a refill or two. The bound counts them.
    let refills = (took.as_secs() / 6) as usize;
    let over_budget: Vec<&Reply> = answers
        .iter()
        .filter(|a| a.status == 429 && a.text().contains("from your network"))
        .collect();
    assert!(
        over_budget.len() + refills >= 50,
        "at most 10 of 60 reach the password check, {refills} more after refills: {:?}",
        answers.iter().map(|a| a.status).collect::<Vec<_>>()
    );
    for refused in &over_budget {
        let wait: u64 = refused
            .header("Retry-After")
            .and_then(|v| v.parse().ok())
            .expect("Retry-After in seconds");
        assert!((1..=60).contains(&wait), "{wait}");
        assert!(set_cookie(refused, "idv_session").is_none());
    }
    // The ones let through were checked or turned away for want of room, never signed in.
    for answer in answers.iter().filter(|a| a.status != 429) {
        assert!(
            matches!(answer.status, 401 | 503),
            "{} {}",
            answer.status,
            answer.text()
        );
        if answer.status == 503 {
            assert_eq!(answer.header("Retry-After"), Some("1"));
        }
    }
    // The budget is the address's: the right password from here waits too.
    let (cookie, token) = login_form(&env);
    let now = env.client().send(
        "POST",
        "/dashboard/login",
        &[FORM, ("Cookie", &cookie)],
        login_body("rev@example.com", password, &token).as_bytes(),
    );
    assert_eq!(now.status, 429, "{}", now.text());
}

fn parallel_lockout(backend: Backend) {
    // Without the address budget, so that only the user's lock-out stands in the way.
    let env = Env::start_with(backend, &[("IDV_SIGN_IN_LIMIT", "0")]);
    let password = reviewer(&env, "rev@example.com");
    let (answers, _) = burst(&env, 30, "rev@example.com", "not the passphrase at all");
    let checked = count(&answers, 401);
    assert!(
        (1..=5).contains(&checked),
        "at most 5 wrong passwords are ever checked: {:?}",
        answers.iter().map(|a| a.status).collect::<Vec<_>>()
    );
    let busy = count(&answers, 503);
    let locked = answers
        .iter()
        .filter(|a| a.status == 429 && a.text().contains("locked"))
        .count();
    assert_eq!(
        checked + busy + locked,
        30,
        "every other try was locked or busy"
    );
    if checked == 5 {
        // The lock holds for the right password too, from this address.
        let (cookie, token) = login_form(&env);
        let after = env.client().send(
            "POST",
            "/dashboard/login",
            &[FORM, ("Cookie", &cookie)],
            login_body("rev@example.com", password, &token).as_bytes(),
        );
        assert_eq!(after.status, 429, "{}", after.text());
        assert!(set_cookie(&after, "idv_session").is_none());
    }
}

fn form_token_and_origin(backend: Backend) {
    let env = Env::start(backend);
    let password = reviewer(&env, "rev@example.com");
    let post = |headers: &[(&str, &str)], token: &str| {
        let mut all = vec![FORM];
        all.extend_from_slice(headers);
        env.client().send(
            "POST",
            "/dashboard/login",
            &all,
            login_body("rev@example.com", password, token).as_bytes(),
        )
    };
    let (cookie, token) = login_form(&env);
    let (other_cookie, other_token) = login_form(&env);
    assert_ne!(token, other_token, "each form has its own token");
    let form = env.client().send("GET", "/dashboard/login", &[], b"");
    let set = set_cookie(&form, "idv_login").expect("the form's cookie");
    for flag in ["HttpOnly", "SameSite=Strict", "Path=/dashboard/login"] {
        assert!(set.contains(flag), "{flag} in {set}");
    }

    // No token, a forged one, or another form's cookie: refused, the password unchecked.
    for (headers, sent) in [
        (vec![], token.as_str()),
        (vec![("Cookie", cookie.as_str())], ""),
        (vec![("Cookie", cookie.as_str())], "forged"),
        (vec![("Cookie", other_cookie.as_str())], token.as_str()),
    ] {
        let refused = post(&headers, sent);
        assert_eq!(refused.status, 403, "{headers:?} {sent:?}");
        assert!(set_cookie(&refused, "idv_session").is_none());
    }

    // A form posted from another site, even with its token, is refused.
    let foreign = post(
        &[("Cookie", &cookie), ("Origin", "https://evil.example")],
        &token,
    );
    assert_eq!(foreign.status, 403, "{}", foreign.text());
    assert!(set_cookie(&foreign, "idv_session").is_none());

    // From the dashboard's own origin, it signs in.
    let own = env.server.base_url.trim_end_matches('/').to_owned();
    let signed = post(&[("Cookie", &cookie), ("Origin", &own)], &token);
    assert_eq!(signed.status, 303, "{}", signed.text());
    let session = set_cookie(&signed, "idv_session").expect("signed in");
    let session = session.split(';').next().expect("pair").to_owned();

    // Any other dashboard post from another site is refused too, its CSRF token or not.
    let csrf = csrf_of(&page(&env, "/dashboard/profiles", &session));
    let out = env.client().send(
        "POST",
        "/dashboard/logout",
        &[
            FORM,
            ("Cookie", &session),
            ("Origin", "https://evil.example"),
        ],
        format!("csrf_token={csrf}").as_bytes(),
    );
    assert_eq!(out.status, 403);
    assert_eq!(
        page(&env, "/dashboard/profiles", &session).status,
        200,
        "still signed in"
    );
}

fn audit_page(backend: Backend) {
    let env = Env::start(backend);
    let password = reviewer(&env, "rev@example.com");
    let reviewer_session = signed_in(&env, "rev@example.com", password);
    env.client()
        .call(
            "profile/create",
            &crate::support::profile("ada@example.com", "4165550123"),
        )
        .assert_status(201);
    let list = page(&env, "/dashboard/profiles", &reviewer_session);
    let profile = crate::dashboard::first_profile_link(&list);
    assert_eq!(page(&env, &profile, &reviewer_session).status, 200);

    let refused = page(&env, "/dashboard/audit", &reviewer_session);
    assert_eq!(refused.status, 403, "a reviewer may not read the trail");
    assert!(!refused.text().contains("profile_viewed"));

    let admin_password = admin_of(&env.server, &env.merchant.id, "boss@example.com");
    let admin = signed_in(&env, "boss@example.com", admin_password);
    let trail = page(&env, "/dashboard/audit", &admin);
    assert_eq!(trail.status, 200, "{}", trail.text());
    let text = trail.text();
    let profile_id = profile.rsplit('/').next().expect("an id");
    for expected in [
        "rev@example.com",
        "boss@example.com",
        "signed_in",
        "profile_viewed",
        profile_id,
        "127.0.0.1",
    ] {
        assert!(text.contains(expected), "{expected} in the trail: {text}");
    }
    // Newest first: the admin's own sign-in comes before the reviewer's view.
    let boss = text
        .find("boss@example.com</td>")
        .expect("the admin's sign-in");
    let viewed = text.find("profile_viewed").expect("the view");
    assert!(boss < viewed, "newest first");
    // Strangers are sent to sign in.
    let stranger = env.client().send("GET", "/dashboard/audit", &[], b"");
    assert_eq!(stranger.status, 303);
}

/// The code of a base32 TOTP secret `steps` 30-second steps from now, as an
/// authenticator app shows it (the server takes one step either side).
fn code_of(secret: &str, steps: u64) -> String {
    let totp = totp_rs::Builder::new()
        .with_algorithm(totp_rs::Algorithm::SHA1)
        .with_digits(6)
        .with_step_duration(30)
        .with_secret(totp_rs::Secret::try_from_base32(secret).expect("base32"))
        .with_account_name("rev@example.com")
        .build()
        .expect("a TOTP");
    let now = u64::try_from(crate::support::client::unix_now()).expect("after 1970");
    totp.generate(now + 30 * steps).to_string()
}

fn one_time_codes(backend: Backend) {
    // The addresses come from X-Forwarded-For, through a trusted proxy on loopback; the
    // address budget is off, so that only the second factor's own rules stand in the way.
    let env = Env::start_with(
        backend,
        &[
            ("IDV_SIGN_IN_LIMIT", "0"),
            ("IDV_TRUSTED_PROXIES", "127.0.0.0/8"),
        ],
    );
    let password = reviewer(&env, "rev@example.com");
    let (ok, out, err) = user_cmd(
        &env.server,
        &["totp", "--email", "rev@example.com", "--json"],
        "",
    );
    assert!(ok, "{err}");
    let printed: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let secret = printed["secret"].as_str().expect("the secret").to_owned();
    let post = |code: &str, address: &str| {
        let (cookie, token) = login_form(&env);
        let body = format!(
            "{}&totp={code}",
            login_body("rev@example.com", password, &token)
        );
        env.client().send(
            "POST",
            "/dashboard/login",
            &[FORM, ("Cookie", &cookie), ("X-Forwarded-For", address)],
            body.as_bytes(),
        )
    };

    // A code signs in once: replayed at once, from anywhere, it is refused. (The code of
    // a step that ends between the two posts would be refused as well: it is spent.)
    let code = code_of(&secret, 0);
    let first = post(&code, "198.51.100.1");
    assert_eq!(first.status, 303, "{}", first.text());
    for address in ["198.51.100.1", "198.51.100.2"] {
        let replayed = post(&code, address);
        assert_eq!(replayed.status, 401, "{address}: {}", replayed.text());
        assert!(set_cookie(&replayed, "idv_session").is_none());
    }

    // Wrong codes with the right password, one from each of five new addresses: no
    // address reaches its own lock-out, but the user's second factor is locked, so even
    // the right code of the next step (never spent) is refused from a sixth address.
    let wrong = if code == "000000" { "111111" } else { "000000" };
    for n in 10..15 {
        let guess = post(wrong, &format!("203.0.113.{n}"));
        assert_eq!(guess.status, 401, "{}", guess.text());
    }
    let fresh = code_of(&secret, 1);
    let locked = post(&fresh, "203.0.113.20");
    assert!(
        set_cookie(&locked, "idv_session").is_none(),
        "signed in after five wrong codes: {}",
        locked.status
    );
    assert_ne!(locked.status, 303, "{}", locked.text());
}

/// Post `n` of a flood's poster `poster`, from an address of its own (through a trusted
/// proxy): a stranger's e-mail or the reviewer's with a wrong password, as an attack
/// mixes them, each with its own fresh form.
fn flood_post(env: &Env, poster: u8, n: u16) -> Reply {
    let (cookie, token) = login_form(env);
    let email = if n.is_multiple_of(2) {
        format!("stranger{poster}x{n}@example.com")
    } else {
        "rev@example.com".to_owned()
    };
    let address = format!("198.{}.{poster}.{}", 18 + (n / 250) % 2, n % 250);
    let body = login_body(&email, "not the passphrase at all", &token);
    env.client().send(
        "POST",
        "/dashboard/login",
        &[FORM, ("Cookie", &cookie), ("X-Forwarded-For", &address)],
        body.as_bytes(),
    )
}

fn flood_memory(backend: Backend) {
    // Addresses from X-Forwarded-For, through a trusted proxy on loopback.
    let env = Env::start_with(backend, &[("IDV_TRUSTED_PROXIES", "127.0.0.0/8")]);
    let password = reviewer(&env, "rev@example.com");
    // 16 posters of a flood (`flood_post`). Each post is hashed (19 MiB) or refused
    // busy; they go on until 80 were hashed, or for a minute on a machine too busy for
    // that, so that many hashes' memory went through.
    let hashed = std::sync::atomic::AtomicUsize::new(0);
    let answered = std::thread::scope(|s| {
        let posters: Vec<_> = (0..16u8)
            .map(|poster| {
                let (env, hashed) = (&env, &hashed);
                s.spawn(move || {
                    let mut statuses = Vec::new();
                    let until = Instant::now() + Duration::from_secs(60);
                    for n in 0..250u16 {
                        let enough = hashed.load(std::sync::atomic::Ordering::Relaxed) >= 80;
                        if enough || Instant::now() > until {
                            break;
                        }
                        let reply = flood_post(env, poster, n);
                        if reply.status == 401 {
                            hashed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                        statuses.push(reply.status);
                    }
                    statuses
                })
            })
            .collect();
        posters
            .into_iter()
            .flat_map(|p| p.join().expect("a poster"))
            .collect::<Vec<u16>>()
    });
    assert!(
        answered.iter().all(|s| [401, 503].contains(s)),
        "refused or busy: {answered:?}"
    );
    let hashed = hashed.into_inner();
    assert!(hashed >= 40, "{hashed} hashed of {} posts", answered.len());
    // Every answer is in: no hash runs now. What the flood borrowed is bounded by the
    // few memories hashes share (four of 19 MiB at most), whatever the flood's size.
    let held = env.server.anonymous_memory_bytes();
    assert!(
        held < 100 << 20,
        "{} MiB anonymous memory held after the flood",
        held >> 20
    );
    // And the real user signs in.
    signed_in(&env, "rev@example.com", password);
}

fn refusals_apart(backend: Backend) {
    // Without the address budget: a stranger's tries, as fast as they come.
    let env = Env::start_with(backend, &[("IDV_SIGN_IN_LIMIT", "0")]);
    reviewer(&env, "rev@example.com");
    let admin_password = admin_of(&env.server, &env.merchant.id, "boss@example.com");
    let admin = signed_in(&env, "boss@example.com", admin_password);
    env.client()
        .call(
            "profile/create",
            &crate::support::profile("ada@example.com", "4165550123"),
        )
        .assert_status(201);
    let list = page(&env, "/dashboard/profiles", &admin);
    let profile = crate::dashboard::first_profile_link(&list);
    assert_eq!(page(&env, &profile, &admin).status, 200);
    // 210 wrong passwords for the reviewer: five are checked, the rest locked, each one
    // recorded, more than the page's 200.
    for _ in 0..210 {
        let (cookie, token) = login_form(&env);
        let refused = env.client().send(
            "POST",
            "/dashboard/login",
            &[FORM, ("Cookie", &cookie)],
            login_body("rev@example.com", "not the passphrase at all", &token).as_bytes(),
        );
        assert!([401, 429].contains(&refused.status), "{}", refused.status);
    }
    let trail = page(&env, "/dashboard/audit", &admin).text();
    let (actions, refusals) = trail
        .split_once("Refused sign-ins</h2>")
        .expect("two sections");
    assert!(
        actions.contains("profile_viewed") && actions.contains("signed_in"),
        "the admin's own actions stay in sight: {actions}"
    );
    assert!(!actions.contains("sign_in_locked") && !actions.contains("sign_in_failed"));
    assert!(refusals.contains("sign_in_locked") && refusals.contains("rev@example.com"));
}

fn known_browser_in_a_flood(backend: Backend) {
    // Addresses from X-Forwarded-For, through a trusted proxy on loopback.
    let env = Env::start_with(backend, &[("IDV_TRUSTED_PROXIES", "127.0.0.0/8")]);
    let password = reviewer(&env, "rev@example.com");
    let sign_in = |device: Option<&str>| {
        let (form, token) = login_form(&env);
        let cookies = device.map_or(form.clone(), |device| format!("{form}; {device}"));
        env.client().send(
            "POST",
            "/dashboard/login",
            &[
                FORM,
                ("Cookie", &cookies),
                ("X-Forwarded-For", "203.0.113.50"),
            ],
            login_body("rev@example.com", password, &token).as_bytes(),
        )
    };
    let device_of = |reply: &Reply| {
        let set = set_cookie(reply, "idv_device").expect("a device mark");
        for flag in [
            "HttpOnly",
            "SameSite=Strict",
            "Path=/dashboard/login",
            "Max-Age=7776000",
        ] {
            assert!(set.contains(flag), "{flag} in {set}");
        }
        set.split(';').next().expect("name=value").to_owned()
    };
    // A sign-in on a quiet day leaves the browser its mark.
    let first = sign_in(None);
    assert_eq!(first.status, 303, "{}", first.text());
    let mut device = device_of(&first);

    // 24 posters flood the sign-in (`flood_post`), more than the hasher has rooms.
    let (stop, busy) = (AtomicBool::new(false), AtomicUsize::new(0));
    let (statuses, busy_meanwhile) = std::thread::scope(|s| {
        for poster in 0..24u8 {
            let (env, stop, busy) = (&env, &stop, &busy);
            s.spawn(move || {
                for n in 0..2000u16 {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    if flood_post(env, poster, n).status == 503 {
                        busy.fetch_add(1, Ordering::Relaxed);
                    }
                }
            });
        }
        // Once the flood has filled the shared rooms (its posts refused busy)...
        let until = Instant::now() + Duration::from_secs(120);
        while busy.load(Ordering::Relaxed) == 0 {
            assert!(Instant::now() < until, "the flood never filled the rooms");
            std::thread::sleep(Duration::from_millis(50));
        }
        // ...the known browser signs in five times, each at the first try.
        let before = busy.load(Ordering::Relaxed);
        let mut statuses = Vec::new();
        for _ in 0..5 {
            let reply = sign_in(Some(&device));
            statuses.push(reply.status);
            if reply.status == 303 {
                device = device_of(&reply);
            }
        }
        let meanwhile = busy.load(Ordering::Relaxed) - before;
        stop.store(true, Ordering::Relaxed);
        (statuses, meanwhile)
    });
    assert_eq!(statuses, [303; 5], "the known browser during the flood");
    assert!(
        busy_meanwhile > 0,
        "the flood's posts were refused for want of room meanwhile"
    );
}
