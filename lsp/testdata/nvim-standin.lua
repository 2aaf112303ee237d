-- Checks a docs/editors.md snippet written for a newer Neovim than the one
-- installed (lsp/nvim_test.go): it must parse, and run against stand-ins for
-- the API it calls, which record and check the arguments. This is not a run
-- against that Neovim.
local snippet, min, root = os.getenv('SNIPPET'), os.getenv('MIN'), os.getenv('WS')
local out = io.open(os.getenv('OUT'), 'w')
local function log(s) out:write(s .. '\n'); out:flush() end
local function fail(s) log('FAIL ' .. s); out:close(); vim.cmd('cquit 1') end
local function expect(cond, what) if not cond then fail(what) end end
local function same(a, b) return vim.inspect(a) == vim.inspect(b) end
vim.o.hidden = true

local ok, err = pcall(function()
  local src = io.open(snippet):read('*a')
  local chunk, perr = loadstring(src, 'snippet ' .. min)
  if not chunk then fail('does not parse: ' .. perr) end
  log('parsed')

  if min == '0.11' then
    local configs, enabled = {}, {}
    vim.lsp.config = function(name, cfg) configs[name] = cfg end
    vim.lsp.enable = function(name) enabled[#enabled + 1] = name end
    chunk()
    local c = configs.sotvet
    expect(c, 'no vim.lsp.config for sotvet')
    expect(same(c.cmd, { 'sotvet', 'lsp' }), 'cmd is ' .. vim.inspect(c.cmd))
    expect(same(c.filetypes, { 'markdown', 'yaml' }), 'filetypes are ' .. vim.inspect(c.filetypes))
    expect(same(c.root_markers, { 'WORKBOARD.yaml', '.sot' }), 'root_markers are ' .. vim.inspect(c.root_markers))
    expect(same(enabled, { 'sotvet' }), 'enabled ' .. vim.inspect(enabled))
    log('config: sotvet, enabled')
  elseif min == '0.10' then
    -- vim.fs.root stands in with the upward search of a buffer's directory.
    local starts = {}
    vim.fs = vim.fs or {}
    vim.fs.root = function(buf, markers)
      expect(same(markers, { 'WORKBOARD.yaml', '.sot' }), 'markers are ' .. vim.inspect(markers))
      local name = vim.api.nvim_buf_get_name(buf)
      if name:sub(1, #root + 1) == root .. '/' then return root end
    end
    vim.lsp.start = function(cfg, opts) starts[#starts + 1] = { cfg = cfg, bufnr = opts and opts.bufnr } end
    chunk()
    vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/' .. os.getenv('DOC')))
    local doc = vim.api.nvim_get_current_buf()
    vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/WORKBOARD.yaml'))
    local wb = vim.api.nvim_get_current_buf()
    vim.cmd('edit ' .. vim.fn.fnameescape(vim.fn.tempname() .. '.md'))
    expect(#starts == 2, 'vim.lsp.start called ' .. #starts .. ' times, want 2 (the document and the workboard, not the file outside)')
    for i, b in ipairs({ doc, wb }) do
      local s = starts[i]
      expect(s.cfg.name == 'sotvet' and same(s.cfg.cmd, { 'sotvet', 'lsp' }) and s.cfg.root_dir == root,
        'vim.lsp.start got ' .. vim.inspect(s.cfg))
      expect(s.bufnr == b, 'vim.lsp.start for buffer ' .. tostring(s.bufnr) .. ', want ' .. b)
    end
    log('started: 2 buffers, one name and root')
  else
    fail('no stand-ins for Neovim ' .. min)
  end
end)
if not ok then fail(tostring(err)) end
log('PASS')
out:close()
vim.cmd('qall!')
