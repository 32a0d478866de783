"""Schemathesis hooks: sign every request exactly as a merchant would (scheme v1 over the
raw bytes sent), so that the fuzzer reaches the operations behind the signature."""
import hashlib
import hmac
import json
import os
import time

import schemathesis

KEY = os.environ["IDV_API_KEY"]
SECRET = os.environ["IDV_API_SECRET"].encode()


@schemathesis.hook
def before_call(ctx, case, kwargs):
    body = case.body
    # The bytes are serialised here, once, so that the signature covers exactly them.
    raw = json.dumps(body).encode() if isinstance(body, (dict, list, str, int, float, bool)) or body is None else b""
    t = str(int(time.time()))
    signature = hmac.new(SECRET, f"{t}.{case.path}.".encode() + raw, hashlib.sha256).hexdigest()
    case.headers = {
        **(case.headers or {}),
        "Api-Key": KEY,
        "Signature": f"t={t},v1={signature}",
        "Content-Type": "application/json",
    }
    kwargs["data"] = raw


# Answers that depend on what the database holds (a profile that does not exist, one that
# already does), on time, or on another field's value: a schema cannot promise them, so a
# schema-valid request may get them. Any other refusal of a schema-valid request is a
# rule the schema fails to state.
STATE_ANSWERS = {
    "PROFILE_NOT_FOUND", "PROFILE_EXIST", "TEMPLATE_NOT_FOUND", "QUIZ_NOT_FOUND",
    "DOCUMENT_NOT_FOUND", "FILE_NOT_FOUND", "WEBHOOK_NOT_FOUND", "DELIVERY_NOT_FOUND",
    "VERIFICATION_NOT_FOUND", "QUIZ_EXPIRED", "QUIZ_SUBMITTED", "WEBHOOK_LIMIT_REACHED",
    "UPLOAD_LIMIT_REACHED", "SCREENING_NOT_FOUND", "MATCH_NOT_FOUND",
}


# Answers that depend on what is stored for one operation only: template/update may leave
# a stored template asking for nothing, which only the stored list decides.
STATE_ANSWERS_OF = {"/api/v1/template/update": {"FEATURE_REQUIRED"}}


@schemathesis.check
def positive_data_accepted(ctx, response, case):
    """schemathesis' positive_data_acceptance, knowing the state answers above."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code < 400:
        return None
    if response.status_code >= 500:
        return None  # not_a_server_error's to report
    try:
        codes = {e["code"] for e in response.json()["errors"]}
    except (ValueError, KeyError, TypeError):
        codes = set()
    refused = codes - STATE_ANSWERS - STATE_ANSWERS_OF.get(case.path, set())
    if refused or not codes:
        raise AssertionError(
            f"A schema-valid request was refused with {response.status_code} "
            f"{sorted(codes)}: the schema does not state the rule"
        )
    return None
