-- Lua filter for the HTML book (pandoc 2.17).  Input code blocks come from
-- book/tools/nw2pandoc: first line "⟪=name⟫", uses of chunks "⟪name⟫",
-- uses of identifiers "⟪#id⟫", optional last lines "⟪%def id:N,N ...⟫"
-- and "⟪%use id:N ...⟫", and one block "⟪%index⟫" with the identifier
-- index.  Like noweb's webnumbering, chunks are numbered 1, 2, 3 in
-- document order; a use links to the chunk's first definition.  The
-- filter also highlights C/CUDA (words from book/tools/c-words), numbers
-- figure and table captions as LaTeX does (chapter.n), sets \paragraph
-- headings run-in and unnumbered as LaTeX does, gives every \ref the
-- number the PDF prints, numbers citations [n] as natbib does with the
-- bibliography that book/tools/htmlsrc had bibtex make (book.bbl), and
-- appends the back matter: bibliography, index of chunks, index of
-- identifiers and the subject index (from index.tsv, see htmlsrc).

local OPEN, CLOSE = "⟪", "⟫"
local chunks = {}   -- in order: {name=, num=, first=, lines=, defs=, uses=}
local first = {}    -- name -> number of its first definition
local all = {}      -- name -> list of numbers of its definitions
local usedin = {}   -- name -> list of chunk numbers that use it
local idents = {}   -- identifier index, in noweb's order: {id=, defs=, uses=}
local ident = {}    -- id -> its entry in idents

local bookdir = PANDOC_SCRIPT_FILE:match("(.*)/") or "."
local srcdir = (PANDOC_STATE.input_files[1] or ""):match("(.*)/") or "."
local function slurp(f)
  local h = io.open(f, "r")
  if not h then return nil end
  local t = h:read("a"); h:close(); return t
end

-- Word classes shared with the PDF highlighter.
local class = {}
do
  local dir = bookdir
  for line in io.lines(dir .. "/tools/c-words") do
    local cls, words = line:match("^(%w+):(.*)$")
    if cls then for w in words:gmatch("%S+") do class[w] = cls end end
  end
end

local function esc(s)
  return (s:gsub("&", "&amp;"):gsub("<", "&lt;"):gsub(">", "&gt;"))
