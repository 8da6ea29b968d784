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
// starts with the whole library of the runtime's package.

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
  const pyodide = await loadPyodide({
    indexURL: runtime,
    stdLibURL: stdlib,
    lockFileURL: `${runtime}pyodide-lock.json`,
    packages: [],
  });
  const loaded = performance.now();
  // Python imports the package straight from the zip (zipimport): nothing to unpack.
  pyodide.FS.writeFile(SOURCE_PATH, new Uint8Array(await zip));
  const fetched = performance.now();
  pyodide.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(SOURCE_PATH)})`);
  const device = pyodide.pyimport("sequence_stacks.device");
  session = device.Session();
  const version = pyodide.runPython("import sys\nsys.version.split()[0]");
  const ms = (from, to = performance.now()) => Math.round(to - from);
  return { python: version, stdlib, runtime_ms: ms(started, loaded), source_ms: ms(loaded, fetched), import_ms: ms(fetched), boot_ms: ms(started) };
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
