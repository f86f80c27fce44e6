-- wrk's script for the end-to-end benchmark: GET /items/{id}, ids drawn uniformly from 0 to KEYS - 1,
-- and one summary line at the end for the harness to read.
--   wrk -t2 -c64 -d5s --latency -s items.lua http://127.0.0.1:PORT -- KEYS SEED

local counter = 0

-- Each thread gets its own number, so that threads draw different ids.
function setup(thread)
  thread:set("number", counter)
  counter = counter + 1
end

local keys = 10000
local paths = {}

function init(args)
  keys = tonumber(args[1]) or keys
  local seed = tonumber(args[2]) or 0
  math.randomseed(seed * 7919 + (number or 0) * 104729 + 1)
  -- Every request made once here: the loop then only picks one, which keeps wrk's own CPU per request low.
  for i = 0, keys - 1 do
    paths[i + 1] = wrk.format("GET", "/items/" .. i)
  end
end

function request()
  return paths[math.random(keys)]
end

-- One line, name=value words; latencies in microseconds.
function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format("wrk-e2e requests=%d duration_us=%d bytes=%d connect=%d read=%d write=%d status=%d timeout=%d"
      .. " p50_us=%d p90_us=%d p99_us=%d p999_us=%d mean_us=%.1f max_us=%d\n",
      summary.requests, summary.duration, summary.bytes, errors.connect, errors.read, errors.write, errors.status,
      errors.timeout, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
      latency.mean, latency.max))
end
