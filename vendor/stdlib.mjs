// A smaller, compiled standard library for the page's engine (#25; docs/performance.md).
//
// npm's pyodide ships the standard library as Python source (python_stdlib.zip, 2.5 MB),
// which every start of the runtime compiles again: most of the start's time. `npm ci`
// runs this script after installing the package (vendor/package.json, "postinstall"):
// it starts that very runtime in Node, imports what Pyodide's start and the game's
// Python (../src/sequence_stacks: engine, bots, device) import, plays a little with
// every bot, and writes the modules that were used, compiled to bytecode by the
// runtime's own Python, to build/stdlib.zip, with build/stdlib.json naming them. The
// server serves it instead of python_stdlib.zip when it holds every module the game's
// source imports (server/web/runtime.py); the page falls back to the whole library if
// the runtime cannot start with it.

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const here = dirname(fileURLToPath(import.meta.url));
const runtimeDir = join(here, "node_modules", "pyodide");
const source = resolve(here, "..", "src");
const out = join(here, "build");
const version = JSON.parse(readFileSync(join(runtimeDir, "package.json"), "utf8")).version;
const stdlib = readFileSync(join(runtimeDir, "python_stdlib.zip"));

const pyodide = await loadPyodide({ indexURL: `${runtimeDir}/`, packages: [] });
if (existsSync(join(source, "sequence_stacks", "device"))) {
  pyodide.FS.mkdirTree("/game");
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: source }, "/game");
}
pyodide.FS.writeFile("/tmp/python_stdlib.zip", stdlib);

let built;
try {
  built = pyodide.runPython(`
import importlib._bootstrap_external as external
import importlib.util
import json
import os
import sys
import traceback
import zipfile

# What a start of the page's engine does with the game's Python, and what an error does.
if os.path.isdir("/game/sequence_stacks"):
    sys.path.insert(0, "/game")
    # As in the page's source zip (server/web/bundle.py): of i18n, only its events module.
    import types
    words = types.ModuleType("sequence_stacks.i18n")
    words.__path__ = ["/game/sequence_stacks/i18n"]
    sys.modules["sequence_stacks.i18n"] = words
    from sequence_stacks.bots import BOT_NAMES
    from sequence_stacks.device import Session

    session = Session()
    for index, bot in enumerate(BOT_NAMES):
        players = [{"name": f"B{seat}", "bot": bot} for seat in range(3)]
        session.handle(json.dumps({"op": "new", "players": players, "seed": index}))
        for _ in range(6 if bot == "ismcts" else 40):
            view = session.answer(json.dumps({"op": "view"}))["view"]
            if view["result"]:
                break
            session.handle(json.dumps({"op": "bot", "seat": view["deciders"][0]}))
        session.handle(json.dumps({"op": "record"}))
        session.handle(json.dumps({"op": "hint", "seat": 0}))
        session.handle(json.dumps({"op": "load", "save": {"format": "nothing"}}))
try:
    raise ValueError("an error, formatted as the page's worker would see it")
except ValueError:
    traceback.format_exc()
for name in ("codeop", "linecache", "tokenize", "token", "traceback", "warnings", "weakref"):
    __import__(name)

zip_path = next(path for path in sys.path if path.endswith(".zip") and "python3" in path)
used = set()
for module in list(sys.modules.values()):
    where = getattr(module, "__file__", None) or ""
    if where.startswith(zip_path + "/"):
        used.add(where[len(zip_path) + 1:])

source = zipfile.ZipFile("/tmp/python_stdlib.zip")
names = set(source.namelist())
kept = sorted(name for name in names if name in used)
modules = []
with zipfile.ZipFile("/tmp/stdlib.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
    for name in kept:
        data = source.read(name)
        if not name.endswith(".py"):
            target.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED, 9)
            continue
        code = compile(data, zip_path + "/" + name, "exec", dont_inherit=True)
        pyc = external._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
        target.writestr(zipfile.ZipInfo(name + "c", (1980, 1, 1, 0, 0, 0)), bytes(pyc), zipfile.ZIP_DEFLATED, 9)
        module = name[:-3].replace("/", ".")
        modules.append(module[: -len(".__init__")] if module.endswith(".__init__") else module)
json.dumps({
    "modules": sorted(modules),
    "builtins": sorted(sys.builtin_module_names),
    "imported": sorted(name for name in sys.modules if not name.startswith("sequence_stacks")),
    "python": sys.version.split()[0],
})
`);
} catch (error) {
  // A Python error's own words: the runtime's whole source would follow them otherwise.
  console.error(String(error?.message ?? error).slice(-3000));
  process.exit(1);
}

const facts = JSON.parse(built);
const zip = pyodide.FS.readFile("/tmp/stdlib.zip");
mkdirSync(out, { recursive: true });
writeFileSync(join(out, "stdlib.zip"), zip);
writeFileSync(
  join(out, "stdlib.json"),
  JSON.stringify(
    {
      pyodide: version,
      python: facts.python,
      source_sha256: createHash("sha256").update(stdlib).digest("hex"),
      sha256: createHash("sha256").update(zip).digest("hex"),
      modules: facts.modules,
      builtins: facts.builtins,
      imported: facts.imported,
    },
    null,
    1,
  ),
);
console.log(`build/stdlib.zip: ${facts.modules.length} modules of Python ${facts.python}, ${zip.length} bytes (python_stdlib.zip: ${stdlib.length})`);
