"""What the server serves for the game on one device (#25): the Python source built
from the installed package, the Pyodide runtime from npm, the page and its worker with
their own policies, the service worker's list, the manifest, the tutorial's answers."""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from sequence_stacks.device import DeviceGame, Player
from sequence_stacks.engine import Settings, position_digest
from sequence_stacks.server import MemoryStorage, create_app
from sequence_stacks.server.play.tutorial import LESSONS, try_move
from sequence_stacks.server.web import CONTENT_SECURITY_POLICY
from sequence_stacks.server.web.bundle import PACKAGE_DIR, build_source_bundle
from sequence_stacks.server.web.local import LOCAL_PAGE_POLICY, WORKER_POLICY, device_assets
from sequence_stacks.server.web.runtime import find_runtime

from .harness import FAST

pytestmark = pytest.mark.timeout(120)

VENDOR = Path(__file__).resolve().parents[2] / "vendor"
RUNTIME = find_runtime()


def needs_runtime() -> None:
    """Skip on a machine without npm's pyodide; fail in CI, whose install fetches it."""
    if RUNTIME is None:
        if os.environ.get("CI") == "true":
            pytest.fail("the Pyodide runtime is not installed (scripts/test runs npm ci)")
        pytest.skip("the Pyodide runtime is not installed: cd vendor && npm ci")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(FAST, storage=MemoryStorage())) as test_client:
        yield test_client


def test_the_source_zip_holds_the_installed_package_s_own_files() -> None:
    bundle = build_source_bundle()
    assert bundle.digest == build_source_bundle().digest  # made the same way every time
    archive = zipfile.ZipFile(io.BytesIO(bundle.data))
    names = set(archive.namelist())
    for folder in ("engine", "bots", "device"):
        on_disk = {
            f"sequence_stacks/{folder}/{p.name}" for p in (PACKAGE_DIR / folder).glob("*.py")
        }
        assert on_disk <= names
    for name in names - {"sequence_stacks/i18n/__init__.py"}:
        assert archive.read(name) == (PACKAGE_DIR.parent / name).read_bytes(), name
    assert not any("/server/" in name or name.endswith("render.py") for name in names)
    assert "babel" not in archive.read("sequence_stacks/i18n/__init__.py").decode()
    assert {"json", "random", "hashlib", "dataclasses"} <= bundle.imports
    assert not any(name.startswith("sequence_stacks") for name in bundle.imports)


def test_the_source_zip_plays_on_its_own(tmp_path: Path) -> None:
    """The zip alone, on a Python with nothing but its standard library (no site
    packages, so neither Babel nor the installed package), plays the game the
    installed engine plays."""
    path = tmp_path / "source.zip"
    path.write_bytes(build_source_bundle().data)
    script = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(path)!r})\n"
        "import sequence_stacks.device as device\n"
        f"assert device.__file__.startswith({str(path)!r}), device.__file__\n"
        "session = device.Session()\n"
        "players = [{'name': f'B{s}', 'bot': 'heuristic'} for s in range(3)]\n"
        "answer = session.answer(json.dumps({'op': 'new', 'players': players, 'seed': 77}))\n"
        "while not answer['view']['result']:\n"
        "    seat = answer['view']['deciders'][0]\n"
        "    answer = session.answer(json.dumps({'op': 'bot', 'seat': seat}))\n"
        "print(answer['save']['record']['digest'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    game = DeviceGame(
        Settings(player_count=3), 77, [Player(f"B{s}", "heuristic") for s in range(3)]
    )
    while game.state.result is None:
        game.bot_move(game.state.deciders()[0], None)
    assert done.stdout.strip() == position_digest(game.state)


def test_the_page_has_its_own_policy_and_wasm_runs_in_its_worker_alone(
    client: TestClient,
) -> None:
    page = client.get("/local")
    assert page.status_code == 200
    assert page.headers["content-security-policy"] == LOCAL_PAGE_POLICY
    assert "trusted-types sequence-stacks-local" in LOCAL_PAGE_POLICY
    assert "unsafe" not in LOCAL_PAGE_POLICY
    worker = client.get("/local/worker.js")
    assert worker.headers["content-security-policy"] == WORKER_POLICY
    assert "script-src 'self' 'wasm-unsafe-eval'" in WORKER_POLICY
    assert "'unsafe-eval'" not in WORKER_POLICY
    for path in ("/", "/learn", "/offline", "/sw.js", "/static/app.css", "/api/catalog"):
        assert client.get(path).headers["content-security-policy"] == CONTENT_SECURITY_POLICY


def test_the_page_says_where_its_source_is_and_the_source_is_kept_for_good(
    client: TestClient,
) -> None:
    page = client.get("/local?lang=sl").text
    assert page.startswith('<!doctype html>\n<html lang="sl"')
    source = re.search(r'name="sequence-stacks-source" content="([^"]+)"', page)
    assert source is not None
    answer = client.get(source.group(1))
    assert answer.status_code == 200
    assert answer.content == build_source_bundle().data
    assert "immutable" in answer.headers["cache-control"]
    assert client.get("/local/source/0000.zip").status_code == 404
    bots = re.search(r'name="sequence-stacks-bots" content="([^"]+)"', page)
    assert bots is not None
    assert bots.group(1).split()[0] == FAST.default_bot


