--[[
  Returns the live snapshot matching a league/fixture filter in one consistent read (the index and the
  fixture JSON cannot drift apart between two round trips).

  Input:
    KEYS[1] fixtures hash     fixture id -> LiveFixture JSON
    KEYS[2] live hash         fixture id -> league id
    ARGV[1] '1' when there is no filter (every live fixture)
    ARGV[2] comma-separated league ids
    ARGV[3] comma-separated fixture ids
    ARGV[4] prefix of the per-league live sets (keys.liveLeaguePrefix)

  Output:
    array of LiveFixture JSON, unordered
]]
local ids = {}
if ARGV[1] == '1' then
  ids = redis.call('HKEYS', KEYS[2])
else
  local seen = {}
  local function add (id)
    if not seen[id] then
      seen[id] = true
      ids[#ids + 1] = id
    end
  end
  for league in string.gmatch(ARGV[2], '[^,]+') do
    for _, id in ipairs(redis.call('SMEMBERS', ARGV[4] .. league)) do add(id) end
  end
  for id in string.gmatch(ARGV[3], '[^,]+') do
    if redis.call('HEXISTS', KEYS[2], id) == 1 then add(id) end
  end
end

-- HMGET in chunks: unpack() of thousands of arguments would overflow the Lua C stack.
local out = {}
for i = 1, #ids, 500 do
  local chunk = redis.call('HMGET', KEYS[1], unpack(ids, i, math.min(i + 499, #ids)))
  for _, json in ipairs(chunk) do
    if json then out[#out + 1] = json end
  end
end
return out
