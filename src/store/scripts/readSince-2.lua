--[[
  Reads log entries strictly after a cursor that match a league/fixture filter. Filtering here rather than
  in Node means only matching records cross the network; the scan is bounded by ARGV[4] because the
  script blocks Redis while it runs, and the caller pages on with `more`.

  Input:
    KEYS[1] meta hash         fields: epoch, offset
    KEYS[2] log stream        entry id `<offset>-0`, fields f (fixture id), l (league id), r (record JSON)
    ARGV[1] cursor epoch, or '' to read from the oldest retained entry
    ARGV[2] cursor offset
    ARGV[3] maximum number of records to return
    ARGV[4] maximum number of entries to examine
    ARGV[5] '1' when there is no filter (everything matches)
    ARGV[6] comma-separated league ids
    ARGV[7] comma-separated fixture ids

  Output:
    {0, epoch or '', head}                          cursor not recoverable (other epoch, trimmed, ahead)
    {1, epoch, head, last offset examined, json...} recovered; records in log order
]]
local epoch = redis.call('HGET', KEYS[1], 'epoch')
if not epoch then
  return {0, '', 0}
end
local head = tonumber(redis.call('HGET', KEYS[1], 'offset') or '0')

local oldest = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 1)
local firstOffset = head + 1
if #oldest > 0 then
  firstOffset = tonumber(string.match(oldest[1][1], '^(%d+)'))
end

local from = firstOffset - 1
if ARGV[1] ~= '' then
  from = tonumber(ARGV[2])
  -- Entries between the cursor and the oldest retained one were trimmed: the reader has a gap.
  if ARGV[1] ~= epoch or from > head or from < firstOffset - 1 then
    return {0, epoch, head}
  end
end

local all = ARGV[5] == '1'
local leagues, fixtures = {}, {}
for v in string.gmatch(ARGV[6], '[^,]+') do leagues[v] = true end
for v in string.gmatch(ARGV[7], '[^,]+') do fixtures[v] = true end

local limit, budget = tonumber(ARGV[3]), tonumber(ARGV[4])
local out = {1, epoch, head, from}
local last, found = from, 0
while found < limit and budget > 0 and last < head do
  local entries = redis.call('XRANGE', KEYS[2], string.format('%d', last + 1), '+', 'COUNT', math.min(budget, 200))
  if #entries == 0 then break end
  for _, entry in ipairs(entries) do
    local fields = entry[2] -- {'f', id, 'l', league, 'r', json}, in XADD order
    last = tonumber(string.match(entry[1], '^(%d+)'))
    budget = budget - 1
    if all or fixtures[fields[2]] or leagues[fields[4]] then
      found = found + 1
      out[#out + 1] = fields[6]
      if found >= limit then break end
    end
  end
end
out[4] = last
return out