def test_the_runtime_is_served_from_our_origin_gzipped_and_kept_for_good(
    client: TestClient,
) -> None:
    needs_runtime()
    assert RUNTIME is not None
    page = client.get("/local").text
    prefix = re.search(r'name="sequence-stacks-runtime" content="([^"]+)"', page)
    assert prefix is not None
    assert prefix.group(1) == f"/local/runtime/{RUNTIME.version}/"
    wasm = client.get(prefix.group(1) + "pyodide.asm.wasm", headers={"accept-encoding": "gzip"})
    assert wasm.status_code == 200
    assert wasm.headers["content-type"] == "application/wasm"
    assert wasm.headers["content-encoding"] == "gzip"
    assert "immutable" in wasm.headers["cache-control"]
    assert wasm.content == (RUNTIME.directory / "pyodide.asm.wasm").read_bytes()  # decoded
    lock = client.get(prefix.group(1) + "pyodide-lock.json").json()
    assert lock["packages"] == {}  # the engine loads no package
    assert lock["info"]["python"].startswith("3.")
    assert client.get(prefix.group(1) + "setup.py").status_code == 404
    assert client.get("/local/runtime/0.0.1/pyodide.mjs").status_code == 404


def test_the_compiled_standard_library_holds_what_the_game_imports(client: TestClient) -> None:
    needs_runtime()
    assert RUNTIME is not None
    compiled = RUNTIME.compiled
    if compiled is None:
        pytest.skip("vendor/build/stdlib.zip was not made (npm ci runs vendor/stdlib.mjs)")
    bundle = build_source_bundle()
    assert all(map(compiled.holds, bundle.imports))
    assert RUNTIME.stdlib_name(bundle.imports) == compiled.name
    assert RUNTIME.stdlib_name(frozenset({"tkinter"})) == "python_stdlib.zip"
    page = client.get("/local").text
    assert f'content="/local/runtime/{RUNTIME.version}/{compiled.name}"' in page
    archive = zipfile.ZipFile(
        io.BytesIO(client.get(f"/local/runtime/{RUNTIME.version}/{compiled.name}").content)
    )
    assert "json/__init__.pyc" in archive.namelist()
    assert not any(name.endswith(".py") for name in archive.namelist())


def test_every_url_the_service_worker_keeps_is_served(client: TestClient) -> None:
    text = client.get("/sw.js").text
    build = json.loads(text.split("/* build */")[1])
    assert build["version"] == device_assets().version
    kept = build["precache"]
    assert {"/local", "/learn", "/offline", "/", "/manifest.webmanifest"} <= set(kept)
    assert "/api/tutorial/answers" in kept
    assert any(url.startswith("/local/source/") for url in kept)
    assert "/static/local.js" in kept
    assert "/static/sw.js" not in kept
    for url in kept:
        assert client.get(url).status_code == 200, url
    assert build["immutable"] == ["/local/runtime/", "/local/source/"]


def test_a_new_release_is_a_new_service_worker() -> None:
    assert (
        device_assets(release="2026-12-01").version != device_assets(release="2026-12-02").version
    )


def test_the_manifest_installs_the_game_on_one_device(client: TestClient) -> None:
    manifest = client.get("/manifest.webmanifest?lang=ko").json()
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/local"
    assert manifest["lang"] == "ko"
    assert manifest["theme_color"].startswith("#")
    assert manifest["name"] != "Sequence Stacks: the card game"  # in the reader's language
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.headers["content-type"] == "image/png"
        size = int(icon["sizes"].partition("x")[0])
        assert int.from_bytes(image.content[16:20], "big") == size  # the PNG's own width


def test_the_tutorial_s_answers_are_the_engine_s_for_every_legal_move(
    client: TestClient,
) -> None:
    answers = client.get("/api/tutorial/answers").json()["lessons"]
    assert len(answers) == len(LESSONS)
    for index, moves in enumerate(answers):
        assert moves  # every lesson has moves
        for action_id, answer in moves.items():
            tried = try_move(index, int(action_id))
            assert answer == json.loads(
                json.dumps({"expected": tried.expected, "events": tried.events, "view": tried.view})
            )
        assert any(answer["expected"] for answer in moves.values())


def test_the_runtime_is_pinned_by_version_and_integrity() -> None:
    package = json.loads((VENDOR / "package.json").read_text())
    lock = json.loads((VENDOR / "package-lock.json").read_text())
    version = package["dependencies"]["pyodide"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", version)  # exact: no range
    pinned = lock["packages"]["node_modules/pyodide"]
    assert pinned["version"] == version
    assert pinned["integrity"].startswith("sha512-")
    for name, entry in lock["packages"].items():
        if name:
            assert entry["integrity"].startswith("sha512-"), name


def test_gzip_of_the_runtime_is_made_once_and_decodes(client: TestClient) -> None:
    needs_runtime()
    assert RUNTIME is not None
    first = RUNTIME.file("pyodide.mjs")
    assert RUNTIME.file("pyodide.mjs") is first
    assert gzip.decompress(first.body) == (RUNTIME.directory / "pyodide.mjs").read_bytes()
