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
