-- Drives sotvet lsp from Neovim's built-in LSP client (lsp/nvim_test.go),
-- headless, after the init.lua the test took from docs/editors.md: two
-- documents and the workboard of one workspace share one server; a quick fix
-- applies; an unsaved edit of WORKBOARD.yaml changes the diagnostics of
-- another open document, and undoing it clears them; a document of a second
-- workspace gets a server of its own.
local root, doc_rel, doc2_rel = os.getenv('WS'), os.getenv('DOC'), os.getenv('DOC2')
local out = io.open(os.getenv('OUT'), 'w')
local function log(s) out:write(s .. '\n'); out:flush() end
local function fail(s) log('FAIL ' .. s); out:close(); vim.cmd('cquit 1') end

vim.o.hidden = true

local function has(buf, pattern)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.message:match(pattern) then return d end
  end
end
local function wait(what, pred)
  if not vim.wait(30000, pred, 20) then fail('timed out: ' .. what) end
end
-- The sotvet clients, and those attached to a buffer, on 0.7 and on 0.10+.
local function sotvet_clients(buf)
  local ids = {}
  if vim.lsp.get_clients then
    for _, c in ipairs(vim.lsp.get_clients({ bufnr = buf, name = 'sotvet' })) do ids[#ids + 1] = c.id end
  else
    local all = buf and vim.lsp.buf_get_clients(buf) or vim.lsp.get_active_clients()
    for _, c in pairs(all) do
      if c.name == 'sotvet' then ids[#ids + 1] = c.id end
    end
  end
  table.sort(ids)
  return ids
end
local function set_line(buf, from, to)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if l:match(from) then
      vim.api.nvim_buf_set_lines(buf, i - 1, i, false, { (l:gsub(from, to)) })
      return true
    end
  end
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/' .. doc_rel))
  local doc = vim.api.nvim_get_current_buf()
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/' .. doc2_rel))
  local doc2 = vim.api.nvim_get_current_buf()
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/WORKBOARD.yaml'))
  local wb = vim.api.nvim_get_current_buf()

  -- One server for the workspace, attached to all three buffers.
  wait('a sotvet client', function() return #sotvet_clients() > 0 end)
  local ids = sotvet_clients()
  if #ids ~= 1 then fail('want one sotvet client, have ' .. #ids) end
  local id = ids[1]
  wait('the client to initialize', function()
    local c = vim.lsp.get_client_by_id(id)
    return c and c.initialized
  end)
  for _, b in ipairs({ doc, doc2, wb }) do
    local a = sotvet_clients(b)
    if #a ~= 1 or a[1] ~= id then
      fail(vim.api.nvim_buf_get_name(b) .. ' is attached to ' .. vim.inspect(a) .. ', want { ' .. id .. ' }')
    end
  end
  log('clients: 1, attached buffers: 3')

  -- An unsaved edit of the first document: drop the core_promotion_status line.
  local lines = vim.api.nvim_buf_get_lines(doc, 0, -1, false)
  for i, l in ipairs(lines) do
    if l:match('^core_promotion_status:') then
      vim.api.nvim_buf_set_lines(doc, i - 1, i, false, {})
      break
    end
  end
  wait('the missing-key diagnostic', function() return has(doc, 'core_promotion_status') ~= nil end)
  local d = has(doc, 'core_promotion_status')
  log('diagnostic: ' .. d.message)

  -- Its quick fix, through textDocument/codeAction.
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(doc) },
    range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } },
    context = { diagnostics = {} },
  }
  local res = vim.lsp.buf_request_sync(doc, 'textDocument/codeAction', params, 10000) or {}
  local applied = false
  for _, r in pairs(res) do
    for _, a in ipairs(r.result or {}) do
      if not applied and a.title:match('^add core_promotion_status') then
        vim.lsp.util.apply_workspace_edit(a.edit, 'utf-16')
        applied = true
        log('applied: ' .. a.title)
      end
    end
  end
  if not applied then fail('no quick fix offered: ' .. vim.inspect(res)) end
  wait('the fix to clear the diagnostics', function() return #vim.diagnostic.get(doc) == 0 end)
  log('cleared')

  -- A cross-file rule: in the unsaved WORKBOARD.yaml (the current buffer),
  -- the first item goes back to candidate; the first document, which says
  -- validated, is re-judged without being touched.
  if not set_line(wb, 'status: validated', 'status: candidate') then fail('no validated item in WORKBOARD.yaml') end
  wait('the other document to see the workboard edit', function() return has(doc, 'in WORKBOARD.yaml') ~= nil end)
  log('cross-file: ' .. has(doc, 'in WORKBOARD.yaml').message)
  if not set_line(wb, 'status: candidate', 'status: validated') then fail('the edited item is gone') end
  wait('the other document to see the edit undone', function() return has(doc, 'in WORKBOARD.yaml') == nil end)
  log('cross-file cleared')

  ids = sotvet_clients()
  if #ids ~= 1 then fail('want one sotvet client at the end, have ' .. #ids) end

  -- A document of another workspace gets a server of its own.
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('WS2') .. '/' .. doc_rel))
  local other = vim.api.nvim_get_current_buf()
  wait('a second client for the second workspace', function() return #sotvet_clients() == 2 end)
  local a = sotvet_clients(other)
  if #a ~= 1 or a[1] == id then fail('the second workspace is served by ' .. vim.inspect(a)) end
  log('second workspace: its own client')
end)
if not ok then fail(tostring(err)) end
log('PASS')
out:close()
vim.cmd('qall!')
