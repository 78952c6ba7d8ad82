--[[
  The stored fixtures whose kick-off falls in a range, in one consistent read (the schedule and the fixture
  JSON cannot drift apart between two round trips).

  Input:
    KEYS[1] schedule zset   fixture id -> kick-off, ms
    KEYS[2] fixtures hash   fixture id -> LiveFixture JSON
    ARGV[1] from, ms (included)
    ARGV[2] to, ms (excluded)

  Output:
    array of LiveFixture JSON, by kick-off then fixture id
]]
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], '(' .. ARGV[2])
local out = {}
-- HMGET in chunks: unpack() of thousands of arguments would overflow the Lua C stack.
for i = 1, #ids, 500 do
  local chunk = redis.call('HMGET', KEYS[2], unpack(ids, i, math.min(i + 499, #ids)))
  for _, json in ipairs(chunk) do
    if json then out[#out + 1] = json end
  end
end
return out
