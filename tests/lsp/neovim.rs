//! A real editor: Neovim's built-in client (`vim.lsp.start_client`, `vim.lsp.buf_attach_client`)
//! in headless mode starts `pddlc lsp`, opens the broken fixture, and writes back what
//! `vim.diagnostic.get()` holds. Needs Debian's `neovim` (0.7), which `.ci/run` installs.

use crate::client::fixture;
use serde_json::Value;
use std::process::Command;

const SCRIPT: &str = r#"
local server = os.getenv('PDDLC_NVIM_SERVER')
local file = os.getenv('PDDLC_NVIM_FILE')
local out = os.getenv('PDDLC_NVIM_OUT')
vim.cmd('edit ' .. vim.fn.fnameescape(file))
local buffer = vim.api.nvim_get_current_buf()
local client = vim.lsp.start_client({
  name = 'pddlc',
  cmd = { server, 'lsp' },
  root_dir = vim.fn.fnamemodify(file, ':h'),
})
vim.lsp.buf_attach_client(buffer, client)
-- No time limit of its own: the bound below only keeps a broken server from hanging CI
-- forever; the test asserts what arrives, not when.
vim.wait(600000, function() return #vim.diagnostic.get(buffer) > 0 end, 10)
local found = {}
for _, d in ipairs(vim.diagnostic.get(buffer)) do
  table.insert(found, { lnum = d.lnum, col = d.col, end_col = d.end_col, code = d.code,
    severity = d.severity, source = d.source })
end
vim.fn.writefile({ vim.fn.json_encode(found) }, out)
vim.lsp.stop_client(client)
-- `shutdown` and `exit` are sent asynchronously: wait for the server to end before quitting.
vim.wait(600000, function() return vim.lsp.get_client_by_id(client) == nil end, 10)
vim.cmd('qall!')
"#;

#[test]
fn neovim_shows_the_diagnostics_at_the_right_byte_column() {
    let under_ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty());
    if Command::new("nvim").arg("--version").output().is_err() {
        assert!(
            !under_ci,
            "nvim is missing; under CI nothing may be skipped"
        );
        eprintln!("skipping the Neovim test: no `nvim` on PATH; it checked nothing");
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let script = dir.path().join("test.lua");
    let out = dir.path().join("diagnostics.json");
    std::fs::write(&script, SCRIPT).expect("write the script");
    let file = fixture("lsp/broken/domain.pddl");
    // Neovim 0.7 has no `-l` (there it means Lisp mode): the script runs with `luafile`, its
    // inputs passed through the environment.
    let status = Command::new("nvim")
        .args(["--headless", "--clean", "-n", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("PDDLC_NVIM_SERVER", env!("CARGO_BIN_EXE_pddlc"))
        .env("PDDLC_NVIM_FILE", &file)
        .env("PDDLC_NVIM_OUT", &out)
        .status()
        .expect("nvim runs");
    assert!(status.success(), "nvim failed: {status}");
    let text = std::fs::read_to_string(&out).expect("nvim wrote the diagnostics");
    let found: Value = serde_json::from_str(text.trim()).expect("JSON");
    let found = found.as_array().expect("a list");
    assert_eq!(found.len(), 1, "{text}");
    let d = &found[0];
    assert_eq!(d["code"], "C101");
    assert_eq!(d["source"], "pddlc");
    // vim.diagnostic severities: 1 is ERROR.
    assert_eq!(d["severity"], 1);
    // Neovim counts in bytes: line 8's `cassée` starts at UTF-16 unit 61, which the client
    // converts to byte 65 (`𝔞` is 4 bytes and 2 units, `é` 2 bytes and 1 unit); it is 7 bytes.
    assert_eq!(d["lnum"], 7);
    assert_eq!(d["col"], 65);
    assert_eq!(d["end_col"], 72);
}
