--[[
  Counts one request of a client key against its hourly quota for an entity, if any is left. The window
  opens at the key's first request for the entity and resets one hour later (fixed, not sliding), on the
  caller's clock, like HourlyWindows in packages/upstream-contract/src/hourly-window.ts.

  Input:
    KEYS[1] the key's quota hash   fields `<entity>:s` window start (ms), `<entity>:n` requests counted
    ARGV[1] entity
    ARGV[2] now                    ms, the caller's clock
    ARGV[3] window                 ms: one hour
    ARGV[4] limit                  requests per window
    ARGV[5] hash TTL               ms: an idle hash is collected after it

  Output:
    { allowed (1 or 0), requests counted after the call, window start (ms) }
]]
local sf = ARGV[1] .. ':s'
local nf = ARGV[1] .. ':n'
local now = tonumber(ARGV[2])
local start = tonumber(redis.call('HGET', KEYS[1], sf))
local used = 0
if start == nil or now - start >= tonumber(ARGV[3]) then
  start = now
  redis.call('HSET', KEYS[1], sf, ARGV[2], nf, 0)
else
  used = tonumber(redis.call('HGET', KEYS[1], nf)) or 0
end
if used >= tonumber(ARGV[4]) then return {0, used, start} end
used = redis.call('HINCRBY', KEYS[1], nf, 1)
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {1, used, start}
