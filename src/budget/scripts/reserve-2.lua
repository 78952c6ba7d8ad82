--[[
  Takes n requests out of an entity's bucket before a call, unless that would leave fewer than the floor:
  for the passthrough, at least what the pollers' claims need until the reset. Check and decrement in one
  step, so instances racing for the last requests never overspend, and a passthrough on one instance never
  spends what the poller on another needs. Mirrors reserveFrom() in src/budget/window.ts and claimsNeed() in
  src/budget/share.ts.

  Input:
    KEYS[1] bucket hash   (see record-2.lua), plus spentPollers / spentPassthrough: calls reserved in this
                          window by each side
    KEYS[2] claims hash   claimant -> JSON {perHour, reserve, lumps, until}: the pollers' claims on the bucket
    ARGV[1] n             requests to take, whole number >= 1
    ARGV[2] floor         requests that must stay after the reservation
    ARGV[3] now           ms
    ARGV[4] window        ms: the upstream window length (one hour)
    ARGV[5] configured    the operator's limit, or '' (else the reported one; a learned limit may be low, so
                          it never opens a window: the next response does)
    ARGV[6] by            'pollers' or 'passthrough': who spends it (the passthrough leaves the claims' need)

  Output:
    1 taken; 0 refused (nothing changed); -1 allowed without counting (no bucket yet, or the window ended
    and no limit is configured or reported)
]]
local cur = redis.call('HMGET', KEYS[1], 'remaining', 'resetsAt', 'limit', 'learned')
if not cur[1] then return -1 end
local remaining = tonumber(cur[1])
local resetsAt = tonumber(cur[2])
local n = tonumber(ARGV[1])
local floor = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local window = tonumber(ARGV[4])
local configured = tonumber(ARGV[5])
local passthrough = ARGV[6] == 'passthrough'

-- The limit the claims are capped by: configured, reported, else learned (limitOf in window.ts).
local limit = configured or tonumber(cur[3])
if not limit and cur[4] and tonumber(cur[4]) > 0 then limit = tonumber(cur[4]) end

local opening = false
if now >= resetsAt then
  -- The window ended, so this call opens the next one upstream: full limit, ends in one window from now.
  local known = configured or tonumber(cur[3])
  if not known then return -1 end
  remaining = known
  resetsAt = now + window
  opening = true
end

if passthrough then
  -- claimsNeed(): each claim in force keeps ceil(min(perHour, cap) * msLeft / window) + lumps, at most its cap
  -- (the limit less the passthrough's reserve); whole calls each, so the order of the sum does not matter.
  local msLeft = math.max(0, math.min(window, resetsAt - now))
  local need = 0
  local claims = redis.call('HGETALL', KEYS[2])
  for i = 2, #claims, 2 do
    local c = cjson.decode(claims[i])
    if c['until'] > now then
      local cap = math.huge
      if limit then cap = limit - math.ceil(limit * c.reserve) end
      local perHour = math.min(c.perHour, cap)
      need = need + math.max(0, math.min(cap, math.ceil(perHour * msLeft / window) + c.lumps))
    end
  end
  if need > floor then floor = need end
end

if remaining - n < floor then return 0 end
if opening then
  -- Nothing reported or spent in the new window yet: the tallies start over, the learned limit stays.
  redis.call('HSET', KEYS[1], 'resetsAt', resetsAt, 'updatedAt', now, 'estimated', '1', 'previousResetsAt', cur[2], 'calls', 0)
  redis.call('HDEL', KEYS[1], 'low', 'spentPollers', 'spentPassthrough')
end
redis.call('HSET', KEYS[1], 'remaining', remaining - n)
redis.call('HINCRBY', KEYS[1], passthrough and 'spentPassthrough' or 'spentPollers', n)
return 1
