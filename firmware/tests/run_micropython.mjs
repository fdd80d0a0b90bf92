// Runs Python files under real MicroPython (the WebAssembly port) with the portable
// package in its in-memory filesystem; exits 1 if any of them raised.
// Usage: node run_micropython.mjs PORTABLE_DIR TEST.py...
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const [portable, ...tests] = process.argv.slice(2);
const mp = await loadMicroPython({
  heapsize: 8 * 1024 * 1024,
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
});
// The board keeps the package in /lib/portable, as the flashing instructions do.
mp.FS.mkdir("/lib");
mp.FS.mkdir("/lib/portable");
for (const name of readdirSync(portable).filter((n) => n.endsWith(".py"))) {
  mp.FS.writeFile(`/lib/portable/${name}`, readFileSync(join(portable, name)));
}
let failed = 0;
for (const test of tests) {
  try {
    // The package's own CLI exits 0 even when the script raises: runPython throws.
    mp.runPython(readFileSync(test, "utf8"));
    console.log(`ok ${test}`);
  } catch (error) {
    failed += 1;
    console.error(`FAILED ${test}\n${error.message ?? error}`);
  }
}
process.exit(failed ? 1 : 0);
