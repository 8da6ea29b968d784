"""The processes ``benchmarks/load.py`` measures: servers, PostgreSQL, HAProxy, CPU meters.

- :class:`Postgres`: a throwaway cluster like scripts/test-postgres's, but with fsync
  on unless asked otherwise, one fresh database per measurement.
- :class:`Stack`: one configuration under test, started and stopped as a whole:
  ``sequence-stacks serve`` on SQLite (one process, reached directly), or
  ``sequence-stacks serve --workers N`` on PostgreSQL behind ``haproxy -f
  deploy/haproxy.cfg`` (the deployment of docs/deploy.md).
- CPU time is read from ``/proc`` (Linux): a process and every descendant, with the
  time of reaped children, so a PostgreSQL backend that exits mid-run still counts.
- :class:`CpuCap` (``--worker-cpu``): each serving process held to the same share of
  one core by a cgroup's CFS quota, so that one worker and two can be compared on a
  machine with fewer cores than workers, PostgreSQL, HAProxy and clients need.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parents[1]
HAPROXY_CFG: Final = ROOT / "deploy" / "haproxy.cfg"
TICK: Final = os.sysconf("SC_CLK_TCK")
# One client address sets up every table: lift the per-address limits (#12); nobody
# times out or loses a seat to a bot during a run.
SERVER_ENV: Final = {
    "SEQUENCE_STACKS_CREATE_BURST": "100000",
    "SEQUENCE_STACKS_SIT_BURST": "100000",
}
# Block windows of 0.2 s (0.12 s at the fast tables the client makes): since #24 a
# window lasts its whole time, and the benchmark measures the server, not the wait.
SERVER_TIMES: Final = [
    "--turn-timeout",
    "600",
    "--grace-period",
    "600",
    "--block-timeout",
    "0.2",
]


# --- a share of a core per worker (cgroups) ---------------------------------------------

CGROUP_V1_CPU: Final = Path("/sys/fs/cgroup/cpu")  # the cgroup v1 cpu controller
CGROUP_V2: Final = Path("/sys/fs/cgroup")  # a unified (v2) hierarchy, when it has cpu.max
CAP_PERIOD_US: Final = 100_000


class CpuCapError(RuntimeError):
    """No cgroup CPU controller this process may write (Linux, as root)."""


class CpuCap:
    """Hold each given process (all its threads) to ``share`` of one core.

    One cgroup per process under ``sequence-stacks-load-<pid>/``, with a CFS quota of
    ``share`` x the period: cgroup v1's ``cpu.cfs_quota_us`` where the v1 cpu
    controller is mounted, else v2's ``cpu.max``. :meth:`close` moves the processes
    back to the root group and removes the groups.
    """

    def __init__(self, share: float) -> None:
        if not 0 < share <= 1:
            raise ValueError("a share of one core is above 0 and at most 1")
        self.share = share
        self.v1 = (CGROUP_V1_CPU / "cpu.cfs_quota_us").exists()
        if not self.v1 and not (CGROUP_V2 / "cgroup.subtree_control").exists():
            raise CpuCapError("no cgroup CPU controller here (/sys/fs/cgroup)")
        top = CGROUP_V1_CPU if self.v1 else CGROUP_V2
        self.root = top / f"sequence-stacks-load-{os.getpid()}"
        self.groups: list[Path] = []

    def hold(self, pids: Iterable[int]) -> None:
        """Put each process in its own capped group."""
        quota = round(self.share * CAP_PERIOD_US)
        try:
            self.root.mkdir(exist_ok=True)
            if not self.v1:
                (self.root / "cgroup.subtree_control").write_text("+cpu")
            for pid in pids:
                group = self.root / f"pid-{pid}"
                group.mkdir(exist_ok=True)
                if self.v1:
                    (group / "cpu.cfs_period_us").write_text(str(CAP_PERIOD_US))
                    (group / "cpu.cfs_quota_us").write_text(str(quota))
                else:
                    (group / "cpu.max").write_text(f"{quota} {CAP_PERIOD_US}")
                (group / "cgroup.procs").write_text(str(pid))  # every thread moves with it
                self.groups.append(group)
        except OSError as error:
            self.close()
            raise CpuCapError(f"cannot cap the workers' CPU: {error} (run as root)") from None

    def close(self) -> None:
        """Back to the root group; the groups removed."""
        top = (CGROUP_V1_CPU if self.v1 else CGROUP_V2) / "cgroup.procs"
        for group in self.groups:
            with contextlib.suppress(OSError):
                for pid in (group / "cgroup.procs").read_text().split():
                    with contextlib.suppress(OSError):
                        top.write_text(pid)
            with contextlib.suppress(OSError):
                group.rmdir()
        self.groups = []
        with contextlib.suppress(OSError):
            self.root.rmdir()


# --- CPU time from /proc ----------------------------------------------------------------


def _stat_fields(path: str) -> list[str] | None:
    try:
        with open(path, encoding="ascii", errors="replace") as handle:
            text = handle.read()
    except OSError:
        return None
    return text.rpartition(")")[2].split()  # fields from 3 (state) on


def process_cpu(pid: int, *, reaped: bool = True) -> float:
    """CPU seconds (user + system) of one process, with its reaped children's if
    ``reaped``; 0 if it is gone."""
    fields = _stat_fields(f"/proc/{pid}/stat")
    if fields is None:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if reaped:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / TICK


def descendants(root: int) -> list[int]:
    """``root`` and every process below it (scanned from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        fields = _stat_fields(f"/proc/{entry}/stat")
        if fields is not None:
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def _parent(pid: int) -> int | None:
    fields = _stat_fields(f"/proc/{pid}/stat")
    return None if fields is None else int(fields[1])


def tree_cpu(root: int) -> float:
    """CPU seconds of a process tree, reaped children included (monotonic over time)."""
    return sum(process_cpu(pid) for pid in descendants(root))


def is_helper(pid: int) -> bool:
    """A process the server spawned for work off the tables (the post-game reviews'
    worker, multiprocessing's resource tracker): not a serving process."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return b"multiprocessing" in handle.read()
    except OSError:
        return False


def main_thread_cpu(pid: int) -> float:
    """CPU seconds of a process's main thread (for a server: its event loop)."""
    fields = _stat_fields(f"/proc/{pid}/task/{pid}/stat")
    return 0.0 if fields is None else (int(fields[11]) + int(fields[12])) / TICK


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot, all cores (/proc/stat)."""
    with open("/proc/stat", encoding="ascii") as handle:
        values = [int(v) for v in handle.readline().split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    total = sum(values[:8])  # without guest time, already in user
    return (total - idle) / TICK, total / TICK


def cpu_model() -> str:
    """The CPU's model name (/proc/cpuinfo), or the machine type."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    return os.uname().machine


# --- small helpers ----------------------------------------------------------------------


def free_port(count: int = 1) -> int:
    """A free TCP port on 127.0.0.1 such that the ``count - 1`` after it are free too."""
    for _ in range(200):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port: int = probe.getsockname()[1]
        if port + count < 65535 and all(_port_free(port + i) for i in range(1, count)):
            return port
    raise RuntimeError(f"no {count} consecutive free ports")


def _port_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def get_json(url: str, timeout: float = 2) -> tuple[int, dict[str, Any]]:
    """GET a JSON document; (status, body) with an empty body on an HTTP error."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, {}


def _wait_healthy(urls: Iterable[str], seconds: float, what: str, log: Path) -> None:
    deadline = time.monotonic() + seconds
    pending = list(urls)
    while pending and time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            pending = [url for url in pending if get_json(f"{url}/api/health")[0] != 200]
        if pending:
            time.sleep(0.05)
    if pending:
        tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        raise RuntimeError(f"{what} did not become healthy ({', '.join(pending)}):\n{tail}")


def serve_command(python: Path | None = None) -> list[str]:
    """``sequence-stacks serve`` of a virtualenv: this one's, or the one ``python`` is
    the interpreter of (``python -m sequence_stacks.server``, the same command, when the
    script is not installed)."""
    executable = Path(sys.executable) if python is None else python
    script = executable.parent / "sequence-stacks"
    if script.exists():
        return [str(script), "serve"]
    return [str(executable), "-m", "sequence_stacks.server"]


def _stop(process: subprocess.Popen[bytes] | None, timeout: float = 30) -> None:
    if process is None or process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        for pid in reversed(descendants(process.pid)):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        process.wait()


def _version_key(path: Path) -> tuple[int, ...]:
    return tuple(int(part) for part in path.parts[-3].split(".") if part.isdigit())


def _git(*args: str) -> str:
    command = ["git", "-C", str(ROOT), *args]
    done = subprocess.run(command, check=False, capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else ""


def working_tree() -> str:
    """The working tree the benchmark's own servers run, for the report."""
    head = _git("rev-parse", "--short=12", "HEAD") or "unknown"
    dirty = " with uncommitted changes" if _git("status", "--porcelain", "--", "src") else ""
    return f"working tree (HEAD {head}{dirty})"


def install_revision(revision: str, progress: Callable[[str], None] | None = None) -> Path:
    """The interpreter of a virtualenv with ``revision`` installed, compiled as a user
    installs it (mypyc, when the machine can), so a run compares like with like. Made
    once under ``.bench/<commit>`` (git ignores it) and reused afterwards."""
    commit = _git("rev-parse", "--verify", f"{revision}^{{commit}}")
    if not commit:
        raise ValueError(f"no commit {revision!r}")
    place = ROOT / ".bench" / commit[:12]
    python = place / "venv" / "bin" / "python"
    if (place / "installed").exists():
        return python
    if progress is not None:
        progress(f"installing {commit[:12]} into {place} (compiled; a minute or two, once)")
    shutil.rmtree(place, ignore_errors=True)
    (place / "tree").mkdir(parents=True)
    archive = subprocess.Popen(["git", "-C", str(ROOT), "archive", commit], stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", str(place / "tree")], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        raise RuntimeError(f"git archive {commit} failed")
    subprocess.run([sys.executable, "-m", "venv", str(place / "venv")], check=True)
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, f"{place / 'tree'}[postgres]"], check=True, capture_output=True)
    (place / "installed").write_text(commit + "\n")
    return python


