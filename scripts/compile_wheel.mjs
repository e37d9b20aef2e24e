// Adds compiled bytecode to the browser wheel, so that the page does not compile our Python
// on every start: node scripts/compile_wheel.mjs IN.whl OUT.whl
//
// The .pyc files must be those of Pyodide's own CPython (3.14 here, not the host's), so they
// are made inside Pyodide: the wheel is unpacked, compileall writes each module's
// __pycache__/NAME.cpython-3XX.pyc in "unchecked-hash" mode (used whatever the file times,
// which an unpacked wheel does not keep), and the wheel is written again with them (listed in
// RECORD without a hash, as the wheel format allows for .pyc files). Used by
// scripts/build_site.py; exit code 0 on success, 1 with a message otherwise.
import { loadPyodide } from "pyodide";
import { readFileSync, writeFileSync } from "node:fs";

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error("usage: node scripts/compile_wheel.mjs IN.whl OUT.whl");
  process.exit(2);
}
try {
  const pyodide = await loadPyodide();
  pyodide.FS.writeFile("/tmp/in.whl", new Uint8Array(readFileSync(input)));
  pyodide.runPython(`
import compileall, os, py_compile, sys, zipfile
with zipfile.ZipFile("/tmp/in.whl") as source:
    names = source.namelist()
    source.extractall("/tmp/wheel")
compiled = compileall.compile_dir(
    "/tmp/wheel", quiet=1, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH
)
if not compiled:
    raise SystemExit("compileall failed")
pycs = sorted(
    os.path.relpath(os.path.join(folder, name), "/tmp/wheel")
    for folder, _dirs, files in os.walk("/tmp/wheel")
    for name in files
    if name.endswith(".pyc")
)
record = next(name for name in names if name.endswith(".dist-info/RECORD"))
with zipfile.ZipFile("/tmp/out.whl", "w", zipfile.ZIP_DEFLATED) as target:
    for name in names:
        if name != record:
            target.write(os.path.join("/tmp/wheel", name), name)
    for name in pycs:
        target.write(os.path.join("/tmp/wheel", name), name)
    with open(os.path.join("/tmp/wheel", record)) as lines:
        text = lines.read()
    target.writestr(record, text + "".join(f"{name},,\\n" for name in pycs))
print(f"{len(pycs)} modules compiled for Python {sys.version_info.major}.{sys.version_info.minor}")
`);
  writeFileSync(output, pyodide.FS.readFile("/tmp/out.whl"));
} catch (error) {
  console.error(`compile_wheel: ${error.message || error}`);
  process.exit(1);
}
