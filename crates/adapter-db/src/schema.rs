//! The tables, as diesel sees them. Kept by hand in step with `migrations/`: the same
//! definition serves both backends, which `diesel print-schema` cannot produce.

diesel::table! {
    merchants (id) {
        id -> Text,
        name -> Text,
        quiz_expiry_days -> Integer,
        created_at -> BigInt,
        minimum_age -> Integer,
        verification_policy -> Text,
        auto_decision -> Bool,
        default_language -> Text,
        retention_days -> Nullable<Integer>,
        proof_of_address_max_age_days -> Integer,
        screening -> Bool,
        screening_lists -> Text,
        screening_threshold -> Integer,
        face_search -> Bool,
    }
}

diesel::table! {
    signal_versions (merchant_id) {
        merchant_id -> Text,
        version -> BigInt,
    }
}

diesel::table! {
    signal_changes (merchant_id, version) {
        merchant_id -> Text,
        version -> BigInt,
        profile_id -> Text,
    }
}

diesel::table! {
    signals (id) {
        id -> Text,
        merchant_id -> Text,
        profile_id -> Text,
        kind -> Text,
        value -> Text,
        blocked -> Bool,
    }
}

diesel::table! {
    screening_lists (name) {
        name -> Text,
        kind -> Text,
        merchant_id -> Nullable<Text>,
        version -> Text,
        imported_at -> BigInt,
        entries -> BigInt,
    }
}

diesel::table! {
    screening_entries (list_name, entry_id) {
        list_name -> Text,
        entry_id -> Text,
        body -> Text,
    }
}

diesel::table! {
    screenings (profile_id) {
        profile_id -> Text,
        merchant_id -> Text,
        screened_at -> BigInt,
        lists_key -> Text,
        lists -> Text,
        matches -> Text,
    }
}

diesel::table! {
    screening_lease (id) {
        id -> Integer,
        holder -> Text,
        until -> BigInt,
    }
}

diesel::table! {
    api_keys (api_key) {
        api_key -> Text,
        merchant_id -> Text,
        sealed_secret -> Binary,
        enabled -> Bool,
        compat_signature -> Bool,
        created_at -> BigInt,
        allowed_networks -> Text,
        created_by -> Nullable<Text>,
        read_only -> Bool,
    }
}

