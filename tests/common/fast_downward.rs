//! Where Fast Downward is: shared by tests/kitchen_compile.rs and examples/kitchen_solve.rs.

use std::path::PathBuf;

/// Where `up_fast_downward` (PyPI) installed `fast-downward.py`, if it is installed.
pub fn fast_downward() -> Option<PathBuf> {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import importlib.util,os; print(os.path.join(os.path.dirname(importlib.util.find_spec('up_fast_downward').origin),'downward','fast-downward.py'))",
        ])
        .output()
        .ok()?;
    let path = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    (out.status.success() && path.is_file()).then_some(path)
}
