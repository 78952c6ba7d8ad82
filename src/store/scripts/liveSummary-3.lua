--[[
  What the status page shows of the store, in one consistent read that returns counts only: the live index
  counted by each fixture's phase, and the length of the event log.

  The phase is found in the stored JSON, not decoded (cjson would parse every fixture whole): a fixture's
  first `"state":{` is its own state (the keys before it hold scalars, and a quote inside a string is
  escaped), and the state's `"phase":"..."` follows it before any other object.

  Input:
    KEYS[1] live hash        fixture id -> league id
    KEYS[2] fixtures hash    fixture id -> LiveFixture JSON
    KEYS[3] log stream

  Output:
    { log length, phase, count, phase, count, ... }
]]
local ids = redis.call('HKEYS', KEYS[1])
local counts = {}
-- HMGET in chunks: unpack() of thousands of arguments would overflow the Lua C stack.
for i = 1, #ids, 500 do
  local chunk = redis.call('HMGET', KEYS[2], unpack(ids, i, math.min(i + 499, #ids)))
  for _, json in ipairs(chunk) do
    if json then
      local at = string.find(json, '"state":{', 1, true)
      local phase = at and string.match(json, '"phase":"(%a+)"', at) or 'unknown'
      counts[phase] = (counts[phase] or 0) + 1
    end
  end
end
local out = { redis.call('XLEN', KEYS[3]) }
for phase, n in pairs(counts) do
  out[#out + 1] = phase
  out[#out + 1] = n
end
return out
