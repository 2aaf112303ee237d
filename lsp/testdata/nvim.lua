-- Drives sotvet lsp from Neovim's built-in LSP client (lsp/nvim_test.go):
-- open a document, see its diagnostics, apply a quick fix, edit the
-- workboard, and see the document's diagnostics change.
local root, sotvet, doc_rel = os.getenv('WS'), os.getenv('SOTVET'), os.getenv('DOC')
local out = io.open(os.getenv('OUT'), 'w')
local function log(s) out:write(s .. '\n'); out:flush() end
local function fail(s) log('FAIL ' .. s); out:close(); vim.cmd('cquit 1') end

local function has(buf, pattern)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.message:match(pattern) then return d end
  end
end
local function wait(what, pred)
  if not vim.wait(30000, pred, 20) then fail('timed out: ' .. what) end
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. root .. '/' .. doc_rel)
  local doc = vim.api.nvim_get_current_buf()
  local client = vim.lsp.start_client({ name = 'sotvet', cmd = { sotvet, 'lsp' }, root_dir = root })
  if not client then fail('the client did not start') end
  vim.lsp.buf_attach_client(doc, client)
  wait('the first diagnostics', function() return vim.lsp.get_client_by_id(client).initialized end)

  -- An unsaved edit: drop the core_promotion_status line.
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

  -- A cross-file rule: the workboard's status of the first item changes.
  vim.cmd('edit ' .. root .. '/WORKBOARD.yaml')
  local wb = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(wb, client)
  local wl = vim.api.nvim_buf_get_lines(wb, 0, -1, false)
  for i, l in ipairs(wl) do
    if l:match('status: validated') then
      vim.api.nvim_buf_set_lines(wb, i - 1, i, false, { (l:gsub('validated', 'candidate')) })
      break
    end
  end
  wait('the document to see the workboard edit', function() return has(doc, 'in WORKBOARD.yaml') ~= nil end)
  log('cross-file: ' .. has(doc, 'in WORKBOARD.yaml').message)
end)
if not ok then fail(tostring(err)) end
log('PASS')
out:close()
vim.cmd('qall!')
