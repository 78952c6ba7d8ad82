--[[
  Records what one upstream response said about an entity's rate-limit bucket. Mirrors
  mergeObservation() in src/budget/window.ts; read the reasoning there.

  Input:
    KEYS[1] bucket hash     fields: remaining, resetsAt (ms), limit (absent when unknown), updatedAt (ms),
                            estimated ('1' when reserve guessed resetsAt), previousResetsAt (ms, with
                            estimated: when the window before it ended), low (lowest remaining the
                            upstream reported in this window), calls (calls it counted in this window),
                            learned (highest low + calls seen: the learned limit), spentPollers and
                            spentPassthrough (calls reserved in this window by each side, reserve-2.lua)
    KEYS[2] entity index    set of entity names
    ARGV[1] entity
    ARGV[2] remaining       whole number >= 0
    ARGV[3] resetsAt        ms: arrival + resets_in_seconds * 1000
    ARGV[4] limit           whole number, or '' when the response did not say
    ARGV[5] atMs            arrival time
    ARGV[6] slack           ms: resetsAt values closer than this belong to the same window
    ARGV[7] calls           calls the upstream counted for this response (1, or 0 for a 429)

  Output:
    1 stored as a new window (or first sighting), 2 merged into the stored window,
    0 ignored (a late response from an older window)
]]
local remaining = tonumber(ARGV[2])
local resetsAt = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local at = tonumber(ARGV[5])
local slack = tonumber(ARGV[6])
local calls = tonumber(ARGV[7])
local low = remaining
local result = 1

local cur = redis.call('HMGET', KEYS[1], 'remaining', 'resetsAt', 'limit', 'updatedAt', 'estimated', 'previousResetsAt',
  'low', 'calls', 'learned')
local learned = tonumber(cur[9]) or 0
if cur[1] then
  local curRemaining = tonumber(cur[1])
  local curResetsAt = tonumber(cur[2])
  if not limit and cur[3] then limit = tonumber(cur[3]) end
  if resetsAt <= curResetsAt + slack then
    -- Over a window reserve estimated: a late response of the window before it changes nothing.
    if cur[5] == '1' and cur[6] and resetsAt <= tonumber(cur[6]) + slack then return 0 end
    result = 2
    -- Within a window the lowest count wins: responses arrive in any order, reservations are taken out.
    if curRemaining < remaining then remaining = curRemaining end
    if cur[7] and tonumber(cur[7]) < low then low = tonumber(cur[7]) end
    calls = calls + (tonumber(cur[8]) or 0)
    if cur[5] ~= '1' then
      -- A late response from an older window must not roll the ledger back.
      if resetsAt < curResetsAt - slack then return 0 end
      if curResetsAt > resetsAt then resetsAt = curResetsAt end
      local curUpdatedAt = tonumber(cur[4])
      if curUpdatedAt > at then at = curUpdatedAt end
    end
  end
end

if low + calls > learned then learned = low + calls end
redis.call('HSET', KEYS[1], 'remaining', remaining, 'resetsAt', resetsAt, 'updatedAt', at, 'estimated', '0',
  'low', low, 'calls', calls, 'learned', learned)
-- A new window: what each side spent belonged to the last one.
if result == 1 then redis.call('HDEL', KEYS[1], 'spentPollers', 'spentPassthrough') end
if limit then
  redis.call('HSET', KEYS[1], 'limit', limit)
end
redis.call('SADD', KEYS[2], ARGV[1])
return result