diesel::table! {
    profiles (id) {
        id -> Text,
        merchant_id -> Text,
        email_address -> Text,
        email_key -> Text,
        mobile_number -> Text,
        first_name -> Text,
        last_name -> Text,
        merchant_reference -> Nullable<Text>,
        customer_id -> Nullable<Text>,
        middle_name -> Nullable<Text>,
        date_of_birth -> Nullable<Text>,
        home_phone_number -> Nullable<Text>,
        ip_address -> Nullable<Text>,
        address_line_1 -> Nullable<Text>,
        address_line_2 -> Nullable<Text>,
        city -> Nullable<Text>,
        state -> Nullable<Text>,
        postal -> Nullable<Text>,
        country -> Nullable<Text>,
        driver_licence_id -> Nullable<Text>,
        ssn -> Nullable<Text>,
        amount_cents -> Nullable<BigInt>,
        status -> Text,
        created_at -> BigInt,
        updated_at -> BigInt,
        revision -> BigInt,
        submitted_email_address -> Nullable<Text>,
        submitted_mobile_number -> Nullable<Text>,
        submitted_address -> Nullable<Text>,
        submitted_date_of_birth -> Nullable<Text>,
        submitted_ssn -> Nullable<Text>,
        submitted_created_at -> Nullable<BigInt>,
        submitted_updated_at -> Nullable<BigInt>,
        status_changed_at -> BigInt,
        erased_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    events (id) {
        id -> Text,
        merchant_id -> Text,
        profile_id -> Nullable<Text>,
        activity -> Text,
        details -> Text,
        template_used -> Text,
        url -> Text,
        status -> Text,
        created_at -> BigInt,
    }
}

diesel::table! {
    templates (id) {
        id -> Text,
        merchant_id -> Text,
        name -> Text,
        list -> Text,
        created_at -> BigInt,
        updated_at -> BigInt,
    }
}

diesel::table! {
    quizzes (id) {
        id -> Text,
        merchant_id -> Text,
        profile_id -> Text,
        token_hash -> Text,
        code_hash -> Text,
        template_id -> Nullable<Text>,
        template_name -> Text,
        template_list -> Text,
        template_created_at -> BigInt,
        expiry_days -> Integer,
        created_at -> BigInt,
        expires_at -> BigInt,
        expired_at -> Nullable<BigInt>,
        submitted_at -> Nullable<BigInt>,
        deleted_at -> Nullable<BigInt>,
        opened_at -> Nullable<BigInt>,
        completed_steps -> Text,
        sealed_token -> Nullable<Text>,
        sealed_code -> Nullable<Text>,
        redirect_url -> Nullable<Text>,
        documents_added -> BigInt,
        bytes_added -> BigInt,
    }
}

diesel::table! {
    documents (id) {
        id -> Text,
        merchant_id -> Text,
        profile_id -> Text,
        quiz_id -> Text,
        name -> Text,
        status -> Text,
        data -> Text,
        created_at -> BigInt,
        updated_at -> BigInt,
        size_bytes -> BigInt,
    }
}

diesel::table! {
    /// Each merchant's number of profiles, kept by triggers (migration 000020): the sum
    /// of its shards.
    profile_counts (merchant_id, shard) {
        merchant_id -> Text,
        shard -> Integer,
        profiles -> BigInt,
    }
}

diesel::table! {
    document_files (file_id) {
        file_id -> Text,
        document_id -> Text,
    }
}

diesel::table! {
    master_key (id) {
        id -> Integer,
        fingerprint -> Text,
        created_at -> BigInt,
        next_fingerprint -> Nullable<Text>,
    }
}

diesel::table! {
    data_migrations (name) {
        name -> Text,
        applied_at -> BigInt,
    }
}

diesel::table! {
    notes (id) {
        id -> Text,
        merchant_id -> Text,
        profile_id -> Text,
        note -> Text,
        created_at -> BigInt,
    }
}

diesel::table! {
    webhooks (id) {
        id -> Text,
        merchant_id -> Text,
        url -> Text,
        events -> Text,
        description -> Text,
        enabled -> Bool,
        sealed_secret -> Binary,
        sealed_previous -> Nullable<Binary>,
        previous_until -> Nullable<BigInt>,
        created_at -> BigInt,
        updated_at -> BigInt,
    }
}

diesel::table! {
    webhook_deliveries (id) {
        id -> Text,
        webhook_id -> Text,
        merchant_id -> Text,
        event_id -> Text,
        activity -> Text,
        status -> Text,
        attempts -> Integer,
        last_status_code -> Nullable<Integer>,
        last_error -> Nullable<Text>,
        next_attempt_at -> Nullable<BigInt>,
        created_at -> BigInt,
        delivered_at -> Nullable<BigInt>,
        claimed_until -> Nullable<BigInt>,
        sealed_message -> Binary,
    }
}

diesel::table! {
    merchant_users (id) {
        id -> Text,
        merchant_id -> Text,
        email -> Text,
        email_key -> Text,
        password_hash -> Text,
        enabled -> Bool,
        created_at -> BigInt,
        role -> Text,
        sealed_totp -> Nullable<Text>,
        totp_spent_step -> Nullable<BigInt>,
    }
}

diesel::table! {
    dashboard_sessions (token_hash) {
        token_hash -> Text,
        user_id -> Text,
        csrf_token -> Text,
        created_at -> BigInt,
        last_seen_at -> BigInt,
    }
}

diesel::table! {
    login_failures (key, at) {
        key -> Text,
        at -> BigInt,
        attempt -> Text,
    }
}

diesel::table! {
    audit_log (id) {
        id -> Text,
        merchant_id -> Text,
        user_id -> Nullable<Text>,
        actor -> Text,
        action -> Text,
        subject -> Text,
        address -> Text,
        at -> BigInt,
    }
}

diesel::joinable!(quizzes -> profiles (profile_id));

diesel::joinable!(dashboard_sessions -> merchant_users (user_id));

diesel::joinable!(webhook_deliveries -> webhooks (webhook_id));

diesel::joinable!(document_files -> documents (document_id));

diesel::allow_tables_to_appear_in_same_query!(
    merchants,
    api_keys,
    profiles,
    events,
    templates,
    quizzes,
    documents,
    document_files,
    notes,
    webhooks,
    webhook_deliveries,
    merchant_users,
    dashboard_sessions,
    login_failures,
    audit_log,
    verifications,
    identity_index,
    screenings,
    signals
);

diesel::table! {
    verifications (id) {
        id -> Text,
        merchant_id -> Text,
        profile_id -> Text,
        quiz_id -> Text,
        status -> Text,
        checks -> Text,
        created_at -> BigInt,
        completed_at -> Nullable<BigInt>,
        claimed_until -> Nullable<BigInt>,
    }
}

diesel::table! {
    identity_index (merchant_id, kind, digest, profile_id) {
        merchant_id -> Text,
        kind -> Text,
        digest -> Text,
        profile_id -> Text,
        sealed_value -> Nullable<Text>,
    }
}
