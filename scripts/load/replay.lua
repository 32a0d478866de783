-- wrk script: replays the pre-signed requests of $REQS, in order, over and over.
function init(args)
  local key = os.getenv("API_KEY")
  reqs, i = {}, 0
  for l in io.lines(os.getenv("REQS")) do
    local path, sig, body = l:match("([^\t]+)\t([^\t]+)\t(.*)")
    reqs[#reqs + 1] = wrk.format("POST", path, {["Content-Type"] = "application/json",
      ["Api-Key"] = key, ["Signature"] = sig}, body)
  end
end

function request()
  i = i % #reqs + 1
  return reqs[i]
end

function done(summary, latency, requests)
  io.write(string.format("requests=%d non2xx=%d p50_ms=%.2f p99_ms=%.2f rps=%.0f\n",
    summary.requests, summary.errors.status, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, summary.requests / (summary.duration / 1e6)))
end
