// The page's engine (#25): the package's own engine, bots and device game, in Python,
// in Pyodide, in this Web Worker, so the page never freezes while a bot thinks. The
// server serves the runtime (npm's pyodide, at the version vendor/package-lock.json
// pins) and a zip of the Python source it built from its own installed package at
// start-up, both from its own origin (docs/server.md, "The game on one device").
//
// Messages in: {id, request}; `request.op` "boot" {runtime, source, stdlib} loads
// Python and the source; any other op goes to `sequence_stacks.device.Session` as JSON
// (device/session.py lists them). Messages out: {id, answer} or {id, failed: text}.
// `stdlib` is the standard library compiled for this runtime at install (vendor/
// stdlib.mjs: the modules the game uses); should the runtime not start with it, it
// starts with the whole library of the runtime's package. The package's bytecode, as
// this runtime compiled it from the source, is kept in the Cache API for the next start.

const SOURCE_PATH = "/home/pyodide/sequence-stacks.zip";

let session = null;
let booting = null;

async function boot(build) {
  if (build.stdlib) {
    try {
      return await start(build, build.stdlib);
    } catch (error) {
      console.error(`the engine did not start with ${build.stdlib} (${error}): it starts with the whole library`);
    }
  }
  return start(build, `${build.runtime}python_stdlib.zip`);
}

async function start({ runtime, source }, stdlib) {
  const started = performance.now();
  const { loadPyodide } = await import(`${runtime}pyodide.mjs`);
  const zip = fetch(source).then((response) => {
    if (!response.ok) throw new Error(`${source}: HTTP ${response.status}`);
    return response.arrayBuffer();
  });
  const key = bytecodeKey(runtime, source);
  const kept = keptBytecode(key);
  const pyodide = await loadPyodide({
    indexURL: runtime,
    stdLibURL: stdlib,
    lockFileURL: `${runtime}pyodide-lock.json`,
    packages: [],
  });
  const loaded = performance.now();
  // Python imports the package straight from the source zip (zipimport), or, when kept,
  // from the bytecode this runtime compiled from the same source on an earlier visit
  // (no compiling again); the source's bytecode is kept once the page is idle.
  const bytecode = await kept;
  const fromBytecode = bytecode ? importFrom(pyodide, BYTECODE_PATH, bytecode) : null;
  if (bytecode && !fromBytecode) forget(key);
  const device = fromBytecode ?? importFrom(pyodide, SOURCE_PATH, new Uint8Array(await zip));
  if (!fromBytecode) setTimeout(() => keepBytecode(pyodide, key), KEEP_AFTER_MS);
  session = device.Session();
  const version = pyodide.runPython("import sys\nsys.version.split()[0]");
  const ms = (from, to = performance.now()) => Math.round(to - from);
  return { python: version, stdlib, bytecode: fromBytecode !== null, runtime_ms: ms(started, loaded), import_ms: ms(loaded), boot_ms: ms(started) };
}

/**
 * The game's package imported from `path`: the source zip, or the folder the kept
 * bytecode `blob` is unpacked into (null when that fails: the source is used instead).
 */
function importFrom(pyodide, path, blob) {
  try {
    if (path === SOURCE_PATH) pyodide.FS.writeFile(path, blob);
    else {
      const unpack = pyodide.runPython(UNPACK);
      unpack(blob, path);
      unpack.destroy();
    }
    pyodide.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(path)})`);
    return pyodide.pyimport("sequence_stacks.device");
  } catch (error) {
    if (path === SOURCE_PATH) throw error;
    console.error(`the kept bytecode did not import (${error}): the source is compiled again`);
    pyodide.runPython(`import sys\nif ${JSON.stringify(path)} in sys.path: sys.path.remove(${JSON.stringify(path)})\nfor name in [n for n in sys.modules if n.split(".")[0] == "sequence_stacks"]: del sys.modules[name]`);
    return null;
  }
}

// The bytecode is kept per source and runtime (both URLs hold their version), in a
// cache of its own the service worker drops with its old copies when a version changes.
const BYTECODE_CACHE = "sequence-stacks-bytecode";
const BYTECODE_PATH = "/home/pyodide/sequence-stacks-bytecode";
const KEEP_AFTER_MS = 1500;
// The package's modules compiled, as one marshalled {path in the zip + "c": .pyc bytes}
// (the runtime's trimmed standard library has no zipfile codecs: marshal and the
// zipimporter are built in); written out as sourceless .pyc files, imported from there.
const COMPILE = `
import importlib._bootstrap_external as external, marshal, zipimport
def compiled(path):
    source = zipimport.zipimporter(path)
    found = {}
    for name in zipimport._zip_directory_cache[path]:
        if name.endswith(".py"):
            code = compile(source.get_data(name), f"{path}/{name}", "exec", dont_inherit=True)
            found[name + "c"] = bytes(external._code_to_timestamp_pyc(code, 0, 0))
    return marshal.dumps(found)
compiled
`;
const UNPACK = `
import marshal, os
def unpack(blob, folder):
    for name, data in marshal.loads(blob.to_bytes()).items():
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as out:
            out.write(data)
unpack
`;

function bytecodeKey(runtime, source) {
  const url = new URL("/local/bytecode", self.location.origin);
  url.searchParams.set("runtime", runtime);
  url.searchParams.set("source", source);
  return url.href;
}

async function keptBytecode(key) {
  try {
    const found = await (await caches.open(BYTECODE_CACHE)).match(key);
    return found ? new Uint8Array(await found.arrayBuffer()) : null;
  } catch {
    return null; // no Cache API here (an insecure origin): the source every time
  }
}

async function keepBytecode(pyodide, key) {
  try {
    const compiled = pyodide.runPython(COMPILE);
    const proxy = compiled(SOURCE_PATH);
    const bytes = proxy.toJs();
    proxy.destroy();
    compiled.destroy();
    await (await caches.open(BYTECODE_CACHE)).put(key, new Response(bytes, { headers: { "content-type": "application/octet-stream" } }));
  } catch (error) {
    console.warn(`the bytecode was not kept (${error}): the source is compiled at each start`);
  }
}

async function forget(key) {
  try {
    await (await caches.open(BYTECODE_CACHE)).delete(key);
  } catch {
    // nothing kept, nothing to forget
  }
}

async function handle(request) {
  if (request.op === "boot") {
    booting ??= boot(request);
    return booting;
  }
  if (!booting) throw new Error("the engine was not started");
  await booting;
  return JSON.parse(session.handle(JSON.stringify(request)));
}

self.addEventListener("message", async (event) => {
  const { id, request } = event.data;
  try {
    self.postMessage({ id, answer: await handle(request) });
  } catch (error) {
    self.postMessage({ id, failed: String(error?.message ?? error) });
  }
});
