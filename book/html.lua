-- Lua filter for the HTML book (pandoc 2.17).  Input code blocks come from
-- book/tools/nw2pandoc: first line "⟪=name⟫", uses "⟪name⟫", optional last
-- line "⟪%def a b⟫".  Like noweb's webnumbering, chunks are numbered 1, 2, 3
-- in document order; a use links to the chunk's first definition.  The
-- filter also highlights C/CUDA (words from book/tools/c-words), numbers
-- figure and table captions as LaTeX does (chapter.n), and appends the
-- bibliography and an index of chunks.

local OPEN, CLOSE = "⟪", "⟫"
local chunks = {}   -- in order: {name=, num=, first=, code=, defs=}
local first = {}    -- name -> number of its first definition
local all = {}      -- name -> list of numbers of its definitions
local usedin = {}   -- name -> list of chunk numbers that use it

-- Word classes shared with the PDF highlighter.
local class = {}
do
  local dir = PANDOC_SCRIPT_FILE:match("(.*)/") or "."
  for line in io.lines(dir .. "/tools/c-words") do
    local cls, words = line:match("^(%w+):(.*)$")
    if cls then for w in words:gmatch("%S+") do class[w] = cls end end
  end
end

local function esc(s)
  return (s:gsub("&", "&amp;"):gsub("<", "&lt;"):gsub(">", "&gt;"))
end
-- Chunk names may quote code as [[x]], as in noweb.
local function namehtml(name)
  return esc(name):gsub("%[%[(.-)%]%]", "<code>%1</code>")
