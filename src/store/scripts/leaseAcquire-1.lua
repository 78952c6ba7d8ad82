--[[
  Takes a leadership lease if it is free or expired, or extends it if the caller already holds it.

  Input:
    KEYS[1] lease key         value: holder id, with a PX expiry
    ARGV[1] holder id
    ARGV[2] ttl in milliseconds

  Output:
    1 the caller holds the lease until now + ttl; 0 someone else holds it
]]
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if current then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
