--[[
  Releases a lease only if the caller holds it, so a late release never frees a successor's lease.

  Input:
    KEYS[1] lease key         value: holder id, with a PX expiry
    ARGV[1] holder id

  Output:
    1 released; 0 not held by the caller
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
