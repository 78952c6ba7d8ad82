--[[
  Takes n requests out of an entity's bucket before a call, unless that would leave fewer than the floor.
  Check and decrement in one step, so instances racing for the last requests never overspend. Mirrors
  reserveFrom() in src/budget/window.ts.

  Input:
    KEYS[1] bucket hash   (see record-2.lua)
    ARGV[1] n             requests to take, whole number >= 1
    ARGV[2] floor         requests that must stay after the reservation
    ARGV[3] now           ms
    ARGV[4] window        ms: the upstream window length (one hour)
    ARGV[5] configured    the operator's limit, or '' (else the reported one; a learned limit may be low, so
                          it never opens a window: the next response does)

  Output:
    1 taken; 0 refused (nothing changed); -1 allowed without counting (no bucket yet, or the window ended
    and no limit is configured or reported)
]]
local cur = redis.call('HMGET', KEYS[1], 'remaining', 'resetsAt', 'limit')
if not cur[1] then return -1 end
local remaining = tonumber(cur[1])
local n = tonumber(ARGV[1])
local floor = tonumber(ARGV[2])
local now = tonumber(ARGV[3])

if now >= tonumber(cur[2]) then
  local limit = tonumber(ARGV[5]) or tonumber(cur[3])
  if not limit then return -1 end
  -- The window ended, so this call opens the next one upstream: full limit, ends in one window from now.
  -- Nothing reported in it yet: the tally starts over, the learned limit stays.
  if limit - n < floor then return 0 end
  redis.call('HSET', KEYS[1], 'remaining', limit - n, 'resetsAt', now + tonumber(ARGV[4]), 'updatedAt', now, 'estimated', '1',
    'previousResetsAt', cur[2], 'calls', 0)
  redis.call('HDEL', KEYS[1], 'low')
  return 1
end

if remaining - n < floor then return 0 end
redis.call('HSET', KEYS[1], 'remaining', remaining - n)
return 1