def describe_install(python: Path) -> str:
    """What a revision's install runs, for the report."""
    commit = (python.parents[2] / "installed").read_text().strip()
    version = [str(python.parent / "sequence-stacks"), "--version"]
    done = subprocess.run(version, check=False, capture_output=True, text=True)
    return f"commit {commit[:12]} ({done.stdout.strip()})"


# --- PostgreSQL ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class PgCounters:
    """Cumulative counters of one database and of the cluster's WAL."""

    commits: int
    wal_bytes: int
    wal_syncs: int
    wal_sync_ms: float


class Postgres:
    """A throwaway cluster in ``folder``, started as scripts/test-postgres starts one
    (Debian's binaries, trust on 127.0.0.1, as user postgres when run as root) but
    with ``fsync`` as asked (the tests' script turns it off); every measurement gets a
    fresh database (:meth:`database`) so no table of an earlier run is adopted by the
    next run's workers."""

    def __init__(self, folder: Path, *, fsync: bool = True) -> None:
        self.folder = folder
        self.fsync = fsync
        self.url = ""
        self._count = 0
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=_version_key)
        if not found:
            raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
        self.bindir = found[-1].parent
        self._as = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []

    def start(self) -> None:
        """initdb and start on a free port."""
        self.folder.mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o755)
        if os.getuid() == 0:
            shutil.chown(self.folder, "postgres")
        data = self.folder / "data"
        run = functools.partial(subprocess.run, check=True, capture_output=True)
        initdb = [str(self.bindir / "initdb"), "-D", str(data), "-U", "postgres"]
        run([*self._as, *initdb, "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"])
        port = free_port()
        options = (
            f"-p {port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=300 "
            f"-c fsync={'on' if self.fsync else 'off'} -c track_wal_io_timing=on"
        )
        log = self.folder / "server.log"
        pg_ctl = [str(self.bindir / "pg_ctl"), "-D", str(data), "-l", str(log)]
        run([*self._as, *pg_ctl, "-w", "-t", "60", "-o", options, "start"])
        self.url = f"postgresql://postgres@127.0.0.1:{port}/postgres"

    def settings(self) -> dict[str, str]:
        """The settings that decide a commit's cost, as the server reports them."""
        import psycopg  # noqa: PLC0415

        names = ("server_version", "fsync", "synchronous_commit", "wal_sync_method")
        with psycopg.connect(self.url, autocommit=True) as db:
            return {name: str(db.execute(f"SHOW {name}").fetchone()[0]) for name in names}  # type: ignore[index]

    def stop(self) -> None:
        """Stop the cluster (immediate: nothing in it is kept)."""
        if (self.folder / "data" / "postmaster.pid").exists():
            pg_ctl = [str(self.bindir / "pg_ctl"), "-D", str(self.folder / "data")]
            command = [*self._as, *pg_ctl, "-m", "immediate", "-w", "stop"]
            subprocess.run(command, check=False, capture_output=True)
        self.url = ""

    def postmaster(self) -> int | None:
        """The cluster's postmaster pid (its children are the backends and helpers)."""
        with contextlib.suppress(OSError, ValueError, IndexError):
            return int((self.folder / "data" / "postmaster.pid").read_text().split()[0])
        return None

    def database(self) -> str:
        """A new empty database; its URL."""
        import psycopg  # noqa: PLC0415

        self._count += 1
        name = f"load_{self._count}"
        with psycopg.connect(self.url, autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return self.url.rpartition("/")[0] + "/" + name

    def counters(self, url: str) -> PgCounters:
        """Commits of the database at ``url``; the cluster's WAL written and synced."""
        import psycopg  # noqa: PLC0415

        with psycopg.connect(url, autocommit=True) as db:
            commits = db.execute(
                "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
            ).fetchone()
            wal = db.execute(
                "SELECT wal_bytes, wal_sync, wal_sync_time FROM pg_stat_wal"
            ).fetchone()
        assert commits is not None
        assert wal is not None
        return PgCounters(int(commits[0]), int(wal[0]), int(wal[1]), float(wal[2]))


# What the logs say when a worker leaves HAProxy's ring or a table changes hands.
_PROXY_EVENTS: Final = {"proxy marked a worker down": " is DOWN"}
_SERVER_EVENTS: Final = {
    "tables taken over": "taken over by worker",
    "tables dropped": "dropped by worker",
    "database cut off": "cut off from its database",
}


# --- the configurations under test ------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Config:
    """What serves the clients: SQLite in one process, or ``workers`` on PostgreSQL
    behind HAProxy."""

    key: str
    label: str
    workers: int = 1
    postgres: bool = True


SQLITE: Final = Config("sqlite", "SQLite, 1 process, direct", postgres=False)
PG1: Final = Config("pg1", "PostgreSQL, 1 worker, via HAProxy", workers=1)
PG2: Final = Config("pg2", "PostgreSQL, 2 workers, via HAProxy", workers=2)
CONFIGS: Final = {config.key: config for config in (SQLITE, PG1, PG2)}


@dataclasses.dataclass(slots=True)
class CpuSample:
    """Cumulative CPU seconds of every part of a stack at one instant."""

    at: float
    server: float  # the serving processes (the helpers' CPU not included)
    helpers: float  # processes the server spawned off the tables (post-game reviews)
    loops: list[float]  # each worker's main thread (its event loop)
    postgres: float
    proxy: float
    machine_busy: float
    machine_total: float


class Stack:
    """One configuration started in ``folder`` (logs there); a context manager."""

    def __init__(
        self,
        config: Config,
        folder: Path,
        postgres: Postgres | None,
        *,
        cap: CpuCap | None = None,
        python: Path | None = None,
    ) -> None:
        self.config = config
        self.python = python  # the virtualenv whose server runs (None: this one)
        self.cap = cap  # each serving process held to a share of a core (--worker-cpu)
        self.folder = folder
        self.postgres = postgres
        self.database = ""
        self.server: subprocess.Popen[bytes] | None = None
        self.proxy: subprocess.Popen[bytes] | None = None
        self.ports: list[int] = []
        self.entry = ""  # host:port the clients connect to

    @property
    def log(self) -> Path:
        return self.folder / f"{self.config.key}.log"

    def __enter__(self) -> Stack:
        try:
            self._start()
            if self.cap is not None:
                self.cap.hold(self.worker_pids())
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self) -> None:
        env = {**SERVER_ENV, **os.environ}
        workers = self.config.workers
        port = free_port(workers)
        self.ports = [port + i for i in range(workers)]
        command = [
            *serve_command(self.python),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            *SERVER_TIMES,
        ]
        if self.config.postgres:
            assert self.postgres is not None
            self.database = self.postgres.database()
            command += ["--db", self.database, "--workers", str(workers)]
        else:
            command += ["--db", str(self.folder / f"{self.config.key}.sqlite3")]
        with self.log.open("ab") as log:
            self.server = subprocess.Popen(command, env=env, stdout=log, stderr=log)
        direct = [f"http://127.0.0.1:{p}" for p in self.ports]
        _wait_healthy(direct, 60, self.config.label, self.log)
        if not self.config.postgres:
            self.entry = f"127.0.0.1:{port}"
            return
        # deploy/haproxy.cfg names two servers; one worker stands behind both lines.
        entry = free_port()
        proxy_env = {
            **os.environ,
            "SEQUENCE_STACKS_PROXY_BIND": f"127.0.0.1:{entry}",
            "SEQUENCE_STACKS_WORKER_1": f"127.0.0.1:{self.ports[0]}",
            "SEQUENCE_STACKS_WORKER_2": f"127.0.0.1:{self.ports[-1]}",
        }
        haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
        proxy_log = self.proxy_log
        with proxy_log.open("ab") as log:
            self.proxy = subprocess.Popen(
                [haproxy, "-db", "-f", str(HAPROXY_CFG)], env=proxy_env, stdout=log, stderr=log
            )
        self.entry = f"127.0.0.1:{entry}"
        _wait_healthy([f"http://{self.entry}"], 20, "haproxy", proxy_log)
        time.sleep(1.2)  # two health checks (0.5 s apart, rise 2) on every server line

    def worker_pids(self) -> list[int]:
        """The processes that serve (for --workers N: the N children of serve)."""
        if self.server is None:
            return []
        if self.config.workers == 1:
            return [self.server.pid]
        root = self.server.pid
        return [
            pid
            for pid in descendants(root)
            if pid != root and _parent(pid) == root and not is_helper(pid)
        ]

    def sample(self) -> CpuSample:
        """Every part's cumulative CPU seconds now."""
        busy, total = machine_busy()
        postmaster = self.postgres.postmaster() if self.postgres and self.database else None
        tree = descendants(self.server.pid) if self.server else []
        helpers = sum(process_cpu(pid) for pid in tree if is_helper(pid))
        return CpuSample(
            at=time.monotonic(),
            server=sum(process_cpu(pid) for pid in tree) - helpers,
            helpers=helpers,
            loops=[main_thread_cpu(pid) for pid in self.worker_pids()],
            postgres=tree_cpu(postmaster) if postmaster else 0.0,
            proxy=process_cpu(self.proxy.pid) if self.proxy else 0.0,
            machine_busy=busy,
            machine_total=total,
        )

    def events(self) -> dict[str, int]:
        """How often the logs so far say a worker went down or a table moved."""
        counts: dict[str, int] = {}
        logs = [(self.log, _SERVER_EVENTS), (self.proxy_log, _PROXY_EVENTS)]
        for path, patterns in logs:
            with contextlib.suppress(OSError):
                text = path.read_text(errors="replace")
                for name, pattern in patterns.items():
                    counts[name] = text.count(pattern)
        return counts

    @property
    def proxy_log(self) -> Path:
        return self.folder / f"{self.config.key}-haproxy.log"

    def owned(self) -> list[int]:
        """Tables each worker owns now (its health endpoint)."""
        if not self.config.postgres:
            return []
        counts = []
        for port in self.ports:
            with contextlib.suppress(OSError):
                counts.append(int(get_json(f"http://127.0.0.1:{port}/api/health")[1]["tables"]))
        return counts

    def close(self) -> None:
        """Stop the proxy, then the server (SIGTERM; SIGKILL of the tree after 30 s)."""
        _stop(self.proxy, 10)
        _stop(self.server)
        self.proxy = self.server = None
        if self.cap is not None:
            self.cap.close()


@contextlib.contextmanager
def postgres_cluster(folder: Path, *, fsync: bool) -> Iterator[Postgres]:
    """A started throwaway cluster, stopped on the way out."""
    cluster = Postgres(folder, fsync=fsync)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