end
local function add(t, k, v)
  t[k] = t[k] or {}
  if t[k][#t[k]] ~= v then table.insert(t[k], v) end
end

-- Split a code block into header name, body lines and %def identifiers.
local function parse(text)
  local lines = {}
  for l in (text .. "\n"):gmatch("(.-)\n") do table.insert(lines, l) end
  local name = lines[1]:match("^" .. OPEN .. "=(.*)" .. CLOSE .. "$")
  if not name then return nil end
  table.remove(lines, 1)
  local defs
  if #lines > 0 then
    defs = lines[#lines]:match("^" .. OPEN .. "%%def (.*)" .. CLOSE .. "$")
    if defs then table.remove(lines) end
  end
  return name, lines, defs
end

-- Highlight one line of code (no chunk uses inside); st carries the
-- open /* comment */ from line to line.
local function hl(s, st)
  local out, i, n = {}, 1, #s
  local function span(cls, t)
    table.insert(out, cls and ('<span class="' .. cls .. '">' .. esc(t) .. '</span>') or esc(t))
  end
  if not st.comment and s:match("^%s*#") then span("pp", s) return table.concat(out) end
  while i <= n do
    if st.comment then
      local e = s:find("*/", i, true)
      local j = e and e + 1 or n
      span("co", s:sub(i, j)); i = j + 1
      if e then st.comment = false end
    elseif s:sub(i, i + 1) == "//" then span("co", s:sub(i)); i = n + 1
    elseif s:sub(i, i + 1) == "/*" then
      local e = s:find("*/", i + 2, true)
      local j = e and e + 1 or n
      span("co", s:sub(i, j)); i = j + 1
      st.comment = not e
    elseif s:sub(i, i):match("[\"']") then
      local q, j = s:sub(i, i), i + 1
      while j <= n and s:sub(j, j) ~= q do j = j + (s:sub(j, j) == "\\" and 2 or 1) end
      span("st", s:sub(i, j)); i = j + 1
    else
      local w = s:match("^[%a_][%w_]*", i)
      if w then span(class[w], w); i = i + #w
      else
        local o = s:match("^[^%a_\"'/]+", i) or s:sub(i, i)
        span(nil, o); i = i + #o
      end
    end
  end
  return table.concat(out)
end

local function ref(name)
  local n = first[name]
  local label = '⟨<span class="cn">' .. namehtml(name) .. "</span> " .. (n or "??") .. "⟩"
  return n and ('<a class="use" href="#chunk-' .. n .. '">' .. label .. "</a>") or label
end

local function list(nums)
  local l = {}
  for _, n in ipairs(nums) do table.insert(l, '<a href="#chunk-' .. n .. '">' .. n .. "</a>") end
  return table.concat(l, ", ")
end

local function render(c)
  local st, body = {}, {}
  for _, l in ipairs(c.lines) do
    local parts, i = {}, 1
    while true do
      local a, b = l:find(OPEN, i, true)
      if not a then break end
      local e = l:find(CLOSE, b + 1, true)
      if not e then break end
      table.insert(parts, hl(l:sub(i, a - 1), st))
      table.insert(parts, ref(l:sub(b + 1, e - 1)))
      i = e + #CLOSE
    end
    table.insert(parts, hl(l:sub(i), st))
    table.insert(body, table.concat(parts))
  end
  local cont = c.num ~= c.first and "+≡" or "≡"
  local foot = {}
  if c.defs then
    local ids = {}
    for id in c.defs:gmatch("%S+") do table.insert(ids, "<code>" .. esc(id) .. "</code>") end
    table.insert(foot, "Defines " .. table.concat(ids, ", ") .. ".")
  end
  local defs = all[c.name]
  if c.num == c.first and #defs > 1 then
    local rest = { table.unpack(defs, 2) }
    table.insert(foot, "Continued in chunk" .. (#rest > 1 and "s " or " ") .. list(rest) .. ".")
  end
  local users = usedin[c.name]
  if c.num == c.first then
    if users then
      table.insert(foot, "Used in chunk" .. (#users > 1 and "s " or " ") .. list(users) .. ".")
    else
      table.insert(foot, "Root chunk (not used in this document).")
    end
  end
  return pandoc.RawBlock("html", table.concat({
    '<div class="chunk" id="chunk-' .. c.num .. '">',
    '<div class="chunk-head"><span class="tag">' .. c.num .. "</span>",
    '<a class="def" href="#chunk-' .. c.first .. '">⟨<span class="cn">' ..
      namehtml(c.name) .. "</span> " .. c.first .. "⟩</a>" .. cont .. "</div>",
    '<pre class="chunk-code"><code>' .. table.concat(body, "\n") .. "</code></pre>",
    #foot > 0 and ('<div class="chunk-foot">' .. table.concat(foot, " ") .. "</div>") or "",
    "</div>" }, "\n"))
end

-- Pass 1: number the chunks, find first definitions and uses.
local function collect(cb)
  local name, lines, defs = parse(cb.text)
  if not name then return nil end
  local c = { name = name, lines = lines, defs = defs, num = #chunks + 1 }
  table.insert(chunks, c)
  first[name] = first[name] or c.num
  c.first = first[name]
  add(all, name, c.num)
  for _, l in ipairs(lines) do
    for u in l:gmatch(OPEN .. "(.-)" .. CLOSE) do add(usedin, u, c.num) end
  end
  return nil
end

-- Pass 2: render chunks; number chapters from 0 like book.tex does
-- (\setcounter{chapter}{-1}; pandoc runs with --number-offset=-1), number
-- captions "Figure 2.1:" / "Table 2.1:" and remember every label's number,
-- since pandoc's own \ref numbers ignore the offset.
local k, nfig, ntab = 0, 0, 0
local sec = { -1, 0, 0 }   -- chapter, section, subsection
local labels = {}          -- id -> printed number
local function prefix(kind, n, caption)
  local p = pandoc.Strong({ pandoc.Str(kind .. " " .. sec[1] .. "." .. n .. ":") })
  table.insert(caption, 1, pandoc.Space())
  table.insert(caption, 1, p)
  return sec[1] .. "." .. n
end
local function walk(blocks, divid)
  for i, b in ipairs(blocks) do
    if b.t == "CodeBlock" and b.text:sub(1, #OPEN + 1) == OPEN .. "=" then
      k = k + 1; blocks[i] = render(chunks[k])
    elseif b.t == "Header" and b.level <= 3 and not b.classes:includes("unnumbered") then
      sec[b.level] = sec[b.level] + 1
      for l = b.level + 1, 3 do sec[l] = 0 end
      if b.level == 1 then nfig, ntab = 0, 0 end
      labels[b.identifier] = table.concat(sec, ".", 1, b.level)
    elseif b.t == "Para" and #b.content == 1 and b.content[1].t == "Image"
        and b.content[1].title == "fig:" then
      nfig = nfig + 1
      labels[b.content[1].identifier] = prefix("Figure", nfig, b.content[1].caption)
    elseif b.t == "Table" and #b.caption.long > 0 then
      ntab = ntab + 1
      local n = prefix("Table", ntab, b.caption.long[1].content)
      if divid then labels[divid] = n end
    elseif b.t == "Div" then walk(b.content, b.identifier)
    end
  end
end

local function fixref(link)
  local n = link.attributes["reference-type"] == "ref" and labels[link.attributes["reference"]]
  if n then link.content = { pandoc.Str(n) }; return link end
end

local function finish(doc)
  walk(doc.blocks)
  local blocks = doc.blocks
  table.insert(blocks, pandoc.Header(1, "Bibliography", pandoc.Attr("bibliography", {"unnumbered"})))
  table.insert(blocks, pandoc.Div({}, pandoc.Attr("refs")))
  -- Index of chunks, sorted by name.
  local names = {}
  for name in pairs(first) do table.insert(names, name) end
  table.sort(names, function(a, b) return a:lower() < b:lower() end)
  local items = {}
  for _, name in ipairs(names) do
    local s = ref(name) .. " defined in " .. list(all[name])
    if usedin[name] then s = s .. "; used in " .. list(usedin[name]) end
    table.insert(items, "<li>" .. s .. ".</li>")
  end
  table.insert(blocks, pandoc.Header(1, "Index of chunks", pandoc.Attr("chunk-index", {"unnumbered"})))
  table.insert(blocks, pandoc.RawBlock("html", '<ul class="chunk-index">\n' ..
    table.concat(items, "\n") .. "\n</ul>"))
  return doc
end

return {
  { CodeBlock = collect },
  { Pandoc = finish },
  { Link = fixref },
}
