--[[
  Extends a lease only if the caller still holds it (compare-and-set), so a holder that stalled past its
  ttl cannot silently take the lease back from its successor.

  Input:
    KEYS[1] lease key         value: holder id, with a PX expiry
    ARGV[1] holder id
    ARGV[2] ttl in milliseconds

  Output:
    1 renewed; 0 the lease is lost (expired or held by another)
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