end
-- Chunk names may quote code as [[x]], as in noweb.
-- A chunk's name: [[code]] as code, and $x$, a variable as the PDF sets
-- it, in italics (gsub's count is dropped).
local function namehtml(name)
  local html = esc(name):gsub("%[%[(.-)%]%]", "<code>%1</code>")
                         :gsub("%$(.-)%$", "<em>%1</em>")
  return html
end
local function add(t, k, v)
  t[k] = t[k] or {}
  if t[k][#t[k]] ~= v then table.insert(t[k], v) end
end
local function link(n, text)
  return '<a href="#chunk-' .. n .. '">' .. (text or n) .. "</a>"
end
-- "a", "a and b", "a, b, and c", as noweb writes lists.
local function series(items)
  if #items <= 2 then return table.concat(items, " and ") end
  return table.concat(items, ", ", 1, #items - 1) .. ", and " .. items[#items]
end
-- Chunk numbers as noweb's footers print them: runs as ranges, linked.
local function ranges(nums)
  local out, i = {}, 1
  while i <= #nums do
    local j = i
    while j < #nums and nums[j + 1] == nums[j] + 1 do j = j + 1 end
    if j >= i + 2 then table.insert(out, link(nums[i]) .. "–" .. link(nums[j]))
    else for k = i, j do table.insert(out, link(nums[k])) end end
    i = j + 1
  end
  return out
end
local function nums(s)
  local t = {}
  for n in s:gmatch("%d+") do table.insert(t, tonumber(n)) end
  return t
end

-- Split a code block into header name, body lines, defined and used
-- identifiers.
local function parse(text)
  local lines = {}
  for l in (text .. "\n"):gmatch("(.-)\n") do table.insert(lines, l) end
  local name = lines[1]:match("^" .. OPEN .. "=(.*)" .. CLOSE .. "$")
  if not name then return nil end
  table.remove(lines, 1)
  local ids = {}
  while #lines > 0 do
    local kind, list = lines[#lines]:match("^" .. OPEN .. "%%(%a+) (.*)" .. CLOSE .. "$")
    if not kind then break end
    ids[kind] = {}
    for id, ns in list:gmatch("(%S+):(%S*)") do table.insert(ids[kind], { id = id, nums = nums(ns) }) end
    table.remove(lines)
  end
  return name, lines, ids.def, ids.use
end

-- Highlight a piece of a line of code.  st carries what is open from one
-- piece to the next (a string, a // or /* comment, a preprocessor line);
-- a /* comment and a continued #define carry over to the next line.
local function hl(s, st)
  local out, i, n = {}, 1, #s
  local cur, buf = nil, ""       -- pieces of one class are merged
  local function flush()
    if buf ~= "" then
      table.insert(out, cur and ('<span class="' .. cur .. '">' .. esc(buf) .. '</span>') or esc(buf))
    end
    buf = ""
  end
  local function span(cls, t)
    if t == "" then return end
    if cls ~= cur then flush(); cur = cls end
    buf = buf .. t
  end
  while i <= n do
    if st.pp then span("pp", s:sub(i)); i = n + 1
    elseif st.line then span("co", s:sub(i)); i = n + 1
    elseif st.comment then
      local e = s:find("*/", i, true)
      local j = e and e + 1 or n
      span("co", s:sub(i, j)); i = j + 1
      if e then st.comment = false end
    elseif st.str then
      local j = i
      while j <= n and s:sub(j, j) ~= st.str do j = j + (s:sub(j, j) == "\\" and 2 or 1) end
      span("st", s:sub(i, j)); i = j + 1
      if j <= n then st.str = nil end
    elseif s:sub(i, i + 1) == "//" then st.line = true
    elseif s:sub(i, i + 1) == "/*" then span("co", "/*"); i = i + 2; st.comment = true
    elseif s:sub(i, i):match("[\"']") then
      st.str = s:sub(i, i); span("st", st.str); i = i + 1
    else
      local w = s:match("^[%a_][%w_]*", i)
      if w then span(class[w], w); i = i + #w
      else
        local o = s:match("^[^%a_\"'/]+", i) or s:sub(i, i)
        span(nil, o); i = i + #o
      end
    end
  end
  flush()
  return table.concat(out)
end

local function ref(name)
  local n = first[name]
  local label = '⟨<span class="cn">' .. namehtml(name) .. "</span> " .. (n or "??") .. "⟩"
  return n and ('<a class="use" href="#chunk-' .. n .. '">' .. label .. "</a>") or label
end

local function list(ns)
  local l = {}
  for _, n in ipairs(ns) do table.insert(l, link(n)) end
  return table.concat(l, ", ")
end

-- An identifier in code: a link to the chunk that defines it, unless it
-- is in a comment, a string or a preprocessor line, or defined here.
local function identifier(id, st, here)
  local e = ident[id]
  local text = hl(id, st)
  if st.pp or st.line or st.comment or st.str or not e or #e.defs == 0
     or e.defs[1] == here then
    return text
  end
  return '<a class="id" href="#chunk-' .. e.defs[1] .. '">' .. text .. "</a>"
end

local function render(c)
  local st, body = { comment = false }, {}
  for _, l in ipairs(c.lines) do
    st.line, st.str = false, nil
    st.pp = st.ppnext or (not st.comment and l:match("^%s*#") ~= nil)
    local parts, i = {}, 1
    while true do
      local a, b = l:find(OPEN, i, true)
      if not a then break end
      local e = l:find(CLOSE, b + 1, true)
      if not e then break end
      table.insert(parts, hl(l:sub(i, a - 1), st))
      local m = l:sub(b + 1, e - 1)
      if m:sub(1, 1) == "#" then table.insert(parts, identifier(m:sub(2), st, c.num))
      else table.insert(parts, ref(m)) end
      i = e + #CLOSE
    end
    table.insert(parts, hl(l:sub(i), st))
    table.insert(body, table.concat(parts))
    st.ppnext = st.pp and l:match("\\$") ~= nil
  end
  local cont = c.num ~= c.first and "+≡" or "≡"
  local foot = {}
  local defs = all[c.name]
  if c.num == c.first and #defs > 1 then
    local rest = { table.unpack(defs, 2) }
    table.insert(foot, "<p>This definition is continued in chunk" .. (#rest > 1 and "s " or " ")
      .. series(ranges(rest)) .. ".</p>")
  end
  local users = usedin[c.name]
  if c.num == c.first then
    if users then
      table.insert(foot, "<p>This code is used in chunk" .. (#users > 1 and "s " or " ")
        .. series(ranges(users)) .. ".</p>")
    else
      table.insert(foot, "<p>Root chunk (not used in this document).</p>")
    end
  end
  if c.defs then
    local items = {}
    for _, d in ipairs(c.defs) do
      local u = #d.nums == 0 and "never used"
        or ("used in chunk" .. (#d.nums > 1 and "s " or " ") .. series(ranges(d.nums)))
      table.insert(items, "<li><code>" .. esc(d.id) .. "</code>, " .. u .. ".</li>")
    end
    table.insert(foot, '<div class="defines">Defines:<ul>' .. table.concat(items) .. "</ul></div>")
  end
  if c.uses then
    local items = {}
    for _, u in ipairs(c.uses) do
      table.insert(items, "<code>" .. esc(u.id) .. "</code> " .. list(u.nums))
    end
    table.insert(foot, "<p>Uses " .. series(items) .. ".</p>")
  end
  return pandoc.RawBlock("html", table.concat({
    '<div class="chunk" id="chunk-' .. c.num .. '">',
    '<div class="chunk-head"><span class="tag">' .. c.num .. "</span>",
    '<a class="def" href="#chunk-' .. c.first .. '">⟨<span class="cn">' ..
      namehtml(c.name) .. "</span> " .. c.first .. "⟩</a>" .. cont .. "</div>",
    '<pre class="chunk-code"><code>' .. table.concat(body, "\n") .. "</code></pre>",
    #foot > 0 and ('<div class="chunk-foot">' .. table.concat(foot, "\n") .. "</div>") or "",
    "</div>" }, "\n"))
end

-- Pass 1: number the chunks, find first definitions and uses; read the
-- identifier index (and drop its block).
local function collect(cb)
  local INDEX = OPEN .. "%index" .. CLOSE
  if cb.text:sub(1, #INDEX) == INDEX then
    for l in cb.text:gmatch("[^\n]+") do
      local id, rest = l:match("^(%S+)(.*)$")
      if id ~= INDEX then
        local e = { id = id, defs = {}, uses = {}, all = {} }
        for n, star in rest:gmatch("(%d+)(%*?)") do
          n = tonumber(n)
          table.insert(star == "*" and e.defs or e.uses, n)
          table.insert(e.all, { n = n, def = star == "*" })
        end
        table.insert(idents, e); ident[id] = e
      end
    end
    return {}
  end
  local name, lines, defs, uses = parse(cb.text)
  if not name then return nil end
  local c = { name = name, lines = lines, defs = defs, uses = uses, num = #chunks + 1 }
  table.insert(chunks, c)
  first[name] = first[name] or c.num
  c.first = first[name]
  add(all, name, c.num)
  for _, l in ipairs(lines) do
    for u in l:gmatch(OPEN .. "(.-)" .. CLOSE) do
      if u:sub(1, 1) ~= "#" then add(usedin, u, c.num) end
    end
  end
  return nil
end

-- Pass 2: render chunks; number chapters from 0 like book.tex does
-- (\setcounter{chapter}{-1}), give each heading its number, number
-- captions "Figure 2.1:" / "Table 2.1:" and remember every label's number,
-- since pandoc's own \ref numbers ignore the offset.
local k, nfig, ntab = 0, 0, 0
local sec = { -1, 0, 0 }   -- chapter, section, subsection
local labels = {}          -- id -> printed number
-- An appendix (its chapter's label starts "app:"; book.tex's \appendix)
-- and the chapters after it are lettered A, B, ... as in the PDF.
local appendix = 0
local function numbered(d)
  local t = { appendix > 0 and string.char(64 + appendix) or tostring(sec[1]) }
  for l = 2, d do t[l] = tostring(sec[l]) end
  return table.concat(t, ".")
end
local function prefix(kind, n, caption)
  local p = pandoc.Strong({ pandoc.Str(kind .. " " .. numbered(1) .. "." .. n .. ":") })
  table.insert(caption, 1, pandoc.Space())
  table.insert(caption, 1, p)
  return numbered(1) .. "." .. n
end
-- The number \ref prints for a label that no numbered unit sets (after
-- a \paragraph): that of the innermost numbered section around it.
local function current()
  local d = sec[3] > 0 and 3 or sec[2] > 0 and 2 or 1
  return numbered(d)
end
-- The subject index: term of each \index, by number (book/tools/htmlsrc).
local idxterm, subject = {}, {}
for l in (slurp(srcdir .. "/index.tsv") or ""):gmatch("[^\n]+") do
  local n, t = l:match("^(%d+)\t(.*)$")
  if n then idxterm["idx-" .. n] = t end
end
local function indexed(span)
  local t = idxterm[span.identifier]
  if t then
    -- (KEY|textbf: the section that speaks of the term, in bold)
    local key, encap = t:match("^(.-)|(%a+)$")
    table.insert(subject, { term = key or t, id = span.identifier, main = encap == "textbf",
                            where = sec[1] < 0 and "Preface" or current() })
  end
end

-- A figure takes the share of the column that it takes of the PDF's text
-- width (book.tex: 5.3in), so that its labels keep their size relative
-- to the text.
local PDF_TEXTWIDTH_PT = 5.3 * 72.27
local function scale(img)
  local src = img.src:match("[^/]*$")
  for _, dir in ipairs(PANDOC_STATE.resource_path or { "." }) do
    local svg = slurp(dir .. "/" .. src)
    local w = svg and tonumber(svg:match('<svg[^>]-width="([%d.]+)pt"'))
    if w then
      -- (and no narrower than 0.8 of its own size, 8 px for its smallest
      -- labels: on a phone the figure scrolls inside its box instead)
      img.attributes.style = string.format("width: %.0f%%; min-width: %.0fpx",
                                           math.min(100, 100 * w / PDF_TEXTWIDTH_PT), 0.8 * w * 4 / 3)
      return
    end
  end
end
local function isfigure(b)
  return b and b.t == "Para" and #b.content == 1 and b.content[1].t == "Image"
    and b.content[1].title == "fig:"
end
local function walk(blocks, divid)
  local out, i = {}, 1
  while i <= #blocks do
    local b = blocks[i]
    if b.t == "CodeBlock" and b.text:sub(1, #OPEN + 1) == OPEN .. "=" then
      k = k + 1; b = render(chunks[k])
    elseif b.t == "Header" and b.level >= 4 then
      -- \paragraph: unnumbered and run-in, as in the PDF.
      if b.identifier ~= "" then labels[b.identifier] = current() end
      local head = pandoc.Span({ pandoc.Strong(b.content) },
                               pandoc.Attr(b.identifier, { "paragraph" }))
      local nxt = blocks[i + 1]
      if nxt and nxt.t == "Para" and not isfigure(nxt) then
        table.insert(nxt.content, 1, pandoc.Space())
        table.insert(nxt.content, 1, head)
        b = nil
      else
        b = pandoc.Para({ head })
      end
    elseif b.t == "Header" and not b.classes:includes("unnumbered") then
      sec[b.level] = sec[b.level] + 1
      for l = b.level + 1, 3 do sec[l] = 0 end
      -- a chapter is numbered by its label (ch:16 is chapter 16), as the
      -- PDF's counter is set where a number is skipped
      local own = b.level == 1 and tonumber(b.identifier:match("^ch:(%d+)$"))
      if own then sec[1] = own end
      if b.level == 1 then
        nfig, ntab = 0, 0
        if appendix > 0 or b.identifier:match("^app:") then appendix = appendix + 1 end
      end
      labels[b.identifier] = numbered(b.level)
      -- the printed number: pandoc uses it as it is (chapters from 0,
      -- appendices lettered)
      b.attributes["number"] = numbered(b.level)
    elseif isfigure(b) then
      scale(b.content[1])
      nfig = nfig + 1
      labels[b.content[1].identifier] = prefix("Figure", nfig, b.content[1].caption)
    elseif b.t == "Table" and #b.caption.long > 0 then
      -- the second half of a table cut in two keeps the first's number
      -- (\ContinuedFloat in the PDF)
      if not pandoc.utils.stringify(b.caption.long):match("%(continued%)%.?$") then
        ntab = ntab + 1
      end
      local n = prefix("Table", ntab, b.caption.long[1].content)
      if divid then labels[divid] = n end
    elseif b.t == "Div" then b.content = walk(b.content, b.identifier)
    end
    if b and b.t ~= "RawBlock" and b.t ~= "Div" then
      pandoc.walk_block(b, { Span = indexed })
    end
    if b then table.insert(out, b) end
    i = i + 1
  end
  return out
end

local function fixref(link)
  local n = link.attributes["reference-type"] == "ref" and labels[link.attributes["reference"]]
  if n then link.content = { pandoc.Str(n) }; return link end
end

-- The bibliography: bibtex's plainnat entries, in their order, which is
-- the order of natbib's numbers in the PDF.
local bib, bibnum = {}, {}
do
  local bbl = slurp(srcdir .. "/book.bbl") or ""
  local macros = "\\newcommand{\\newblock}{}\\newcommand{\\natexlab}[1]{#1}"
    .. "\\newcommand{\\doi}[1]{doi: \\href{https://doi.org/#1}{#1}}\n"
  local i = 1
  while true do
    local a, b = bbl:find("\\bibitem", i)
    if not a then break end
    local j = b + 1
    if bbl:sub(j, j) == "[" then          -- skip the [label], which may hold {}
      local depth = 0
      repeat
        local c = bbl:sub(j, j)
        if c == "[" or c == "{" then depth = depth + 1
        elseif c == "]" or c == "}" then depth = depth - 1 end
        j = j + 1
      until depth == 0 or j > #bbl
    end
    local key, e = bbl:match("^%s*{([^}]*)}()", j)
    local stop = bbl:find("\\bibitem", e) or bbl:find("\\end{thebibliography}", e) or #bbl + 1
    local text = bbl:sub(e, stop - 1)
    local inl = {}
    for _, blk in ipairs(pandoc.read(macros .. text, "latex").blocks) do
      if blk.content then
        if #inl > 0 then table.insert(inl, pandoc.Space()) end
        for _, x in ipairs(blk.content) do table.insert(inl, x) end
      end
    end
    table.insert(bib, { key = key, inlines = inl })
    bibnum[key] = #bib
    i = stop
  end
end

-- \cite{a,b}: "[1, 3]", numbers sorted (natbib's numbers,sort), each a
-- link to its entry.
local function cite(el)
  local ns = {}
  for _, c in ipairs(el.citations) do
    table.insert(ns, { n = bibnum[c.id], id = c.id })
  end
  table.sort(ns, function(a, b) return (a.n or 1e9) < (b.n or 1e9) end)
  local out = { pandoc.Str("[") }
  for i, c in ipairs(ns) do
    if i > 1 then table.insert(out, pandoc.Str(", ")) end
    table.insert(out, c.n and pandoc.Link(tostring(c.n), "#ref-" .. c.id) or pandoc.Str("??"))
  end
  table.insert(out, pandoc.Str("]"))
  return pandoc.Span(out, pandoc.Attr("", { "citation" }))
end

-- One level of a makeindex term: "sort@display" or "display".
local function level(t)
  local key, shown = t:match("^(.-)@(.*)$")
  key = key or t
  local inl = {}
  local doc = pandoc.read(shown or t, "latex")
  if doc.blocks[1] and doc.blocks[1].content then inl = doc.blocks[1].content end
  return key:lower(), pandoc.write(pandoc.Pandoc({ pandoc.Plain(inl) }), "html")
end

local function subjectindex()
  local top = {}
  local function node(list, t)
    local key, html = level(t)
    for _, x in ipairs(list) do if x.key == key then return x end end
    local x = { key = key, html = html, refs = {}, sub = {} }
    table.insert(list, x); return x
  end
  for _, e in ipairs(subject) do
    local list, x = top, nil
    for part in (e.term .. "!"):gmatch("(.-)!") do x = node(list, part); list = x.sub end
    local dup = false
    for _, r in ipairs(x.refs) do
      if r.where == e.where then dup = true; r.main = r.main or e.main end
    end
    if not dup then table.insert(x.refs, e) end
  end
  local function render(list)
    table.sort(list, function(a, b) return a.key < b.key end)
    local items = {}
    for _, x in ipairs(list) do
      local refs = {}
      for _, r in ipairs(x.refs) do
        local w = r.main and ("<strong>" .. r.where .. "</strong>") or r.where
        table.insert(refs, '<a href="#' .. r.id .. '"' .. (r.main and ' class="main"' or "") .. ">" .. w .. "</a>")
      end
      table.insert(items, "<li>" .. x.html .. (#refs > 0 and (", " .. table.concat(refs, ", ")) or "")
        .. (#x.sub > 0 and ("\n<ul>" .. render(x.sub) .. "</ul>") or "") .. "</li>")
    end
    return table.concat(items, "\n")
  end
  return '<p><em>A section in bold is where the book speaks most of the term.</em></p>\n'
    .. '<ul class="subject-index">\n' .. render(top) .. "\n</ul>"
end

local function backmatter(blocks, title, id, html)
  table.insert(blocks, pandoc.Header(1, title, pandoc.Attr(id, { "unnumbered" })))
  table.insert(blocks, pandoc.RawBlock("html", html))
end

local function finish(doc)
  doc.blocks = walk(doc.blocks)
  local blocks = doc.blocks
  table.insert(blocks, pandoc.Header(1, "Bibliography", pandoc.Attr("bibliography", {"unnumbered"})))
  local refs = {}
  for n, e in ipairs(bib) do
    local inl = { pandoc.Span({ pandoc.Str("[" .. n .. "]") }, pandoc.Attr("", { "bib-num" })), pandoc.Space() }
    for _, x in ipairs(e.inlines) do table.insert(inl, x) end
    table.insert(refs, pandoc.Div({ pandoc.Para(inl) }, pandoc.Attr("ref-" .. e.key, { "bib-entry" })))
  end
  table.insert(blocks, pandoc.Div(refs, pandoc.Attr("refs")))
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
  backmatter(blocks, "Index of chunks", "chunk-index",
    '<ul class="chunk-index">\n' .. table.concat(items, "\n") .. "\n</ul>")
  -- Index of identifiers, in noweb's order: the chunks that define an
  -- identifier (underlined, as in the PDF) and those that use it.
  items = {}
  for _, e in ipairs(idents) do
    local l = {}
    for _, u in ipairs(e.all) do
      table.insert(l, link(u.n, u.def and ('<span class="idef">' .. u.n .. "</span>") or u.n))
    end
    table.insert(items, '<li id="ident-' .. esc(e.id) .. '"><code>' .. esc(e.id) ..
      "</code>: " .. table.concat(l, ", ") .. "</li>")
  end
  backmatter(blocks, "Index of identifiers", "identifier-index",
    '<ul class="ident-index">\n' .. table.concat(items, "\n") .. "\n</ul>")
  backmatter(blocks, "Index", "subject-index", subjectindex())
  -- The page's metadata, from book/meta.tex as the PDF's.
  local meta = slurp(bookdir .. "/meta.tex") or ""
  local function field(name) return meta:match("\\newcommand\\" .. name .. "{([^}]*)}") end
  local title, sub, subj, kw = field("booktitle"), field("booksubtitle"),
    field("booksubject"), field("bookkeywords")
  if title and sub and subj then    -- the title page's lines
    doc.meta.title = pandoc.MetaInlines({ pandoc.Str(title) })
    doc.meta.pagetitle = title .. ": " .. sub
    doc.meta.subtitle = pandoc.MetaInlines({ pandoc.Str(sub), pandoc.LineBreak(),
      pandoc.Span({ pandoc.Str(subj) }, pandoc.Attr("", { "subject" })) })
    doc.meta["description-meta"] = subj
  end
  doc.meta["toc-title"] = "Contents"
  if kw then
    local l = {}
    for w in kw:gmatch("[^,]+") do table.insert(l, (w:gsub("^%s+", ""):gsub("%s+$", ""))) end
    doc.meta.keywords = l
  end
  return doc
end

return {
  { CodeBlock = collect },
  { Pandoc = finish },
  { Link = fixref, Cite = cite },
}
