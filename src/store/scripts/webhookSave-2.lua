--[[
  Saves a webhook endpoint's fields only while the caller holds its delivery lease, so an instance that
  stalled past its lease can never move the acknowledged cursor of its successor (back or forth).

  Input:
    KEYS[1] lease key          value: holder id, with a PX expiry (leaseAcquire-1.lua)
    KEYS[2] endpoint hash      fields: cursor, status, paused
    ARGV[1] holder id
    ARGV[2..] field, value, field, value...

  Output:
    1 saved; 0 not the holder (nothing written)
]]
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
local fields = {}
for i = 2, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
redis.call('HSET', KEYS[2], unpack(fields))
return 1
