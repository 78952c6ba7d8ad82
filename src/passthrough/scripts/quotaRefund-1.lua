--[[
  Gives back one request counted by quotaTake-1.lua, only within the window it was counted in: a refund
  that arrives after the window reset must not lower the new window's count.

  Input:
    KEYS[1] the key's quota hash   (see quotaTake-1.lua)
    ARGV[1] entity
    ARGV[2] window start           ms, as quotaTake-1.lua returned it

  Output:
    1 when a request was given back; 0 when the window changed since, or nothing was counted
]]
if redis.call('HGET', KEYS[1], ARGV[1] .. ':s') ~= ARGV[2] then return 0 end
if (tonumber(redis.call('HGET', KEYS[1], ARGV[1] .. ':n')) or 0) <= 0 then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1] .. ':n', -1)
return 1
